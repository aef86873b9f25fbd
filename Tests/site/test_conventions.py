"""The command line's conventions (those of git, cargo and clig.dev), and no problem left unsaid:
`--option=value` and short options, options of another command named as such, every command
working from any folder inside a site, usage lines, messages that name only what exists, and
warnings printed after the errors whichever stage failed."""

import re
import subprocess

import pytest

from conftest import REPO, copy_site, ltrain_binary, run_ltrain


def test_option_equals_value_and_short_options_mean_the_long_ones(tmp_path):
    copy_site(tmp_path, REPO / "content")
    for arguments, output in (
        (["--output=out1", "--content=content", "--templates=templates"], "out1"),
        (["-o", "out2", "-c", "content", "-t", "templates"], "out2"),
    ):
        built = run_ltrain("build", *arguments, cwd=tmp_path)
        assert f"→ {output}/" in built.stdout
        assert (tmp_path / output / "index.html").is_file()
    assert run_ltrain("build", "-q", "-o", "out1", cwd=tmp_path).stdout == ""
    verbose = run_ltrain("build", "-v", "-o", "out1", cwd=tmp_path)
    assert "ltrain: check that nothing changed " in verbose.stderr, "phase timings, as --verbose prints"
    assert run_ltrain("check", "-o", "out1", cwd=tmp_path).stdout.startswith("Checked out1/: every link resolves")
    assert run_ltrain("check", "--output=out2", cwd=tmp_path).stdout.startswith("Checked out2/: every link resolves")
    # The short option of serve's port goes to the same check as --port.
    port = run_ltrain("serve", "-p", "lots", cwd=tmp_path, check=False)
    assert port.returncode == 2
    assert port.stderr.splitlines()[0] == "ltrain: --port needs a number from 0 to 65535"
    flag = run_ltrain("build", "--force=yes", cwd=tmp_path, check=False)
    assert flag.returncode == 2 and flag.stderr.splitlines()[0] == "ltrain: --force takes no value"


def test_an_option_of_another_command_says_which_command_it_belongs_to(tmp_path):
    port = run_ltrain("build", "--port", "3", cwd=tmp_path, check=False)
    assert port.returncode == 2
    assert port.stderr.splitlines() == [
        "ltrain: '--port' is an option of ltrain serve, not of ltrain build", "See 'ltrain build --help'."]
    output = run_ltrain("serve", "-o", "x", cwd=tmp_path, check=False)
    assert output.stderr.splitlines()[0] == (
        "ltrain: '-o' is an option of ltrain build, ltrain bundle, ltrain check, not of ltrain serve")
    force = run_ltrain("bundle", "--force", cwd=tmp_path, check=False)
    assert force.stderr.splitlines()[0] == "ltrain: '--force' is an option of ltrain build, not of ltrain bundle"
    # -o is build's now: no longer taken for a misspelt -q.
    assert "did you mean" not in run_ltrain("build", "-o", cwd=tmp_path, check=False).stderr
    assert list(tmp_path.iterdir()) == [], "nothing was written"


def test_every_command_finds_the_site_from_a_folder_inside_it(tmp_path):
    site = tmp_path / "site"
    site.mkdir()
    copy_site(site, REPO / "content")
    inside = site / "content" / "stations"
    built = run_ltrain("build", cwd=inside)
    assert "→ ../../_site/" in built.stdout
    assert (site / "_site" / "index.html").is_file()
    assert not (inside / "_site").exists()
    checked = run_ltrain("check", cwd=inside)
    assert checked.stdout.startswith("Checked ../../_site/: every link resolves")
    # A path given is taken from the folder the command runs in (never into content/, as ever).
    bundled = run_ltrain("bundle", "-o", "../../one.html", cwd=inside)
    assert "→ ../../one.html" in bundled.stdout and (site / "one.html").is_file()
    default = run_ltrain("bundle", cwd=inside)
    assert "→ ../../l-train.html" in default.stdout
    assert (site / "l-train.html").is_file() and not (inside / "l-train.html").exists()
    server = subprocess.Popen([str(ltrain_binary()), "serve", "--port", "0"], cwd=inside,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        first = server.stdout.readline()
        assert re.match(r"Serving \.\./\.\./content/ on http://127\.0\.0\.1:\d+/ ", first), first
    finally:
        server.terminate()
        server.wait(timeout=30)
    # Outside any site, the build says what is missing, as before.
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    missing = run_ltrain("build", cwd=outside, check=False)
    assert missing.returncode == 1 and "content" in missing.stderr
    assert missing.stderr.splitlines()[-1].endswith("; nothing was written")


def test_init_without_a_folder_prints_its_usage_line(tmp_path):
    result = run_ltrain("init", cwd=tmp_path, check=False)
    assert result.returncode == 2
    assert result.stderr.splitlines() == [
        "ltrain: name the folder to create", "Usage: ltrain init DIR", "See 'ltrain init --help'."]
    assert list(tmp_path.iterdir()) == []


def test_a_failed_build_names_only_an_output_that_exists(tmp_path):
    copy_site(tmp_path, REPO / "content")
    (tmp_path / "content" / "stations" / "03-union-square.md").write_text("---\nsummary: no title\n---\n")
    first = run_ltrain("build", cwd=tmp_path, check=False)
    assert first.returncode == 1
    assert first.stderr.splitlines()[-1] == "ltrain: build failed with 1 error; nothing was written"
    assert not (tmp_path / "_site").exists()
    (tmp_path / "_site").mkdir()
    (tmp_path / "_site" / ".ltrain-manifest").write_text("")
    second = run_ltrain("build", cwd=tmp_path, check=False)
    assert second.stderr.splitlines()[-1] == "ltrain: build failed with 1 error; _site was left as it was"
    bundle = run_ltrain("bundle", "-o", "one.html", cwd=tmp_path, check=False)
    assert bundle.stderr.splitlines()[-1] == "ltrain: bundle failed with 1 error; nothing was written"


@pytest.mark.parametrize("choose,control", [("many", "checkbox"), ("one", "radio"), (None, "radio")])
def test_new_checklist_takes_choose_and_the_file_shows_it(tmp_path, choose, control):
    copy_site(tmp_path, REPO / "content")
    arguments = ["new", "checklist", "Take Along"] + (["--choose", choose] if choose else [])
    run_ltrain(*arguments, cwd=tmp_path)
    text = (tmp_path / "content" / "checklists" / "take-along.md").read_text()
    assert re.search(rf"^choose: {choose or 'one'}\b", text, re.M), text
    run_ltrain("build", cwd=tmp_path)
    page = (tmp_path / "_site" / "checklists" / "take-along.html").read_text()
    assert f'type="{control}"' in page
    wrong = run_ltrain("new", "checklist", "Other", "--choose", "all", cwd=tmp_path, check=False)
    assert wrong.returncode == 2 and wrong.stderr.splitlines()[0] == "ltrain: --choose takes 'one' or 'many', not 'all'"
    station = run_ltrain("new", "station", "Other", "--choose", "many", cwd=tmp_path, check=False)
    assert station.returncode == 2 and "--choose is for checklists" in station.stderr


def warned_site(root):
    """The default site with two Markdown notices (a table and strikethrough) and an unused template."""
    copy_site(root, REPO / "content")
    station = root / "content" / "stations" / "01-eighth-avenue.md"
    station.write_text(station.read_text() + "\n| a | b |\n|---|---|\n| 1 | 2 |\n\nWas ~~shut~~.\n")
    (root / "templates" / "infoo.mustache").write_text("{{title}}\n")
    return station


def warnings_of(stderr):
    return [line for line in stderr.splitlines() if ": warning: " in line]


def test_warnings_are_printed_after_the_errors_whichever_stage_failed(tmp_path):
    station = warned_site(tmp_path)
    clean = run_ltrain("build", cwd=tmp_path)
    expected = warnings_of(clean.stderr)
    assert len(expected) == 3, clean.stderr
    assert "templates/infoo.mustache: warning: no page uses the template 'infoo' (did you mean 'info'?)" in expected

    def check_stage(result, first_error):
        assert result.returncode == 1
        lines = [line for line in result.stderr.splitlines() if not line.startswith("  hint:")]
        assert first_error in lines[0], result.stderr
        errors = [index for index, line in enumerate(lines) if ": error: " in line or line.startswith("error:")]
        warned = [index for index, line in enumerate(lines) if ": warning: " in line]
        assert warnings_of(result.stderr) == expected
        assert max(errors) < min(warned), "errors first, then warnings"

    # The render's link check.
    station.write_text(station.read_text() + "\n[gone](nowhere.html)\n")
    check_stage(run_ltrain("build", cwd=tmp_path, check=False), "link 'nowhere.html'")
    station.write_text(station.read_text().replace("\n[gone](nowhere.html)\n", ""))
    # The output folder, before anything is read.
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "mine.txt").write_text("not ltrain's")
    check_stage(run_ltrain("build", "-o", "other", cwd=tmp_path, check=False), "other")
    # The model: a station without a title.
    (tmp_path / "content" / "stations" / "09-untitled.md").write_text("---\nsummary: x\n---\n")
    check_stage(run_ltrain("build", cwd=tmp_path, check=False), "missing 'title'")


def test_a_misspelt_partial_gets_did_you_mean(tmp_path):
    copy_site(tmp_path, REPO / "content")
    station = tmp_path / "templates" / "station.mustache"
    station.write_text(station.read_text().replace("{{>back-chevron}}", "{{>back-chevorn}}"))
    result = run_ltrain("build", cwd=tmp_path, check=False)
    assert result.returncode == 1
    assert "error: template 'back-chevorn' is included here but does not exist (did you mean 'back-chevron'?)" in (
        result.stderr)


def test_check_refuses_a_folder_ltrain_did_not_write(tmp_path):
    copy_site(tmp_path, REPO / "content")
    for folder in ("content", "templates"):
        result = run_ltrain("check", folder, cwd=tmp_path, check=False)
        assert result.returncode == 1
        assert result.stderr.splitlines()[0] == (
            f"{folder}: error: this folder holds no site built by ltrain (it has no .ltrain-manifest)")
        assert "every link resolves" not in result.stdout
    run_ltrain("build", cwd=tmp_path)
    assert run_ltrain("check", "_site", cwd=tmp_path).returncode == 0
