"""Runs gacrux's checkers many times in one interpreter, for the cross-check campaign.

Starting Python and importing gacrux (and networkx under it) costs about as much as checking
a small tournament, so each worker thread of the campaign keeps one of these running instead
of starting a process per file. Each run is a fresh checker object with its own command line,
exactly as `python -m gacrux.<module> ARGS` would build it.

Protocol: one request per line on stdin, a JSON array `[module, arg, ...]` (module:
`pairingchecker` or `tiebreakchecker`); one reply per line on stdout, a JSON object
`{"code": exit status, "stdout": text, "stderr": text}`.
"""

import contextlib
import importlib
import io
import json
import sys

# Whether `python -m gacrux.<module>` exits with its checker's status: the tie-break checker
# does, the pairing checker exits 0 and gives its verdict in its output only.
MODULES = {"pairingchecker": False, "tiebreakchecker": True}


def run(module, args):
    if module not in MODULES:
        return 2, "", f"gacrux_batch: {module}: not one of {', '.join(MODULES)}"
    checker_class = getattr(importlib.import_module("gacrux." + module), module)
    out, err = io.StringIO(), io.StringIO()
    sys.argv = [module] + args
    code = 0
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            status = checker_class().common_main()
            code = status if MODULES[module] else 0
        except SystemExit as stop:
            code = stop.code if isinstance(stop.code, int) else 1
        except Exception as fault:  # reported to the caller, who names the file
            code = 1
            print(f"{type(fault).__name__}: {fault}", file=sys.stderr)
    return code or 0, out.getvalue(), err.getvalue()


def main():
    replies = sys.stdout
    for line in sys.stdin:
        request = json.loads(line)
        code, out, err = run(request[0], request[1:])
        replies.write(json.dumps({"code": code, "stdout": out, "stderr": err}) + "\n")
        replies.flush()


if __name__ == "__main__":
    main()
