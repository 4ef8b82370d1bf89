#!/usr/bin/env python3
"""ROS's real xacro (the Python source of github.com/ros/xacro, ROS 2 branch), run without ROS.

xacro needs ROS for one thing only: `$(find PKG)` asks ament_index_python for a package's share
directory. A small stand-in of that module is installed here: a package is the directory whose
package.xml names it, found below the roots given with --package-path (in their order, not
descending into a package, as ROS's crawlers do). Everything else is xacro's own code.

As a command:  ros_xacro.py --xacro-src DIR [--package-path DIR]... FILE [name:=value]...
prints the expansion as `xacro FILE` does. As a module: load(src, roots) then expand(...).
"""

import os
import sys
import types
import xml.etree.ElementTree as ElementTree

_roots = []


class PackageNotFoundError(KeyError):
    pass


def _package_name(directory):
    try:
        root = ElementTree.parse(os.path.join(directory, 'package.xml')).getroot()
    except (OSError, ElementTree.ParseError):
        return None
    name = root.find('name')
    return name.text.strip() if name is not None and name.text else None


def _find(name, directory):
    if os.path.isfile(os.path.join(directory, 'package.xml')):
        return directory if _package_name(directory) == name else None
    try:
        entries = sorted(os.listdir(directory))
    except OSError:
        return None
    for entry in entries:
        path = os.path.join(directory, entry)
        if entry.startswith('.') or not os.path.isdir(path):
            continue
        if os.path.exists(os.path.join(path, 'CATKIN_IGNORE')) or os.path.exists(os.path.join(path, 'COLCON_IGNORE')):
            continue
        found = _find(name, path)
        if found:
            return found
    return None


def get_package_share_directory(name, print_warning=True):
    for root in _roots:
        found = _find(name, root)
        if found:
            return os.path.abspath(found)
    raise PackageNotFoundError("package '{}' not found under {}".format(name, ', '.join(_roots) or 'no root'))


def load(src, roots=()):
    """Imports xacro from `src` (a ros/xacro checkout: src/xacro/__init__.py) with the stand-in."""
    _roots[:] = [os.path.abspath(r) for r in roots]
    package = types.ModuleType('ament_index_python')
    packages = types.ModuleType('ament_index_python.packages')
    packages.get_package_share_directory = get_package_share_directory
    packages.PackageNotFoundError = PackageNotFoundError
    package.packages = packages
    package.get_package_share_directory = get_package_share_directory
    sys.modules['ament_index_python'] = package
    sys.modules['ament_index_python.packages'] = packages
    if os.path.isfile(os.path.join(src, 'xacro', '__init__.py')):
        sys.path.insert(0, os.path.abspath(src))
    else:
        raise ImportError('no xacro/__init__.py in ' + src + ' (give a checkout of ros/xacro, branch ros2)')
    import xacro  # noqa: E402
    return xacro


def expand(xacro, path, mappings=None):
    """(document, None) when xacro expands `path`, (None, message) when it refuses it."""
    import io
    old = sys.stderr
    sys.stderr = io.StringIO()  # xacro's warnings and locations
    try:
        doc = xacro.process_file(path, mappings=dict(mappings or {}), verbosity=0)
        return doc, None
    except BaseException as e:  # xacro's errors, Python's (eval), expat's, SystemExit
        message = str(e) or repr(e)
        return None, '{}: {}'.format(type(e).__name__, message)
    finally:
        sys.stderr = old
        xacro.substitution_args_context['arg'] = {}


def main(argv):
    import argparse
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--xacro-src', default=os.environ.get('RMODEL_XACRO_SRC'), required=False)
    parser.add_argument('--package-path', action='append', default=[])
    parser.add_argument('file')
    parser.add_argument('args', nargs='*')
    options = parser.parse_args(argv)
    if not options.xacro_src:
        parser.error('give --xacro-src DIR or RMODEL_XACRO_SRC')
    xacro = load(options.xacro_src, options.package_path)
    mappings = dict(a.split(':=', 1) for a in options.args)
    doc, error = expand(xacro, options.file, mappings)
    if error:
        print('error: ' + error, file=sys.stderr)
        return 2
    sys.stdout.write(doc.toprettyxml(indent='  '))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
