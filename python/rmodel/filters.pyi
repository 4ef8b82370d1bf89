# Type stubs of rmodel.filters (PEP 561). One function per kind of the filter registry
# (`rmodel filter --list`), with its parameters and their defaults; T=None: the steps come from
# the stamps. tests/python/test_stubs.py checks them against the registry.
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

__all__: list[str]

class Param(NamedTuple):
    name: str
    unit: str
    default: float
    description: str
    integer: bool

class Kind(NamedTuple):
    name: str
    family: str
    description: str
    initial_state: str
    params: tuple[Param, ...]

class StepResponse(NamedTuple):
    t: npt.NDArray[np.float64]
    u: npt.NDArray[np.float64]
    y: npt.NDArray[np.float64]

def kinds() -> list[Kind]: ...
def kind(name: str) -> Kind: ...

class Filter:
    def __init__(self, kind_name: str, **params: float) -> None: ...
    @property
    def kind(self) -> Kind: ...
    @property
    def params(self) -> dict[str, float]: ...
    @property
    def resolved_params(self) -> dict[str, float]: ...
    def run(self, t: npt.ArrayLike | None, x: npt.ArrayLike) -> npt.NDArray[np.float64]: ...
    def step_response(self, duration: float | None = None, lead: int = 5) -> StepResponse: ...

# Euler integrator (first order): y[k+1] = y[k] + T*u[k]
def euler(*, T: float | None = None) -> Filter: ...
# trapezoid-rule integrator (second order)
def trapezoid(*, T: float | None = None) -> Filter: ...
# Simpson-rule integrator (fourth order)
def simpson(*, T: float | None = None) -> Filter: ...
# backward difference: y[k] = (u[k] - u[k-1])/T
def diff(*, T: float | None = None) -> Filter: ...
# lag differentiator s/(tau*s + 1): the derivative low-passed with time constant tau
def lag_diff(*, T: float | None = None, tau: float = 0.1) -> Filter: ...
# FIR polynomial (Savitzky-Golay) derivative at the newest sample, exact up to order
def fir_diff(*, T: float | None = None, window: int = 5, order: int = 2) -> Filter: ...
# moves toward the input at constant speed v, along a straight line in joint space
def linear(*, T: float | None = None, v: float = 1.0) -> Filter: ...
# first-order low-pass: y[k] = y[k-1] + T/tau*(u[k] - y[k-1])
def exponential(*, T: float | None = None, tau: float = 0.1) -> Filter: ...
# first-order low-pass moving no joint faster than v
def exp_limited(*, T: float | None = None, tau: float = 0.1, v: float = 1.0) -> Filter: ...
# linear hand-over from a held value to the input, completed in tau
def fusion_linear(*, T: float | None = None, tau: float = 0.1) -> Filter: ...
# exponential hand-over from a held value to the input, time constant tau
def fusion_exp(*, T: float | None = None, tau: float = 0.1) -> Filter: ...
# exponential hand-over whose blend moves no joint faster than v
def fusion_exp_limited(*, T: float | None = None, tau: float = 0.1, v: float = 1.0) -> Filter: ...
# second-order follower: v' = a0*(u - x) + a1*(v_u - v), exponential convergence
def second_order(*, T: float | None = None, a0: float = 100.0, a1: float = 20.0, ff: int = 0) -> Filter: ...
# second-order follower with bounded acceleration
def second_order_acc(
    *,
    T: float | None = None,
    a0: float = 100.0,
    a1: float = 20.0,
    amax: float = 10.0,
    ff: int = 0,
) -> Filter: ...
# second-order follower with bounded acceleration and velocity
def second_order_acc_vel(
    *,
    T: float | None = None,
    a0: float = 100.0,
    a1: float = 20.0,
    amax: float = 10.0,
    vmax: float = 1.0,
    ff: int = 0,
) -> Filter: ...
# y[k] = sum b_i*u[k-i] - sum_{i>=1} a_i*y[k-i], coefficients divided by a0
def transfer_function(
    *,
    b0: float = 1.0,
    b1: float = 0.0,
    b2: float = 0.0,
    b3: float = 0.0,
    b4: float = 0.0,
    b5: float = 0.0,
    b6: float = 0.0,
    b7: float = 0.0,
    a0: float = 1.0,
    a1: float = 0.0,
    a2: float = 0.0,
    a3: float = 0.0,
    a4: float = 0.0,
    a5: float = 0.0,
    a6: float = 0.0,
    a7: float = 0.0,
) -> Filter: ...
# per-joint relay: 1 from u >= on until u <= off, then 0
def hysteresis(*, on: float = 0.5, off: float = -0.5) -> Filter: ...
