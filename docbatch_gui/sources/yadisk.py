"""Yandex.Disk: list a public folder link (or an OAuth folder) and download its files.

REST API v1: ``/v1/disk/public/resources`` with ``public_key`` for a shared link,
``/v1/disk/resources`` with ``Authorization: OAuth`` for a folder of one's own, both
paged with ``limit``/``offset``.

Everything the server says is treated as hostile, because a link may lead anywhere:

- names: only the last path part is kept, never ``..`` or a hidden name, so a
  download cannot land outside its folder; an item whose name or path is not a
  string, or is longer than a file system takes, is skipped with a note;
- sizes: a file listed over ``MAX_FILE_MB`` is skipped; a download that sends more
  than it listed (or more than the cap) is cut off and skipped;
- listings: at most ``max_files`` files and ``max_depth`` folder levels, each folder
  listed once (a folder that contains itself), and a page that adds nothing ends it;
- time: every read has a timeout and the whole import a deadline, so a server that
  drips one byte at a time cannot hold it;
- the OAuth token goes only to the API host, and never with a public link (download
  links point at other hosts and carry their own signature);
- cancel stops listings and running downloads at the next chunk.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from docbatch_gui.domain.errors import JobTimeout
from docbatch_gui.domain.progress import Canceled, CancelToken, ProgressSink, report
from docbatch_gui.pipeline.formats import SUPPORTED_EXTENSIONS
from docbatch_gui.system.names import safe_name

PAGE = 100
TIMEOUT = httpx.Timeout(30.0, connect=10.0)
#: image kinds that are slow to decode and get the smaller TIFF thread count
TIFF_LIKE = {".tif", ".tiff"}
MAX_NAME_BYTES = 255


class ImportDeadline(JobTimeout):
    """The import took longer than YADISK_TIMEOUT."""


@dataclass(frozen=True)
class Limits:
    max_file_bytes: int = 1024 * 2**20
    max_files: int = 10_000
    max_depth: int = 20
    #: seconds for the whole import (listing and every download)
    deadline_s: float = 3600.0


@dataclass(frozen=True)
class RemoteFile:
    name: str
    path: str
    size: int
    href: str | None  # a direct download link when the listing gave one


@dataclass
class Outcome:
    """What an import brought: the files downloaded, and each item left out with why."""

    paths: list[Path] = field(default_factory=list)
    skipped: list[tuple[str, str]] = field(default_factory=list)


def is_public(source: str) -> bool:
    return source.startswith(("http://", "https://"))


class YandexDisk:
    def __init__(
        self, api_url: str, token: str | None = None, limits: Limits | None = None
    ) -> None:
        self.api = httpx.Client(base_url=api_url.rstrip("/"), timeout=TIMEOUT)
        self.token = token
        self.limits = limits or Limits()
        # downloads go to other hosts: no credentials, and redirects are followed there
        self.downloads = httpx.Client(timeout=TIMEOUT, follow_redirects=True)
        self.started = time.monotonic()

    def close(self) -> None:
        self.api.close()
        self.downloads.close()

    def _check_time(self) -> None:
        if time.monotonic() - self.started > self.limits.deadline_s:
            raise ImportDeadline(
                f"the Yandex.Disk import took longer than {self.limits.deadline_s:g} s "
                "(YADISK_TIMEOUT) and was stopped; nothing was queued. Try again, or raise "
                "YADISK_TIMEOUT for a slow connection"
            )

    def _api_get(self, source: str, url: str, params: dict[str, Any]) -> Any:
        """A call to the API host; the token only for one's own folders."""
        self._check_time()
        headers = {}
        if self.token and not is_public(source):
            headers["Authorization"] = f"OAuth {self.token}"
        response = self.api.get(url, params=params, headers=headers)
        response.raise_for_status()
        return response.json()

    def _listing(self, source: str, path: str, offset: int) -> dict[str, Any]:
        if is_public(source):
            params: dict[str, Any] = {"public_key": source, "path": path}
            url = "/v1/disk/public/resources"
        else:
            params, url = {"path": path}, "/v1/disk/resources"
        body = self._api_get(source, url, {**params, "limit": PAGE, "offset": offset})
        return body if isinstance(body, dict) else {}

    def list_files(
        self, source: str, skipped: list[tuple[str, str]], cancel: CancelToken | None = None
    ) -> Iterator[RemoteFile]:
        """Every supported file below the folder, page by page, subfolders included."""
        start = "/" if is_public(source) else source
        folders: list[tuple[str, int]] = [(start, 0)]
        seen_folders = {start}
        found = 0
        while folders:
            folder, depth = folders.pop(0)
            offset = 0
            while True:
                if cancel is not None and cancel.canceled:
                    raise Canceled("Yandex.Disk listing canceled")
                embedded = self._listing(source, folder, offset).get("_embedded") or {}
                items = embedded.get("items") if isinstance(embedded, dict) else None
                if not isinstance(items, list) or not items:
                    break
                for item in items:
                    remote = self._item(item, depth, skipped)
                    if isinstance(remote, tuple):
                        sub = remote[0]
                        if sub in seen_folders:
                            skipped.append((sub, "folder listed twice (it contains itself)"))
                        elif depth + 1 > self.limits.max_depth:
                            skipped.append((sub, f"deeper than {self.limits.max_depth} folders"))
                        else:
                            seen_folders.add(sub)
                            folders.append((sub, depth + 1))
                    elif remote is not None:
                        found += 1
                        if found > self.limits.max_files:
                            skipped.append((folder, f"more than {self.limits.max_files} files; "
                                                    "the rest were not listed"))  # fmt: skip
                            return
                        yield remote
                offset += len(items)
                total = embedded.get("total")
                if not isinstance(total, int) or offset >= total:
                    break

    def _item(
        self, item: object, depth: int, skipped: list[tuple[str, str]]
    ) -> RemoteFile | tuple[str] | None:
        """A file to fetch, ``(folder path,)`` to list, or None (skipped or not ours)."""
        if not isinstance(item, dict):
            skipped.append(("?", "an item of the listing is not an object"))
            return None
        name, path = item.get("name"), item.get("path")
        if not isinstance(name, str) or not isinstance(path, str) or not name:
            skipped.append((repr(name)[:80], "an item without a proper name or path"))
            return None
        if len(name.encode("utf-8", "replace")) > MAX_NAME_BYTES:
            skipped.append((name[:60] + "…", f"a name longer than {MAX_NAME_BYTES} bytes"))
            return None
        if item.get("type") == "dir":
            return (path,)
        if Path(name).suffix.lower() not in SUPPORTED_EXTENSIONS:
            return None
        size = item.get("size")
        if not isinstance(size, int) or isinstance(size, bool) or size < 0:
            skipped.append((name, "the listing gives no size"))
            return None
        if size > self.limits.max_file_bytes:
            skipped.append((name, f"{size / 2**20:.0f} MB, over MAX_FILE_MB"))
            return None
        href = item.get("file")
        return RemoteFile(name, path, size, href if isinstance(href, str) else None)

    def _href(self, source: str, remote: RemoteFile) -> str:
        if remote.href:
            return remote.href
        if is_public(source):
            params = {"public_key": source, "path": remote.path}
            body = self._api_get(source, "/v1/disk/public/resources/download", params)
        else:
            body = self._api_get(source, "/v1/disk/resources/download", {"path": remote.path})
        href = body.get("href") if isinstance(body, dict) else None
        if not isinstance(href, str) or not href.startswith(("https://", "http://")):
            raise ValueError("the server gave no download link")
        return href

    def download(
        self, source: str, remote: RemoteFile, folder: Path, cancel: CancelToken | None = None
    ) -> Path:
        """Stream one file into ``folder`` under its safe name, at most its listed size."""
        folder.mkdir(parents=True, exist_ok=True)
        target = folder / safe_name(remote.name)
        allowed = min(remote.size, self.limits.max_file_bytes)
        written = 0
        with self.downloads.stream("GET", self._href(source, remote)) as response:
            response.raise_for_status()
            with open(target, "wb") as handle:
                for chunk in response.iter_bytes():  # as it arrives: a trickle is seen
                    if cancel is not None and cancel.canceled:
                        raise Canceled("download canceled")
                    self._check_time()
                    written += len(chunk)
                    if written > allowed:
                        raise OversizedDownload(
                            f"sent more than the {allowed} bytes it listed; cut off"
                        )
                    handle.write(chunk)
        return target


class OversizedDownload(ValueError):
    """The server sent more than the listing said (or more than MAX_FILE_MB)."""


def download_all(
    disk: YandexDisk,
    source: str,
    folder: Path,
    *,
    pdf_threads: int,
    tiff_threads: int,
    progress: ProgressSink | None = None,
    cancel: CancelToken | None = None,
) -> Outcome:
    """Download in parallel: TIFFs on their own, smaller pool (they are the heavy ones).

    ``progress`` hears of each downloaded file; after ``cancel`` no new download
    starts, running ones stop at their next chunk, and :class:`Canceled` is raised.
    One file that fails (too big, a bad link) is skipped with a note; the deadline
    ends the whole import (:class:`ImportDeadline`).
    """
    cancel = cancel or CancelToken()
    outcome = Outcome()
    files = list(disk.list_files(source, outcome.skipped, cancel))
    lock = threading.Lock()

    def fetch(index: int, remote: RemoteFile) -> None:
        if cancel.canceled:
            return
        try:
            # one folder per file: two remote folders may hold the same name
            path = disk.download(source, remote, folder / f"{index:05d}", cancel)
        except (OversizedDownload, ValueError, httpx.HTTPError) as exc:
            with lock:
                outcome.skipped.append((remote.name, _why(exc)))
            return
        with lock:
            outcome.paths.append(path)
            report(progress, len(outcome.paths), len(files), remote.name)

    numbered = list(enumerate(files))
    heavy = [(n, f) for n, f in numbered if Path(f.name).suffix.lower() in TIFF_LIKE]
    light = [(n, f) for n, f in numbered if Path(f.name).suffix.lower() not in TIFF_LIKE]
    with (
        ThreadPoolExecutor(max(1, pdf_threads), thread_name_prefix="yadisk-pdf") as pdf_pool,
        ThreadPoolExecutor(max(1, tiff_threads), thread_name_prefix="yadisk-tiff") as tiff_pool,
    ):
        futures = [pdf_pool.submit(fetch, n, f) for n, f in light]
        futures += [tiff_pool.submit(fetch, n, f) for n, f in heavy]
        errors = []
        for future in futures:
            try:
                future.result()
            except (Canceled, ImportDeadline) as exc:
                cancel.cancel()  # the others stop at their next chunk
                errors.append(exc)
    if cancel.canceled:
        deadline = next((e for e in errors if isinstance(e, ImportDeadline)), None)
        if deadline is not None:
            raise deadline
        raise Canceled(f"import canceled after {len(outcome.paths)} of {len(files)} files")
    outcome.paths.sort()
    return outcome


def _why(exc: BaseException) -> str:
    if isinstance(exc, httpx.TimeoutException):
        return "the download stalled (no data within the read timeout)"
    if isinstance(exc, httpx.HTTPStatusError):
        return f"the server answered {exc.response.status_code}"
    if isinstance(exc, httpx.HTTPError):
        return f"the download failed: {exc}"
    return str(exc)
