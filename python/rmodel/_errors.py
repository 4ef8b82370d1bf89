"""rmodel's errors: the typed errors of the C++ library (rmodel/base/error.hpp), one class each.

Every error is an `Error`; `file` and `line` say where it was found (None when unknown or not
about a file). The classes also derive from the built-in exception a Python program would
catch for the same failure (OSError, ValueError, LookupError).
"""


class Error(Exception):
    """Base of every rmodel error. str(e) is the library's message ("file:line: ...")."""

    file = None  #: the file the error is about (str), or None
    line = None  #: its 1-based line (int), or None when unknown or not about a line


class IoError(Error, OSError):
    """A file could not be opened or read (missing, a directory, unreadable)."""


class ParseError(Error, ValueError):
    """An input is malformed (XML, JSON, YAML syntax, wrong types, bad numbers)."""


class ModelError(ParseError):
    """An input is well formed but breaks a rule of the model (unknown link, chain in two groups)."""


class NotFound(Error, LookupError):
    """A query named something the model does not have (`kind`: "joint", "chain", ...; `name`)."""

    kind = None  #: what was looked for: "joint", "link", "chain", "group", "pose", ...
    name = None  #: the name that was not found


class SizeMismatch(Error, ValueError):
    """An array had the wrong size ("what: expected N, got M")."""


class InvalidArgument(Error, ValueError):
    """An argument is out of its domain (an unknown filter kind or parameter, a bad option)."""
