"""The reptest/1 protocol loop shared by reptest's Python peer programs.

A peer program reads JSON lines on standard input and answers each with one
JSON line on standard output (see docs/FORMAT.md §3 in the reptest
repository). A peer supplies a check function and calls serve().
"""

import base64
import json
import os
import platform
import sys

# RUNTIME names the interpreter for the hello, so that results say which
# Python ran the library (urllib.robotparser changed in CPython 3.13).
RUNTIME = "%s %s" % (platform.python_implementation(), platform.python_version())


def serve(name, version, capabilities, check):
    """Answer requests until standard input ends.

    check(robots, agent, url, status) gets the body as bytes, the product
    token, the URL and the HTTP status (None for parse requests), and
    returns "allow", "disallow" or "reject". An exception it raises becomes
    an error answer for that request.
    """
    # Keep the protocol stream to ourselves: anything a library prints
    # goes to standard error instead of garbling the answers.
    out = os.fdopen(os.dup(sys.stdout.fileno()), "w", encoding="utf-8")
    sys.stdout = sys.stderr
    body = _Body()
    for line in sys.stdin.buffer:
        try:
            msg = json.loads(line)
            if not isinstance(msg, dict):
                raise ValueError("not a JSON object")
        except ValueError as err:
            reply = {"error": "not a request: %s" % err}
        else:
            if "hello" in msg:
                reply = {"name": name, "version": version, "runtime": RUNTIME,
                         "capabilities": capabilities + ["batch"]}
            else:
                reply = _answer(msg, capabilities, check, body)
        out.write(json.dumps(reply) + "\n")
        out.flush()


class _Body:
    """The body of the last request, kept by its base64 text.

    The differential engine asks many questions of one body in a row, so
    an unchanged body is not decoded again, and the bytes handed to check
    stay the same object (a check's own cache then compares them at once).
    """

    def __init__(self):
        self._b64 = None
        self._robots = b""

    def decode(self, b64):
        if b64 != self._b64:
            self._robots = base64.b64decode(b64, validate=True)
            self._b64 = b64
        return self._robots


def _answer(msg, capabilities, check, body):
    rid = msg.get("id", "")
    try:
        if msg.get("robots_url"):
            raise ValueError("this peer does not fetch (no capability fetch)")
        status = msg.get("status") or None
        if status is not None and "status" not in capabilities:
            raise ValueError("this peer takes no status (no capability status)")
        robots = body.decode(msg.get("robots_b64", ""))
        if "questions" in msg:
            # A batch: one body, many questions, answered in order.
            return {"id": rid, "answers": [_one(check, robots, q["agent"], q["url"], status)
                                           for q in msg["questions"]]}
        verdict = check(robots, msg["agent"], msg["url"], status)
    except Exception as err:  # one bad request must not end the program
        return {"id": rid, "error": "%s: %s" % (type(err).__name__, err)}
    return {"id": rid, "verdict": verdict}


def _one(check, robots, agent, url, status):
    try:
        return {"verdict": check(robots, agent, url, status)}
    except Exception as err:  # one bad question must not fail the batch
        return {"error": "%s: %s" % (type(err).__name__, err)}
