package setup_test

import (
	"fmt"

	"github.com/reptest/reptest/setup"
)

func ExampleInstallCommand() {
	fmt.Println(setup.InstallCommand([]string{"npm", "nodejs"}, "/home/me/.cache/reptest/peers/1ca63814cff20334/node"))
	// Output: apt-get install -y --no-install-recommends nodejs npm && cd /home/me/.cache/reptest/peers/1ca63814cff20334/node && npm ci --no-audit --no-fund
}

func ExampleHint() {
	fmt.Println(setup.Hint(setup.AptCommand([]string{"wget2"}), "wget2", setup.KindCrawler))
	// Output: install with `apt-get install -y --no-install-recommends wget2`; `reptest doctor --crawler wget2` says what is missing
}
