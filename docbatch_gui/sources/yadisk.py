"""Yandex.Disk: list a public folder link (or an OAuth folder) and download its files.

REST API v1: ``/v1/disk/public/resources`` with ``public_key`` for a shared link,
``/v1/disk/resources`` with ``Authorization: OAuth`` for a folder of one's own, both
paged with ``limit``/``offset``. Names come from a remote server and are treated as
hostile: only the last path part is kept, and never ``..`` or a hidden name, so a
download can never land outside its folder.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import httpx

from docbatch_gui.domain.progress import Canceled, CancelToken, ProgressSink, report
from docbatch_gui.pipeline.formats import SUPPORTED_EXTENSIONS

PAGE = 100
CHUNK = 1024 * 1024
TIMEOUT = httpx.Timeout(30.0, connect=10.0)
#: image kinds that are slow to decode and get the smaller TIFF thread count
TIFF_LIKE = {".tif", ".tiff"}


@dataclass(frozen=True)
class RemoteFile:
    name: str
    path: str
    size: int
    href: str | None  # a direct download link when the listing gave one


def safe_name(name: str) -> str:
    """One harmless file name: last path part, no control characters, no leading dot."""
    base = re.split(r"[\\/]", name)[-1]
    base = re.sub(r"[\x00-\x1f\x7f]", "", base).strip().lstrip(".")
    return base[:200] or "file"


def is_public(source: str) -> bool:
    return source.startswith(("http://", "https://"))


class YandexDisk:
    def __init__(self, api_url: str, token: str | None = None) -> None:
        headers = {"Authorization": f"OAuth {token}"} if token else {}
        self.http = httpx.Client(
            base_url=api_url.rstrip("/"), headers=headers, timeout=TIMEOUT, follow_redirects=True
        )

    def close(self) -> None:
        self.http.close()

    def _listing(self, source: str, path: str, offset: int) -> dict:
        if is_public(source):
            params: dict[str, str | int] = {
                "public_key": source,
                "path": path,
                "limit": PAGE,
                "offset": offset,
            }
            response = self.http.get("/v1/disk/public/resources", params=params)
        else:
            params = {"path": path, "limit": PAGE, "offset": offset}
            response = self.http.get("/v1/disk/resources", params=params)
        response.raise_for_status()
        return response.json()

    def list_files(self, source: str) -> Iterator[RemoteFile]:
        """Every supported file below the folder, page by page, subfolders included."""
        folders = ["/" if is_public(source) else source]
        while folders:
            folder = folders.pop(0)
            offset = 0
            while True:
                embedded = self._listing(source, folder, offset).get("_embedded", {})
                items = embedded.get("items", [])
                for item in items:
                    if item.get("type") == "dir":
                        folders.append(item["path"])
                    elif Path(item.get("name", "")).suffix.lower() in SUPPORTED_EXTENSIONS:
                        yield RemoteFile(
                            item["name"], item["path"], int(item.get("size", 0)), item.get("file")
                        )
                offset += len(items)
                if not items or offset >= int(embedded.get("total", 0)):
                    break

    def _href(self, source: str, remote: RemoteFile) -> str:
        if remote.href:
            return remote.href
        if is_public(source):
            params = {"public_key": source, "path": remote.path}
            response = self.http.get("/v1/disk/public/resources/download", params=params)
        else:
            response = self.http.get("/v1/disk/resources/download", params={"path": remote.path})
        response.raise_for_status()
        return str(response.json()["href"])

    def download(self, source: str, remote: RemoteFile, folder: Path) -> Path:
        """Stream one file into ``folder`` under its safe name."""
        folder.mkdir(parents=True, exist_ok=True)
        target = folder / safe_name(remote.name)
        with self.http.stream("GET", self._href(source, remote)) as response:
            response.raise_for_status()
            with open(target, "wb") as handle:
                for chunk in response.iter_bytes(CHUNK):
                    handle.write(chunk)
        return target


def download_all(
    disk: YandexDisk,
    source: str,
    folder: Path,
    *,
    pdf_threads: int,
    tiff_threads: int,
    progress: ProgressSink | None = None,
    cancel: CancelToken | None = None,
) -> list[Path]:
    """Download in parallel: TIFFs on their own, smaller pool (they are the heavy ones).

    ``progress`` hears of each downloaded file; after ``cancel`` no new download
    starts and :class:`Canceled` is raised once the running ones ended.
    """
    files = list(disk.list_files(source))
    done: list[Path] = []
    lock = threading.Lock()
    cancel = cancel or CancelToken()

    def fetch(index: int, remote: RemoteFile) -> None:
        if cancel.canceled:
            return
        # one folder per file: two remote folders may hold the same name
        path = disk.download(source, remote, folder / f"{index:05d}")
        with lock:
            done.append(path)
            report(progress, len(done), len(files), remote.name)

    numbered = list(enumerate(files))
    heavy = [(n, f) for n, f in numbered if Path(f.name).suffix.lower() in TIFF_LIKE]
    light = [(n, f) for n, f in numbered if Path(f.name).suffix.lower() not in TIFF_LIKE]
    with (
        ThreadPoolExecutor(max(1, pdf_threads), thread_name_prefix="yadisk-pdf") as pdf_pool,
        ThreadPoolExecutor(max(1, tiff_threads), thread_name_prefix="yadisk-tiff") as tiff_pool,
    ):
        futures = [pdf_pool.submit(fetch, n, f) for n, f in light]
        futures += [tiff_pool.submit(fetch, n, f) for n, f in heavy]
        for future in futures:
            future.result()
    if cancel.canceled:
        raise Canceled(f"import canceled after {len(done)} of {len(files)} files")
    return sorted(done)
