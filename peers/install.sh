#!/bin/sh
# install.sh installs the runtimes and libraries of reptest's external peer
# parsers on a Debian machine (bookworm or later). Run it as root:
#
#	sh peers/install.sh
#
# Peers and what they need:
#
#	python-urllib    python3 (standard library urllib.robotparser)
#	protego          /usr/bin/python3 and Debian python3-protego
#	perl-robotrules  perl and Debian libwww-robotrules-perl (WWW::RobotRules);
#	                 libjson-xs-perl makes its JSON decoding fast
#	webrobots        ruby and Debian ruby-webrobots
#	robots-parser    node, npm and npm robots-parser (pinned in node/package-lock.json)
#	robots-txt-guard npm robots-txt-guard with robots-txt-parse (pinned likewise)
#	robots-txt-parser npm robots-txt-parser (pinned likewise)
#
# A peer whose runtime is missing is reported as unavailable, never as a
# failure, so this script is needed only to run those peers.
set -eu

here=$(cd "$(dirname "$0")" && pwd)

export DEBIAN_FRONTEND=noninteractive
apt-get update
apt-get install -y --no-install-recommends \
	python3 python3-protego \
	perl libwww-robotrules-perl libjson-xs-perl \
	ruby ruby-webrobots \
	nodejs

# Debian ships npm as its own package; a Node.js from another source
# (e.g. NodeSource) brings npm along and conflicts with Debian's.
if ! command -v npm >/dev/null 2>&1; then
	apt-get install -y --no-install-recommends npm
fi

cd "$here/node"
npm ci --no-audit --no-fund
