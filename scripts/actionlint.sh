#!/usr/bin/env bash
# Lints the GitHub action (action.yml) and its example workflow
# (docs/ci/robots-txt.yml) with actionlint: the example as a user copies
# it, and again with the action taken from this checkout (uses: ./), so
# that every input the example passes is checked against action.yml.
set -euo pipefail
cd "$(dirname "$0")/.."
actionlint=(go run github.com/rhysd/actionlint/cmd/actionlint@v1.7.12)
"${actionlint[@]}" docs/ci/robots-txt.yml
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/.github/workflows"
cp action.yml "$tmp/"
sed -E 's|uses: reptest/reptest@v[0-9.]+|uses: ./|' docs/ci/robots-txt.yml >"$tmp/.github/workflows/robots-txt.yml"
grep -q 'uses: \./' "$tmp/.github/workflows/robots-txt.yml"
(cd "$tmp" && "${actionlint[@]}" .github/workflows/robots-txt.yml)
echo "actionlint: action.yml and docs/ci/robots-txt.yml pass"
