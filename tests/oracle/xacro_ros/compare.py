#!/usr/bin/env python3
"""Expands xacro files with ROS's real xacro and with `rmodel xacro`, and compares the results.

    compare.py --rmodel BIN [--xacro-src DIR] [--package-path DIR]... [--args-file FILE] [--quiet] PATH...

A PATH is a xacro file or a directory, searched for `*.xacro` files whose root element is
<robot> (a file an xacro:include pulls in expands alone too: to its macros' nothing, or to
what it adds). A file may ask for arguments in a first-line comment `<!-- args: a:=1 b:=x -->`, or say
`<!-- known difference: WHY -->` there: rmodel is known to refuse or expand it otherwise
(docs/design.md lists these); it is counted apart and fails nothing.

An --args-file lists more expansions, one a line: a xacro file and its arguments
(`robots/ur.urdf.xacro name:=ur ur_type:=ur5e`); `#` starts a comment.

Two expansions agree when both refuse the file, or both expand it to the same XML as xacro's
own tests compare XML (test_xacro.py's xml_matches): same elements in the same order, same
attributes in any order, texts and comments equal once whitespace is collapsed, a value equal
word by word with numbers within 1e-9, or a dict written as Python writes it equal as a dict;
whitespace-only text is ignored.

Prints one line per file that differs (and, without --quiet, per file that agrees), then the
count. Exit status: 0 when every file agrees, 1 otherwise, 77 when xacro's source or PyYAML
is missing (the ctest that runs this skips then).
"""

import argparse
import ast
import os
import re
import subprocess
import sys
import xml.dom
import xml.dom.minidom

HERE = os.path.dirname(os.path.abspath(__file__))
SKIP = 77
WHITESPACE = re.compile(r'\s+')


def values_match(a, b):
    if WHITESPACE.sub(' ', a).strip() == WHITESPACE.sub(' ', b).strip():
        return True
    try:
        x, y = ast.literal_eval(a), ast.literal_eval(b)
        if isinstance(x, dict) and isinstance(y, dict) and x == y:
            return True
    except Exception:
        pass
    wa, wb = a.split(), b.split()
    if len(wa) != len(wb):
        return False
    for x, y in zip(wa, wb):
        if x == y:
            continue
        try:
            if abs(float(x) - float(y)) > 1e-9:
                return False
        except ValueError:
            return False
    return True


def significant(node):
    while node is not None and node.nodeType == xml.dom.Node.TEXT_NODE and not node.data.strip():
        node = node.nextSibling
    return node


def difference(a, b, path=''):
    """None when the nodes match, else where and how they differ."""
    if a is None or b is None:
        return '{}: {} only in {}'.format(path, (a or b).nodeName, 'xacro' if a else 'rmodel')
    if a.nodeType != b.nodeType:
        return '{}: a {} against a {}'.format(path, a.nodeName, b.nodeName)
    if a.nodeType in (xml.dom.Node.TEXT_NODE, xml.dom.Node.CDATA_SECTION_NODE, xml.dom.Node.COMMENT_NODE):
        return None if values_match(a.data, b.data) else '{}: text {!r} against {!r}'.format(path, a.data, b.data)
    if a.nodeType != xml.dom.Node.ELEMENT_NODE:
        return None
    here = path + '/' + a.nodeName
    if a.nodeName != b.nodeName:
        return '{}: <{}> against <{}>'.format(path, a.nodeName, b.nodeName)
    ka, kb = sorted(a.attributes.keys()), sorted(b.attributes.keys())
    if ka != kb:
        return '{}: attributes {} against {}'.format(here, ka, kb)
    for k in ka:
        if not values_match(a.getAttribute(k), b.getAttribute(k)):
            return '{}@{}: {!r} against {!r}'.format(here, k, a.getAttribute(k), b.getAttribute(k))
    x, y = significant(a.firstChild), significant(b.firstChild)
    while x is not None or y is not None:
        d = difference(x, y, here)
        if d:
            return d
        x = significant(x.nextSibling) if x is not None else None
        y = significant(y.nextSibling) if y is not None else None
    return None


def is_robot_xacro(path):
    try:
        with open(path, 'rb') as f:
            head = f.read(65536).decode('utf-8', 'replace')
    except OSError:
        return False
    head = re.sub(r'<!--.*?-->', '', head, flags=re.S)
    head = re.sub(r'<\?.*?\?>', '', head, flags=re.S)
    m = re.search(r'<([A-Za-z_][\w:.-]*)', head)
    return bool(m) and m.group(1) == 'robot'


def files_of(paths):
    for p in paths:
        if os.path.isdir(p):
            for d, dirs, names in os.walk(p):
                dirs[:] = sorted(x for x in dirs if not x.startswith('.'))
                for n in sorted(names):
                    if n.endswith('.xacro') and is_robot_xacro(os.path.join(d, n)):
                        yield os.path.join(d, n)
        else:
            yield p


def first_line(path):
    with open(path, 'rb') as f:
        return f.readline().decode('utf-8', 'replace')


def args_of(path):
    m = re.match(r'\s*<!--\s*args:(.*?)-->', first_line(path))
    return m.group(1).split() if m else []


def known_difference(path):
    m = re.match(r'\s*<!--\s*known difference:(.*?)-->', first_line(path))
    return m.group(1).strip() if m else None


def rmodel_expand(binary, path, args, roots):
    command = [binary, 'xacro', path] + args
    for r in roots:
        command += ['--package-path', r]
    run = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=600)
    if run.returncode != 0:
        return None, run.stderr.decode('utf-8', 'replace').strip().splitlines()[-1:] or ['exit %d' % run.returncode]
    try:
        return xml.dom.minidom.parseString(run.stdout), None
    except Exception as e:
        return None, ['rmodel wrote no XML: {}'.format(e)]


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--rmodel', required=True)
    parser.add_argument('--xacro-src', default=os.environ.get('RMODEL_XACRO_SRC'))
    parser.add_argument('--package-path', action='append', default=[])
    parser.add_argument('--quiet', action='store_true')
    parser.add_argument('--args-file')
    parser.add_argument('paths', nargs='*')
    options = parser.parse_args(argv)
    if not options.xacro_src or not os.path.isfile(os.path.join(options.xacro_src, 'xacro', '__init__.py')):
        print('SKIP: ROS\'s xacro source not found: set RMODEL_XACRO_SRC to a checkout of github.com/ros/xacro '
              '(branch ros2; its xacro/__init__.py)', file=sys.stderr)
        return SKIP
    try:
        import yaml  # noqa: F401  (xacro's load_yaml)
    except ImportError:
        print('SKIP: PyYAML is missing (Debian: apt-get install python3-yaml)', file=sys.stderr)
        return SKIP
    sys.path.insert(0, HERE)
    import ros_xacro
    xacro = ros_xacro.load(options.xacro_src, options.package_path)

    agree = total = 0
    tally = {'same': 0, 'both refuse': 0, 'known': 0}
    runs = [(path, args_of(path)) for path in files_of(options.paths)]
    if options.args_file:
        with open(options.args_file) as f:
            for line in f:
                words = line.split('#', 1)[0].split()
                if words:
                    runs.append((words[0], words[1:]))
    for path, args in runs:
        total += 1
        mappings = dict(a.split(':=', 1) for a in args if ':=' in a)
        doc, xacro_error = ros_xacro.expand(xacro, path, mappings)
        mine, rmodel_error = rmodel_expand(options.rmodel, path, args, options.package_path)
        if doc is None and mine is None:
            verdict, detail = 'both refuse', '(xacro: {} | rmodel: {})'.format(xacro_error.splitlines()[0][:160],
                                                                                 rmodel_error[0][:160])
        elif doc is None:
            verdict, detail = 'DIFFER', 'xacro refuses ({}); rmodel expands'.format(xacro_error.replace('\n', ' ')[:300])
        elif mine is None:
            verdict, detail = 'DIFFER', 'rmodel refuses ({}); xacro expands'.format(rmodel_error[0][:300])
        else:
            d = difference(doc.documentElement, mine.documentElement)
            verdict, detail = ('same', '') if d is None else ('DIFFER', d[:400])
        if verdict == 'DIFFER' and known_difference(path) is not None:
            verdict, detail = 'known', known_difference(path)
            tally['known'] += 1
        elif verdict != 'DIFFER':
            agree += 1
            tally[verdict] += 1
        if verdict == 'DIFFER' or not options.quiet:
            print('{:12} {} {}'.format(verdict, ' '.join([path] + args), detail).rstrip())
    known = ', {} known differences'.format(tally['known']) if tally['known'] else ''
    print('{} of {} agree ({} same expansion, {} refused by both{})'.format(agree, total, tally['same'],
                                                                            tally['both refuse'], known))
    return 0 if agree + tally['known'] == total else 1


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
