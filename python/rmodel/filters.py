"""rmodel's filters: every kind of the filter registry (`rmodel filter --list`) by name, with
its parameters, run over arrays as `rmodel filter` runs it over a log, and its step response.

    from rmodel import filters
    f = filters.exponential(tau=0.05)          # or filters.Filter("exponential", tau=0.05)
    smooth = f.run(log.t, log.position)        # one filter per column
    step = f.step_response()                   # step.t, step.u, step.y

Each kind is a function of this module taking its parameters by name (their defaults are the
registry's); `kinds()` lists them with units and descriptions. Time: with stamps (`t`, int64
nanoseconds) and no `T` given, each column's filter steps by the time since that column's
previous sample; with `T` given, or t=None, by T per sample. NaN (a row that did not set the
joint) passes through and does not advance its column's filter.
"""

import inspect as _inspect
from typing import TYPE_CHECKING as _TYPE_CHECKING
from typing import NamedTuple as _NamedTuple

from . import _rmodel

if _TYPE_CHECKING:
    import numpy

__all__ = ["Filter", "Kind", "Param", "StepResponse", "kind", "kinds"]


class Param(_NamedTuple):
    """A parameter of a filter kind."""

    name: str
    unit: str
    default: float
    description: str
    integer: bool


class Kind(_NamedTuple):
    """A filter kind of the registry."""

    name: str
    family: str
    description: str
    initial_state: str
    params: "tuple[Param, ...]"


class StepResponse(_NamedTuple):
    """The response to a unit step at t = 0: times (s), input (0 before, 1 from t = 0), output."""

    t: "numpy.ndarray"
    u: "numpy.ndarray"
    y: "numpy.ndarray"


def _load_kinds():
    out = []
    for k in _rmodel.filter_kinds():
        params = tuple(Param(p["name"], p["unit"], p["default"], p["description"], p["integer"]) for p in k["params"])
        out.append(Kind(k["name"], k["family"], k["description"], k["initial_state"], params))
    return out


_KINDS = _load_kinds()
_BY_NAME = {k.name: k for k in _KINDS}


def kinds():
    """Every filter kind, in the registry's order (integrators, differentiators, transients,
    fusion, second order, transfer function, hysteresis)."""
    return list(_KINDS)


def kind(name):
    """The kind called `name`. @raises InvalidArgument naming the valid kinds"""
    if name not in _BY_NAME:
        _rmodel.filter_params(name, {})  # the registry's own error
    return _BY_NAME[name]


class Filter:
    """A filter of one kind with its parameters. Filter(kind, **params): parameters not given
    take the registry's defaults, except T: given, it fixes the step; left out, the steps come
    from the stamps (see the module's documentation)."""

    def __init__(self, kind_name, **params):
        self._kind = kind(kind_name)
        self._params = {name: float(value) for name, value in params.items()}
        self._resolved = _rmodel.filter_params(kind_name, self._params)  # validates them

    @property
    def kind(self):
        """The Kind."""
        return self._kind

    @property
    def params(self):
        """The parameters given ({name: value})."""
        return dict(self._params)

    @property
    def resolved_params(self):
        """The parameters in use, defaults included ({name: value})."""
        return dict(self._resolved)

    def run(self, t, x):
        """Filters x (N samples, or N × J: one filter per column) sampled at t (N int64
        nanoseconds, e.g. Log.t; None: every sample T after the previous one). Returns an
        array of x's shape. The GIL is released while it runs."""
        return _rmodel.filter_run(self._kind.name, self._params, t, x)

    def step_response(self, duration=None, lead=5):
        """The response to a unit step at t = 0, sampled every T (0.01 s unless given): `lead`
        samples of 0 before it, then 1 up to `duration` seconds (None: a few time constants)."""
        r = _rmodel.filter_step_response(self._kind.name, self._params, 0.0 if duration is None else duration, lead)
        return StepResponse(r["t"], r["u"], r["y"])

    def __repr__(self):
        given = "".join(f", {name}={value!r}" for name, value in self._params.items())
        return f"Filter({self._kind.name!r}{given})"


def _factory(k):
    def make(**params):
        return Filter(k.name, **{name: value for name, value in params.items() if value is not None})

    make.__name__ = make.__qualname__ = k.name
    make.__module__ = __name__
    lines = [f"{k.description} ({k.family}).", "", "Parameters:"]
    parameters = []
    for p in k.params:
        default = None if p.name == "T" else (int(p.default) if p.integer else p.default)
        annotation = "float | None" if p.name == "T" else "int" if p.integer else "float"
        parameters.append(_inspect.Parameter(p.name, _inspect.Parameter.KEYWORD_ONLY, default=default,
                                             annotation=annotation))
        shown = f"None (the stamps, else {p.default!r})" if p.name == "T" else repr(default)
        lines.append(f"  {p.name} [{p.unit}] = {shown}: {p.description}")
    lines += ["", f"Initial state: {k.initial_state}."]
    make.__signature__ = _inspect.Signature(parameters, return_annotation="Filter")
    make.__doc__ = "\n".join(lines)
    return make


for _k in _KINDS:
    globals()[_k.name] = _factory(_k)
    __all__.append(_k.name)
del _k
