"""The type stubs (rmodel/__init__.pyi, rmodel/filters.pyi) describe the module as it is: the
same public names, each class with the same public members, each function with the same
parameters (names, keyword-only or not, defaults). A name added to the module without its
stub, or a parameter renamed, fails here."""

import ast
import dataclasses
import inspect
from pathlib import Path

import pytest

import rmodel
from rmodel import filters

PACKAGE = Path(rmodel.__file__).parent


def stub(name):
    return ast.parse((PACKAGE / name).read_text())


def public(names):
    return {n for n in names if not n.startswith("_")}


def stub_names(tree):
    """Public names a stub defines or re-exports (`from x import y as y`)."""
    names = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.AnnAssign):
            names.add(node.target.id)
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets)
        elif isinstance(node, ast.ImportFrom):
            names.update(a.asname for a in node.names if a.asname == a.name)
    return public(names)


def stub_members(cls):
    names = set()
    for node in cls.body:
        if isinstance(node, ast.FunctionDef):
            names.add(node.name)
        elif isinstance(node, ast.AnnAssign):
            names.add(node.target.id)
    return public(names)


def stub_params(fn):
    """[(name, keyword_only, default text or None)] of a stub function, without self."""
    a = fn.args
    positional = a.posonlyargs + a.args
    defaults = [None] * (len(positional) - len(a.defaults)) + [ast.unparse(d) for d in a.defaults]
    out = [(p.arg, False, d) for p, d in zip(positional, defaults)]
    out += [(p.arg, True, None if d is None else ast.unparse(d)) for p, d in zip(a.kwonlyargs, a.kw_defaults)]
    if a.kwarg:
        out.append(("**" + a.kwarg.arg, False, None))
    return [p for p in out if p[0] != "self"]


def split_top(text):
    parts, depth, current = [], 0, ""
    for c in text:
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        if c == "," and depth == 0:
            parts.append(current.strip())
            current = ""
        else:
            current += c
    if current.strip():
        parts.append(current.strip())
    return parts


def module_params(fn):
    """The same for a function of the module: inspect for Python functions, the signature line
    pybind11 writes into the docstring for compiled ones."""
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        sig = None
    if sig is not None:
        out = []
        for p in sig.parameters.values():
            if p.kind is inspect.Parameter.VAR_KEYWORD:
                out.append(("**" + p.name, False, None))
                continue
            default = None if p.default is inspect.Parameter.empty else repr(p.default)
            out.append((p.name, p.kind is inspect.Parameter.KEYWORD_ONLY, default))
        return [p for p in out if p[0] != "self"]
    first = fn.__doc__.splitlines()[0]
    inner = first[first.index("(") + 1:first.rindex(")")]
    out, keyword_only = [], False
    for part in split_top(inner):
        if part == "*":
            keyword_only = True
            continue
        name, _, rest = part.partition(":")
        default = rest.split("=", 1)[1].strip() if "=" in rest else None
        out.append((name.strip(), keyword_only, default))
    return [p for p in out if p[0] != "self"]


def normal(params):
    """Defaults compared as values where they are literals (0.1 == 0.1, () == ())."""
    def value(text):
        if text is None:
            return None
        try:
            return ("value", ast.literal_eval(text))
        except (ValueError, SyntaxError):
            return ("text", text)
    return [(n, k, value(d)) for n, k, d in params]


def functions(tree):
    return {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}


def classes(tree):
    return {n.name: n for n in tree.body if isinstance(n, ast.ClassDef)}


@pytest.mark.parametrize("module,stub_file", [(rmodel, "__init__.pyi"), (filters, "filters.pyi")])
def test_the_stub_names_what_the_module_has(module, stub_file):
    tree = stub(stub_file)
    assert stub_names(tree) == public(vars(module)) - {"annotations"}
    assert set(module.__all__) <= stub_names(tree)


@pytest.mark.parametrize("module,stub_file", [(rmodel, "__init__.pyi"), (filters, "filters.pyi")])
def test_functions_have_the_stubs_parameters(module, stub_file):
    for name, fn in functions(stub(stub_file)).items():
        assert normal(stub_params(fn)) == normal(module_params(getattr(module, name))), name


@pytest.mark.parametrize("module,stub_file", [(rmodel, "__init__.pyi"), (filters, "filters.pyi")])
def test_classes_have_the_stubs_members_and_parameters(module, stub_file):
    for name, cls in classes(stub(stub_file)).items():
        actual = getattr(module, name)
        members = set()
        for klass in actual.__mro__:  # rmodel's own classes: not object's, tuple's or pybind11's
            if klass.__module__.startswith("rmodel"):
                members |= public(vars(klass))
        if dataclasses.is_dataclass(actual):
            members |= {f.name for f in dataclasses.fields(actual)}
        members |= public(getattr(actual, "__slots__", ()))
        assert stub_members(cls) == members, name
        for fn in (n for n in cls.body if isinstance(n, ast.FunctionDef)):
            if any(isinstance(d, ast.Name) and d.id == "property" for d in fn.decorator_list):
                attribute = inspect.getattr_static(actual, fn.name)
                assert type(attribute).__name__ in ("property", "cached_property"), f"{name}.{fn.name}"
                continue
            assert normal(stub_params(fn)) == normal(module_params(getattr(actual, fn.name))), f"{name}.{fn.name}"


def test_the_errors_are_exported_with_their_bases():
    for name in ("Error", "IoError", "ParseError", "ModelError", "NotFound", "SizeMismatch", "InvalidArgument"):
        assert issubclass(getattr(rmodel, name), rmodel.Error)
    assert issubclass(rmodel.ModelError, rmodel.ParseError)


def test_the_package_is_typed():
    assert (PACKAGE / "py.typed").is_file()
