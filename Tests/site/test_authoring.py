"""The authoring and publishing commands as a user runs them: check, new, init, the progress
bar on a terminal (and not elsewhere), colours and NO_COLOR, --quiet and --verbose."""

import os
import pathlib
import pty
import select
import subprocess
import sys
import time

from conftest import REPO, copy_site, ltrain_binary, run_ltrain

sys.path.insert(0, str(REPO / "Benchmarks"))
import sitegen  # noqa: E402


def run_in_terminal(arguments, cwd, env=None, timeout=120):
    """Runs ltrain with stdout and stderr on a pseudo-terminal; returns (exit code, everything printed)."""
    leader, follower = pty.openpty()
    process = subprocess.Popen(
        [str(ltrain_binary()), *map(str, arguments)], cwd=cwd, stdout=follower, stderr=follower,
        env={**os.environ, **(env or {})},
    )
    os.close(follower)
    output = b""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        ready, _, _ = select.select([leader], [], [], 0.5)
        if ready:
            try:
                chunk = os.read(leader, 65536)
            except OSError:
                break
            if not chunk:
                break
            output += chunk
        elif process.poll() is not None:
            break
    process.wait(timeout=10)
    os.close(leader)
    return process.returncode, output.decode("utf-8", "replace")


def test_progress_bar_on_a_terminal_only(tmp_path):
    sitegen.generate_ltrain(tmp_path, 400)
    code, terminal = run_in_terminal(["build"], tmp_path, env={"LTRAIN_PROGRESS_AFTER_MS": "0"})
    assert code == 0, terminal
    assert "/803 pages" in terminal and "803/803 pages" in terminal and "█" in terminal, "a bar with pages rendered / total"
    assert "Built 400 stations, 400 info pages, 1 checklist in " in terminal
    piped = run_ltrain("build", "--force", cwd=tmp_path, env_extra={"LTRAIN_PROGRESS_AFTER_MS": "0"})
    assert "█" not in piped.stdout and "pages\r" not in piped.stdout, "no bar when stdout is not a terminal"
    assert piped.stdout.startswith("Built 400 stations")


def test_a_fast_build_shows_no_bar_even_on_a_terminal(tmp_path):
    copy_site(tmp_path, REPO / "content")
    code, terminal = run_in_terminal(["build"], tmp_path)
    assert code == 0
    assert "█" not in terminal


def test_errors_are_coloured_on_a_terminal_unless_no_color(tmp_path):
    copy_site(tmp_path, REPO / "content")
    (tmp_path / "content" / "stations" / "02-sixth-avenue.md").write_text("---\nsummary: x\n---\n")
    code, coloured = run_in_terminal(["build"], tmp_path)
    assert code == 1
    assert "\x1b[1;31merror:\x1b[0m missing 'title'" in coloured
    code, plain = run_in_terminal(["build"], tmp_path, env={"NO_COLOR": "1"})
    assert code == 1
    assert "\x1b[" not in plain and "error: missing 'title'" in plain


def test_quiet_and_verbose(tmp_path):
    copy_site(tmp_path, REPO / "content")
    assert run_ltrain("build", "--quiet", cwd=tmp_path).stdout == ""
    verbose = run_ltrain("build", "--verbose", "--output", "fresh", cwd=tmp_path)
    assert "ltrain: render and write 15 pages" in verbose.stderr
    again = run_ltrain("build", "--verbose", "--output", "fresh", cwd=tmp_path)
    assert "ltrain: check that nothing changed" in again.stderr, "a no-op build renders nothing"
    assert verbose.stdout.startswith("Built 6 stations")


def test_check_an_existing_output_folder(tmp_path):
    copy_site(tmp_path, REPO / "content")
    run_ltrain("build", cwd=tmp_path)
    good = run_ltrain("check", cwd=tmp_path)
    assert good.stdout.strip().startswith("Checked _site/: every link resolves")
    (tmp_path / "_site" / "stations" / "union-square.html").unlink()
    bad = run_ltrain("check", "--output", "_site", cwd=tmp_path, check=False)
    assert bad.returncode == 1
    assert (
        "_site/stations/sixth-avenue.html: error: link 'union-square.html' points to stations/union-square.html, "
        "which is not in the site" in bad.stderr
    )


def test_new_station_and_checklist(tmp_path):
    copy_site(tmp_path, REPO / "content")
    after = run_ltrain("new", "station", "Graham Avenue", "--after", "union-square", cwd=tmp_path)
    assert after.stdout.strip() == (
        "Created content/stations/03.1-graham-avenue.md between Union Square and Third Avenue"
    )
    east = run_ltrain("new", "station", "Lorimer Street", cwd=tmp_path)
    assert east.stdout.strip() == "Created content/stations/07-lorimer-street.md after Bedford Avenue, at the east end"
    checklist = run_ltrain("new", "checklist", "Pack One", cwd=tmp_path)
    assert checklist.stdout.strip() == "Created content/checklists/pack-one.md"
    names = sorted(p.name for p in (tmp_path / "content" / "stations").iterdir())
    assert names[:3] == ["01-eighth-avenue.md", "02-sixth-avenue.md", "03-union-square.md"], "nothing renumbered"
    built = run_ltrain("build", cwd=tmp_path)
    assert built.stdout.startswith("Built 8 stations, 8 info pages, 2 checklists")
    union = (tmp_path / "_site" / "stations" / "union-square.html").read_text()
    assert 'rel="next" href="graham-avenue.html"' in union
    again = run_ltrain("new", "station", "Graham Avenue", cwd=tmp_path, check=False)
    assert again.returncode == 1 and "a station with the slug 'graham-avenue' exists already" in again.stderr


def test_new_finds_the_site_from_any_folder_inside_it_and_refuses_outside(tmp_path):
    site = tmp_path / "site"
    site.mkdir()
    copy_site(site, REPO / "content")
    inside = run_ltrain("new", "checklist", "Pack One", cwd=site / "content")
    assert inside.stdout.strip() == "Created ../content/checklists/pack-one.md"
    assert (site / "content" / "checklists" / "pack-one.md").is_file()
    assert not (site / "content" / "content").exists()
    deeper = run_ltrain("new", "station", "Graham Avenue", "--after", "Union Square", cwd=site / "content" / "stations")
    assert deeper.stdout.strip() == (
        "Created ../../content/stations/03.1-graham-avenue.md between Union Square and Third Avenue"
    )
    empty = tmp_path / "elsewhere"
    empty.mkdir()
    outside = run_ltrain("new", "checklist", "Pack", cwd=empty, check=False)
    assert outside.returncode == 1
    assert outside.stderr.startswith("error: not inside an ltrain site: no content/index.md here or in any folder above")
    assert list(empty.iterdir()) == [], "nothing was invented"
    unknown = run_ltrain("new", "station", "X", "--after", "Unoin Square", cwd=site, check=False)
    assert unknown.returncode == 1
    assert "no station has the slug or title 'Unoin Square' (did you mean 'Union Square'?)" in unknown.stderr


def test_init_writes_a_starter_site_that_builds(tmp_path):
    result = run_ltrain("init", "my-line", cwd=tmp_path)
    assert "Created a starter site in my-line/" in result.stdout
    built = run_ltrain("build", cwd=tmp_path / "my-line")
    assert built.stdout.startswith("Built 2 stations, 2 info pages, 1 checklist")
    assert (tmp_path / "my-line" / "templates" / "station.mustache").is_file()
    refused = run_ltrain("init", "my-line", cwd=tmp_path, check=False)
    assert refused.returncode == 1 and "the folder is not empty" in refused.stderr


def test_content_without_templates_uses_the_built_in_ones(tmp_path):
    copy_site(tmp_path, REPO / "content")
    import shutil
    shutil.rmtree(tmp_path / "templates")
    built = run_ltrain("build", cwd=tmp_path)
    assert built.stdout.startswith("Built 6 stations")
    assert (tmp_path / "_site" / "style.css").read_text() == (REPO / "templates" / "style.css").read_text()
