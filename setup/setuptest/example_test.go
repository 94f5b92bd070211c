package setuptest_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/reptest/reptest/setup/setuptest"
)

// A fake wget that prints a version, as a test of version detection
// would have it.
func ExamplePrograms() {
	dir, err := os.MkdirTemp("", "fake")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	if err := setuptest.Programs(dir, map[string]string{"wget": `echo "GNU Wget 1.21.3 built on linux-gnu."`}); err != nil {
		fmt.Println(err)
		return
	}
	out, err := exec.Command(filepath.Join(dir, "wget"), "--version").Output()
	fmt.Printf("%s%v\n", out, err)
	// Output:
	// GNU Wget 1.21.3 built on linux-gnu.
	// <nil>
}
