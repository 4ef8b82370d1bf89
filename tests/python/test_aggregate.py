"""rmodel.aggregate equals `rmodel aggregate` pose for pose (stamps, cycles, positions,
velocities, efforts), for the simple and the sync aggregator, with filters and options, on the
ROS logs of the fixtures and the sample robot's logs; and rmodel.check equals `rmodel check`."""

import numpy as np
import pytest

import rmodel
from rmodel import filters
from conftest import EXAMPLES, SAMPLE, exact_ns, fixture, jsonl_records, rmodel as run_rmodel, rmodel_json


def command(log, model_args, *options):
    out = run_rmodel("aggregate", *model_args, log, "--no-support", "-f", "jsonl", *options, ok=False)
    return jsonl_records(out)


def assert_equal(poses, records, names):
    assert len(poses) == len(records)
    assert poses.names == names
    for k, r in enumerate(records):
        assert r["name"] == names
        assert poses.t[k] == exact_ns(r["t"]), k
        assert poses.cycle[k] == r.get("cycle", -1)
        for field in ("position", "velocity", "effort"):
            expected = np.full(len(names), np.nan)  # absent from the record: never carried yet
            if field in r:
                expected = [np.nan if v is None else float(v) for v in r[field]]
            np.testing.assert_array_equal(getattr(poses, field)[k], expected, err_msg=f"pose {k} {field}")


SWEETIE = ("sweetie_bot_proto2", "sweetie_bot_proto2.urdf", "kinematic_chains.cpf")


@pytest.mark.parametrize("options,cli", [
    ({}, []),
    ({"kind": "sync", "period": 0.01}, ["--kind", "sync", "--period", "0.01"]),
    ({"kind": "sync", "period": "0.02", "update": "extrapolate", "diff": "lag_diff", "diff_params": {"tau": 0.05}},
     ["--kind", "sync", "--period", "0.02", "--update", "extrapolate", "--diff", "lag_diff",
      "--diff-param", "tau=0.05"]),
    ({"kind": "sync", "publish": "both", "clamp": True}, ["--kind", "sync", "--publish", "both", "--clamp"]),
    ({"filter": filters.exponential(tau=0.05)}, ["--filter", "exponential", "--filter-param", "tau=0.05"]),
    ({"initial_pose": "joint11=0.2", "time": "log", "start": 1.0}, ["--initial-pose", "joint11=0.2", "--time", "log",
                                                                    "--start", "1.0"]),
])
def test_aggregate_equals_rmodel_aggregate(options, cli):
    folder, urdf, semantics = SWEETIE
    urdf, semantics = fixture(folder, urdf), fixture(folder, semantics)
    model = rmodel.Model(urdf, semantics=semantics)
    bag = fixture("bags", "greeting.bag")
    poses = rmodel.aggregate(bag, model, **options)
    assert_equal(poses, command(bag, ["-u", urdf, "-s", semantics], *cli), model.joint_names)


def test_aggregate_of_the_sample_logs():
    model = rmodel.Model(SAMPLE / "pony.urdf", semantics=SAMPLE / "pony.json")
    for log in ("walk.jsonl", "swing.jsonl", "fl.jsonl", "pony_log.jsonl"):
        for options, cli in (({}, []), ({"kind": "sync"}, ["--kind", "sync"])):
            poses = rmodel.aggregate(EXAMPLES / log, model, errors="ignore", **options)
            assert_equal(poses, command(EXAMPLES / log, ["--sample"], *cli), model.joint_names)


def test_bad_options_are_invalid_arguments():
    model = rmodel.Model(SAMPLE / "pony.urdf", semantics=SAMPLE / "pony.json")
    with pytest.raises(rmodel.InvalidArgument, match="kind"):
        rmodel.aggregate(EXAMPLES / "walk.jsonl", model, kind="synchronous")
    with pytest.raises(rmodel.InvalidArgument):
        rmodel.aggregate(EXAMPLES / "walk.jsonl", model, kind="sync", diff="euler")
    with pytest.raises(rmodel.InvalidArgument):
        rmodel.aggregate(EXAMPLES / "walk.jsonl", model, period=-0.01)


@pytest.mark.parametrize("semantics", ["broken.json", "robot.json", "robot.srdf"])
def test_check_equals_rmodel_check(semantics):
    truth = rmodel_json("check", "-u", EXAMPLES / "robot.urdf", "-s", EXAMPLES / semantics, "-f", "json",
                        ok=False)["problems"]
    problems = rmodel.check(EXAMPLES / "robot.urdf", semantics=EXAMPLES / semantics)
    assert problems == [{**p, "line": p["line"] or None, "file": p["file"] or None} for p in truth]
    if semantics == "broken.json":
        assert any(p["severity"] == "error" for p in problems)


def test_check_with_targets_equals_rmodel_check_target():
    urdf = SAMPLE / "pony.urdf"
    truth = rmodel_json("check", urdf, "--target", "mujoco", "--target", "kdl", "--target", "gazebo", "-f", "json",
                        ok=False)["problems"]
    problems = rmodel.check(urdf, targets=["mujoco", "kdl", "gazebo"])
    assert problems == [{**p, "line": p["line"] or None, "file": p["file"] or None} for p in truth]
    assert any(p["code"].startswith("mujoco-") for p in problems)  # its massless hoof links move
    assert rmodel.check(urdf, targets="kdl") == [p for p in problems if not p["code"].startswith(("mujoco-", "gazebo-"))]
    with pytest.raises(rmodel.InvalidArgument, match="'drake' is not one of mujoco, kdl, gazebo"):
        rmodel.check(urdf, targets=["drake"])
