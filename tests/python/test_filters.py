"""rmodel.filters equals `rmodel filter`: the registry's kinds and parameters as `--list`
gives them, a filter run over read_log's arrays as the command filters the log itself (one
filter per joint, partial messages, steps from the stamps or T), and the step responses."""

import inspect

import numpy as np
import pytest

import rmodel
from rmodel import filters
from conftest import EXAMPLES, exact_ns, fixture, jsonl_records, rmodel as run_rmodel, rmodel_json

KINDS = [k.name for k in filters.kinds()]


def test_kinds_are_the_registrys():
    truth = rmodel_json("filter", "--list", "-f", "json")["kinds"]
    assert [k["name"] for k in truth] == KINDS
    for k, t in zip(filters.kinds(), truth):
        assert (k.family, k.description, k.initial_state) == (t["family"], t["description"], t["initial_state"])
        assert [(p.name, p.unit, p.default, p.description, p.integer) for p in k.params] == \
            [(p["name"], p["unit"], p["default"], p["description"], p["integer"]) for p in t["params"]]


def test_every_kind_is_a_function_of_its_parameters():
    for k in filters.kinds():
        make = getattr(filters, k.name)
        params = inspect.signature(make).parameters
        assert list(params) == [p.name for p in k.params]
        for p in k.params:
            assert params[p.name].kind is inspect.Parameter.KEYWORD_ONLY
            assert params[p.name].default == (None if p.name == "T" else p.default)
        f = make()
        assert f.kind == k and f.params == {}
        assert f.resolved_params == {p.name: p.default for p in k.params}


def params_for(kind):
    """Parameters that make each kind do something on a joint angle sampled every 10 ms."""
    return {"lag_diff": {"tau": 0.05}, "exponential": {"tau": 0.05}, "exp_limited": {"tau": 0.05, "v": 0.5},
            "fusion_linear": {"tau": 0.2}, "fusion_exp": {"tau": 0.05}, "linear": {"v": 0.5},
            "fusion_exp_limited": {"tau": 0.05, "v": 0.5}, "transfer_function": {"b0": 0.5, "b1": 0.5},
            "hysteresis": {"on": 0.2, "off": -0.1}, "fir_diff": {"window": 7, "order": 2},
            "second_order_acc_vel": {"vmax": 0.5}}.get(kind, {})


def command(log_path, kind, params, *options):
    args = ["filter", kind, log_path, "-f", "jsonl", *options]
    for name, value in params.items():
        args += ["-p", f"{name}={value!r}"]
    return [r for r in jsonl_records(run_rmodel(*args)) if "support" not in r]


def assert_equal_to_command(log, out, records, field):
    assert len(records) == len(log)
    for k, r in enumerate(records):
        assert log.t[k] == exact_ns(r["t"])
        expected = np.full(len(log.names), np.nan)
        values = r.get(field) or []
        if values:
            expected[[log.index(n) for n in r["name"]]] = [np.nan if v is None else float(v) for v in values]
        np.testing.assert_array_equal(out[k], expected, err_msg=f"row {k}")


@pytest.mark.parametrize("kind", KINDS)
def test_run_over_a_log_of_partial_messages_equals_rmodel_filter(kind):
    bag = fixture("bags", "greeting.zstd.mcap")  # three drivers, each with its own joints
    log = rmodel.read_log(bag)
    f = filters.Filter(kind, **params_for(kind))
    assert_equal_to_command(log, f.run(log.t, log.position), command(bag, kind, params_for(kind)), "position")


@pytest.mark.parametrize("kind", KINDS)
def test_run_with_irregular_stamps_equals_rmodel_filter(kind):
    bag = fixture("bags", "hoof_wave.lz4.bag")  # receive times: 0.15 to 1.5 ms after each stamp
    log = rmodel.read_log(bag, time="log")
    f = filters.Filter(kind, **params_for(kind))
    assert_equal_to_command(log, f.run(log.t, log.velocity),
                            command(bag, kind, params_for(kind), "--time", "log", "--field", "velocity"), "velocity")


@pytest.mark.parametrize("kind,params", [("exponential", {"tau": 0.5}), ("diff", {}),
                                         ("second_order", {"a0": 4, "a1": 4}), ("simpson", {})])
def test_run_with_a_fixed_step_equals_rmodel_filter(kind, params):
    path = EXAMPLES / "arm_wave.jsonl"  # sampled every 0.2 s
    log = rmodel.read_log(path)
    params = {"T": 0.2, **params}
    out = filters.Filter(kind, **params).run(log.t, log.position)
    assert_equal_to_command(log, out, command(path, kind, params), "position")
    # Without stamps every sample is T after the previous one: the same here (0.2 s apart).
    np.testing.assert_array_equal(filters.Filter(kind, **params).run(None, log.position), out)


def test_one_column_and_many_columns_agree():
    x = np.sin(np.linspace(0, 3, 50))
    t = np.arange(50, dtype=np.int64) * 10_000_000
    f = filters.exponential(tau=0.05)
    one = f.run(t, x)
    assert one.shape == (50,)
    np.testing.assert_array_equal(f.run(t, np.column_stack([x, x]))[:, 1], one)
    x_nan = x.copy()
    x_nan[10:20] = np.nan  # not set: passes through, the filter does not advance
    out = f.run(t, x_nan)
    assert np.isnan(out[10:20]).all()
    np.testing.assert_array_equal(out[:10], one[:10])


@pytest.mark.parametrize("kind", KINDS)
def test_step_response_equals_rmodel_filter_step(kind):
    params = params_for(kind)
    truth = command_step(kind, params)
    step = filters.Filter(kind, **params).step_response()
    assert len(step.t) == len(truth)
    np.testing.assert_array_equal(step.t, [float(r["t"]) for r in truth])
    np.testing.assert_array_equal(step.u, [float(r["input"]) for r in truth])
    np.testing.assert_array_equal(step.y, [np.nan if r["output"] is None else float(r["output"]) for r in truth])


def command_step(kind, params, *options):
    args = ["filter", kind, "--step", "-f", "jsonl", *options]
    for name, value in params.items():
        args += ["-p", f"{name}={value!r}"]
    return jsonl_records(run_rmodel(*args))


def test_step_response_duration_and_lead():
    truth = command_step("exponential", {"tau": 0.05}, "--duration", "0.5")
    step = filters.exponential(tau=0.05).step_response(duration=0.5)
    np.testing.assert_array_equal(step.y, [float(r["output"]) for r in truth])
    assert filters.exponential().step_response(duration=0.1, lead=0).t[0] == 0


def test_bad_kinds_and_parameters_are_invalid_arguments():
    with pytest.raises(rmodel.InvalidArgument, match="exponential"):
        filters.Filter("exponentail")
    with pytest.raises(rmodel.InvalidArgument, match="tau"):
        filters.exponential(tau=0.001)  # tau < T
    with pytest.raises(rmodel.InvalidArgument, match="alpha"):
        filters.Filter("exponential", alpha=1)
    with pytest.raises(rmodel.SizeMismatch):
        filters.exponential().run(np.zeros(3, dtype=np.int64), np.zeros(4))
