"""Nothing lost: a build killed at any moment leaves the output as the complete old site or the
complete new one, byte for byte; and builds are deterministic."""

import pathlib
import random
import shutil
import signal
import subprocess
import sys
import time

from conftest import REPO, ltrain_binary, run_ltrain

sys.path.insert(0, str(REPO / "Benchmarks"))
import sitegen  # noqa: E402

STATIONS = 1500


def snapshot(folder: pathlib.Path, with_manifest: bool = True) -> dict:
    files = {}
    for path in sorted(folder.rglob("*")):
        if path.is_file():
            relative = str(path.relative_to(folder))
            if relative == ".ltrain-manifest" and not with_manifest:
                continue
            files[relative] = path.read_bytes()
    return files


def build(root, output, check=True):
    return run_ltrain(
        "build", "--content", root / "content", "--templates", REPO / "templates", "--output", output, check=check
    )


def test_a_killed_build_leaves_the_old_site_or_the_new_one(tmp_path):
    old_root, new_root = tmp_path / "old", tmp_path / "new"
    sitegen.generate_ltrain(old_root, STATIONS)
    sitegen.generate_ltrain(new_root, STATIONS, variant=" (renamed)")
    # The complete new site, built elsewhere for comparison.
    build(new_root, tmp_path / "reference")
    expected_new = snapshot(tmp_path / "reference", with_manifest=False)

    output = tmp_path / "_site"
    build(old_root, output)
    expected_old = snapshot(output)
    started = time.monotonic()
    build(new_root, tmp_path / "timing")
    duration = time.monotonic() - started

    rng = random.Random(2024)
    outcomes = {"old": 0, "new": 0}
    attempts = 10
    for attempt in range(attempts):
        # Each attempt starts from the old site, then kills a build of the new one at a random moment.
        shutil.rmtree(output)
        build(old_root, output)
        expected_old = snapshot(output)
        process = subprocess.Popen(
            [str(ltrain_binary()), "build", "--content", new_root / "content", "--templates", REPO / "templates",
             "--output", output],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        # Spread the kills over the whole build and a little past it, jittered.
        time.sleep(duration * 1.3 * (attempt + rng.random()) / attempts)
        process.send_signal(signal.SIGKILL)
        process.wait()
        now = snapshot(output)
        if now == expected_old:
            outcomes["old"] += 1
        else:
            assert ".ltrain-manifest" in now, f"attempt {attempt}: the output is neither the old nor the new site"
            del now[".ltrain-manifest"]
            assert now == expected_new, f"attempt {attempt}: the output is neither the old nor the new site"
            outcomes["new"] += 1
        # A later build recovers from whatever the killed one left behind.
        build(new_root, output)
        assert snapshot(output, with_manifest=False) == expected_new
        assert not (tmp_path / "._site.ltrain-staging").exists()
    print(f"\nkill test: {outcomes['old']} kills left the old site, {outcomes['new']} the new one "
          f"(build of {STATIONS} stations takes {duration:.2f} s)")


def test_two_builds_of_the_same_input_are_byte_identical(tmp_path):
    sitegen.generate_ltrain(tmp_path, 200)
    build(tmp_path, tmp_path / "a")
    build(tmp_path, tmp_path / "b")
    run_ltrain("build", "--content", tmp_path / "content", "--templates", REPO / "templates",
               "--output", tmp_path / "c", "--jobs", "1")
    a, b, c = (snapshot(tmp_path / name, with_manifest=False) for name in "abc")
    # stations, info pages, index, 404, checklist, style.css, ltrain.js; and for offline use
    # sw.js, offline-files.js, manifest.webmanifest and three icons; search.js, search-index.js and
    # the five shards of 40 stations
    assert len(a) == 2 * 200 + 5 + 6 + 2 + 5
    assert a == b == c
