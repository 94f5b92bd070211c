#!/usr/bin/env bash
# Makes the README's screenshots of the HTML pages, the diff dashboard,
# the conformance run report and a crawl report, each opening on its
# misreadings table, with headless Chromium, at 1,400 and at 400 px:
#
#	bash scripts/screenshots.sh            # generated inputs
#	INPUTS=../shared/realworld bash scripts/screenshots.sh
#	TIMEOUT=60s bash scripts/screenshots.sh # --timeout, on a loaded machine
#	KEEP=/tmp/pages bash scripts/screenshots.sh # keep the pages
#
# The PNGs go to docs/screenshots (or $OUT). Parsers that cannot run here
# are left out of the pages. Needs Go and Chromium (Debian package
# chromium).
set -euo pipefail
cd "$(dirname "$0")/.."

out=${OUT:-docs/screenshots}
chrome=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$chrome" ]; then
	echo "screenshots: no Chromium (install the Debian package chromium)" >&2
	exit 1
fi
work=${KEEP:-$(mktemp -d)}
[ -n "${KEEP:-}" ] || trap 'rm -rf "$work"' EXIT
mkdir -p "$work"
mkdir -p "$out"
go build -o "$work/reptest" ./cmd/reptest
go build -o "$work/testcrawler" ./crawlers/testcrawler
# The peers of this checkout, whose Node libraries install.sh installed
# (the binary's embedded copies have none of their own), unless
# REPTEST_PEERS names others.
export REPTEST_PEERS="${REPTEST_PEERS:-$PWD/peers}"

parsers=""
for p in reference grobotstxt temoto python-urllib protego robots-parser robots-txt-guard robots-txt-parser perl-robotrules webrobots; do
	parsers="$parsers --parser $p"
done
if [ -n "${INPUTS:-}" ]; then
	inputs="--inputs $(cd "$INPUTS" && pwd)"
else
	inputs="--generate 150 --seed 1"
fi
timeout=""
if [ -n "${TIMEOUT:-}" ]; then
	timeout="--timeout $TIMEOUT"
fi
echo "screenshots: reptest diff$parsers $inputs $timeout" >&2
# Run in the work folder, so that the page's command line names no
# temporary path. The lists are words on purpose (shellcheck SC2086).
(
	cd "$work"
	# Not --quiet: a parser left out says why on stderr.
	# Exit status 1: a parser asked for did not run (left out, as said).
	# --no-minimize: the pages open on the misreadings table, which
	# minimising does not change, and minimising generated files with the
	# external peers takes many minutes on a loaded machine.
	./reptest diff $parsers $inputs $timeout --no-minimize --html diff.html >/dev/null || [ $? -eq 1 ]
	# The run report of the same parsers; failing checks are its content,
	# so exit status 1 is expected.
	./reptest run $parsers $timeout --quiet --json run.json || [ $? -eq 1 ]
	./reptest report run.json --html run.html --quiet || [ $? -eq 1 ]
	# The crawl report of the test crawler made to misread two ways: its
	# page opens on the same table.
	./reptest crawl --name testcrawler --quiet --run 'access/*' --run 'matching/*' --run 'groups/*' \
		--crawler "$work/testcrawler -variant 5xx-allows+first-match -agent {agent} -ua {ua} {url}" \
		--html crawl.html || [ $? -eq 1 ]
)

shot() { # page width height png
	profile=$(mktemp -d -p "$work")
	"$chrome" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--user-data-dir="$profile" --hide-scrollbars --window-size="$2,$3" \
		--screenshot="$4" "file://$work/$1" >/dev/null 2>&1
	test -s "$4" || { echo "screenshots: no $4" >&2; exit 1; }
	echo "screenshots: wrote $4" >&2
}
shot diff.html 1400 1500 "$out/diff.png" # the misreadings table of ten parsers
shot diff.html 400 1400 "$out/diff-400.png"
shot run.html 1400 1400 "$out/run.png"
shot run.html 400 1400 "$out/run-400.png"
shot crawl.html 1400 1000 "$out/crawl.png"
