"""reptest peer for Python's standard urllib.robotparser (reptest/1 protocol).

The body goes through RobotFileParser.read(), the library's own way of
loading a file, with urllib.request.urlopen replaced by a stand-in that
answers the request's status and body without any network. So the library
itself decides what a status means (401 and 403 disallow everything, other
4xx allow everything, anything else leaves the file unread, which
can_fetch() answers with disallow) and how the body is decoded (strict
UTF-8: a file that is not UTF-8 makes read() raise, reported as reject).
"""

import io
import platform
import urllib.error
import urllib.request
import urllib.robotparser

from reptest_peer import serve


# The differential engine asks many questions of one body in a row, so the
# last parsed file is kept.
_last = {"key": None, "parser": None}


def check(robots, agent, url, status):
    key = (robots, status)
    if _last["key"] != key:
        _last["parser"] = _parse(robots, status)
        _last["key"] = key
    parser = _last["parser"]
    if parser is None:
        return "reject"
    return "allow" if parser.can_fetch(agent, url) else "disallow"


def _parse(robots, status):
    def urlopen(target, *args, **kwargs):
        if status is None or 200 <= status < 300:
            return io.BytesIO(robots)
        raise urllib.error.HTTPError(target, status, "status %d" % status, {}, None)

    parser = urllib.robotparser.RobotFileParser()
    real = urllib.request.urlopen
    urllib.request.urlopen = urlopen
    try:
        parser.read()
    except UnicodeDecodeError:
        return None
    finally:
        urllib.request.urlopen = real
    return parser


if __name__ == "__main__":
    serve("python-urllib", platform.python_version(), ["parse", "status"], check)
