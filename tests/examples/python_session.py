#!/usr/bin/env python3
"""Runs the README's Python examples as one session (check_examples.py starts it with the
interpreter the module was built for): BLOCKS is a JSON list of {kind, line, text, needs}.
A `pycon` block is a doctest session whose outputs must match; a `python` block runs without
comparison, skipped (with a message) when a module it needs is missing. Every block sees the
names the blocks above it defined, as the cells of a notebook. Prints one line per block
(`ok`, `differs` with doctest's report, `skipped`); exit status: the number of failures."""
import doctest
import importlib
import json
import sys
import traceback


def main(path):
    blocks = json.load(open(path, encoding="utf-8"))
    session = {"__name__": "__readme__"}
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    failures = 0
    for block in blocks:
        where = f"README.md:{block['line'] + 1}"
        if block["kind"] == "pycon":
            # lineno: the block's first line, so that doctest's reports give README's lines.
            test = parser.get_doctest(block["text"], session, where, "README.md", block["line"])
            report = []
            result = runner.run(test, out=report.append, clear_globs=False)
            session.update(test.globs)
            if result.failed:
                failures += 1
                print(f"{where}: differs:\n{''.join(report)}")
            else:
                print(f"{where}: ok ({result.attempted} examples)")
            continue
        missing = []
        for module in block["needs"]:
            try:
                importlib.import_module(module)
            except ImportError as e:
                missing.append(f"{module} ({e})")
        if missing:
            print(f"{where}: skipped: cannot import {', '.join(missing)}")
            continue
        try:
            exec(compile(block["text"], where, "exec"), session)
            print(f"{where}: ok (ran)")
        except Exception:
            failures += 1
            print(f"{where}: failed:\n{traceback.format_exc()}")
    return failures


if __name__ == "__main__":
    sys.exit(min(main(sys.argv[1]), 100))
