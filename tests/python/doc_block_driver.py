"""Runs the Python blocks of the docs for tests/python/test_docs_run.py, in a process of its own.

Reads a JSON list of chunks on stdin (a chain of blocks that share one interpreter) and runs them
in one namespace: "script" chunks are exec'd, "session" chunks are `>>>` examples whose output or
exception is compared with the text under them, "errors" chunks pair a statement with the message
it must raise, "output" chunks run code whose output must be the block. Code is compiled with the Markdown file's name and line numbers, so tracebacks point
into the doc. Prints "ok" at the end, or the failing block's file:line and what went wrong (exit 1).
"""
import contextlib
import io
import json
import re
import sys
import traceback


# What the statements of the errors and output markers may use without importing it.
PRELUDE = "import numpy as np\nimport onegrad\nfrom onegrad import Opt, Tensor, dtypes"


def like(expected, got):
    """got is expected, where each `...` in expected stands for any text."""
    pattern = ".*".join(re.escape(part) for part in expected.split("..."))
    return re.fullmatch(pattern, got, re.S) is not None


def code(text, path, first_line, mode="exec"):
    return compile("\n" * (first_line - 1) + text, path, mode)


def run_statement(ns, source, path, line):
    """What the statement prints (an expression's repr too, as at a prompt) and what it raised."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        try:
            exec(code(source, path, line, "single"), ns)
        except Exception as e:
            return out.getvalue(), e
    return out.getvalue(), None


def raised_as(e, name):
    """name ("onegrad.errors.ShapeError" or "ShapeError") is e's class or one of its bases."""
    return any(name in (c.__name__, c.__module__ + "." + c.__name__) for c in type(e).__mro__)


def expected_exception(expected, e):
    """(class name, message) when the expected text is an exception (`[Traceback...] Name: message`)."""
    m = re.fullmatch(r"([A-Za-z_][\w.]*): (.*)", expected.split("\n")[-1]) if expected else None
    if m and (e is not None or "." in m.group(1) or m.group(1).endswith(("Error", "Exception", "Warning"))):
        return m.groups()
    return None


def fail(where, text):
    print(f"{where}: {text}")
    sys.exit(1)


def run_session(ns, c):
    path = c["path"]
    for source, line, expected in c["examples"]:
        got, e = run_statement(ns, source, path, line)
        want = expected_exception(expected, e)
        if want:
            if e is None:
                fail(f"{path}:{line}", f"`{source.strip()}` should raise {expected}, raised nothing")
            if not raised_as(e, want[0]) or not like(want[1], str(e)):
                fail(f"{path}:{line}", f"`{source.strip()}` raised {type(e).__module__}.{type(e).__name__}: {e}\n"
                                       f"expected {expected}")
            continue
        if e is not None:
            fail(f"{path}:{line}", f"`{source.strip()}` raised:\n" + "".join(traceback.format_exception(e)))
        got = "\n".join(l.rstrip() for l in got.rstrip().split("\n"))
        if not like(expected.rstrip(), got):
            fail(f"{path}:{line}", f"`{source.strip()}` printed\n{got}\nexpected\n{expected}")


def run_errors(ns, c):
    exec(PRELUDE, ns)
    for statement, message in c["pairs"]:
        _, e = run_statement(ns, statement + "\n", f"{c['where']} (errors marker)", 1)
        if e is None or not like(message, str(e)):
            fail(c["where"], f"`{statement}` should raise {message!r}, "
                             f"got {'no exception' if e is None else type(e).__name__ + ': ' + str(e)}")


def run_output(ns, c):
    exec(PRELUDE, ns)
    got, e = run_statement(ns, c["code"] + "\n", f"{c['where']} (output marker)", 1)
    if e is not None:
        fail(c["where"], "the output marker's code raised:\n" + "".join(traceback.format_exception(e)))
    got = "\n".join(l.rstrip() for l in got.strip("\n").split("\n"))
    if not like(c["text"].strip("\n"), got):
        fail(c["where"], f"the block shows\n{c['text']}\nbut the output marker's code prints\n{got}")


def main():
    sys.path.pop(0)  # this folder: the blocks see what a user's script would, not the test helpers
    ns = {"__name__": "__main__"}
    for c in json.load(sys.stdin):
        if c["setup"]:
            exec(compile(c["setup"], f"{c['where']} (setup marker)", "exec"), ns)
        if c["kind"] == "script":
            exec(code(c["text"], c["path"], c["first_line"]), ns)
        elif c["kind"] == "errors":
            run_errors(ns, c)
        elif c["kind"] == "output":
            run_output(ns, c)
        else:
            run_session(ns, c)
    print("ok")


if __name__ == "__main__":
    main()
