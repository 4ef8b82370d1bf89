"""Forward kinematics, Jacobians and dynamics from Python equal the C++ library's, as the
`rmodel fk`, `rmodel jacobian` and `rmodel dynamics` commands give them (JSON, every double
written exactly), on every robot of the fixtures and the two of the checkout, at random poses
(fixed seed). Mimic joints are left out of the poses given to the commands (which complete
them from their masters) and set to NaN in those given to Python (which must not read them)."""

import json

import numpy as np
import pytest

import rmodel
from conftest import (CHECKOUT_ROBOTS, ROBOTS, SOURCE_DIR, mimic_slots, model_args, random_pose, rmodel_json,
                      robot_files, robot_id)

# A gripper whose second finger and wrist are mimic joints in the full pose (no fixture robot
# has one there): the cases where Python and the commands read a pose differently unless
# mimic joints follow their masters.
MIMIC_URDF = """<robot name="gripper">
  <link name="base"/>
  <link name="arm"><inertial><origin xyz="0.15 0 0"/><mass value="1.2"/>
    <inertia ixx="0.01" ixy="0" ixz="0" iyy="0.02" iyz="0" izz="0.02"/></inertial></link>
  <link name="hand"><inertial><origin xyz="0.02 0 0"/><mass value="0.4"/>
    <inertia ixx="0.001" ixy="0" ixz="0" iyy="0.001" iyz="0" izz="0.001"/></inertial></link>
  <link name="finger_a"><inertial><mass value="0.05"/>
    <inertia ixx="0.0001" ixy="0" ixz="0" iyy="0.0001" iyz="0" izz="0.0001"/></inertial></link>
  <link name="finger_b"><inertial><mass value="0.05"/>
    <inertia ixx="0.0001" ixy="0" ixz="0" iyy="0.0001" iyz="0" izz="0.0001"/></inertial></link>
  <joint name="shoulder" type="revolute"><parent link="base"/><child link="arm"/>
    <origin xyz="0 0 0.1" rpy="0 0.2 0"/><axis xyz="0 1 0"/><limit lower="-2" upper="2" effort="10" velocity="1"/></joint>
  <joint name="wrist" type="revolute"><parent link="arm"/><child link="hand"/>
    <origin xyz="0.3 0 0"/><axis xyz="0 1 0"/><limit lower="-2" upper="2" effort="5" velocity="1"/>
    <mimic joint="shoulder" multiplier="-0.5" offset="0.2"/></joint>
  <joint name="finger_a_joint" type="prismatic"><parent link="hand"/><child link="finger_a"/>
    <origin xyz="0.05 0.02 0"/><axis xyz="0 1 0"/><limit lower="0" upper="0.04" effort="5" velocity="0.1"/></joint>
  <joint name="finger_b_joint" type="prismatic"><parent link="hand"/><child link="finger_b"/>
    <origin xyz="0.05 -0.02 0"/><axis xyz="0 -1 0"/><limit lower="0" upper="0.04" effort="5" velocity="0.1"/>
    <mimic joint="finger_a_joint" multiplier="1.5" offset="0.001"/></joint>
</robot>
"""
MIMIC_SEMANTICS = {"rmodel_semantics": 1, "chains": [
    {"name": "left", "first_link": "base", "last_link": "finger_a"},
    {"name": "right", "first_link": "base", "last_link": "finger_b"}]}

# tests/data/models/gripper.urdf: fingers mimicking each other, a revolute knuckle mimicking a
# prismatic finger with an offset, a tip mimicking the knuckle (chained); no masses.
DATA_GRIPPER_SEMANTICS = {"chains": [{"name": "finger", "first_link": "base_link", "last_link": "tip_link"}],
                          "groups": [{"name": "arm", "chains": ["finger"], "joints": ["finger_left"]}]}

ALL_ROBOTS = ROBOTS + CHECKOUT_ROBOTS + [("<mimic>", "<mimic>"), ("<data-gripper>", "<data-gripper>")]
POSES = 3


def quaternion_matrix(x, y, z, w):
    return np.array([
        [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
        [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
        [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
    ])


class Robot:
    def __init__(self, robot, tmp_path):
        if robot[0] == "<mimic>":
            robot = (tmp_path / "gripper.urdf", tmp_path / "gripper.json")
            robot[0].write_text(MIMIC_URDF)
            robot[1].write_text(json.dumps(MIMIC_SEMANTICS))
        elif robot[0] == "<data-gripper>":
            robot = (SOURCE_DIR / "tests" / "data" / "models" / "gripper.urdf", tmp_path / "gripper.json")
            robot[1].write_text(json.dumps(DATA_GRIPPER_SEMANTICS))
        self.urdf, self.semantics = robot_files(robot)
        self.model = rmodel.Model(self.urdf, semantics=self.semantics)
        self.args = model_args(self.urdf, self.semantics)
        self.mimic = mimic_slots(self.model, self.urdf)
        self.free = [i for i in range(len(self.model.joint_names)) if i not in self.mimic]
        self.tmp = tmp_path
        rng = np.random.default_rng(43)
        self.poses = [np.zeros(len(self.model.joint_names))] + [random_pose(self.model, rng) for _ in range(POSES)]

    def pose_file(self, q, k):
        """The pose without its mimic joints, as a joint state file for --pose-file."""
        path = self.tmp / f"pose{k}.json"
        path.write_text(json.dumps({"name": [self.model.joint_names[i] for i in self.free],
                                    "position": [float(q[i]) for i in self.free]}))
        return path

    def items(self, values):
        """joint=value items of the free joints (repr: the double's exact shortest text)."""
        return ",".join(f"{self.model.joint_names[i]}={float(values[i])!r}" for i in self.free)

    def for_python(self, q):
        q = np.array(q, dtype=float)
        q[self.mimic] = np.nan
        return q


@pytest.fixture(params=ALL_ROBOTS, ids=lambda r: str(r[0])[1:-1] if str(r[0]).startswith("<") else robot_id(r))
def robot(request, tmp_path):
    return Robot(request.param, tmp_path)


def test_the_grippers_have_mimic_joints_in_their_poses(tmp_path):
    robot = Robot(("<mimic>", "<mimic>"), tmp_path)
    assert [robot.model.joint_names[i] for i in robot.mimic] == ["wrist", "finger_b_joint"]
    assert robot.model.jacobian_columns("right") == ["shoulder", "finger_a_joint"]
    robot = Robot(("<data-gripper>", "<data-gripper>"), tmp_path)
    assert [robot.model.joint_names[i] for i in robot.mimic] == ["knuckle", "tip"]  # finger_right: outside
    assert robot.model.jacobian_columns("finger") == ["arm", "wrist", "finger_left"]


def test_fk_equals_rmodel_fk(robot):
    for k, q in enumerate(robot.poses):
        truth = rmodel_json("fk", *robot.args, "--pose-file", robot.pose_file(q, k), "--with-virtual", "-f", "json")
        frames = robot.model.fk(robot.for_python(q))
        assert [f["link"] for f in truth["frames"]] == list(frames)
        for f in truth["frames"]:
            m = frames[f["link"]]
            assert m.shape == (4, 4)
            np.testing.assert_array_equal(m[3], [0, 0, 0, 1])
            np.testing.assert_allclose(m[:3, 3], [f["x"], f["y"], f["z"]], rtol=0, atol=1e-12, err_msg=f["link"])
            np.testing.assert_allclose(m[:3, :3], quaternion_matrix(f["qx"], f["qy"], f["qz"], f["qw"]), rtol=0,
                                       atol=1e-12, err_msg=f["link"])


def test_jacobian_equals_rmodel_jacobian(robot):
    if not robot.model.chains:
        pytest.skip(f"{robot.urdf.name} has no chains")
    for k, q in enumerate(robot.poses[:2]):
        for chain in robot.model.chains:
            truth = rmodel_json("jacobian", *robot.args, "--chain", chain, "--pose-file", robot.pose_file(q, k),
                                "-f", "json")
            assert robot.model.jacobian_columns(chain) == truth["columns"]
            J = robot.model.jacobian(chain, robot.for_python(q))
            np.testing.assert_array_equal(J, np.array(truth["data"]), err_msg=chain)


def test_jacobian_of_a_link_and_point_with_virtual_joints(robot):
    chains = [c for c in robot.model.chains.values() if c.virtual_joints] or list(robot.model.chains.values())
    if not chains:
        pytest.skip(f"{robot.urdf.name} has no chains")
    chain = chains[0]
    q = robot.poses[1]
    link = chain.last_link
    truth = rmodel_json("jacobian", *robot.args, "--chain", chain.name, "--with-virtual", "--link", link,
                        "--point", "0.01,-0.02,0.03", "--pose-file", robot.pose_file(q, 0), "-f", "json")
    assert robot.model.jacobian_columns(chain.name, with_virtual=True) == truth["columns"]
    J = robot.model.jacobian(chain.name, robot.for_python(q), link=link, point=(0.01, -0.02, 0.03),
                             with_virtual=True)
    np.testing.assert_array_equal(J, np.array(truth["data"]))


def test_rnea_gravity_and_mass_matrix_equal_rmodel_dynamics(robot):
    rng = np.random.default_rng(7)
    n = len(robot.model.joint_names)
    for k, q in enumerate(robot.poses):
        v, a = rng.uniform(-2, 2, n), rng.uniform(-5, 5, n)
        truth = rmodel_json("dynamics", *robot.args, "--pose-file", robot.pose_file(q, k), "--velocity",
                            robot.items(v), "--acceleration", robot.items(a), "--mass-matrix", "-f", "json")
        assert [j["joint"] for j in truth["joints"]] == robot.model.joint_names
        qp, vp, ap = robot.for_python(q), robot.for_python(v), robot.for_python(a)
        np.testing.assert_array_equal(robot.model.rnea(qp, vp, ap), [j["total"] for j in truth["joints"]])
        np.testing.assert_array_equal(robot.model.gravity(qp), [j["gravity"] for j in truth["joints"]])
        np.testing.assert_array_equal(robot.model.mass_matrix(qp), np.array(truth["mass_matrix"]))


def test_many_poses_at_once_equal_one_at_a_time(robot):
    model = robot.model
    rng = np.random.default_rng(11)
    q = np.array([robot.for_python(random_pose(model, rng)) for _ in range(5)])
    v, a = rng.uniform(-1, 1, q.shape), rng.uniform(-1, 1, q.shape)
    frames = model.fk(q)
    for k in range(len(q)):
        one = model.fk(q[k])
        for link in one:
            np.testing.assert_array_equal(frames[link][k], one[link])
        np.testing.assert_array_equal(model.rnea(q, v, a)[k], model.rnea(q[k], v[k], a[k]))
        np.testing.assert_array_equal(model.rnea(q, v[0], a[0])[k], model.rnea(q[k], v[0], a[0]))
        np.testing.assert_array_equal(model.gravity(q)[k], model.gravity(q[k]))
        np.testing.assert_array_equal(model.mass_matrix(q)[k], model.mass_matrix(q[k]))
        np.testing.assert_array_equal(model.center_of_mass(q)[k], model.center_of_mass(q[k]))
        for chain in model.chains:
            np.testing.assert_array_equal(model.jacobian(chain, q)[k], model.jacobian(chain, q[k]))


def test_center_of_mass_and_total_mass_equal_rmodel_info(robot):
    for k, q in enumerate(robot.poses):
        truth = rmodel_json("info", *robot.args, "--pose-file", robot.pose_file(q, k), "-f", "json")
        assert robot.model.total_mass == truth["total_mass"]
        com = robot.model.center_of_mass(robot.for_python(q))
        if truth["center_of_mass"] is None:  # no mass at all
            np.testing.assert_array_equal(com, [0, 0, 0])
        else:
            np.testing.assert_allclose(com, truth["center_of_mass"], rtol=0, atol=1e-12)
