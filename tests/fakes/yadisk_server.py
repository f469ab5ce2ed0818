"""A fake Yandex.Disk REST API (v1) speaking the documented JSON.

``/v1/disk/public/resources`` (``public_key``) and ``/v1/disk/resources`` (OAuth),
paged by ``limit``/``offset``, items with ``type``, ``name``, ``path``, ``size`` and
``file`` (a download link) or none (then ``.../download`` gives ``href``).
"""

from __future__ import annotations

import json
import socket
import threading
from http.server import ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, quote, urlparse

from tests.fakes.local_server import LocalServer, TrackingHandler

PUBLIC_KEY = "https://disk.yandex.ru/d/fake-folder"
TOKEN = "fake-oauth-token"


class FakeYandexDisk(LocalServer):
    thread_name = "fake-yadisk"

    def __init__(self, files: dict[str, bytes], *, links: bool = True) -> None:
        self.files = files  # "/Scans/a.pdf" -> content
        self.links = links  # whether listings carry a direct "file" link
        self.requests: list[str] = []
        self._lock = threading.RLock()
        self._connections: set[socket.socket] = set()

    def _track(self, conn: socket.socket, *, add: bool) -> None:
        with self._lock:
            (self._connections.add if add else self._connections.discard)(conn)

    def _make_server(self) -> ThreadingHTTPServer:
        server = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
        server.fake = self  # type: ignore[attr-defined]
        return server

    def items(self, folder: str) -> list[dict[str, Any]]:
        prefix = folder.rstrip("/") + "/"
        found: dict[str, dict[str, Any]] = {}
        for path, data in sorted(self.files.items()):
            if not path.startswith(prefix):
                continue
            rest = path[len(prefix) :]
            name = rest.split("/", 1)[0]
            if "/" in rest:
                found[name] = {"type": "dir", "name": name, "path": prefix + name}
            else:
                item = {"type": "file", "name": name, "path": path, "size": len(data)}
                if self.links:
                    item["file"] = f"{self.url}/get?path={quote(path)}"
                found[name] = item
        return list(found.values())


class _Handler(TrackingHandler):
    def _send(self, status: int, body: bytes, kind: str = "application/json") -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self) -> None:
        fake: FakeYandexDisk = self.server.fake
        url = urlparse(self.path)
        query = {k: v[0] for k, v in parse_qs(url.query).items()}
        fake.requests.append(self.path)
        public = url.path.startswith("/v1/disk/public/")
        if url.path.startswith("/v1/disk/"):
            if public and query.get("public_key") != PUBLIC_KEY:
                return self._send(404, b'{"error": "DiskNotFoundError"}')
            if not public and self.headers.get("Authorization") != f"OAuth {TOKEN}":
                return self._send(401, b'{"error": "UnauthorizedError"}')
        path = query.get("path", "/").removeprefix("disk:")
        if url.path in ("/v1/disk/public/resources", "/v1/disk/resources"):
            items = fake.items(path)
            offset, limit = int(query.get("offset", 0)), int(query.get("limit", 20))
            body = {
                "type": "dir",
                "path": path,
                "_embedded": {
                    "items": items[offset : offset + limit],
                    "limit": limit,
                    "offset": offset,
                    "total": len(items),
                    "path": path,
                },
            }
            return self._send(200, json.dumps(body).encode())
        if url.path.endswith("/resources/download"):
            href = f"{fake.url}/get?path={quote(path)}"
            return self._send(200, json.dumps({"href": href, "method": "GET"}).encode())
        if url.path == "/get" and path in fake.files:
            return self._send(200, fake.files[path], "application/octet-stream")
        return self._send(404, b'{"error": "NotFound"}')
