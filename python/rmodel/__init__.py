"""rmodel from Python: robot models, kinematics and dynamics on numpy arrays, joint-state logs
of every format rmodel reads into numpy, and rmodel's filters.

    import rmodel
    model = rmodel.Model("robot.urdf", semantics="robot.json")
    log = rmodel.read_log("run.mcap", model=model)     # log.t, log.position, ...
    frames = model.fk(log.position[0])                 # {link: 4x4 array}

Units are SI (m, rad, s, kg, N·m); times are int64 nanoseconds (`Log.t`), exactly as the log
holds them. Errors are the classes of rmodel._errors, all `rmodel.Error`, with `file` and
`line`. The README's "From Python" section shows a whole session.
"""

import functools as _functools
import warnings as _warnings
from dataclasses import dataclass as _dataclass
from typing import TYPE_CHECKING as _TYPE_CHECKING

# numpy is imported where arrays are made, not here: `import rmodel` works in an interpreter
# without numpy (the functions that return arrays then raise ImportError naming it).
from . import _rmodel
from ._errors import Error, InvalidArgument, IoError, ModelError, NotFound, ParseError, SizeMismatch
from . import filters

if _TYPE_CHECKING:
    import numpy

__version__ = _rmodel.__version__

__all__ = [
    "Chain", "Error", "Group", "InvalidArgument", "IoError", "Limits", "Log", "LogWarning", "Model",
    "ModelError", "NotFound", "ParseError", "SizeMismatch", "aggregate", "check", "filters", "read_log",
    "sample_dir",
]


def sample_dir():
    """The directory of the sample robot shipped with rmodel (pony.urdf, pony.json); '' when
    it is not installed."""
    return _rmodel.sample_dir()


def _indices(values):
    import numpy as np
    array = np.array(values, dtype=np.intp)
    array.setflags(write=False)
    return array


@_dataclass(frozen=True)
class Chain:
    """A kinematic chain of the semantics: its links, its joints root to tip (`joints`: the real
    ones, `virtual_joints`: those past last_link), their full-pose `indices` (of `joints`)."""

    name: str
    first_link: str
    last_link: str
    last_link_virtual: "str | None"
    default_contact: "str | None"
    description: str
    joints: "tuple[str, ...]"
    virtual_joints: "tuple[str, ...]"
    indices: "numpy.ndarray"
    group: "str | None"


@_dataclass(frozen=True)
class Group:
    """A joint group: its chains, its joints (the chains' joints, then the extra ones) and their
    full-pose `indices`."""

    name: str
    description: str
    chains: "tuple[str, ...]"
    joints: "tuple[str, ...]"
    indices: "numpy.ndarray"


@_dataclass(frozen=True)
class Limits:
    """Joint limits in full-pose order (rad or m and their rates; N·m or N): -inf/inf where a
    joint has none (a continuous joint's position, a limit not given)."""

    lower: "numpy.ndarray"
    upper: "numpy.ndarray"
    velocity: "numpy.ndarray"
    effort: "numpy.ndarray"
    acceleration: "numpy.ndarray"
    jerk: "numpy.ndarray"


class Model(_rmodel.Model):
    """A robot model: a URDF (or xacro) and its semantics (.cpf, SRDF or rmodel JSON), indexed
    into the full sorted pose.

    Model(path, semantics=None, package_path=(), xacro_args=None, limits=None)

    - path: the URDF or xacro file; semantics: the .cpf, .srdf or .json file (format from the
      content); package_path: folders searched for ROS packages ($(find pkg), package://);
      xacro_args: {name: value} of a xacro's <xacro:arg>s; limits: a MoveIt joint_limits.yaml.
    - Poses (q) are arrays in full-pose order (`joint_names`, rad or m), dicts {joint: value}
      (the others 0) or str as `rmodel fk --pose` takes them ("stand,neck_pitch=0.2"). An array
      of N rows is N poses: the results come stacked, computed with the GIL released.
    - Mimic joints follow their masters: the value in a mimic joint's own slot is not read.
    - Frames are expressed in the root link's frame (a Jacobian: in its chain's first_link
      frame); gravity is (0, 0, -9.81) m/s² unless g is given.

    Methods: fk(q, links=None) → {link: 4×4 array}; jacobian(chain, q, link=None, point=None,
    with_virtual=False) → 6 × jacobian_columns(chain) (linear rows, then angular);
    rnea(q, v, a, g=None), gravity(q, g=None) → torques; mass_matrix(q); center_of_mass(q).
    """

    @_functools.cached_property
    def chains(self):
        """The chains by name, in declaration order ({name: Chain})."""
        out = {}
        for c in self._chains():
            c.update(joints=tuple(c["joints"]), virtual_joints=tuple(c["virtual_joints"]),
                     indices=_indices(c["indices"]))
            out[c["name"]] = Chain(**c)
        return out

    @_functools.cached_property
    def groups(self):
        """The joint groups by name, in declaration order ({name: Group})."""
        out = {}
        for g in self._groups():
            g.update(chains=tuple(g["chains"]), joints=tuple(g["joints"]), indices=_indices(g["indices"]))
            out[g["name"]] = Group(**g)
        return out

    @_functools.cached_property
    def poses(self):
        """The named poses (SRDF group states) as full poses ({name: array}; "group/name" for a
        name several groups use); joints a pose does not name are 0."""
        out = {}
        for name, q in self._poses():
            q.setflags(write=False)
            out[name] = q
        return out

    @_functools.cached_property
    def limits(self):
        """The joint limits as arrays in full-pose order (Limits)."""
        arrays = self._limits()
        for a in arrays.values():
            a.setflags(write=False)
        return Limits(**arrays)

    def __repr__(self):
        return f"<rmodel.Model {self.robot_name!r}: {len(self.joint_names)} joints, {len(self.chains)} chains>"


class LogWarning(UserWarning):
    """A problem reading a log that did not stop it (a bad line, an unknown joint)."""


class Log:
    """Joint states as arrays: one row per joint-state message (read_log) or published pose
    (aggregate).

    - t: int64 nanoseconds on the log's clock, as read (0 where `stamped` is False);
    - names: the columns (the model's full pose when one was given, else the joints in the
      order the log first names them);
    - position, velocity, effort: float arrays N × len(names), NaN where a row did not set a
      joint (rad or m, rad/s or m/s, N·m or N); a field no row carries is a read-only view of
      one NaN (no memory);
    - line: the line (text logs) or message number (ROS logs) of each row, 0 when unknown;
    - cycle: the control cycle of each row, -1 where none;
    - problems: what the reader and the pipeline reported, as dicts (severity, file, line,
      item, message, location), in order.
    """

    __slots__ = ("t", "stamped", "line", "cycle", "names", "position", "velocity", "effort", "source", "format",
                 "problems")

    def __init__(self, data):
        for name in self.__slots__:
            setattr(self, name, data[name])

    def __len__(self):
        return len(self.t)

    def index(self, name):
        """The column of a joint. @raises NotFound"""
        try:
            return self.names.index(name)
        except ValueError:
            error = NotFound(f"unknown joint '{name}' (not in this log)")
            error.kind, error.name = "joint", name
            raise error from None

    @property
    def seconds(self):
        """Seconds since the first row (float64): t - t[0] in integer nanoseconds, then the
        nearest double to that over 1e9 (so a log sampled every 10 ms gives 0.01 exactly)."""
        if len(self.t) == 0:
            return self.t / 1e9
        return (self.t - self.t[0]) / 1e9

    def __repr__(self):
        return (f"<rmodel.Log {self.source!r} ({self.format}): {len(self.t)} rows × {len(self.names)} joints, "
                f"{len(self.problems)} problems>")


_ERRORS = ("warn", "raise", "ignore")


def _finish(data, errors):
    log = Log(data)
    problems = log.problems
    if errors == "raise":
        for p in problems:
            if p["severity"] == "error":
                error = ParseError(f"{p['location']}: {p['message']}")
                error.file, error.line = p["file"], p["line"]
                raise error
    if errors != "ignore" and problems:
        shown = "\n".join(f"  {p['location']}: {p['severity']}: {p['message']}" for p in problems[:5])
        more = f"\n  ... and {len(problems) - 5} more (Log.problems)" if len(problems) > 5 else ""
        _warnings.warn(f"{len(problems)} problem(s) reading {log.source}:\n{shown}{more}", LogWarning, stacklevel=3)
    return log


def _check_errors(errors):
    if errors not in _ERRORS:
        raise InvalidArgument(f"errors: '{errors}' is not one of warn, raise, ignore")
    return 1 if errors == "raise" else 0


def read_log(path, model=None, topic=None, start=None, end=None, time="header", *, format="auto",
             time_column=None, column_prefix=None, errors="warn"):
    """Reads a joint-state log of any format rmodel reads (JSON Lines, JSON, CSV, YAML echo
    output, MCAP, ROS 2 .db3 or its directory, ROS 1 .bag) into a Log: one row per joint-state
    message, stamps exactly as read, values bit for bit.

    - model: an rmodel.Model: the columns are its full pose (other joints: a warning);
    - topic: ROS logs: a topic or a list of topics (default: every JointState topic);
    - start, end: the window [start, end) of message times: an int is nanoseconds on the log's
      clock (as Log.t), a float or str seconds as `rmodel --start` reads them (below 1e9:
      after the first message; from 1e9 on or "@12.5": absolute; RFC 3339);
    - time: "header" (the message's stamp) or "log" (when the recorder received it);
    - format: "auto" (from the name, then the content) or a format as `-i` names it (jsonl,
      json, csv, yaml, mcap, db3, bag);
    - time_column, column_prefix: CSV, as --time-column and --column-prefix;
    - errors: "warn" (a LogWarning lists the problems; bad lines are skipped), "raise"
      (ParseError at the first rejected line or message) or "ignore". Log.problems has them all.
    The GIL is released while the file is read (on two threads).
    """
    max_errors = _check_errors(errors)
    data = _rmodel.read_log(path, model, topic, start, end, time, format, time_column or "", column_prefix or "",
                            max_errors)
    return _finish(data, errors)


def aggregate(path, model, *, kind="simple", period=0.01, ticks="auto", update="hold", publish=None, diff="diff",
              diff_params=None, quad="euler", quad_params=None, clamp=False, brake_deceleration=10.0,
              initial_pose=None, filter=None, topic=None, start=None, end=None, time="header", format="auto",
              time_column=None, column_prefix=None, errors="warn"):
    """Replays a log through rmodel's aggregator, as `rmodel aggregate` does: partial joint
    states into full sorted poses of `model`. Returns a Log of the published poses (names: the
    model's full pose; cycle: their control cycle with kind="sync").

    - kind: "simple" (each message updates the pose, which is published) or "sync" (control
      cycles: velocities differentiated, positions integrated, missing joints predicted);
    - period: the control period T in seconds (float or exact str); ticks: "auto", "time",
      "stream"; update: "hold", "hold-zero-velocity", "extrapolate", "brake" (with
      brake_deceleration); publish: None (message for simple, tick for sync), "message",
      "tick", "both";
    - diff, diff_params: the differentiator (diff, lag_diff, fir_diff) and its parameters
      ({name: value}); quad, quad_params: the integrator (euler, trapezoid, simpson);
    - clamp: clamp positions to the URDF limits; initial_pose: where the pose and the filters
      start (an array, a dict or a str, as Model.fk's q);
    - filter: an rmodel.filters.Filter applied to the published positions (aggregate --filter);
    - topic, start, end, time, format, time_column, column_prefix, errors: as read_log.
    """
    max_errors = _check_errors(errors)
    filter_kind, filter_params = (None, None) if filter is None else (filter.kind.name, filter.params)
    data = _rmodel.aggregate(path, model, kind, period, ticks, update, publish, diff, diff_params, quad, quad_params,
                             clamp, brake_deceleration, initial_pose, filter_kind, filter_params, topic, start, end,
                             time, format, time_column or "", column_prefix or "", max_errors)
    return _finish(data, errors)


def check(path, semantics=None, package_path=(), xacro_args=None, limits=None, meshes=False, targets=()):
    """Every problem of a model, as `rmodel check` lists them: a list of dicts with code,
    severity ("error", "warning", "note"), file, line (None when unknown) and message. The
    arguments are those of Model; meshes: also check that every <mesh> file exists; targets:
    programs whose own rules apply too, as `--target` ("mujoco", "kdl", "gazebo", a str or a
    sequence). A target's rules apply to a URDF without errors of its own; the program reads it
    when none of its codes (mujoco-*, kdl-*, gazebo-*) is an error."""
    return _rmodel.check(path, semantics, package_path, xacro_args, limits, meshes, targets)
