"""`ltrain serve`: a real HTTP server (libmicrohttpd) with live reload, tested with a real client."""

import http.client
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import threading
import time
import urllib.error
import urllib.request

import pytest

from conftest import REPO, copy_site, ltrain_binary


class Server:
    def __init__(self, root, *arguments):
        self.process = subprocess.Popen(
            [str(ltrain_binary()), "serve", "--port", "0", *arguments], cwd=root,
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        )
        self.lines = []
        match = None
        while match is None:
            line = self.process.stdout.readline()
            assert line, "".join(self.lines)
            self.lines.append(line)
            match = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        self.port = int(match.group(1))
        self.base = f"http://127.0.0.1:{self.port}/"
        threading.Thread(target=self._drain, daemon=True).start()

    def _drain(self):
        for line in self.process.stdout:
            self.lines.append(line)

    def get(self, path, headers=None, method="GET"):
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        connection.request(method, path, headers=headers or {})
        response = connection.getresponse()
        body = response.read()
        connection.close()
        return response.status, dict(response.getheaders()), body

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            self.process.wait(timeout=5)


class EventStream:
    """Reads Server-Sent Events on a thread; `wait_for(name)` returns the next event of that name."""

    def __init__(self, port):
        self.events = []
        self.condition = threading.Condition()
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.connection.request("GET", "/_ltrain/events")
        self.response = self.connection.getresponse()
        assert self.response.getheader("Content-Type") == "text/event-stream"
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        name, data = None, []
        try:
            for raw in self.response:
                line = raw.decode().rstrip("\n")
                if line.startswith("event: "):
                    name = line[7:]
                elif line.startswith("data: "):
                    data.append(line[6:])
                elif line == "" and name:
                    with self.condition:
                        self.events.append((name, "\n".join(data), time.monotonic()))
                        self.condition.notify_all()
                    name, data = None, []
        except Exception:
            pass

    def wait_for(self, name, timeout=10, after=0):
        deadline = time.monotonic() + timeout
        with self.condition:
            while True:
                for event in self.events[after:]:
                    if event[0] == name:
                        return event
                remaining = deadline - time.monotonic()
                assert remaining > 0, f"no '{name}' event within {timeout} s; got {self.events}"
                self.condition.wait(remaining)

    def close(self):
        self.connection.close()


@pytest.fixture
def served(tmp_path):
    copy_site(tmp_path, REPO / "content")
    server = Server(tmp_path)
    yield tmp_path, server
    server.stop()


def test_serves_pages_with_mime_types_head_and_etags(served):
    _, server = served
    status, headers, body = server.get("/")
    assert status == 200 and headers["Content-Type"] == "text/html; charset=utf-8"
    assert b"<h1>L Train</h1>" in body
    assert b'<script src="/_ltrain/live.js"></script>' in body, "serve injects the live-reload script"
    status, headers, css = server.get("/style.css")
    assert status == 200 and headers["Content-Type"] == "text/css; charset=utf-8"
    assert css == (REPO / "templates" / "style.css").read_bytes()
    assert server.get("/ltrain.js")[1]["Content-Type"] == "text/javascript; charset=utf-8"
    status, headers, body = server.get("/stations/union-square.html", method="HEAD")
    assert status == 200 and body == b"" and int(headers["Content-Length"]) > 1000
    etag = headers["ETag"]
    status, _, body = server.get("/stations/union-square.html", headers={"If-None-Match": etag})
    assert status == 304 and body == b""
    for condition in [f'"other", {etag}', f"W/{etag}", "*"]:
        status, _, body = server.get("/stations/union-square.html", headers={"If-None-Match": condition})
        assert status == 304 and body == b"", condition
    status, headers, _ = server.get("/", method="DELETE")
    assert status == 405 and headers["Allow"] == "GET, HEAD"
    status, _, body = server.get("/stations/")
    assert status == 404
    status, headers, body = server.get("/no/such/page.html")
    assert status == 404 and b"This stop is not on the line." in body, "the site's own 404 page"
    assert server.get("/.ltrain-manifest")[0] == 404


def test_the_built_output_never_contains_the_live_reload_script(served, tmp_path_factory):
    root, _ = served
    out = tmp_path_factory.mktemp("built")
    subprocess.run([str(ltrain_binary()), "build", "--output", out / "_site"], cwd=root, check=True, capture_output=True)
    for page in (out / "_site").rglob("*.html"):
        assert b"_ltrain" not in page.read_bytes()


@pytest.mark.parametrize("path", [
    "/../../../../etc/passwd",
    "/%2e%2e/%2e%2e/%2e%2e/etc/passwd",
    "/stations/..%2f..%2f..%2fetc%2fpasswd",
    "/%2E%2E/content/index.md",
    "/stations/%00.html",
    "/..\\..\\etc\\passwd",
    "/content/index.md",
    "/./index.html",
    "/index.html%00",
    "/index.html%00.txt",
    "/%00",
    "/index.html%",
    "/index.html%ff",
])
def test_no_path_outside_the_site_is_served(served, path):
    root, server = served
    raw = socket.create_connection(("127.0.0.1", server.port), timeout=5)
    raw.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".encode())
    response = b""
    while chunk := raw.recv(65536):
        response += chunk
    raw.close()
    status = int(response.split(b" ", 2)[1])
    assert status in (400, 403, 404), response[:200]
    assert b"root:" not in response and b"title: L Train" not in response
    if "%00" in path or path.endswith("%") or "%ff" in path:
        # A NUL, a cut escape or bytes that are not UTF-8 make no path at all: never a page cut short.
        assert status == 400, response[:200]


def raw_get(port, target):
    """The whole response to one GET, over a plain socket (http.client would refuse some targets)."""
    raw = socket.create_connection(("127.0.0.1", port), timeout=10)
    raw.sendall(f"GET {target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".encode())
    response = b""
    while chunk := raw.recv(65536):
        response += chunk
    raw.close()
    return response


@pytest.mark.parametrize("count", [1, 500, 3000])
def test_a_query_of_any_length_is_ignored_or_refused_never_an_empty_reply(served, count):
    """The preview reads no query: a page is served whatever follows its '?' (libmicrohttpd used
    to close the connection with no reply at about 500 parameters), and a URL too long for it
    gets 414."""
    _, server = served
    query = "&".join(f"a{i}=1" for i in range(count))
    response = raw_get(server.port, f"/stations/union-square.html?{query}")
    assert response.startswith(b"HTTP/1.1 200 "), response[:100]
    assert b"Union Square" in response
    assert raw_get(server.port, "/index.html?x=1?y=%00")[:13] == b"HTTP/1.1 200 "
    assert raw_get(server.port, "/nowhere.html?x=1").startswith(b"HTTP/1.1 404 ")
    long = "&".join(f"a{i}=1" for i in range(20000))
    assert raw_get(server.port, f"/index.html?{long}").startswith(b"HTTP/1.1 414 ")


def test_a_thousand_idle_connections_do_not_lock_the_preview_out(served):
    import resource
    _, server = served
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 4096), hard))
    idle = []
    try:
        # The server's idle clock for the first connection starts when it opens.
        opened = time.monotonic()
        for _ in range(1100):
            idle.append(socket.create_connection(("127.0.0.1", server.port), timeout=5))
        # Past select()'s limit of 1,024 descriptors, a new client is still answered.
        status, _, body = server.get("/")
        assert status == 200 and b"<h1>L Train</h1>" in body
        # Idle connections are closed by the server after its idle timeout (20 s).
        idle[0].settimeout(40)
        assert idle[0].recv(1) == b"", "the server closes an idle connection"
        # Counted from when it opened: opening 1,100 connections and the request above take
        # seconds on a busy machine, which a clock started after them would not count.
        assert 15 < time.monotonic() - opened < 45
        assert server.get("/")[0] == 200
    finally:
        for connection in idle:
            connection.close()
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def test_a_symlink_out_of_the_content_folder_is_never_served(tmp_path):
    copy_site(tmp_path, REPO / "content")
    (tmp_path / "content" / "assets").mkdir()
    os.symlink("/etc/passwd", tmp_path / "content" / "assets" / "passwd.txt")
    server = Server(tmp_path)
    try:
        status, _, body = server.get("/assets/passwd.txt")
        assert status == 404 and b"root:" not in body
        time.sleep(0.2)
        assert any("symbolic link points outside its folder" in line for line in server.lines), server.lines
    finally:
        server.stop()


def test_an_edit_reloads_open_pages_with_the_new_content(served):
    root, server = served
    events = EventStream(server.port)
    time.sleep(0.2)
    station = root / "content" / "stations" / "03-union-square.md"
    written = time.monotonic()
    station.write_text(station.read_text() + "\nA brand-new paragraph.\n")
    name, data, arrived = events.wait_for("reload")
    assert json.loads(data)["changed"] == 3, \
        "the info page, the search index and the index page, which carries a small line's index"
    print(f"\nedit to reload: {(arrived - written) * 1000:.0f} ms")
    status, _, body = server.get("/info/union-square.html")
    assert b"A brand-new paragraph." in body
    events.close()


def test_a_folder_swapped_for_another_is_served_as_it_now_is(served):
    """The content folder, then its stations folder, each swapped for a copy with one station
    changed (as a sync tool or a branch switched in another clone does): the page shows the copy's
    text, and the next edit in the folder now in place reloads too."""
    root, server = served
    events = EventStream(server.port)
    time.sleep(0.2)
    content = root / "content"
    shutil.copytree(content, root / "content-new")
    station = root / "content-new" / "stations" / "03-union-square.md"
    station.write_text(station.read_text() + "\nOnly the new content folder says this.\n")
    (content).rename(root / "content-old")
    (root / "content-new").rename(content)
    events.wait_for("reload")
    assert b"Only the new content folder says this." in server.get("/info/union-square.html")[2]

    shutil.copytree(content / "stations", root / "stations-new")
    (root / "stations-new" / "03-union-square.md").write_text((content / "stations" / "03-union-square.md").read_text().replace(
        "Only the new content folder says this.", "Only the new stations folder says this."))
    seen = len(events.events)
    (content / "stations").rename(root / "stations-old")
    (root / "stations-new").rename(content / "stations")
    events.wait_for("reload", after=seen)
    assert b"Only the new stations folder says this." in server.get("/info/union-square.html")[2]

    seen = len(events.events)
    (root / "stations-old" / "03-union-square.md").write_text("---\ntitle: Not the site's\n---\n")
    edited = content / "stations" / "03-union-square.md"
    edited.write_text(edited.read_text() + "\nAnd an edit after the swap.\n")
    events.wait_for("reload", after=seen)
    body = server.get("/info/union-square.html")[2]
    assert b"And an edit after the swap." in body and b"Not the site" not in body
    events.close()


def test_an_atomic_save_with_swap_files_reloads_once(served):
    root, server = served
    events = EventStream(server.port)
    time.sleep(0.2)
    station = root / "content" / "stations" / "02-sixth-avenue.md"
    # Like vim: a swap file, a backup, write a temporary file, rename it over the original.
    (root / "content" / "stations" / ".02-sixth-avenue.md.swp").write_text("swap")
    temporary = root / "content" / "stations" / "4913"
    temporary.write_text("x")
    temporary.unlink()
    new = root / "content" / "stations" / "02-sixth-avenue.md.tmp"
    new.write_text(station.read_text().replace("Sixth Avenue opened", "Sixth Avenue first opened"))
    os.rename(new, station)
    (root / "content" / "stations" / ".02-sixth-avenue.md.swp").unlink()
    events.wait_for("reload")
    time.sleep(1.0)
    assert [event[0] for event in events.events].count("reload") == 1, events.events
    assert b"Sixth Avenue first opened" in server.get("/info/sixth-avenue.html")[2]
    events.close()


def test_a_slow_save_only_ever_shows_the_old_page_or_the_new_one(served):
    """An editor that keeps a backup by renaming the file away, on a loaded machine: 150 ms pass
    before the new file is created, and 150 ms more inside its writing. A reader polling the page
    all along gets the old page or the new one, never a 404, and no problem is announced."""
    root, server = served
    events = EventStream(server.port)
    time.sleep(0.2)
    station = root / "content" / "stations" / "02-sixth-avenue.md"
    old = station.read_text()
    new = old.replace("Sixth Avenue opened", "Sixth Avenue first opened")
    assert new != old
    seen, stop = [], threading.Event()

    def poll():
        while not stop.is_set():
            status, _, body = server.get("/info/sixth-avenue.html")
            seen.append((status, b"Sixth Avenue first opened" in body))

    poller = threading.Thread(target=poll)
    poller.start()
    time.sleep(0.1)
    backup = station.with_name("02-sixth-avenue.md~")
    os.rename(station, backup)
    time.sleep(0.15)
    with open(station, "w") as file:
        file.write(new[: len(new) // 3])
        file.flush()
        time.sleep(0.15)
        file.write(new[len(new) // 3:])
    backup.unlink()
    events.wait_for("reload")
    time.sleep(0.3)
    stop.set()
    poller.join()
    events.close()
    statuses = {status for status, _ in seen}
    assert statuses == {200}, f"the page was missing during the save: {sorted(statuses)}"
    assert seen[0] == (200, False) and seen[-1] == (200, True), (seen[0], seen[-1])
    assert "problem" not in [event[0] for event in events.events], events.events
    assert [event[0] for event in events.events].count("reload") == 1, events.events


def test_bad_input_keeps_the_last_good_site_and_shows_the_problem_until_fixed(served):
    root, server = served
    events = EventStream(server.port)
    time.sleep(0.2)
    station = root / "content" / "stations" / "04-third-avenue.md"
    good = station.read_text()
    station.write_text(good.replace("title: Third Avenue", "title: [Third Avenue"))
    _, data, _ = events.wait_for("problem")
    messages = json.loads(data)["messages"]
    assert len(messages) == 1
    assert messages[0].startswith("content/stations/04-third-avenue.md:")
    assert "YAML syntax error" in messages[0]
    status, _, body = server.get("/stations/third-avenue.html")
    assert status == 200 and b"<h1>Third Avenue</h1>" in body, "the last good version is still served"
    # A page opened now is told about the problem at once.
    late = EventStream(server.port)
    late.wait_for("problem", timeout=5)
    station.write_text(good)
    events.wait_for("reload", after=len(events.events))
    late.wait_for("reload")
    assert any("Build failed" in line for line in server.lines)
    events.close()
    late.close()


def test_sigterm_and_sigint_stop_within_a_second_and_free_the_port(tmp_path):
    copy_site(tmp_path, REPO / "content")
    for number in (signal.SIGTERM, signal.SIGINT):
        server = Server(tmp_path)
        events = EventStream(server.port)
        time.sleep(0.2)
        started = time.monotonic()
        server.process.send_signal(number)
        server.process.wait(timeout=5)
        assert time.monotonic() - started < 1.0
        assert server.process.returncode == 0
        with pytest.raises(OSError):
            socket.create_connection(("127.0.0.1", server.port), timeout=1)
        events.close()


def test_listens_on_loopback_only_by_default(served):
    _, server = served
    assert server.lines[0].startswith("Serving content/ on http://127.0.0.1:")


@pytest.mark.skipif(not shutil.which("wrk"), reason="wrk is installed by scripts/install-deps test")
def test_bounded_load_on_loopback_has_no_errors(served):
    _, server = served
    result = subprocess.run(
        ["wrk", "-t2", "-c50", "-d5s", "--latency", f"http://127.0.0.1:{server.port}/stations/union-square.html"],
        capture_output=True, text=True, timeout=60,
    )
    print("\n" + result.stdout)
    assert result.returncode == 0
    assert "Socket errors" not in result.stdout, result.stdout
    assert "Non-2xx" not in result.stdout
    requests = int(re.search(r"(\d+) requests in", result.stdout).group(1))
    assert requests > 1000


def test_an_open_page_in_a_browser_reloads_and_shows_problems(served, browser):
    """Headless Chromium with a page open: edit the station, the page changes by itself; break the
    front matter, the overlay names the file and line; fix it, the overlay goes and the page reloads."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    root, server = served
    browser.get(server.base + "info/union-square.html")
    WebDriverWait(browser, 5).until(lambda d: d.execute_script("return document.readyState") == "complete")
    time.sleep(0.3)
    station = root / "content" / "stations" / "03-union-square.md"
    good = station.read_text()
    station.write_text(good + "\nA paragraph written while the page was open.\n")
    WebDriverWait(browser, 5).until(lambda d: "written while the page was open" in d.page_source)
    station.write_text(good.replace("title: Union Square", "title: [Union Square"))
    overlay = WebDriverWait(browser, 5).until(lambda d: d.find_elements(By.ID, "ltrain-problems"))
    assert "content/stations/03-union-square.md:" in overlay[0].text
    assert overlay[0].get_attribute("role") == "alert"
    station.write_text(good)
    WebDriverWait(browser, 5).until(lambda d: not d.find_elements(By.ID, "ltrain-problems"))
    assert browser.find_element(By.TAG_NAME, "h1").text == "Union Square"
