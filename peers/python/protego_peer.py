"""reptest peer for Protego (Debian python3-protego), reptest/1 protocol.

Protego parses text, so the body is decoded as UTF-8 with invalid bytes
replaced. Protego has no notion of HTTP status: parse requests only.
"""

import sys

from reptest_peer import serve

try:
    import importlib.metadata as metadata
    from protego import Protego
except ImportError as err:
    sys.stderr.write("protego peer: %s (install Debian package python3-protego)\n" % err)
    sys.exit(3)


def version():
    try:
        return metadata.version("protego")
    except metadata.PackageNotFoundError:
        return "unknown"


# The differential engine asks many questions of one body in a row, so the
# last parsed file is kept.
_last = {"body": None, "rules": None}


def check(robots, agent, url, status):
    if _last["body"] != robots:
        _last["rules"] = Protego.parse(robots.decode("utf-8", errors="replace"))
        _last["body"] = robots
    rules = _last["rules"]
    return "allow" if rules.can_fetch(url, agent) else "disallow"


if __name__ == "__main__":
    serve("protego", version(), ["parse"], check)
