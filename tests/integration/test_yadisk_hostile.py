"""Yandex.Disk as a careful client: every hostile server scenario ends bounded and clean."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlparse

import pytest

from docbatch_gui.app.facade import DocBatchApp
from docbatch_gui.domain.progress import Canceled, CancelToken
from docbatch_gui.settings.loading import load_settings
from docbatch_gui.sources.yadisk import ImportDeadline
from tests import builders
from tests.helpers import REPO

PUBLIC = "https://disk.yandex.ru/d/hostile"
TOKEN = "secret-oauth-token"


class Hostile:
    """A Disk API whose listing and downloads each test writes."""

    def __init__(self) -> None:
        self.listing: Callable[[str, int], dict[str, Any]] = lambda path, offset: {}
        self.download: Callable[[BaseHTTPRequestHandler], None] = lambda h: None
        self.seen: list[tuple[str, str | None]] = []  # (path, Authorization)
        hostile = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_GET(self) -> None:
                url = urlparse(self.path)
                query = {k: v[0] for k, v in parse_qs(url.query).items()}
                hostile.seen.append((url.path, self.headers.get("Authorization")))
                if url.path.endswith("/resources"):
                    body = json.dumps(
                        hostile.listing(query.get("path", "/"), int(query.get("offset", 0)))
                    ).encode()
                    self.send_response(200)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)
                else:
                    hostile.download(self)  # fmt: skip

            def log_message(self, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_port}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def file_item(self, name: str, size: int, host: str | None = None) -> dict[str, Any]:
        return {"type": "file", "name": name, "path": f"/{name}", "size": size,
                "file": f"{host or self.url}/get/{name}"}  # fmt: skip


@pytest.fixture
def hostile() -> Iterator[Hostile]:
    server = Hostile()
    yield server
    server.server.shutdown()


def _app(tmp_path: Path, server: Hostile, **env: Any) -> DocBatchApp:
    settings = load_settings(data_dir=tmp_path / "data", YADISK_API_URL=server.url,
                             PROCESSING_MODE="offline", **env)  # fmt: skip
    return DocBatchApp(settings)


def _page(items: list[dict[str, Any]], total: Any = None) -> dict[str, Any]:
    return {"_embedded": {"items": items, "total": len(items) if total is None else total}}


@pytest.fixture(autouse=True)
def _own_temp_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The downloads' temporary folders (and a CLI's) in this test's own folder: another
    xdist worker's or another run's download folder in the system's is not a leftover."""
    folder = tmp_path / "temp"
    folder.mkdir()
    monkeypatch.setenv("TMPDIR", str(folder))
    monkeypatch.setattr(tempfile, "tempdir", str(folder))


def _leftovers() -> list[Path]:
    return list(Path(tempfile.gettempdir()).glob("docbatch-yadisk-*"))


def _serve(handler: BaseHTTPRequestHandler, body: bytes, length: int | None = None) -> None:
    handler.send_response(200)
    handler.send_header("Content-Length", str(length if length is not None else len(body)))
    handler.end_headers()
    handler.wfile.write(body)


def test_a_file_bigger_than_listed_is_cut_off_and_others_still_come(
    tmp_path: Path, hostile: Hostile
) -> None:
    good = builders.text_pdf(tmp_path / "good.pdf").read_bytes()
    hostile.listing = lambda path, offset: (
        _page(
            [
                hostile.file_item("big.pdf", 1000),
                hostile.file_item("good.pdf", len(good)),
                hostile.file_item("huge.pdf", 50 * 2**30),
            ]
        )
        if offset == 0
        else _page([])
    )

    def download(handler: BaseHTTPRequestHandler) -> None:
        if handler.path.endswith("good.pdf"):
            return _serve(handler, good)
        _serve(handler, b"%PDF" + b"0" * (5 * 2**20))  # listed 1000 bytes, sends 5 MB

    hostile.download = download
    app = _app(tmp_path, hostile)
    try:
        report = app.import_yadisk(PUBLIC)
    finally:
        app.close()
    assert [r.job.file_name for r in report.results] == ["good.pdf"]
    notes = {str(p): why.english for p, why in report.passed_over}
    assert "more than the 1000 bytes" in notes["big.pdf"]
    assert "over MAX_FILE_MB" in notes["huge.pdf"]
    assert _leftovers() == []


@pytest.mark.slow  # a download that trickles to its deadline
def test_a_trickling_download_ends_at_the_deadline(tmp_path: Path, hostile: Hostile) -> None:
    hostile.listing = lambda path, offset: _page([hostile.file_item("slow.pdf", 10_000)])

    def trickle(handler: BaseHTTPRequestHandler) -> None:
        """A byte every 0.3 s until the client leaves: only the deadline ends it."""
        handler.send_response(200)
        handler.send_header("Content-Length", "10000")
        handler.end_headers()
        try:
            while True:
                handler.wfile.write(b"%")
                handler.wfile.flush()
                time.sleep(0.3)  # the trickle is what is tested
        except OSError:
            return

    hostile.download = trickle
    app = _app(tmp_path, hostile, YADISK_TIMEOUT=2)
    try:  # without the deadline this never ends (each read gets a byte in time)
        with pytest.raises(ImportDeadline, match="YADISK_TIMEOUT"):
            app.import_yadisk(PUBLIC)
    finally:
        app.close()
    assert _leftovers() == []


def test_listings_are_bounded_a_folder_in_itself_and_a_lying_total(
    tmp_path: Path, hostile: Hostile
) -> None:
    def listing(path: str, offset: int) -> dict[str, Any]:
        if offset > 0:
            return _page([], total=10**9)  # a total that never ends, pages that are empty
        return _page([{"type": "dir", "name": "loop", "path": "/"},  # the folder itself
                      {"type": "dir", "name": "deeper", "path": f"{path}/d"},
                      {"name": 7, "path": None}, {"type": "file", "name": "x" * 300 + ".pdf",
                       "path": "/x", "size": 5}], total=10**9)  # fmt: skip

    hostile.listing = listing
    app = _app(tmp_path, hostile, YADISK_MAX_DEPTH=3)
    try:
        report = app.import_yadisk(PUBLIC)
    finally:
        app.close()
    whys = [why.english for _, why in report.passed_over]
    assert report.results == []
    assert any("listed twice" in w for w in whys) and any("deeper than 3" in w for w in whys)
    assert any("without a proper name" in w for w in whys)
    assert any("longer than 255 bytes" in w for w in whys)
    assert len(hostile.seen) < 30  # a handful of listings, not forever


def test_the_token_goes_only_to_the_api_host_and_never_with_a_public_link(
    tmp_path: Path, hostile: Hostile
) -> None:
    pdf = builders.text_pdf(tmp_path / "a.pdf").read_bytes()
    other = Hostile()  # "another host" named in the listing
    other.download = lambda handler: _serve(handler, pdf)
    try:
        hostile.listing = lambda path, offset: (
            _page([hostile.file_item("a.pdf", len(pdf), host=other.url)]) if offset == 0
            else _page([])
        )  # fmt: skip
        app = _app(tmp_path, hostile, YADISK_TOKEN=TOKEN)
        try:
            assert len(app.import_yadisk("disk:/Scans").results) == 1
            assert len(app.import_yadisk(PUBLIC, force=True).results) == 1
        finally:
            app.close()
    finally:
        other.server.shutdown()
    private, public = hostile.seen[0], hostile.seen[-1]
    assert private == ("/v1/disk/resources", f"OAuth {TOKEN}")
    assert public[0] == "/v1/disk/public/resources" and public[1] is None
    assert other.seen and all(auth is None for _, auth in other.seen)


def trickle(hostile: Hostile, seconds: int) -> threading.Event:
    """Serve downloads a byte every 0.1 s for ``seconds``; the event is set when one
    has started."""
    started = threading.Event()

    def slow(handler: BaseHTTPRequestHandler) -> None:
        handler.send_response(200)
        handler.send_header("Content-Length", "10000")
        handler.end_headers()
        started.set()
        for _ in range(seconds * 10):
            handler.wfile.write(b"%")
            handler.wfile.flush()
            time.sleep(0.1)

    hostile.download = slow
    return started


def test_cancel_stops_a_running_download_and_cleans_up(tmp_path: Path, hostile: Hostile) -> None:
    hostile.listing = lambda path, offset: _page([hostile.file_item("slow.pdf", 10_000)])
    started = trickle(hostile, seconds=20)
    cancel = CancelToken()
    threading.Thread(target=lambda: started.wait(30) and cancel.cancel(), daemon=True).start()
    app = _app(tmp_path, hostile)
    try:
        with pytest.raises(Canceled):
            app.import_yadisk(PUBLIC, cancel=cancel)
    finally:
        app.close()
    assert _leftovers() == []
    assert app.jobs() == []


@pytest.mark.slow  # a CLI process; cancelling in-process stays in the fast loop
def test_ctrl_c_stops_the_command_line_import_at_once(tmp_path: Path, hostile: Hostile) -> None:
    hostile.listing = lambda path, offset: _page([hostile.file_item("slow.pdf", 10_000)])
    started = trickle(hostile, seconds=60)
    process = subprocess.Popen(
        [sys.executable, "-m", "docbatch_gui.cli", "--data-dir", str(tmp_path / "data"),
         "import-yadisk", PUBLIC],
        cwd=REPO, env={**os.environ, "YADISK_API_URL": hostile.url}, text=True,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )  # fmt: skip
    assert started.wait(60), "the download never started"
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=30)
    assert process.returncode == 130, err
    assert "Interrupted" in err and "Traceback" not in err
    assert _leftovers() == []
