#!/usr/bin/env python3
"""The layers of lib/ as docs/architecture.md declares them, checked against the includes.

The table of docs/architecture.md between the markers `<!-- layers: begin -->` and
`<!-- layers: end -->` names each layer, its source folders (`lib/src/<folder>/`), its
installed headers (`rmodel/<folder>/` or one file `rmodel/<name>.hpp`, under lib/include) and
the layers it may use. This script gives every file of lib/src and lib/include/rmodel its layer
(the longest path of the table that holds it), follows every #include that names a file of
lib/, and fails on:
  - an include from one layer into another that the including layer's row does not list;
  - a file of lib/src or lib/include/rmodel that no row claims;
  - a table whose "uses" form a cycle or name an unknown layer;
  - a file of lib/, apps/, python/src or tests/ that includes a forwarding header (an old
    path kept for one release, marked "Forwarding header"): the code uses the new path.
A forwarding header belongs to no layer of its own; it includes the header that replaced it.
So the document and the code cannot drift apart: changing either alone fails the test.

  check_layers.py --source-dir DIR      check the tree at DIR (exit 0 when it holds)
  check_layers.py --self-test           show that a forbidden include, an include of a forwarding
                                        header, an unclaimed file and a cycle in the table each
                                        fail the check
"""

import argparse
import os
import re
import shutil
import sys
import tempfile

BEGIN = "<!-- layers: begin -->"
END = "<!-- layers: end -->"
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')
TICKED = re.compile(r"`([^`]+)`")
FORWARDER = "Forwarding header"


class Layers:
    def __init__(self, names, sources, headers, uses):
        self.names = names  # in the table's order
        self.sources = sources  # path prefix under the tree -> layer
        self.headers = headers  # path prefix under lib/include -> layer
        self.uses = uses  # layer -> set of layers


def read_table(doc_path):
    """The layer table of the document; raises ValueError on a malformed one."""
    with open(doc_path, encoding="utf-8") as f:
        text = f.read()
    if BEGIN not in text or END not in text:
        raise ValueError(f"{doc_path}: no layer table between {BEGIN} and {END}")
    block = text.split(BEGIN, 1)[1].split(END, 1)[0]
    rows = [line for line in block.splitlines() if line.strip().startswith("|")]
    names, sources, headers, uses = [], {}, {}, {}
    for line in rows[2:]:  # after the header row and the --- row
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 4:
            raise ValueError(f"{doc_path}: a layer row has {len(cells)} cells, not 4: {line}")
        name_cell, source_cell, header_cell, uses_cell = (TICKED.findall(c) for c in cells)
        if len(name_cell) != 1:
            raise ValueError(f"{doc_path}: a layer row names no single layer: {line}")
        name = name_cell[0]
        names.append(name)
        for s in source_cell:
            sources[s.rstrip("/")] = name
        for h in header_cell:
            headers[h.rstrip("/")] = name
        uses[name] = set(uses_cell)
    if not names:
        raise ValueError(f"{doc_path}: the layer table has no rows")
    return Layers(names, sources, headers, uses)


def table_problems(layers):
    problems = []
    for name, used in layers.uses.items():
        for u in sorted(used - set(layers.names)):
            problems.append(f"the table: layer `{name}` uses `{u}`, which is no layer of the table")
        if name in used:
            problems.append(f"the table: layer `{name}` lists itself")
    # A cycle among the allowed uses: depth-first search with colours.
    state = {}

    def visit(node, path):
        state[node] = "open"
        for nxt in sorted(layers.uses.get(node, ())):
            if state.get(nxt) == "open":
                cycle = path[path.index(nxt):] + [nxt] if nxt in path else [node, nxt]
                problems.append("the table: the layers' uses form a cycle: " + " -> ".join(cycle))
            elif nxt not in state and nxt in layers.uses:
                visit(nxt, path + [nxt])
        state[node] = "done"

    for name in layers.names:
        if name not in state:
            visit(name, [name])
    return problems


def owner(path, prefixes):
    """The layer of the longest prefix (a folder or the file itself) holding `path`."""
    best, layer = -1, None
    for prefix, name in prefixes.items():
        if (path == prefix or path.startswith(prefix + "/")) and len(prefix) > best:
            best, layer = len(prefix), name
    return layer


def layer_of(rel, layers):
    """The layer of a file given by its path relative to the tree, or None."""
    if rel.startswith("lib/include/"):
        return owner(rel[len("lib/include/"):], layers.headers)
    return owner(rel, layers.sources)


def is_forwarder(root, rel):
    if not rel.startswith("lib/include/"):
        return False
    with open(os.path.join(root, rel), encoding="utf-8", errors="replace") as f:
        return FORWARDER in f.read(2000)


def lib_files(root, tops=("lib/src", "lib/include/rmodel")):
    for top in tops:
        for dirpath, _, files in os.walk(os.path.join(root, top)):
            for name in sorted(files):
                if name.endswith((".cpp", ".hpp", ".h", ".cc", ".inl")):
                    yield os.path.relpath(os.path.join(dirpath, name), root)


def resolve(root, including, kind, target):
    """The file of lib/ an include names (as the compiler's search for lib/ finds it), or None."""
    candidates = []
    if kind == '"':
        candidates.append(os.path.join(os.path.dirname(including), target))
    candidates += [os.path.join("lib/src", target), os.path.join("lib/include", target)]
    for c in candidates:
        c = os.path.normpath(c)
        if os.path.isfile(os.path.join(root, c)):
            return c
    return None


def check_tree(root, doc=None):
    """The problems of the tree at `root` (empty when the layers hold), and the edges seen."""
    doc = doc or os.path.join(root, "docs", "architecture.md")
    try:
        layers = read_table(doc)
    except ValueError as e:
        return [str(e)], {}
    problems = table_problems(layers)
    edges = {}
    for rel in lib_files(root, ("apps", "python/src", "tests")):
        with open(os.path.join(root, rel), encoding="utf-8", errors="replace") as f:
            for number, line in enumerate(f, 1):
                m = INCLUDE.match(line)
                target = m and resolve(root, rel, m.group(1), m.group(2))
                if target and is_forwarder(root, target):
                    problems.append(f"{rel}:{number}: includes {m.group(2)}, a forwarding header: include the path it names")
    for rel in lib_files(root):
        if is_forwarder(root, rel):
            continue
        src_layer = layer_of(rel, layers)
        if src_layer is None:
            problems.append(f"{rel}: in no layer of the table of docs/architecture.md")
            continue
        with open(os.path.join(root, rel), encoding="utf-8", errors="replace") as f:
            for number, line in enumerate(f, 1):
                m = INCLUDE.match(line)
                if not m:
                    continue
                target = resolve(root, rel, m.group(1), m.group(2))
                if target is None:
                    continue  # not a file of lib/: the standard library, Eigen, fmt...
                if is_forwarder(root, target):
                    problems.append(f"{rel}:{number}: includes {m.group(2)}, a forwarding header: include the path it names")
                    continue
                dst_layer = layer_of(target, layers)
                if dst_layer is None or dst_layer == src_layer:
                    continue  # an unclaimed target is reported as a file of its own
                edges.setdefault((src_layer, dst_layer), []).append(f"{rel}:{number}")
                if dst_layer not in layers.uses.get(src_layer, set()):
                    problems.append(
                        f"{rel}:{number}: layer `{src_layer}` includes {m.group(2)} of layer `{dst_layer}`, "
                        f"which the table of docs/architecture.md does not let `{src_layer}` use")
    return problems, edges


def run(root):
    problems, edges = check_tree(root)
    layers = None
    try:
        layers = read_table(os.path.join(root, "docs", "architecture.md"))
    except ValueError:
        pass
    print("includes between layers (layer -> layer: count, first place):")
    for (a, b), places in sorted(edges.items()):
        print(f"  {a} -> {b}: {len(places)}, {places[0]}")
    if layers:
        unused = sorted((a, b) for a in layers.names for b in layers.uses[a] if (a, b) not in edges)
        if unused:
            print("allowed but not used (not an error): " + ", ".join(f"{a} -> {b}" for a, b in unused))
    if problems:
        print(f"\n{len(problems)} problem(s):")
        for p in problems:
            print("  " + p)
        return 1
    print("\nthe layers hold")
    return 0


def self_test():
    """A small tree with the real table: the check passes on it, and fails on each mistake."""
    here = os.path.dirname(os.path.abspath(__file__))
    real_doc = os.path.join(here, "..", "..", "docs", "architecture.md")
    layers = read_table(real_doc)
    failures = []

    def make_tree(tmp):
        os.makedirs(os.path.join(tmp, "docs"))
        shutil.copy(real_doc, os.path.join(tmp, "docs", "architecture.md"))
        header_of = {}
        for prefix, name in layers.headers.items():
            path = os.path.join(tmp, "lib", "include", prefix)
            if prefix.endswith(".hpp"):
                os.makedirs(os.path.dirname(path), exist_ok=True)
            else:
                os.makedirs(path, exist_ok=True)
                path = os.path.join(path, "x.hpp")
            with open(path, "w") as f:
                f.write("#pragma once\n")
            header_of.setdefault(name, os.path.relpath(path, os.path.join(tmp, "lib", "include")))
        for prefix, name in layers.sources.items():
            os.makedirs(os.path.join(tmp, prefix), exist_ok=True)
            with open(os.path.join(tmp, prefix, "a.cpp"), "w") as f:
                for used in sorted(layers.uses[name]):  # every allowed use, to pass
                    if used in header_of:
                        f.write(f'#include "{header_of[used]}"\n')
                f.write("#include <vector>\n#include <Eigen/Core>\n")
        return header_of

    def expect(what, tmp, fails_with):
        problems, _ = check_tree(tmp)
        if fails_with is None and problems:
            failures.append(f"{what}: expected to pass, got {problems}")
        if fails_with is not None and not any(fails_with in p for p in problems):
            failures.append(f"{what}: expected a problem containing '{fails_with}', got {problems}")

    # The layer that may use the most, and the lowest (one that uses nothing).
    top = max(layers.names, key=lambda n: len(layers.uses[n]))
    bottom = next(n for n in layers.names if not layers.uses[n])
    bottom_source = next(p for p, n in layers.sources.items() if n == bottom)
    with tempfile.TemporaryDirectory() as tmp:
        header_of = make_tree(tmp)
        expect("every allowed use", tmp, None)
        with open(os.path.join(tmp, bottom_source, "a.cpp"), "a") as f:
            f.write(f'#include "{header_of[top]}"\n')
        expect(f"`{bottom}` including a header of `{top}`", tmp, f"layer `{bottom}` includes")
    with tempfile.TemporaryDirectory() as tmp:
        header_of = make_tree(tmp)
        with open(os.path.join(tmp, "lib", "include", "rmodel", "old_name.hpp"), "w") as f:
            f.write(f'#pragma once\n// {FORWARDER}, kept for one release.\n#include "{header_of[bottom]}"\n')
        expect("a forwarding header, included by nothing", tmp, None)
        os.makedirs(os.path.join(tmp, "apps"))
        with open(os.path.join(tmp, "apps", "main.cpp"), "w") as f:
            f.write('#include "rmodel/old_name.hpp"\n')
        expect("an include of a forwarding header", tmp, "a forwarding header: include the path it names")
    with tempfile.TemporaryDirectory() as tmp:
        make_tree(tmp)
        os.makedirs(os.path.join(tmp, "lib", "src", "nowhere"))
        with open(os.path.join(tmp, "lib", "src", "nowhere", "b.cpp"), "w") as f:
            f.write("\n")
        expect("a folder no row claims", tmp, "lib/src/nowhere/b.cpp: in no layer")
    with tempfile.TemporaryDirectory() as tmp:
        make_tree(tmp)
        doc = os.path.join(tmp, "docs", "architecture.md")
        with open(doc, encoding="utf-8") as f:
            text = f.read()
        # Let the lowest layer use the top one: a cycle through the top's own uses.
        begin, rest = text.split(BEGIN, 1)
        block, end = rest.split(END, 1)
        lines = block.splitlines(keepends=True)
        for i, line in enumerate(lines):
            cells = line.strip().strip("|").split("|")
            if len(cells) == 4 and TICKED.findall(cells[0]) == [bottom]:
                lines[i] = line.rstrip().rstrip("|").rsplit("|", 1)[0] + f"| `{top}` |\n"
        with open(doc, "w", encoding="utf-8") as f:
            f.write(begin + BEGIN + "".join(lines) + END + end)
        expect("a cycle in the table", tmp, "form a cycle")
    if failures:
        for f in failures:
            print("self-test: " + f)
        return 1
    print("self-test: a forbidden include, an include of a forwarding header, an unclaimed file and a cycle in the "
          "table each fail the check")
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--source-dir", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
    parser.add_argument("--self-test", action="store_true")
    args = parser.parse_args()
    if args.self_test:
        return self_test()
    return run(os.path.abspath(args.source_dir))


if __name__ == "__main__":
    sys.exit(main())
