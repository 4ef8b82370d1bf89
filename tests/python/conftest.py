"""Shared by the tests of the Python module (pytest; ctest runs each file, see
tests/CMakeLists.txt): where the built `rmodel` command, the checkout and the fixtures are,
and how to ask the command for the truth the module must equal."""

import json
import os
import subprocess
from decimal import Decimal
from pathlib import Path

import numpy as np
import pytest

SOURCE_DIR = Path(os.environ.get("RMODEL_SOURCE_DIR", Path(__file__).resolve().parents[2]))
EXAMPLES = SOURCE_DIR / "share" / "rmodel" / "examples"
SAMPLE = SOURCE_DIR / "share" / "rmodel" / "sample"
FIXTURES = Path(os.environ.get("RMODEL_FIXTURES_DIR", SOURCE_DIR.parent / "shared" / "fixtures"))
RMODEL_EXE = os.environ.get("RMODEL_EXE", str(SOURCE_DIR / "build" / "bin" / "rmodel"))


def fixture(*parts):
    """A path under ../shared/fixtures; the test is skipped when it is absent."""
    path = FIXTURES.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"needs the fixtures in {FIXTURES} (absent: {path})")
    return path


def rmodel(*args, ok=True):
    """Runs the built `rmodel` command; returns its standard output (text). With ok, a
    failing run fails the test with its standard error."""
    result = subprocess.run([RMODEL_EXE, *map(str, args)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env={**os.environ, "LC_ALL": "C.UTF-8"})
    if ok and result.returncode != 0:
        pytest.fail(f"rmodel {' '.join(map(str, args))} failed ({result.returncode}):\n{result.stderr}")
    return result.stdout


def rmodel_json(*args, ok=True):
    return json.loads(rmodel(*args, ok=ok))


def exact_ns(t):
    """Seconds as the command writes them (the shortest exact decimal) → int nanoseconds."""
    return int(Decimal(t) * 1_000_000_000)


def jsonl_records(text):
    """JSON Lines as the command writes them, numbers read exactly (Decimal; float() of one is
    the double the command wrote, which writes the shortest text that reads back to it)."""
    return [json.loads(line, parse_float=Decimal) for line in text.splitlines() if line.strip()]


# The robots of the fixtures (URDF, semantics or None), and the two robots of the checkout.
ROBOTS = [
    ("sweetie_bot_proto2/sweetie_bot_proto2.urdf", "sweetie_bot_proto2/kinematic_chains.cpf"),
    ("sweetie_bot_proto2/sweetie_bot_proto2_dynamics.urdf", "sweetie_bot_proto2/kinematic_chains.cpf"),
    ("sweetie_bot_proto2/sweetie_bot_proto2.urdf", "sweetie_bot_proto2/sweetie_bot_proto2.srdf"),
    ("example_robot_data/panda.urdf", "example_robot_data/panda.srdf"),
    ("example_robot_data/solo12.urdf", None),
    ("example_robot_data/talos_reduced.urdf", "example_robot_data/talos.srdf"),
]
CHECKOUT_ROBOTS = [
    (SAMPLE / "pony.urdf", SAMPLE / "pony.json"),
    (EXAMPLES / "robot.urdf", EXAMPLES / "robot.srdf"),
]


def robot_id(robot):
    urdf, semantics = robot
    return f"{Path(urdf).stem}+{Path(semantics).suffix[1:] if semantics else 'none'}"


def robot_files(robot):
    """(urdf, semantics) as paths, skipping when a fixture is absent."""
    urdf, semantics = robot
    if Path(urdf).is_absolute():
        return Path(urdf), Path(semantics) if semantics else None
    return fixture(urdf), fixture(semantics) if semantics else None


def model_args(urdf, semantics):
    return ["-u", urdf] + (["-s", semantics] if semantics else [])


def random_pose(model, rng, scale=1.0):
    """A pose within the joints' limits (±scale rad where unbounded)."""
    lim = model.limits
    lower = np.where(np.isfinite(lim.lower), lim.lower, -scale)
    upper = np.where(np.isfinite(lim.upper), lim.upper, scale)
    return rng.uniform(lower, upper)


def mimic_slots(model, urdf):
    """Full-pose slots of the URDF's mimic joints (read from the file, not from rmodel)."""
    import xml.etree.ElementTree as ET
    names = {j.get("name") for j in ET.parse(urdf).getroot().iter("joint") if j.find("mimic") is not None}
    return [i for i, n in enumerate(model.joint_names) if n in names]
