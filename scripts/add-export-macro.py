#!/usr/bin/env python3
"""Adds RMODEL_API (rmodel/export.hpp) to the public API declared under lib/include/rmodel:
class and struct definitions (not templates, not enums) and free-function and extern-variable
declarations at namespace scope (not inline, constexpr or template ones), and includes
rmodel/export.hpp after #pragma once where it added one. Idempotent: run it after adding
declarations, then build and run the exported_symbols test.

Usage: scripts/add-export-macro.py lib/include/rmodel
"""
import os, re, sys

root = sys.argv[1]
SKIP_START = ("inline", "template", "constexpr", "consteval", "using", "typedef", "static_assert",
              "return", "friend", "namespace", "enum", "#", "extern \"C\"", "static ")
changed = {}

def strip_comment(line):
    # removes // comments and string contents roughly (enough for headers' declarations)
    out, i, in_str = [], 0, False
    while i < len(line):
        c = line[i]
        if in_str:
            if c == '\\': i += 2; continue
            if c == '"': in_str = False
            i += 1; continue
        if c == '"': in_str = True; out.append('""'); i += 1; continue
        if line.startswith("//", i): break
        out.append(c); i += 1
    return "".join(out)

for dirpath, _, files in os.walk(root):
    for name in sorted(files):
        if not name.endswith(".hpp") or name == "export.hpp":
            continue
        path = os.path.join(dirpath, name)
        lines = open(path).read().split("\n")
        stack = []          # 'ns' | 'class' | 'enum' | 'other'
        stmt = []           # (line index, code) of the current statement
        edits = {}          # line index -> new line
        in_block_comment = False
        paren = 0
        for idx, raw in enumerate(lines):
            code = raw
            if in_block_comment:
                if "*/" in code: in_block_comment = False; code = code.split("*/", 1)[1]
                else: continue
            if code.lstrip().startswith("/*") and "*/" not in code:
                in_block_comment = True; continue
            code = strip_comment(code)
            if code.strip().startswith("#"):
                continue
            if not code.strip():
                continue
            stmt.append((idx, code))
            # process characters for braces / semicolons
            text = code
            for ch_i, ch in enumerate(text):
                if ch == '(':
                    paren += 1
                    continue
                if ch == ')':
                    paren -= 1
                    continue
                if paren > 0:
                    continue  # braces in default arguments: `options = {}`
                if ch == '{':
                    full = " ".join(c for _, c in stmt)
                    head = full[:full.rfind('{')] if '{' in full else full
                    h = head.strip()
                    if re.match(r"^(inline\s+)?namespace\b", h) or h.startswith('extern "C"'):
                        kind = 'ns'
                    elif re.search(r"\benum\b", h):
                        kind = 'enum'
                    elif re.match(r"^(template\s*<.*>\s*)?(class|struct|union)\b", h) and '(' not in h.split(':')[0]:
                        kind = 'class'
                        if not h.startswith("template") and not h.startswith("union"):
                            # class/struct definition: mark it
                            for (li, lc) in stmt:
                                m = re.match(r"^(\s*)(class|struct)\s+(?!RMODEL_API)(\[\[[^\]]*\]\]\s*)?([A-Za-z_]\w*)", edits.get(li, lines[li]))
                                if m:
                                    cur = edits.get(li, lines[li])
                                    edits[li] = cur[:m.end(2)] + " RMODEL_API" + cur[m.end(2):]
                                    break
                    else:
                        kind = 'other'
                    stack.append(kind)
                    stmt = []
                elif ch == '}':
                    if stack: stack.pop()
                    stmt = []
                elif ch == ';':
                    at_ns = all(k == 'ns' for k in stack)
                    in_class = bool(stack) and stack[-1] == 'class'
                    full = " ".join(c for _, c in stmt).strip()
                    if at_ns and full and '(' in full and not full.startswith(SKIP_START):
                        before_paren = full.split('(')[0]
                        if '=' not in before_paren and not re.match(r"^(class|struct)\b", full):
                            first_idx = stmt[0][0]
                            cur = edits.get(first_idx, lines[first_idx])
                            if "RMODEL_API" not in cur:
                                m = re.match(r"^(\s*)((\[\[[^\]]*\]\]\s*)*)", cur)
                                edits[first_idx] = cur[:m.end()] + "RMODEL_API " + cur[m.end():]
                    elif at_ns and full.startswith("extern ") and not full.startswith('extern "C"'):
                        first_idx = stmt[0][0]
                        cur = edits.get(first_idx, lines[first_idx])
                        if "RMODEL_API" not in cur:
                            edits[first_idx] = cur.replace("extern ", "extern RMODEL_API ", 1)
                    stmt = []
            # statement continues on next line otherwise
        if edits:
            for li, new in edits.items():
                lines[li] = new
            # the include, after #pragma once
            for i, l in enumerate(lines):
                if l.startswith("#pragma once"):
                    if '#include "rmodel/export.hpp"' not in lines:
                        lines.insert(i + 1, '#include "rmodel/export.hpp"')
                    break
            open(path, "w").write("\n".join(lines))
            changed[path] = len(edits)
for p, n in sorted(changed.items()):
    print(n, p)
