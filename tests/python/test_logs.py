"""Logs read from Python equal, row for row, value for value and stamp for stamp, what the
reader's independent truth holds (the ROS bags' *.truth.jsonl) and what the `rmodel` command
writes for the same log (`rmodel filter transfer_function`: the identity filter b0 = a0 = 1,
which writes every joint state as read), with the same problems reported."""

import json
from decimal import Decimal

import numpy as np
import pytest

import rmodel
from conftest import EXAMPLES, exact_ns, fixture, jsonl_records

BAGS = ["greeting.zstd.mcap", "greeting.lz4.mcap", "greeting_db3", "greeting.bag", "greeting.bz2.bag",
        "hoof_wave.mcap", "hoof_wave.zstd.mcap", "hoof_wave_db3", "hoof_wave.lz4.bag"]
SWEETIE_LOGS = ["joint_state/body_nominal.json", "joint_state/crouched.json", "joint_state/head_nominal.json",
                "joint_state/lying.json", "joint_state/nominal.json", "joint_trajectories/brohoof_begin.json",
                "joint_trajectories/greeting.json", "joint_trajectories/head_node.json",
                "joint_trajectories/hoof_wave.json"]
EXAMPLE_LOGS = ["arm_wave.jsonl", "walk.jsonl", "swing.jsonl", "pony_log.jsonl", "fl.jsonl", "crouch.jsonl",
                "neck_echo.yaml", "plotjuggler.csv", "arm_raise.json", "arm_turn.json"]


def read(path, **options):
    return rmodel.read_log(path, errors="ignore", **options)


def assert_row(log, k, names, fields, where):
    """Row k of `log` sets exactly `names`, with these field values (a field absent: NaN)."""
    columns = [log.index(n) for n in names]
    for field in ("position", "velocity", "effort"):
        row = getattr(log, field)[k]
        values = fields.get(field) or []
        expected = np.full(len(log.names), np.nan)
        if values:
            expected[columns] = [np.nan if v is None else float(v) for v in values]  # null: NaN
        np.testing.assert_array_equal(row, expected, err_msg=f"{where}: {field}")


@pytest.mark.parametrize("name", BAGS)
def test_ros_logs_equal_their_truth(name):
    path = fixture("bags", name)
    stem = name.split(".")[0].removesuffix("_db3")
    truth = [json.loads(line) for line in fixture("bags", f"{stem}.truth.jsonl").read_text().splitlines()]
    log = rmodel.read_log(path)
    log_time = rmodel.read_log(path, time="log")
    assert len(log) == len(truth) == len(log_time)
    assert log.t.dtype == np.int64 and log.stamped.all()
    for k, m in enumerate(truth):
        stamp = m["header"]["stamp"]
        assert log.t[k] == stamp["sec"] * 1_000_000_000 + stamp["nanosec"]
        assert log_time.t[k] == m["log_time_ns"]
        assert_row(log, k, m["name"], m, f"{name} message {k + 1}")
    np.testing.assert_array_equal(log.position, log_time.position)
    assert (np.diff(log.line) > 0).all()  # ROS logs: the message numbers in the file


def command_rows(path, *options):
    """What `rmodel filter transfer_function` (the identity) writes for the log: its joint-state
    records, and its diagnostics as the lines it prints on stderr."""
    import subprocess
    from conftest import RMODEL_EXE
    result = subprocess.run([RMODEL_EXE, "filter", "transfer_function", str(path), "-f", "jsonl", *options],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    records = [r for r in jsonl_records(result.stdout) if "support" not in r and "contact" not in r]
    problems = [line for line in result.stderr.splitlines() if not line.startswith("rmodel filter: ")]
    return records, problems


# The library names its options by their fields; Python by its keyword arguments, the command by
# its flags (python/src/errors.cpp, apps/rmodel/option_fields.cpp, docs/design.md "Errors name
# API fields").
ARGUMENT_FLAGS = {"column_prefix=": "--column-prefix", "time_column=": "--time-column", "topic=": "--topic",
                  "start=": "--start", "end=": "--end"}


def in_flag_words(text):
    assert "::" not in text, f"a field of the library's API in a problem shown in Python: {text}"
    for argument, flag in ARGUMENT_FLAGS.items():
        text = text.replace(argument, flag)
    return text


def python_problems(log):
    return [in_flag_words(f"rmodel: {p['location']}: {'warning: ' if p['severity'] == 'warning' else ''}{p['message']}")
            for p in log.problems]


def assert_equals_command(path, **options):
    cli_options = []
    for key, value in options.items():
        cli_options += [f"--{key.replace('_', '-')}", str(value)]
    records, problems = command_rows(path, *cli_options)
    log = read(path, **options)
    assert len(log) == len(records), path
    for k, r in enumerate(records):
        if "t" in r:
            assert log.stamped[k] and log.t[k] == exact_ns(r["t"]), f"{path}: row {k}"
        else:
            assert not log.stamped[k] and log.t[k] == 0
        assert_row(log, k, r["name"], r, f"{path}: row {k}")
    assert python_problems(log) == problems
    return log


@pytest.mark.parametrize("name", BAGS)
def test_ros_logs_equal_the_command(name):
    assert_equals_command(fixture("bags", name))


@pytest.mark.parametrize("name", SWEETIE_LOGS)
def test_sweetie_bot_logs_equal_the_command(name):
    assert_equals_command(fixture("sweetie_bot_proto2", name))


@pytest.mark.parametrize("name", EXAMPLE_LOGS)
def test_example_logs_equal_the_command(name):
    assert_equals_command(EXAMPLES / name)


def test_options_as_the_command_reads_them():
    csv = EXAMPLES / "plotjuggler.csv"
    log = assert_equals_command(csv, column_prefix="/arm/joint_states/")
    assert log.names == ["elbow"]
    bag = fixture("bags", "greeting.zstd.mcap")
    assert_equals_command(bag, start="1.5", end="2.25")
    assert_equals_command(bag, start="1700000001.5", time="log")
    assert_equals_command(bag, topic="/joint_states")


def test_a_model_puts_the_columns_in_full_pose_order():
    bag = fixture("bags", "hoof_wave.mcap")
    model = rmodel.Model(fixture("sweetie_bot_proto2", "sweetie_bot_proto2.urdf"),
                         semantics=fixture("sweetie_bot_proto2", "kinematic_chains.cpf"))
    free = read(bag)
    posed = read(bag, model=model)
    assert posed.names == model.joint_names
    np.testing.assert_array_equal(posed.t, free.t)
    for field in ("position", "velocity", "effort"):
        a, b = getattr(free, field), getattr(posed, field)
        for j, name in enumerate(free.names):
            np.testing.assert_array_equal(b[:, model.index(name)], a[:, j])
        others = [model.index(n) for n in model.joint_names if n not in free.names]
        assert np.isnan(b[:, others]).all()


def test_an_integer_window_is_nanoseconds_on_the_log_clock():
    bag = fixture("bags", "greeting.lz4.mcap")
    whole = read(bag)
    start, end = int(whole.t[100]), int(whole.t[700])
    part = read(bag, start=start, end=end)
    keep = (whole.t >= start) & (whole.t < end)
    np.testing.assert_array_equal(part.t, whole.t[keep])
    np.testing.assert_array_equal(part.position, whole.position[keep])
    assert read(bag, start=np.int64(start), end=end).t.tolist() == part.t.tolist()


def test_stamps_beyond_two_to_the_53_are_exact(tmp_path):
    path = tmp_path / "exact.jsonl"
    stamps = ["1700000000.000000001", "1700000000.123456789", "9223372036.854775807", "-0.5"]
    path.write_text("".join(f'{{"t": {t}, "name": ["a"], "position": [{k}]}}\n' for k, t in enumerate(stamps)))
    log = rmodel.read_log(path)
    assert log.t.tolist() == [int(Decimal(t) * 1_000_000_000) for t in stamps]


def test_problems_warn_raise_or_are_ignored(tmp_path):
    path = EXAMPLES / "pony_log.jsonl"
    with pytest.warns(rmodel.LogWarning, match=r"pony_log.jsonl:5: error: message rejected"):
        log = rmodel.read_log(path)
    assert [p["line"] for p in log.problems] == [5, 6]
    assert log.problems[0]["severity"] == "error" and log.problems[0]["file"] == str(path)
    with pytest.raises(rmodel.ParseError) as raised:
        rmodel.read_log(path, errors="raise")
    assert raised.value.file == str(path) and raised.value.line == 5
    assert "'position' has 1 values for 2 names" in str(raised.value)
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert len(rmodel.read_log(path, errors="ignore")) == len(log)


def test_a_log_is_read_with_the_gil_released(tmp_path):
    """A reader blocked on a pipe lets the writer, another Python thread, run: with the GIL held
    the two would wait for each other forever."""
    import os
    import threading
    fifo = tmp_path / "live.jsonl"
    os.mkfifo(fifo)
    result = {}
    reader = threading.Thread(target=lambda: result.update(log=rmodel.read_log(fifo)))
    reader.start()
    with open(fifo, "w") as out:
        for k in range(100):
            out.write(f'{{"t": {k}, "name": ["a"], "position": [{k}]}}\n')
            out.flush()
    reader.join(60)
    assert not reader.is_alive()
    assert result["log"].position[:, 0].tolist() == list(range(100))


def test_arrays_are_the_readers_own_memory():
    log = rmodel.read_log(EXAMPLES / "walk.jsonl")  # velocities in one message, efforts in none
    for a in (log.t, log.stamped, log.line, log.position, log.velocity):
        assert a.flags.c_contiguous and a.flags.writeable and not a.flags.owndata and a.base is not None
    assert log.position.dtype == np.float64 and log.position.shape == (5, 4) and log.stamped.dtype == bool
    assert np.isnan(log.velocity[[0, 2, 3, 4]]).all() and not np.isnan(log.velocity[1, :3]).any()
    # A field no message carries takes no memory: a read-only view of one NaN.
    assert log.effort.shape == (5, 4) and np.isnan(log.effort).all() and not log.effort.flags.writeable
    assert log.effort.strides == (0, 0)


def test_columns_added_as_the_log_names_new_joints(tmp_path):
    """Without a model every new name is a column: rows read before it get NaN there, however
    many names arrive late (the rows are re-laid out as the columns outgrow their room)."""
    path = tmp_path / "growing.jsonl"
    lines = []
    for k in range(40):
        names = [f"j{i}" for i in range(k // 2 + 1)]
        lines.append(json.dumps({"t": k, "name": names, "position": [k + i / 100 for i in range(len(names))],
                                 "velocity": [-k] * len(names) if k >= 10 else []}))
    path.write_text("\n".join(lines) + "\n")
    log = rmodel.read_log(path)
    assert log.names == [f"j{i}" for i in range(20)]
    for k in range(40):
        width = k // 2 + 1
        np.testing.assert_array_equal(log.position[k, :width], [k + i / 100 for i in range(width)])
        assert np.isnan(log.position[k, width:]).all()
        if k >= 10:
            np.testing.assert_array_equal(log.velocity[k, :width], -k)
        assert np.isnan(log.velocity[k, width if k >= 10 else 0:]).all()


def test_missing_file_is_an_io_error():
    with pytest.raises(rmodel.IoError) as raised:
        rmodel.read_log(EXAMPLES / "no_such.jsonl")
    assert raised.value.file == str(EXAMPLES / "no_such.jsonl")
    assert isinstance(raised.value, OSError)


def test_problems_name_the_keyword_arguments():
    """The library names its options by API fields ("ReaderOptions::column_prefix"); Python shows
    the keyword argument that sets it, as the command shows its flag."""
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        log = rmodel.read_log(EXAMPLES / "plotjuggler.csv")
    [problem] = log.problems
    assert "(column_prefix=)" in problem["message"] and "::" not in problem["message"], problem["message"]
    # Given, it reads the topic it names.
    assert rmodel.read_log(EXAMPLES / "plotjuggler.csv", column_prefix="/arm/joint_states/").problems == []


def test_a_topic_of_a_text_log_is_refused_not_ignored():
    with pytest.raises(rmodel.InvalidArgument, match=r"a jsonl log has no topics to choose from \(topic= chooses"):
        rmodel.read_log(EXAMPLES / "walk.jsonl", topic="/joint_states")
