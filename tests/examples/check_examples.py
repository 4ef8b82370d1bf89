#!/usr/bin/env python3
"""Runs the examples of the README and of the man pages and compares what they print.

README.md: every ```console block is a session. A line starting with `$ ` is a command (a
line ending with `\\` continues on the next line); the lines after it, up to the next `$ `
or the end of the block, are exactly what it prints: `COMMAND 2>&1`, as through a pipe
(standard error unbuffered, standard output when rmodel flushes it). Each block runs with
bash in a fresh copy of share/rmodel/examples, with the built `rmodel` first on PATH and
the sample robot of the checkout, so that commands read the shipped inputs by the names
the README uses and files they write do not touch the checkout. A block preceded by the
line `<!-- examples: skip REASON -->` is not run (the reason is printed). A ```sh block
preceded by `<!-- examples: file PATH -->` must equal the file PATH of the checkout.

README.md, Python: the ```pycon blocks are one session, as the cells of a notebook (a block
sees the names defined above it), run in order by doctest in another fresh copy of
share/rmodel/examples with the interpreter `--python` and the package directory `--python-path`
(the build's python/) first on its path (tests/examples/python_session.py): every `>>> ` line
must print what the block shows. A ```python block preceded by
`<!-- examples: python needs MODULE[,MODULE...] -->` runs in the same session without
comparing output, and is skipped with a message when a module it needs cannot be imported;
matplotlib draws without a display (backend Agg). Without --python the session is skipped.

man/prose/*.md: every command of an EXAMPLES section (the lines indented by four spaces)
runs the same way and must work: exit status 0, or 1 where a validator (check, check-log,
diff) reports what it found, but never a usage error (2) nor an error message of rmodel
(`rmodel: error: ...`). A command whose program is not installed (status 127: Graphviz's
`dot`, say) is skipped with a message.

--update (or RMODEL_README_UPDATE=1) writes the actual outputs into README.md instead of
failing, for a deliberate change of output: review the diff before committing it.
"""
import argparse
import difflib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

SKIP = re.compile(r"^<!-- examples: skip (.*) -->$")
PYTHON_NEEDS = re.compile(r"^<!-- examples: python needs (\S+) -->$")
FILE = re.compile(r"^<!-- examples: file (\S+) -->$")


def parse_readme(lines):
    """Yields ('session', fence_line_index, [(command, first_output_index, end_index)], skip),
    ('file', fence_line_index, path, body_start, body_end) and ('python', fence_line_index,
    kind, body_start, body_end, needs, skip) for the Python blocks that run (pycon, or python
    after a `python needs` marker)."""
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("```"):
            marker = lines[i - 1] if i > 0 else ""
            end = i + 1
            while end < len(lines) and not lines[end].startswith("```"):
                end += 1
            if line.strip() == "```console":
                skip = SKIP.match(marker)
                commands = []
                j = i + 1
                while j < end:
                    if lines[j].startswith("$ "):
                        command = lines[j][2:]
                        while command.endswith("\\") and j + 1 < end:
                            j += 1
                            command = command + "\n" + lines[j]
                        k = j + 1
                        while k < end and not lines[k].startswith("$ "):
                            k += 1
                        commands.append((command, j + 1, k))
                        j = k
                    else:
                        j += 1
                yield ("session", i, commands, skip.group(1) if skip else None)
            elif FILE.match(marker):
                yield ("file", i, FILE.match(marker).group(1), i + 1, end)
            elif line.strip() == "```pycon":
                skip = SKIP.match(marker)
                yield ("python", i, "pycon", i + 1, end, [], skip.group(1) if skip else None)
            elif line.strip() == "```python" and PYTHON_NEEDS.match(marker):
                needs = PYTHON_NEEDS.match(marker).group(1).split(",")
                yield ("python", i, "python", i + 1, end, needs, None)
            i = end + 1
        else:
            i += 1


def environment(bin_dir, source_dir):
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("RMODEL_") and k not in ("COLUMNS", "LINES")}
    env["PATH"] = bin_dir + os.pathsep + env.get("PATH", "/usr/bin:/bin")
    env["RMODEL_SHARE_DIR"] = os.path.join(source_dir, "share", "rmodel")
    env["LC_ALL"] = "C.UTF-8"
    env["TERM"] = "dumb"
    return env


# Where the examples' rmodel finds its data (RMODEL_SHARE_DIR, this checkout's share/rmodel)
# is printed as a Debian package's user sees it: the sample robot's paths in the README are
# /usr/share/rmodel/..., the same on every machine.
INSTALLED_SHARE_DIR = "/usr/share/rmodel"


def run(command, cwd, env):
    result = subprocess.run(["bash", "--norc", "--noprofile", "-c", command], cwd=cwd, env=env,
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            timeout=300)
    out = result.stdout.decode("utf-8", errors="replace")
    for share_dir in {env["RMODEL_SHARE_DIR"], os.path.realpath(env["RMODEL_SHARE_DIR"])}:
        out = out.replace(share_dir, INSTALLED_SHARE_DIR)
    return result.returncode, out


def fresh_copy(examples_dir, scratch, n):
    work = os.path.join(scratch, f"block{n}")
    shutil.copytree(examples_dir, work, symlinks=True)
    return work


def check_readme(args, env, scratch):
    path = os.path.join(args.source_dir, "README.md")
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    failures = 0
    replacements = []  # (start, end, new lines), applied from the bottom
    python_blocks = []
    for n, item in enumerate(parse_readme(lines)):
        if item[0] == "python":
            _, fence, kind, start, end, needs, skip = item
            if skip is not None:
                print(f"README.md:{fence + 1}: skipped: {skip}")
            else:
                python_blocks.append({"kind": kind, "line": start, "needs": needs,
                                      "text": "\n".join(lines[start:end]) + "\n"})
            continue
        if item[0] == "file":
            _, fence, file_path, start, end = item
            with open(os.path.join(args.source_dir, file_path), encoding="utf-8") as f:
                want = f.read().rstrip("\n").split("\n")
            if lines[start:end] != want:
                failures += 1
                print(f"README.md:{fence + 1}: the block differs from {file_path}:")
                sys.stdout.writelines(l + "\n" for l in difflib.unified_diff(
                    lines[start:end], want, "README.md", file_path, lineterm=""))
                replacements.append((start, end, want))
            continue
        _, fence, commands, skip = item
        if skip is not None:
            print(f"README.md:{fence + 1}: skipped: {skip}")
            continue
        work = fresh_copy(args.examples_dir, scratch, n)
        for command, start, end in commands:
            _, out = run(command, work, env)
            actual = out.split("\n")
            if actual and actual[-1] == "":
                actual.pop()
            expected = lines[start:end]
            if actual == expected:
                print(f"README.md:{start}: ok: $ {command.splitlines()[0]}")
                continue
            failures += 1
            print(f"README.md:{start}: differs: $ {command}")
            sys.stdout.writelines(l + "\n" for l in difflib.unified_diff(
                expected, actual, "README.md (expected)", "actual", lineterm=""))
            replacements.append((start, end, actual))
    failures += check_python(args, env, scratch, python_blocks)
    if args.update and replacements:
        for start, end, new in sorted(replacements, reverse=True):
            lines[start:end] = new
        with open(path, "w", encoding="utf-8") as f:
            f.write("\n".join(lines))
        print(f"README.md: updated {len(replacements)} outputs")
        return 0
    return failures


def check_python(args, env, scratch, blocks):
    """The README's Python session (python_session.py); returns the number of failures."""
    if not blocks:
        return 0
    if not args.python:
        print(f"README.md: {len(blocks)} Python blocks skipped: no --python (the module is not built)")
        return 0
    work = fresh_copy(args.examples_dir, scratch, "python")
    spec = os.path.join(scratch, "python_blocks.json")
    with open(spec, "w", encoding="utf-8") as f:
        json.dump(blocks, f)
    python_env = dict(env, PYTHONPATH=os.path.abspath(args.python_path), MPLBACKEND="Agg",
                      MPLCONFIGDIR=os.path.join(scratch, "matplotlib"), PYTHONDONTWRITEBYTECODE="1")
    session = os.path.join(os.path.dirname(os.path.abspath(__file__)), "python_session.py")
    result = subprocess.run([args.python, session, spec], cwd=work, env=python_env, stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=300)
    print(result.stdout.decode("utf-8", errors="replace"), end="")
    return result.returncode  # the failed blocks (1 as well when the session itself broke)


def man_examples(prose_dir):
    for name in sorted(os.listdir(prose_dir)):
        if not name.endswith(".md"):
            continue
        with open(os.path.join(prose_dir, name), encoding="utf-8") as f:
            lines = f.read().split("\n")
        inside = False
        for number, line in enumerate(lines, 1):
            if line.startswith("# "):
                inside = line.strip() == "# EXAMPLES"
            elif inside and line.startswith("    ") and line.strip():
                yield name, number, line.strip()


def check_man(args, env, scratch):
    failures = 0
    for n, (name, number, command) in enumerate(man_examples(args.prose_dir)):
        work = fresh_copy(args.examples_dir, scratch, f"man{n}")
        where = f"man/prose/{name}:{number}"
        # Examples on robot logs (`logs/...`) read the ROS bags of ../shared/fixtures/bags,
        # which cannot be shipped; without them the example is skipped, saying so.
        if "logs/" in command:
            bags = os.path.join(args.source_dir, "..", "shared", "fixtures", "bags")
            if not os.path.isdir(bags):
                print(f"{where}: skipped, needs ../shared/fixtures/bags: {command}")
                continue
            os.symlink(os.path.abspath(bags), os.path.join(work, "logs"))
        status, out = run(command, work, env)
        error = re.search(r"^rmodel( [a-z-]+)?: error: ", out, re.M)
        if status == 127:
            print(f"{where}: skipped, a program is missing: {command}\n{out}")
        elif status in (0, 1) and not error:
            print(f"{where}: ok (exit {status}): {command}")
        else:
            failures += 1
            print(f"{where}: exit {status}: {command}\n{out}")
    return failures


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bin-dir", required=True, help="the directory of the built rmodel")
    parser.add_argument("--source-dir", required=True)
    parser.add_argument("--python", help="the interpreter of the README's Python examples")
    parser.add_argument("--python-path", help="the directory holding the built package rmodel")
    parser.add_argument("--update", action="store_true", default=os.environ.get("RMODEL_README_UPDATE") == "1")
    parser.add_argument("what", nargs="?", choices=["readme", "man", "all"], default="all")
    args = parser.parse_args()
    args.examples_dir = os.path.join(args.source_dir, "share", "rmodel", "examples")
    args.prose_dir = os.path.join(args.source_dir, "man", "prose")
    env = environment(os.path.abspath(args.bin_dir), os.path.abspath(args.source_dir))
    failures = 0
    with tempfile.TemporaryDirectory(prefix="rmodel-examples-") as scratch:
        if args.what in ("readme", "all"):
            failures += check_readme(args, env, scratch)
        if args.what in ("man", "all"):
            failures += check_man(args, env, scratch)
    if failures:
        print(f"{failures} example(s) failed; after a deliberate change of output, "
              "RMODEL_README_UPDATE=1 rewrites the README's outputs")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
