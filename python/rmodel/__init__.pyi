# Type stubs of the package `rmodel` (PEP 561), for editors and type checkers. The test
# tests/python/test_stubs.py checks that they name what the module has, with its parameters.
import os
from dataclasses import dataclass
from typing import Literal, Mapping, Sequence, Union

import numpy as np
import numpy.typing as npt

from . import filters as filters
from ._errors import Error as Error
from ._errors import InvalidArgument as InvalidArgument
from ._errors import IoError as IoError
from ._errors import ModelError as ModelError
from ._errors import NotFound as NotFound
from ._errors import ParseError as ParseError
from ._errors import SizeMismatch as SizeMismatch

__version__: str
__all__: list[str]

_Path = Union[str, os.PathLike[str]]
_Array = npt.NDArray[np.float64]
#: One pose (pose_size values in full-pose order), N poses (N × pose_size), a dict
#: {joint: value} (the others 0) or a str as `rmodel fk --pose` ("stand,neck_pitch=0.2").
_Pose = Union[npt.ArrayLike, Mapping[str, float], str]
#: A time on the log's clock: int nanoseconds, or float/str seconds as `--start` reads them.
_Time = Union[int, np.integer, float, str, None]
_Problem = dict[str, object]

def sample_dir() -> str: ...

@dataclass(frozen=True)
class Chain:
    name: str
    first_link: str
    last_link: str
    last_link_virtual: str | None
    default_contact: str | None
    description: str
    joints: tuple[str, ...]
    virtual_joints: tuple[str, ...]
    indices: npt.NDArray[np.intp]
    group: str | None

@dataclass(frozen=True)
class Group:
    name: str
    description: str
    chains: tuple[str, ...]
    joints: tuple[str, ...]
    indices: npt.NDArray[np.intp]

@dataclass(frozen=True)
class Limits:
    lower: _Array
    upper: _Array
    velocity: _Array
    effort: _Array
    acceleration: _Array
    jerk: _Array

class Model:
    def __init__(
        self,
        path: _Path,
        semantics: _Path | None = None,
        package_path: _Path | Sequence[_Path] = (),
        xacro_args: Mapping[str, object] | None = None,
        limits: _Path | None = None,
    ) -> None: ...
    @property
    def robot_name(self) -> str: ...
    @property
    def root_link(self) -> str: ...
    @property
    def joint_names(self) -> list[str]: ...
    @property
    def links(self) -> list[str]: ...
    @property
    def has_semantics(self) -> bool: ...
    @property
    def total_mass(self) -> float | None: ...
    @property
    def diagnostics(self) -> list[dict[str, object]]: ...
    @property
    def chains(self) -> dict[str, Chain]: ...
    @property
    def groups(self) -> dict[str, Group]: ...
    @property
    def poses(self) -> dict[str, _Array]: ...
    @property
    def limits(self) -> Limits: ...
    def index(self, joint: str) -> int: ...
    def fk(self, q: _Pose, links: Sequence[str] | None = None) -> dict[str, _Array]: ...
    def jacobian(
        self,
        chain: str,
        q: _Pose,
        *,
        link: str | None = None,
        point: Sequence[float] | None = None,
        with_virtual: bool = False,
    ) -> _Array: ...
    def jacobian_columns(self, chain: str, *, with_virtual: bool = False) -> list[str]: ...
    def rnea(self, q: _Pose, v: _Pose, a: _Pose, *, g: Sequence[float] | None = None) -> _Array: ...
    def gravity(self, q: _Pose, *, g: Sequence[float] | None = None) -> _Array: ...
    def mass_matrix(self, q: _Pose) -> _Array: ...
    def center_of_mass(self, q: _Pose) -> _Array: ...

class LogWarning(UserWarning): ...

class Log:
    t: npt.NDArray[np.int64]
    stamped: npt.NDArray[np.bool_]
    line: npt.NDArray[np.int64]
    cycle: npt.NDArray[np.int64]
    names: list[str]
    position: _Array
    velocity: _Array
    effort: _Array
    source: str
    format: str
    problems: list[_Problem]
    def __init__(self, data: Mapping[str, object]) -> None: ...
    def __len__(self) -> int: ...
    def index(self, name: str) -> int: ...
    @property
    def seconds(self) -> _Array: ...

_Errors = Literal["warn", "raise", "ignore"]

def read_log(
    path: _Path,
    model: Model | None = None,
    topic: str | Sequence[str] | None = None,
    start: _Time = None,
    end: _Time = None,
    time: Literal["header", "log"] = "header",
    *,
    format: str = "auto",
    time_column: str | None = None,
    column_prefix: str | None = None,
    errors: _Errors = "warn",
) -> Log: ...
def aggregate(
    path: _Path,
    model: Model,
    *,
    kind: Literal["simple", "sync"] = "simple",
    period: float | str = 0.01,
    ticks: Literal["auto", "time", "stream"] = "auto",
    update: Literal["hold", "hold-zero-velocity", "extrapolate", "brake"] = "hold",
    publish: Literal["message", "tick", "both"] | None = None,
    diff: str = "diff",
    diff_params: Mapping[str, float] | None = None,
    quad: str = "euler",
    quad_params: Mapping[str, float] | None = None,
    clamp: bool = False,
    brake_deceleration: float = 10.0,
    initial_pose: _Pose | None = None,
    filter: filters.Filter | None = None,
    topic: str | Sequence[str] | None = None,
    start: _Time = None,
    end: _Time = None,
    time: Literal["header", "log"] = "header",
    format: str = "auto",
    time_column: str | None = None,
    column_prefix: str | None = None,
    errors: _Errors = "warn",
) -> Log: ...
def check(
    path: _Path,
    semantics: _Path | None = None,
    package_path: _Path | Sequence[_Path] = (),
    xacro_args: Mapping[str, object] | None = None,
    limits: _Path | None = None,
    meshes: bool = False,
    targets: str | Sequence[str] = (),
) -> list[_Problem]: ...
