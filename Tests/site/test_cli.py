"""The command line as a user meets it: help, version, exit codes, and error output."""

import os
import pathlib
import re
import shutil
import subprocess
import tempfile

import pytest

from conftest import REPO, copy_site, run_ltrain


def test_help_and_version():
    help_text = run_ltrain("--help").stdout
    assert "ltrain build [--content DIR] [--templates DIR] [--output DIR]" in help_text
    assert run_ltrain("--version").stdout.strip().startswith("ltrain ")


def test_unknown_command_and_option_exit_2_with_one_line_and_the_nearest_name():
    unknown = run_ltrain("frobnicate", check=False)
    assert unknown.returncode == 2
    assert unknown.stderr.splitlines() == ["ltrain: unknown command 'frobnicate'", "See 'ltrain --help'."]
    typo = run_ltrain("biuld", check=False)
    assert typo.returncode == 2
    assert typo.stderr.splitlines() == ["ltrain: unknown command 'biuld' (did you mean 'build'?)", "See 'ltrain --help'."]
    assert typo.stdout == ""
    option = run_ltrain("build", "--ouput", "x", check=False)
    assert option.returncode == 2
    assert option.stderr.splitlines() == [
        "ltrain: unknown option '--ouput' for ltrain build (did you mean '--output'?)",
        "See 'ltrain build --help'.",
    ]
    far = run_ltrain("build", "--colour", check=False)
    assert far.stderr.splitlines()[0] == "ltrain: unknown option '--colour' for ltrain build"
    value = run_ltrain("serve", "--port", "lots", check=False)
    assert value.returncode == 2
    assert value.stderr.splitlines() == ["ltrain: --port needs a number from 0 to 65535", "See 'ltrain serve --help'."]


@pytest.mark.parametrize("command", ["build", "serve", "check", "new", "init", "help"])
def test_each_command_has_its_own_help(command):
    by_word = run_ltrain("help", command)
    by_option = run_ltrain(command, "--help")
    assert by_word.stdout == by_option.stdout
    assert by_word.stdout.startswith(f"ltrain {command}: ")
    assert f"Usage: ltrain {command}" in by_word.stdout
    assert run_ltrain(command, "-h").stdout == by_word.stdout
    assert "Commands:" not in by_word.stdout, "a command's help is its own, not the whole help"
    wrong = run_ltrain("help", "biuld", check=False)
    assert wrong.returncode == 2 and wrong.stderr.splitlines()[0] == "ltrain: no command is called 'biuld' (did you mean 'build'?)"


def test_build_defaults_to_content_templates_and_site_in_the_current_folder(tmp_path):
    copy_site(tmp_path, REPO / "content")
    result = run_ltrain("build", cwd=tmp_path)
    assert result.stdout.startswith("Built 6 stations, 6 info pages, 1 checklist in ")
    assert "→ _site/" in result.stdout
    assert (tmp_path / "_site" / "index.html").is_file()


def test_errors_go_to_stderr_one_per_problem_with_a_non_zero_exit(tmp_path):
    copy_site(tmp_path, REPO / "content")
    run_ltrain("build", cwd=tmp_path)
    before = (tmp_path / "_site" / "index.html").read_bytes()
    (tmp_path / "content" / "stations" / "02-sixth-avenue.md").write_text("---\ntitle: [oops\n---\n")
    (tmp_path / "content" / "stations" / "03-union-square.md").write_text("---\nsummary: no title\n---\n")
    result = run_ltrain("build", cwd=tmp_path, check=False)
    assert result.returncode == 1
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert lines[0].startswith("content/stations/02-sixth-avenue.md:3:1: error: YAML syntax error:")
    assert "content/stations/03-union-square.md:2:1: error: missing 'title' in front matter" in lines
    assert lines[-1] == "ltrain: build failed with 2 errors; _site was left as it was"
    assert "Traceback" not in result.stderr and "Fatal error" not in result.stderr
    assert (tmp_path / "_site" / "index.html").read_bytes() == before


@pytest.mark.skipif(not shutil.which("setpriv"), reason="setpriv (util-linux) is needed to drop root")
def test_unreadable_file_is_reported():
    # Root reads anything, so as root the build runs as nobody, in a folder nobody can reach.
    root = pathlib.Path(tempfile.mkdtemp(prefix="ltrain-unreadable-", dir="/tmp"))
    try:
        root.chmod(0o755)
        copy_site(root, REPO / "content")
        binary = root / "ltrain"
        shutil.copy(os.environ.get("LTRAIN", REPO / ".build/release/ltrain"), binary)
        for path in [root, *root.rglob("*")]:
            path.chmod(0o777 if path.is_dir() else 0o755)
        (root / "content" / "stations" / "03-union-square.md").chmod(0o000)
        command = [str(binary), "build"]
        if os.geteuid() == 0:
            command = ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups", *command]
        result = subprocess.run(command, cwd=root, capture_output=True, text=True, timeout=60)
        assert result.returncode == 1, result.stderr
        assert result.stderr.splitlines()[0] == (
            "content/stations/03-union-square.md: error: cannot read the file: Permission denied"
        )
        assert "hint: make the file readable, e.g. with chmod a+r content/stations/03-union-square.md" in result.stderr
        assert not (root / "_site").exists()
    finally:
        shutil.rmtree(root, ignore_errors=True)


def test_check_prints_links_with_control_characters_escaped(tmp_path):
    # A link holding a newline (an HTML character reference) must not print a line of its own.
    folder = tmp_path / "out"
    folder.mkdir()
    (folder / ".ltrain-manifest").write_text("")  # check reads only folders ltrain wrote
    (folder / "index.html").write_text(
        '<!doctype html><title>x</title><a href="https://example.org/a&#10;fake.md:1:1: error: x">a</a>\n')
    result = run_ltrain("check", folder, "--verbose")
    listed = [line for line in result.stdout.splitlines() if line.startswith("external link")]
    assert listed == ["external link (not fetched): https://example.org/a\\nfake.md:1:1: error: x"], result.stdout
    assert not any(line.startswith("fake.md") for line in result.stdout.splitlines())


def test_check_takes_the_folder_as_a_word_or_an_option_and_lists_links_when_verbose(tmp_path):
    folder = tmp_path / "out"
    folder.mkdir()
    (folder / ".ltrain-manifest").write_text("")  # check reads only folders ltrain wrote
    (folder / "index.html").write_text('<!doctype html><title>x</title><a href="https://example.org/">a</a>\n')
    for arguments in (["check", folder], ["check", "--output", folder], ["check", folder, "--output", folder]):
        result = run_ltrain(*arguments)
        assert result.stdout.splitlines() == [f"Checked {folder}/: every link resolves (1 external link found, not fetched)"]
    verbose = run_ltrain("check", folder, "-v")
    assert verbose.stdout.splitlines()[0] == "external link (not fetched): https://example.org/"
    wrong = run_ltrain("check", folder, "--output", tmp_path, check=False)
    assert wrong.returncode == 2 and "name the folder once" in wrong.stderr


def test_build_lists_external_links_only_when_verbose(tmp_path):
    copy_site(tmp_path, REPO / "content")
    station = tmp_path / "content" / "stations" / "01-eighth-avenue.md"
    station.write_text(station.read_text() + "\nSee [the schedule](https://example.org/schedule).\n")
    verbose = run_ltrain("build", "--verbose", cwd=tmp_path)
    assert "external link (not fetched): https://example.org/schedule" in verbose.stdout.splitlines(), verbose.stdout
    plain = run_ltrain("build", cwd=tmp_path)
    assert "external link" not in plain.stdout, plain.stdout


def test_the_sites_own_canonical_urls_are_checked_not_listed_as_external(tmp_path):
    copy_site(tmp_path, REPO / "content")
    built = run_ltrain("build", "--base-url", "https://example.org/guides/l/", "--verbose", cwd=tmp_path)
    assert "external link (not fetched): https://example.org/guides/l/" not in built.stdout
    site = tmp_path / "_site"
    assert '<link rel="canonical" href="https://example.org/guides/l/stations/union-square.html">' in (
        site / "stations" / "union-square.html").read_text()
    checked = run_ltrain("check", site, "--verbose", cwd=tmp_path)
    own = [line for line in checked.stdout.splitlines() if "example.org/guides/l/" in line]
    assert own == [], checked.stdout
    # Its own URLs are links like any other: one naming a page that is gone is broken.
    index = site / "index.html"
    index.write_text(index.read_text().replace(
        "</body>", '<a href="https://example.org/guides/l/stations/nowhere.html">x</a></body>'))
    broken = run_ltrain("check", site, cwd=tmp_path, check=False)
    assert broken.returncode == 1
    assert broken.stderr.splitlines()[0] == (
        f"{index}: error: link 'https://example.org/guides/l/stations/nowhere.html' points to stations/nowhere.html,"
        " which is not in the site")


def test_a_file_name_with_a_newline_or_a_path_too_long_is_an_error_not_a_broken_manifest(tmp_path):
    copy_site(tmp_path, REPO / "content")
    run_ltrain("build", cwd=tmp_path)
    before = (tmp_path / "_site" / ".ltrain-manifest").read_bytes()
    static = tmp_path / "content" / "static"
    static.mkdir()
    (static / "new\nline.txt").write_text("x")
    result = run_ltrain("build", cwd=tmp_path, check=False)
    assert result.returncode == 1
    assert result.stderr.splitlines()[0] == "content/static/new\\nline.txt: error: file name holds a control character"
    (static / "new\nline.txt").unlink()
    # A name that begins with a combining mark would join the '/' before it into one character.
    (static / "\u0301mark.txt").write_text("x")
    result = run_ltrain("build", cwd=tmp_path, check=False)
    assert result.returncode == 1
    assert result.stderr.splitlines()[0].startswith("content/static/\u0301mark.txt: error: file name begins or ends with a character that joins the '/'"), result.stderr
    (static / "\u0301mark.txt").unlink()
    # A path past PATH_MAX (made folder by folder: no single call may name it whole).
    cwd = os.getcwd()
    try:
        os.chdir(static)
        for _ in range(22):
            os.mkdir("d" * 200)
            os.chdir("d" * 200)
        pathlib.Path("f.txt").write_text("x")
    finally:
        os.chdir(cwd)
    deep = run_ltrain("build", cwd=tmp_path, check=False)
    assert deep.returncode == 1
    assert re.search(r"error: path is \d+ bytes long, more than the system can open \(4095\)", deep.stderr), deep.stderr[-300:]
    subprocess.run(["rm", "-rf", str(static / ("d" * 200))], check=True)
    assert run_ltrain("build", cwd=tmp_path).returncode == 0, "no later build needs --force"
    assert (tmp_path / "_site" / ".ltrain-manifest").read_bytes() == before
