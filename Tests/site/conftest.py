"""Shared fixtures for the site suite: the ltrain binary, built sites in temporary folders,
headless Chromium (with and without JavaScript), and a static HTTP server under a sub-path."""

import functools
import http.server
import os
import pathlib
import shutil
import subprocess
import threading

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service

REPO = pathlib.Path(__file__).resolve().parents[2]
FIXTURES = REPO / "Tests" / "LTrainKitTests" / "Fixtures" / "sites"
ARTIFACTS = REPO / ".build" / "artifacts"


def ltrain_binary() -> pathlib.Path:
    configured = os.environ.get("LTRAIN")
    if configured:
        return pathlib.Path(configured)
    binary = REPO / ".build" / "release" / "ltrain"
    if not binary.exists():
        subprocess.run(["swift", "build", "-c", "release", "--product", "ltrain"], cwd=REPO, check=True)
    return binary


@pytest.fixture(scope="session")
def ltrain():
    return ltrain_binary()


def run_ltrain(*arguments, cwd=None, check=True, timeout=120, env_extra=None):
    result = subprocess.run(
        [str(ltrain_binary()), *map(str, arguments)], cwd=cwd, capture_output=True, text=True, timeout=timeout,
        env={**os.environ, **(env_extra or {})},
    )
    if check and result.returncode != 0:
        raise AssertionError(f"ltrain {' '.join(map(str, arguments))} failed:\n{result.stderr}")
    return result


def copy_site(destination: pathlib.Path, content: pathlib.Path, templates: pathlib.Path = REPO / "templates"):
    shutil.copytree(content, destination / "content")
    shutil.copytree(templates, destination / "templates")
    return destination


def build_site(root: pathlib.Path, output: str = "_site"):
    run_ltrain("build", "--content", root / "content", "--templates", root / "templates", "--output", root / output)
    return root / output


@pytest.fixture(scope="session")
def default_site(tmp_path_factory):
    """The L train site, built once for the session."""
    root = copy_site(tmp_path_factory.mktemp("default"), REPO / "content")
    return build_site(root)


@pytest.fixture(scope="session")
def tram_site(tmp_path_factory):
    """An unrelated fixture site, built once for the session."""
    root = copy_site(tmp_path_factory.mktemp("tram"), FIXTURES / "tram" / "content")
    return build_site(root)


@pytest.fixture(scope="session")
def passeio_site(tmp_path_factory):
    """A Portuguese walking tour with its own labels and a checklist of many, built once."""
    root = copy_site(tmp_path_factory.mktemp("passeio"), FIXTURES / "passeio" / "content")
    return build_site(root)


@pytest.fixture(scope="session")
def rakevet_site(tmp_path_factory):
    """Jerusalem's light rail in Hebrew, read right to left, built once."""
    root = copy_site(tmp_path_factory.mktemp("rakevet"), FIXTURES / "rakevet" / "content")
    return build_site(root)


@pytest.fixture(scope="session")
def ubahn_site(tmp_path_factory):
    """Berlin's U1 in German: labels three times longer than English and a 62-character title."""
    root = copy_site(tmp_path_factory.mktemp("ubahn"), FIXTURES / "ubahn" / "content")
    return build_site(root)


def chrome_options(javascript=True, dark=False, width=390, height=844):
    options = Options()
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for argument in [
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--hide-scrollbars",
        "--force-prefers-reduced-motion",
        f"--window-size={width},{height}",
        "--allow-file-access-from-files",
    ]:
        options.add_argument(argument)
    if dark:
        options.add_argument("--force-dark-mode")
        options.add_argument("--blink-settings=preferredColorScheme=0")
    if not javascript:
        options.add_experimental_option("prefs", {"profile.managed_default_content_settings.javascript": 2})
    return options


def new_driver(**kwargs):
    service = Service(shutil.which("chromedriver") or "/usr/bin/chromedriver")
    driver = webdriver.Chrome(service=service, options=chrome_options(**kwargs))
    driver.set_page_load_timeout(30)
    return driver


@pytest.fixture(scope="session")
def browser():
    driver = new_driver()
    yield driver
    driver.quit()


@pytest.fixture(scope="session")
def browser_without_js():
    driver = new_driver(javascript=False)
    yield driver
    driver.quit()


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    """A static host: a missing path, or a folder without index.html, is answered the way GitHub
    Pages, Netlify, Cloudflare Pages and S3 websites do, with the nearest 404.html above it
    (the site's own), served at the missing URL with status 404; folders are never listed."""

    def log_message(self, *args):
        pass

    def list_directory(self, path):
        self.send_error(404)
        return None

    def send_error(self, code, message=None, explain=None):
        if code != 404:
            return super().send_error(code, message, explain)
        root = pathlib.Path(self.directory).resolve()
        missing = pathlib.Path(self.translate_path(self.path)).resolve()
        folder = missing if missing.is_dir() else missing.parent
        while True:
            page = folder / "404.html"
            if page.is_file() and page.resolve().is_relative_to(root):
                body = page.read_bytes()
                self.send_response(404)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                if self.command != "HEAD":
                    self.wfile.write(body)
                return None
            if folder == root or root not in folder.parents:
                return super().send_error(code, message, explain)
            folder = folder.parent


@pytest.fixture(scope="session")
def http_site(default_site, tmp_path_factory):
    """The default site served by a static server on 127.0.0.1 under /sub/dir/."""
    root = tmp_path_factory.mktemp("http")
    target = root / "sub" / "dir"
    shutil.copytree(default_site, target)
    handler = functools.partial(QuietHandler, directory=str(root))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/sub/dir/"
    server.shutdown()
    server.server_close()


AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]


def axe_results(driver, tags=AXE_TAGS):
    """axe-core's results (4.9 or later, from selenium-axe-python) for the page open in `driver`,
    with the WCAG 2.2 AA rules and axe's best practices."""
    import selenium_axe_python
    script = pathlib.Path(selenium_axe_python.__file__).parent / "axe-core" / "axe.min.js"
    driver.execute_script(script.read_text(encoding="utf-8"))
    version = driver.execute_script("return axe.version")
    assert tuple(int(part) for part in version.split(".")[:2]) >= (4, 9), f"axe-core {version} is older than 4.9"
    return driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "axe.run(document, {runOnly: {type: 'tag', values: arguments[0]}}).then(done, e => done({error: String(e)}));",
        list(tags),
    )


def axe_report(results) -> list[str]:
    """Each violation axe found, with its rule, impact and the first few elements at fault."""
    assert "error" not in results, results.get("error")
    return [
        f"{violation['id']} ({violation['impact']}): {violation['help']} — "
        + "; ".join(str(node["target"][0]) for node in violation["nodes"][:3])
        for violation in results["violations"]
    ]


def file_url(folder: pathlib.Path, page: str) -> str:
    return (folder / page).as_uri()
