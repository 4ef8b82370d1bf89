#!/usr/bin/env python3
"""The files CI systems read from rmodel's repository (issue 41): action.yml (a composite GitHub
Action) and .pre-commit-hooks.yaml (pre-commit's hook manifest).

  check_ci_files.py --source-dir DIR --bin-dir DIR action      the action's metadata, checked
      against the keys GitHub documents ("Metadata syntax for GitHub Actions"), and its check
      step's script run with bash as the runner would run it (inputs through the environment)
  check_ci_files.py --source-dir DIR --bin-dir DIR pre-commit  the hook manifest, checked against
      pre-commit's documented hook keys, and run by Debian's pre-commit (`pre-commit try-repo`
      and `pre-commit run` in a temporary git repository): a good file passes, a broken one fails

Exits 77 (ctest's SKIP_RETURN_CODE) with a message when python3-yaml, pre-commit or git is absent.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

SKIP = 77

try:
    import yaml
except ImportError:
    yaml = None

failures = []


def check(condition, message):
    if not condition:
        failures.append(message)


# ---- action.yml ----

# https://docs.github.com/actions/sharing-automations/creating-actions/metadata-syntax-for-github-actions
ACTION_KEYS = {"name", "author", "description", "inputs", "outputs", "runs", "branding"}
INPUT_KEYS = {"description", "required", "default", "deprecationMessage"}
COMPOSITE_OUTPUT_KEYS = {"description", "value"}
STEP_KEYS = {"name", "id", "if", "run", "shell", "uses", "with", "env", "working-directory", "continue-on-error"}
BRANDING_COLORS = {"white", "black", "yellow", "blue", "green", "orange", "red", "purple", "gray-dark"}
ID = re.compile(r"^[A-Za-z_][A-Za-z0-9_-]*$")
EXPRESSION = re.compile(r"\$\{\{(.*?)\}\}")


def check_action(source_dir, bin_dir):
    with open(os.path.join(source_dir, "action.yml"), encoding="utf-8") as f:
        action = yaml.safe_load(f)
    check(isinstance(action, dict), "action.yml is not a mapping")
    check(set(action) <= ACTION_KEYS, f"action.yml: keys GitHub does not read: {set(action) - ACTION_KEYS}")
    for key in ("name", "description", "runs"):
        check(key in action, f"action.yml: '{key}' is required")
    check(len(action.get("description", "")) <= 125, "action.yml: the description is longer than the Marketplace shows")
    branding = action.get("branding", {})
    check(set(branding) <= {"icon", "color"}, "action.yml: branding has only icon and color")
    check(branding.get("color", "blue") in BRANDING_COLORS, "action.yml: branding.color is not one GitHub knows")
    inputs = action.get("inputs", {})
    for name, spec in inputs.items():
        check(ID.match(name), f"input '{name}': not a valid id")
        check(isinstance(spec, dict) and "description" in spec, f"input '{name}': a description is required")
        check(set(spec) <= INPUT_KEYS, f"input '{name}': keys GitHub does not read: {set(spec) - INPUT_KEYS}")
        check(isinstance(spec.get("default", ""), str), f"input '{name}': a default is a string")
    runs = action["runs"]
    check(runs.get("using") == "composite", "runs.using: composite")
    check(set(runs) <= {"using", "steps"}, f"runs: keys of a composite action only: {set(runs)}")
    step_ids = set()
    for i, step in enumerate(runs.get("steps", [])):
        where = f"step {i} ({step.get('name', step.get('id', '?'))})"
        check(set(step) <= STEP_KEYS, f"{where}: keys a composite step does not have: {set(step) - STEP_KEYS}")
        check(("run" in step) != ("uses" in step), f"{where}: exactly one of run and uses")
        if "run" in step:
            check("shell" in step, f"{where}: a run step of a composite action needs shell")
            # Inputs reach scripts through env: an expression in the script would be spliced in.
            check("${{" not in step["run"], f"{where}: an expression inside run")
        if "id" in step:
            check(ID.match(step["id"]), f"{where}: not a valid id")
            step_ids.add(step["id"])
    outputs = action.get("outputs", {})
    for name, spec in outputs.items():
        check(set(spec) <= COMPOSITE_OUTPUT_KEYS and "value" in spec,
              f"output '{name}': a composite action's output has description and value")
    # Every expression names a declared input, or an output of a step declared with that id.
    text = open(os.path.join(source_dir, "action.yml"), encoding="utf-8").read()
    for expression in EXPRESSION.findall(text):
        for ref in re.findall(r"inputs\.([A-Za-z0-9_-]+)", expression):
            check(ref in inputs, f"expression '{expression.strip()}' names an undeclared input '{ref}'")
        for ref in re.findall(r"steps\.([A-Za-z0-9_-]+)\.outputs", expression):
            check(ref in step_ids, f"expression '{expression.strip()}' names an undeclared step '{ref}'")
    check(any(s.get("uses", "").startswith("github/codeql-action/upload-sarif@") for s in runs["steps"]),
          "the SARIF report can be uploaded with github/codeql-action/upload-sarif")
    run_check_step(action, source_dir, bin_dir)


def run_check_step(action, source_dir, bin_dir):
    """Runs the script of the step `check` as the runner does: bash, the step's env with the
    inputs' values, GITHUB_OUTPUT a file; in a copy of the examples, rmodel from the build."""
    step = next(s for s in action["runs"]["steps"] if s.get("id") == "check")
    defaults = {name: spec.get("default", "") for name, spec in action["inputs"].items()}

    def run(inputs):
        values = dict(defaults, **inputs)
        env = dict(os.environ, PATH=bin_dir + os.pathsep + os.environ.get("PATH", ""))
        for key, value in step.get("env", {}).items():
            env[key] = EXPRESSION.sub(lambda m: values.get(m.group(1).strip()[len("inputs."):], ""), value)
        with tempfile.TemporaryDirectory() as work:
            shutil.copytree(os.path.join(source_dir, "share/rmodel/examples"), os.path.join(work, "repo"))
            os.mkdir(os.path.join(work, "repo", ".git"))
            env["GITHUB_OUTPUT"] = os.path.join(work, "output")
            done = subprocess.run(["bash", "-e", "-c", step["run"]], cwd=os.path.join(work, "repo"), env=env,
                                  capture_output=True, text=True)
            outputs = {}
            if os.path.exists(env["GITHUB_OUTPUT"]):
                for line in open(env["GITHUB_OUTPUT"], encoding="utf-8"):
                    key, _, value = line.rstrip("\n").partition("=")
                    outputs[key] = value
            report = None
            if outputs.get("report"):
                path = os.path.join(work, "repo", outputs["report"])
                report = open(path, encoding="utf-8").read() if os.path.exists(path) else None
            return done, outputs, report

    done, outputs, report = run({"urdf": "robot.urdf", "semantics": "broken.json"})
    check(done.returncode == 0, f"check step, broken model: the step fails only in 'Verdict': {done.stderr}")
    check(outputs.get("exit-code") == "1", f"check step, broken model: exit-code 1, got {outputs}")
    check(outputs.get("report") == "rmodel.sarif", f"check step: the report is rmodel.sarif, got {outputs}")
    check(report is not None and '"version": "2.1.0"' in report and '"ruleId": "unknown-link"' in report,
          "check step: a SARIF report with the broken model's results")
    done, outputs, report = run({"files": "robot.urdf\nxacro/quadruped.urdf", "args": "--strict", "format": "junit",
                                 "output": "rmodel.xml"})
    check(outputs.get("exit-code") == "0", f"check step, two valid files: exit-code 0, got {outputs} {done.stderr}")
    check(report is not None and report.count("<testsuite ") == 2, "check step: a JUnit report with two suites")
    done, outputs, _ = run({"urdf": "robot.urdf", "semantics": "broken.json", "format": "github"})
    check(outputs.get("report") == "" and "::error file=broken.json,line=2,title=unknown-link::" in done.stdout,
          f"check step, github: annotations on the log, no report file: {outputs} {done.stdout}")
    done, outputs, _ = run({"files": "robot.srdf"})
    check(done.returncode == 2 and outputs.get("exit-code") == "2", "check step: a usage error fails the step at once")


# ---- .pre-commit-hooks.yaml ----

# https://pre-commit.com/#creating-new-hooks
HOOK_KEYS = {"id", "name", "entry", "language", "files", "exclude", "types", "types_or", "exclude_types",
             "always_run", "fail_fast", "verbose", "pass_filenames", "require_serial", "description",
             "language_version", "minimum_pre_commit_version", "args", "stages"}


def check_pre_commit(source_dir, bin_dir):
    with open(os.path.join(source_dir, ".pre-commit-hooks.yaml"), encoding="utf-8") as f:
        hooks = yaml.safe_load(f)
    check(isinstance(hooks, list), ".pre-commit-hooks.yaml is a list of hooks")
    hook = next((h for h in hooks if h.get("id") == "rmodel-check"), None)
    check(hook is not None, "the hook rmodel-check")
    if hook is None:
        return
    check(set(hook) <= HOOK_KEYS, f"rmodel-check: keys pre-commit does not read: {set(hook) - HOOK_KEYS}")
    for key in ("id", "name", "entry", "language"):
        check(key in hook, f"rmodel-check: '{key}' is required")
    check(hook.get("language") == "system", "rmodel-check: language system (rmodel is installed)")
    files = re.compile(hook.get("files", ""))
    for path in ("robot.urdf", "urdf/robot.urdf.xacro", "config/robot.srdf", "config/robot.srdf.xacro",
                 "config/joint_limits.yaml", "joint_limits.yml"):
        check(files.search(path), f"rmodel-check: files matches {path}")
    for path in ("package.xml", "config/kinematics.yaml", "CMakeLists.txt", "launch/robot.launch.py"):
        check(not files.search(path), f"rmodel-check: files does not match {path}")

    if shutil.which("pre-commit") is None or shutil.which("git") is None:
        print("pre-commit or git not found (Debian packages pre-commit, git): skipping the run of the hook")
        return "skipped"
    examples = os.path.join(source_dir, "share/rmodel/examples")
    with tempfile.TemporaryDirectory() as work:
        env = dict(os.environ, PATH=bin_dir + os.pathsep + os.environ.get("PATH", ""),
                   PRE_COMMIT_HOME=os.path.join(work, "cache"), GIT_CONFIG_GLOBAL=os.devnull,
                   GIT_CONFIG_NOSYSTEM="1", GIT_AUTHOR_NAME="rmodel", GIT_AUTHOR_EMAIL="rmodel@localhost",
                   GIT_COMMITTER_NAME="rmodel", GIT_COMMITTER_EMAIL="rmodel@localhost")
        env.pop("GIT_DIR", None)

        def git(*args, cwd):
            subprocess.run(["git", *args], cwd=cwd, env=env, check=True, capture_output=True)

        # A repository holding the hook manifest as committed here (pre-commit reads it at a revision).
        hooks_repo = os.path.join(work, "hooks")
        os.mkdir(hooks_repo)
        git("init", "-q", cwd=hooks_repo)
        shutil.copy(os.path.join(source_dir, ".pre-commit-hooks.yaml"), hooks_repo)
        git("add", ".pre-commit-hooks.yaml", cwd=hooks_repo)
        git("commit", "-q", "-m", "hooks", cwd=hooks_repo)
        revision = subprocess.run(["git", "rev-parse", "HEAD"], cwd=hooks_repo, env=env, capture_output=True,
                                  text=True, check=True).stdout.strip()
        # The robot's repository.
        robot = os.path.join(work, "robot")
        os.makedirs(os.path.join(robot, "config"))
        git("init", "-q", cwd=robot)
        shutil.copy(os.path.join(examples, "robot.urdf"), robot)
        shutil.copy(os.path.join(examples, "robot.srdf"), os.path.join(robot, "config"))
        shutil.copy(os.path.join(examples, "joint_limits.yaml"), os.path.join(robot, "config"))
        with open(os.path.join(robot, "broken.urdf"), "w", encoding="utf-8") as f:
            f.write('<robot name="broken">\n  <link name="a">\n</robot>\n')
        git("add", ".", cwd=robot)

        def pre_commit(*args):
            return subprocess.run(["pre-commit", *args], cwd=robot, env=env, capture_output=True, text=True)

        good = pre_commit("try-repo", hooks_repo, "rmodel-check", "--files", "robot.urdf")
        check(good.returncode == 0 and "Passed" in good.stdout, f"try-repo, a good URDF passes:\n{good.stdout}{good.stderr}")
        bad = pre_commit("try-repo", hooks_repo, "rmodel-check", "--files", "robot.urdf", "broken.urdf")
        check(bad.returncode != 0 and "Failed" in bad.stdout and "broken.urdf:2: error: malformed XML" in bad.stdout,
              f"try-repo, a broken URDF fails and is named:\n{bad.stdout}{bad.stderr}")
        # A MoveIt configuration: the hook's args name the URDF its SRDF and limits go with.
        with open(os.path.join(robot, ".pre-commit-config.yaml"), "w", encoding="utf-8") as f:
            f.write(f"repos:\n- repo: {hooks_repo}\n  rev: {revision}\n  hooks:\n  - id: rmodel-check\n"
                    f"    args: [-u, robot.urdf]\n")
        git("add", ".pre-commit-config.yaml", cwd=robot)
        moveit = pre_commit("run", "rmodel-check", "--files", "config/robot.srdf", "config/joint_limits.yaml")
        check(moveit.returncode == 0 and "Passed" in moveit.stdout,
              f"run with -u, the SRDF and the limits pass:\n{moveit.stdout}{moveit.stderr}")
        everything = pre_commit("run", "rmodel-check", "--all-files")
        check(everything.returncode != 0 and "broken.urdf" in everything.stdout,
              f"run --all-files finds the broken URDF:\n{everything.stdout}{everything.stderr}")
    return "ran"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--source-dir", required=True)
    parser.add_argument("--bin-dir", required=True)
    parser.add_argument("what", choices=["action", "pre-commit"])
    args = parser.parse_args()
    if yaml is None:
        print("python3-yaml not found (Debian package python3-yaml): skipping the check of the CI files")
        return SKIP
    source_dir, bin_dir = os.path.abspath(args.source_dir), os.path.abspath(args.bin_dir)
    outcome = check_action(source_dir, bin_dir) if args.what == "action" else check_pre_commit(source_dir, bin_dir)
    for failure in failures:
        print("FAILED:", failure)
    if failures:
        return 1
    if outcome == "skipped":
        return SKIP
    print(f"{args.what}: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
