"""The stages are targets, and no target imports one after it in the flow: SwiftPM refuses an
undeclared import (scripts/test builds with --explicit-target-dependency-import-check error),
and this test holds the declared dependencies to the order of docs/architecture.md."""
import json
import subprocess

from conftest import REPO

# Bottom to top: a target may depend only on targets earlier in this list (and C libraries).
ORDER = [
    "LTrainSupport", "LTrainMustache", "LTrainMarkdown", "LTrainPNG", "LTrainTemplates",
    "LTrainLoad", "LTrainModel", "LTrainRoute", "LTrainRender", "LTrainCheck", "LTrainWrite",
    "LTrainScaffold", "LTrainKit", "LTrainBundle", "LTrainServe", "ltrain",
]
STAGES = ["LTrainLoad", "LTrainModel", "LTrainRoute", "LTrainRender", "LTrainCheck", "LTrainWrite"]


def targets():
    dumped = subprocess.run(["swift", "package", "dump-package"], cwd=REPO, capture_output=True, text=True, check=True)
    package = json.loads(dumped.stdout)
    result = {}
    for target in package["targets"]:
        names = []
        for dependency in target["dependencies"]:
            for kind in ("byName", "target", "product"):
                if kind in dependency:
                    names.append(dependency[kind][0])
        result[target["name"]] = (target["type"], names)
    return result


def test_every_stage_is_a_target_of_its_own():
    declared = targets()
    for stage in STAGES:
        assert stage in declared, f"{stage} is not a target"
    assert set(ORDER) <= set(declared)


def test_every_swift_target_has_its_place_in_the_order():
    # A target missing from ORDER would be skipped by the test below, whatever it imports.
    declared = targets()
    ours = {name for name, (kind, _) in declared.items() if kind != "test" and (name.startswith("LTrain") or name == "ltrain")}
    assert ours == set(ORDER), sorted(ours ^ set(ORDER))


def test_no_target_depends_on_one_after_it_in_the_flow():
    declared = targets()
    for name, (kind, dependencies) in declared.items():
        if kind == "test" or name not in ORDER:
            continue
        for dependency in dependencies:
            if dependency in ORDER:
                assert ORDER.index(dependency) < ORDER.index(name), f"{name} depends on {dependency}, which comes after it"


def test_the_test_command_refuses_undeclared_imports():
    script = (REPO / "scripts" / "test").read_text()
    builds = [line for line in script.splitlines() if line.startswith("swift build")]
    assert builds and all("--explicit-target-dependency-import-check error" in line for line in builds), builds
