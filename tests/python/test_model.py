"""rmodel.Model equals the `rmodel` command on every robot: the full pose (`joints`), the
limits, chains, groups and named poses, the index of each joint; loading xacro, semantics of
every format, joint_limits.yaml; the errors as rmodel.Error subclasses with file and line."""

import numpy as np
import pytest

import rmodel
from conftest import CHECKOUT_ROBOTS, EXAMPLES, ROBOTS, SAMPLE, model_args, rmodel_json, robot_files, robot_id


@pytest.fixture(params=ROBOTS + CHECKOUT_ROBOTS, ids=robot_id)
def robot(request):
    urdf, semantics = robot_files(request.param)
    return rmodel.Model(urdf, semantics=semantics), model_args(urdf, semantics)


def test_full_pose_and_limits_equal_rmodel_joints(robot):
    model, args = robot
    truth = rmodel_json("joints", *args, "-f", "json")["joints"]
    assert model.joint_names == [j["name"] for j in truth]
    assert [model.index(j["name"]) for j in truth] == [j["index"] for j in truth]
    limits = model.limits
    # The command shows a velocity or effort not given as 0, and an acceleration or jerk not
    # given as null or not at all; Python has inf for "no limit" (-inf for a lower one).
    def limit(j, field, missing):
        value = j.get(field)
        return missing if value is None or (value == 0 and field not in ("lower", "upper")) else value

    for field, missing in (("lower", -np.inf), ("upper", np.inf), ("velocity", np.inf), ("effort", np.inf),
                           ("acceleration", np.inf), ("jerk", np.inf)):
        expected = [limit(j, field, missing) for j in truth]
        np.testing.assert_array_equal(getattr(limits, field), expected, err_msg=field)


def test_chains_and_groups_equal_rmodel_chains_and_groups(robot):
    model, args = robot
    if not model.has_semantics:
        assert model.chains == {} and model.groups == {}
        return
    chains = rmodel_json("chains", *args, "-f", "json")["chains"]
    with_virtual = rmodel_json("chains", *args, "--with-virtual", "-f", "json")["chains"]
    assert list(model.chains) == [c["name"] for c in chains]
    for c, v in zip(chains, with_virtual):
        mine = model.chains[c["name"]]
        assert (mine.first_link, mine.last_link, mine.last_link_virtual, mine.default_contact, mine.group) == \
            (c["first_link"], c["last_link"], c["last_link_virtual"], c["default_contact"], c["group"])
        assert list(mine.joints) == c["joints"] and mine.indices.tolist() == c["indices"]
        assert list(mine.joints + mine.virtual_joints) == v["joints"]
    groups = rmodel_json("groups", *args, "-f", "json")["groups"]
    assert list(model.groups) == [g["name"] for g in groups]
    for g in groups:
        mine = model.groups[g["name"]]
        assert (list(mine.chains), list(mine.joints), mine.indices.tolist()) == (g["chains"], g["joints"], g["indices"])


def test_named_poses_equal_rmodel_poses_full(robot):
    model, args = robot
    listed = rmodel_json("poses", *args, "-f", "json")["poses"] if model.has_semantics else []
    names = [p["name"] for p in listed]
    keys = [p["name"] if names.count(p["name"]) == 1 else f"{p['group']}/{p['name']}" for p in listed]
    assert list(model.poses) == keys
    for key in keys:
        full = rmodel_json("poses", *args, "--full", key, "-f", "json")
        values = {j["name"]: j["position"] for j in full["joints"]} if "joints" in full else dict(
            zip(full["name"], full["position"]))
        np.testing.assert_array_equal(model.poses[key], [values[n] for n in model.joint_names])


def test_links_and_mass_are_the_urdfs():
    import xml.etree.ElementTree as ET
    model = rmodel.Model(SAMPLE / "pony.urdf", semantics=SAMPLE / "pony.json")
    root = ET.parse(SAMPLE / "pony.urdf").getroot()
    assert model.links == [link.get("name") for link in root.findall("link")]
    masses = [float(m.get("value")) for m in root.iter("mass")]
    assert model.total_mass == pytest.approx(sum(masses), abs=1e-12)
    assert model.robot_name == root.get("name") == "pony"
    assert model.root_link == "base_link"


def test_xacro_with_arguments_and_package_paths():
    """The shipped quadruped package: expanded, it is the hand-written URDF beside it; without
    its camera (an argument), the camera's link is gone (README, "Xacro")."""
    xacro = EXAMPLES / "xacro" / "quadruped_description" / "urdf" / "quadruped.urdf.xacro"
    written = rmodel.Model(EXAMPLES / "xacro" / "quadruped.urdf")
    with_camera = rmodel.Model(xacro, package_path=str(EXAMPLES / "xacro"))
    assert with_camera.links == written.links and with_camera.joint_names == written.joint_names
    without = rmodel.Model(xacro, package_path=[EXAMPLES / "xacro"], xacro_args={"with_camera": False})
    assert set(written.links) - set(without.links) == {"front_camera_link"}
    truth = rmodel_json("joints", "-u", xacro, "--package-path", EXAMPLES / "xacro", "-f", "json")["joints"]
    assert with_camera.joint_names == [j["name"] for j in truth]
    with pytest.raises(rmodel.ParseError) as raised:
        rmodel.Model(xacro)  # $(find quadruped_description) without the package path
    assert raised.value.file == str(xacro) and raised.value.line is not None


def test_semantics_in_every_format_give_the_same_pose():
    cpf = rmodel.Model(EXAMPLES / "robot.urdf", semantics=EXAMPLES / "robot.cpf")
    json_ = rmodel.Model(EXAMPLES / "robot.urdf", semantics=str(EXAMPLES / "robot.json"))
    srdf = rmodel.Model(EXAMPLES / "robot.urdf", semantics=EXAMPLES / "robot.srdf")
    assert cpf.joint_names == json_.joint_names
    assert set(srdf.joint_names) <= set(rmodel.Model(EXAMPLES / "robot.urdf").joint_names)


def test_a_limits_file_adds_acceleration_and_jerk():
    truth = rmodel_json("joints", "--sample", "--limits", EXAMPLES / "joint_limits.yaml", "-f", "json")["joints"]
    model = rmodel.Model(SAMPLE / "pony.urdf", semantics=SAMPLE / "pony.json", limits=EXAMPLES / "joint_limits.yaml")
    neck = model.index("neck_pitch")
    assert model.limits.acceleration[neck] == truth[neck]["acceleration"] and np.isfinite(truth[neck]["acceleration"])
    assert model.limits.jerk[neck] == truth[neck]["jerk"]


def test_poses_as_dicts_and_text():
    model = rmodel.Model(SAMPLE / "pony.urdf", semantics=SAMPLE / "pony.json")
    q = np.zeros(len(model.joint_names))
    q[model.index("neck_pitch")] = 0.3
    as_array = model.fk(q)
    for given in ({"neck_pitch": 0.3}, "neck_pitch=0.3", "neck_pitch=0.3,head_yaw=0"):
        frames = model.fk(given)
        for link in as_array:
            np.testing.assert_array_equal(frames[link], as_array[link])
    assert list(model.fk(q, links=["head", "base_link"])) == ["head", "base_link"]


# ---- errors: rmodel.Error subclasses with file and line ----

def test_a_missing_file_is_an_io_error_naming_it(tmp_path):
    missing = tmp_path / "none.urdf"
    with pytest.raises(rmodel.IoError) as raised:
        rmodel.Model(missing)
    assert raised.value.file == str(missing) and raised.value.line is None
    assert isinstance(raised.value, OSError) and isinstance(raised.value, rmodel.Error)


def test_a_malformed_urdf_is_a_parse_error_at_its_line(tmp_path):
    urdf = tmp_path / "bad.urdf"
    urdf.write_text('<robot name="r">\n  <link name="a"/>\n  <joint name="j" type="continuous">\n'
                    '    <parent link="a"/>\n    <child link="b"/>\n    <origin xyz="0 0 zero"/>\n'
                    '  </joint>\n  <link name="b"/>\n</robot>\n')
    with pytest.raises(rmodel.ParseError) as raised:
        rmodel.Model(urdf)
    assert raised.value.file == str(urdf) and raised.value.line == 6
    assert str(raised.value).startswith(f"{urdf}:6: ")
    assert isinstance(raised.value, ValueError)


def test_a_rule_broken_by_the_semantics_is_a_model_error(tmp_path):
    semantics = tmp_path / "bad.json"
    semantics.write_text('{"chains": [\n  {"name": "arm", "first_link": "base_link", "last_link": "hand"},\n'
                         '  {"name": "arm", "first_link": "base_link", "last_link": "foot"}\n]}\n')
    truth = rmodel_json("check", "-u", EXAMPLES / "robot.urdf", "-s", semantics, "-f", "json", ok=False)["problems"]
    errors = [p for p in truth if p["severity"] == "error"]
    with pytest.raises(rmodel.ModelError) as raised:
        rmodel.Model(EXAMPLES / "robot.urdf", semantics=semantics)
    assert raised.value.file == str(semantics)
    assert raised.value.line == errors[0]["line"] == 3
    assert "duplicate chain 'arm'" in str(raised.value) and isinstance(raised.value, rmodel.ParseError)


def test_unknown_names_are_not_found_with_kind_and_name():
    model = rmodel.Model(SAMPLE / "pony.urdf", semantics=SAMPLE / "pony.json")
    with pytest.raises(rmodel.NotFound) as raised:
        model.index("neck_pich")
    assert (raised.value.kind, raised.value.name) == ("joint", "neck_pich")
    assert "did you mean 'neck_pitch'" in str(raised.value) and isinstance(raised.value, LookupError)
    with pytest.raises(rmodel.NotFound):
        model.jacobian("front_leftt", np.zeros(len(model.joint_names)))
    with pytest.raises(rmodel.NotFound):
        model.fk({"nope": 1.0})
    with pytest.raises(rmodel.NotFound):
        model.fk(np.zeros(len(model.joint_names)), links=["nope"])


def test_wrong_sizes_are_size_mismatches():
    model = rmodel.Model(SAMPLE / "pony.urdf", semantics=SAMPLE / "pony.json")
    n = len(model.joint_names)
    with pytest.raises(rmodel.SizeMismatch, match=f"q: expected {n}, got {n - 1}"):
        model.fk(np.zeros(n - 1))
    with pytest.raises(rmodel.SizeMismatch):
        model.rnea(np.zeros((3, n)), np.zeros((2, n)), np.zeros(n))
    with pytest.raises(rmodel.InvalidArgument):
        model.fk(np.zeros((2, 2, n)))
