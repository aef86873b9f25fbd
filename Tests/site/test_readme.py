"""The README tells the truth: its command examples print what it says they print, its pictures
come from scripts/screenshots, its install command puts a binary that needs no Swift toolchain on
PATH, and it stays a README for users (the details live in docs/)."""

import os
import pathlib
import re
import shutil
import struct
import subprocess
import urllib.request

import pytest

from conftest import REPO, ltrain_binary

README = (REPO / "README.md").read_text()


def console_blocks(text):
    """Each ```console block as a list of (command, expected output lines)."""
    blocks = []
    for block in re.findall(r"```console\n(.*?)```", text, re.S):
        steps = []
        for line in block.splitlines():
            if line.startswith("$ "):
                steps.append((line[2:], []))
            else:
                assert steps, f"output before any command in a console block: {line}"
                steps[-1][1].append(line)
        blocks.append(steps)
    return blocks


def normalised(lines):
    """Times and sizes vary from run to run; everything else must match."""
    text = "\n".join(lines)
    text = re.sub(r"\bin \d+ ms\b", "in N ms", text)
    text = re.sub(r"\(\d+(?:\.\d+)? (?:bytes|KB|MB)\)", "(SIZE)", text)
    return text


def test_every_command_example_prints_what_the_readme_says(tmp_path):
    blocks = console_blocks(README)
    assert len(blocks) >= 2 and sum(len(steps) for steps in blocks) >= 9
    env = {**os.environ, "PATH": f"{ltrain_binary().parent}:{os.environ['PATH']}", "NO_COLOR": "1"}
    for number, steps in enumerate(blocks):
        folder = tmp_path / f"block{number}"
        folder.mkdir()
        for command, expected in steps:
            if command.startswith("cd "):
                folder = folder / command[3:]
                assert folder.is_dir(), command
                continue
            result = subprocess.run(["bash", "-c", command], cwd=folder, env=env, stdout=subprocess.PIPE,
                                    stderr=subprocess.STDOUT, text=True, timeout=120)
            assert normalised(result.stdout.splitlines()) == normalised(expected), f"$ {command}"


def test_the_readme_is_for_users_and_links_what_exists():
    lines = README.splitlines()
    assert len(lines) <= 320, f"the README has {len(lines)} lines; details belong in docs/"
    for heading in ("## Install", "## Quick start", "## Content", "## Deploy", "## Themes", "## Commands"):
        assert heading in lines
    for link in re.findall(r"\]\(((?:docs|scripts)/[^)#]+)", README):
        assert (REPO / link).exists(), link
    # The quick start's two commands are the two scripts.
    assert "scripts/build-site" in README and "scripts/test" in README


def png_size(path):
    with open(path, "rb") as file:
        header = file.read(24)
    assert header[:8] == b"\x89PNG\r\n\x1a\n", path
    return struct.unpack(">II", header[16:24])


def test_the_pictures_come_from_the_screenshot_script(tmp_path):
    pictures = re.findall(r"!\[[^\]]+\]\((docs/images/[^)]+)\)", README)
    assert len(pictures) >= 2
    result = subprocess.run([REPO / "scripts" / "screenshots", tmp_path], capture_output=True, text=True, timeout=300,
                            env={**os.environ, "LTRAIN": str(ltrain_binary())})
    assert result.returncode == 0, result.stderr
    made = {path.name for path in tmp_path.glob("*.png")}
    assert {pathlib.Path(picture).name for picture in pictures} == made
    for picture in pictures:
        width, _ = png_size(tmp_path / pathlib.Path(picture).name)
        assert width == png_size(REPO / picture)[0], picture
    assert png_size(tmp_path / "phone-station.png") == (390, 844)
    assert png_size(tmp_path / "desktop-index.png") == (1280, 800)


def test_install_puts_a_binary_on_path_that_needs_no_swift_runtime(tmp_path):
    result = subprocess.run([REPO / "scripts" / "install", tmp_path / "prefix"], capture_output=True, text=True,
                            timeout=1500)
    assert result.returncode == 0, result.stdout + result.stderr
    binary = tmp_path / "prefix" / "bin" / "ltrain"
    assert f"Installed {binary}" in result.stdout
    libraries = subprocess.run(["ldd", binary], capture_output=True, text=True, check=True).stdout
    assert "libswift" not in libraries and "libFoundation" not in libraries, libraries
    needed = {name for name in ("libcmark", "libyaml", "libmicrohttpd", "libpng", "libmimalloc") if name in libraries}
    assert needed == {"libcmark", "libyaml", "libpng", "libmimalloc"}, "the README names these"
    # libmicrohttpd (and GnuTLS behind it) is loaded by `ltrain serve` alone, when it starts.
    assert "gnutls" not in libraries, libraries
    for name in ("libcmark0.30.2", "libyaml-0-2", "libmicrohttpd12", "libpng16-16", "libmimalloc2.0"):
        assert name in README
    # mimalloc is the allocator the process runs on, not merely a library it loads: its statistics
    # at exit count memory its heap handed out.
    stats = subprocess.run([binary, "--version"], env={"MIMALLOC_SHOW_STATS": "1"}, capture_output=True, text=True)
    touched = re.search(r"^ *touched: +([0-9.]+) (\w+)", stats.stderr, re.MULTILINE)
    assert touched and float(touched.group(1)) > 0, stats.stderr
    # From PATH alone, in a folder of its own, it builds a site.
    env = {"PATH": f"{binary.parent}:/usr/bin:/bin", "HOME": str(tmp_path)}
    subprocess.run(["ltrain", "init", "line"], cwd=tmp_path, env=env, check=True, capture_output=True)
    built = subprocess.run(["ltrain", "build"], cwd=tmp_path / "line", env=env, capture_output=True, text=True)
    assert built.returncode == 0 and built.stdout.startswith("Built 2 stations"), built.stderr
    # And it serves: libmicrohttpd, which it does not link, is found and loaded when serve starts.
    server = subprocess.Popen(["ltrain", "serve", "--port", "0"], cwd=tmp_path / "line", env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        line = server.stdout.readline()
        match = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        assert match, line + server.stdout.read()
        with urllib.request.urlopen(f"http://127.0.0.1:{match.group(1)}/", timeout=10) as response:
            assert response.status == 200 and b"<html" in response.read()
    finally:
        server.terminate()
        server.wait(timeout=10)
