"""Entry point of an isolated prepare child: ``python -m docbatch_gui.pipeline.child``.

It reads one task per line on stdin: a ``PrepareTask`` (answered with ``count``, then
``page`` per page, then ``done`` or ``error``), an OCR task (``ocr`` per page), one
page's text layer (``text``), or a job's offline extraction (``documents``). A
message is a JSON line followed by ``payload_bytes`` raw bytes (the page's JPEGs). It
exits at EOF. Library chatter (MuPDF warnings) goes to stderr so it can never
corrupt the stream.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from docbatch_gui.domain.errors import DocBatchError
from docbatch_gui.domain.messages import Message, coded
from docbatch_gui.pipeline.child_bounds import (
    cap_memory,
    die_with_parent,
    is_out_of_memory,
    tesseract_dies_with_us,
)
from docbatch_gui.pipeline.ocr_image import ocr_images
from docbatch_gui.pipeline.ocr_tesseract import tesseract_page
from docbatch_gui.pipeline.render import PrepareTask, RenderedPage, page_text, render_pages
from docbatch_gui.pipeline.words import encode as encode_words
from docbatch_gui.system.bounds import peak_rss_mb, widen_pipe
from docbatch_gui.system.processes import kill_self

PIPE_BYTES = 1024 * 1024
#: the wire kind of an allocation that failed under the memory cap (``prepare``)
OUT_OF_MEMORY = "out_of_memory"
#: MB this child may add to its start (``CHILD_MEMORY_MB``, its first argument); 0: no cap
_memory_mb = 0


def _error(kind: str, message: Message) -> dict[str, Any]:
    """An error event: its English text, and its message's ``code`` and ``params`` (the
    parent rebuilds the error with them, so the job keeps the code; ``isolate.error_of``)."""
    text, code, params = message.columns()
    return {"event": "error", "kind": kind, "message": text, "code": code, "params": params}


def _note(message: Message | None) -> dict[str, Any] | None:
    """A page's note as the child sends it: its code and parameters (``Message.from_dict``)."""
    return message.as_dict() if message is not None else None


def _out_of_memory(file: str) -> dict[str, Any]:
    """The error of an allocation refused under the cap: the file fails with that
    reason, and this child (its memory given back) takes the next task. Without a
    cap the machine itself ran out: the file is retried when it is less busy."""
    if not _memory_mb:
        return _error("retryable", coded("render_out_of_memory", file=file))
    return _error(OUT_OF_MEMORY, coded("child_out_of_memory", file=file, mb=_memory_mb))


#: tests: ``NAME:PAGES`` (``slow.pdf:2`` or ``slow.pdf:1,2,3``, several joined by
#: ``;``) stalls the render child as it starts one of those pages of file ``NAME``,
#: the way a page MuPDF never finishes does: the test then waits for PAGE_TIMEOUT or
#: JOB_TIMEOUT, or cancels, knowing the page cannot finish first on a fast machine
STALL_VARIABLE = "DOCBATCH_CHILD_STALL_PAGE"
#: tests: a file each stalled child appends ``NAME:PAGE`` to, to wait for the moment
STALL_MARKER_VARIABLE = "DOCBATCH_CHILD_STALL_MARKER"
#: tests: a path; once it exists, a stalled page goes on and renders (the test held
#: the job running for as long as it needed, then lets it finish)
STALL_RELEASE_VARIABLE = "DOCBATCH_CHILD_STALL_RELEASE"


def stall_point(file_name: str, page_no: int) -> None:
    """Tests (the ``crash_point`` pattern): hang here, reading and writing nothing,
    when ``DOCBATCH_CHILD_STALL_PAGE`` names this page of this file: forever, or until
    the file ``DOCBATCH_CHILD_STALL_RELEASE`` names exists."""
    for spec in os.environ.get(STALL_VARIABLE, "").split(";"):
        name, _, pages = spec.rpartition(":")
        if name and name == file_name and str(page_no) in pages.split(","):
            if marker := os.environ.get(STALL_MARKER_VARIABLE):
                with open(marker, "a", encoding="utf-8") as stream:
                    stream.write(f"{file_name}:{page_no}\n")
            release = os.environ.get(STALL_RELEASE_VARIABLE)
            while not (release and os.path.exists(release)):
                time.sleep(0.1 if release else 3600)


def _allocate_for_tests(file_name: str) -> None:
    """Tests: ``DOCBATCH_CHILD_ALLOCATE=name=MB`` makes the task of file ``name`` ask
    for MB megabytes at once, as a decompression bomb would."""
    name, _, mb = os.environ.get("DOCBATCH_CHILD_ALLOCATE", "").rpartition("=")
    if name and name == file_name:
        hog = bytearray(int(mb) << 20)
        hog[-1] = 1


Send = Callable[..., None]


def _widen_pipe(fd: int) -> None:
    """Let a few pages queue in the pipe (64 KiB by default is less than one page), so
    rendering never waits for the parent to store the previous page."""
    widen_pipe(fd, PIPE_BYTES)


def render_one(task: PrepareTask, send: Send) -> None:
    if os.environ.get("DOCBATCH_CRASH_AT") == "child_render":  # tests: the file kills its child
        kill_self()
    if stuck := os.environ.get("DOCBATCH_CHILD_STUCK"):  # tests: a page that never ends
        Path(stuck).write_text(str(os.getpid()), encoding="utf-8")
        time.sleep(3600)
    try:
        _allocate_for_tests(task.file_name)
        pages = render_pages(
            task,
            lambda count: send({"event": "count", "pages": count}),
            lambda page_no: stall_point(task.file_name, page_no),
        )
        for page in pages:
            verdict = _text_layer(task, page)
            small = small_image(task, page, verdict)
            header = {
                "event": "page",
                "page_no": page.page_no,
                "width": page.width,
                "height": page.height,
                "text": page.text,
                "rotation": page.rotation,
                "rotation_confidence": page.rotation_confidence,
                "orientation_note": _note(page.orientation_note),
                "orientation_uncertain": page.orientation_uncertain,
                # the words go as their stored blob (``words.encode``), made once in
                # the child: the parent stores the bytes without decoding them
                "words_bytes": len(words := _words_blob(page)),
                "image_cover": page.image_cover,
                "text_layer": verdict,
                "image_bytes": len(page.image),
                "thumb_bytes": len(page.thumb),
                "small_bytes": len(small),
                **_table_text(task, page.page_no, words),
            }
            # the payload goes as its parts, not joined: joining copies the page's
            # JPEG (a fresh allocation of its size) once for each part added
            send(header, page.image, page.thumb, words, small)
    except DocBatchError as exc:
        send(_error(exc.kind.value, exc.message))
        return
    except Exception as exc:
        if is_out_of_memory(exc):
            send(_out_of_memory(task.file_name))
            return
        error = f"{type(exc).__name__}: {str(exc)[:200]}"
        send(_error("unsupported", coded("render_unreadable", file=task.file_name, error=error)))
        return
    finally:
        _release_caches()
    send({"event": "done", "peak_rss_mb": peak_rss_mb()})


def _words_blob(page: RenderedPage) -> bytes:
    """The page's words as their stored blob: the renderer's own when it made one."""
    if page.words_blob or not page.words:
        return page.words_blob
    return encode_words(page.words)


def _table_text(task: PrepareTask, page_no: int, words: bytes) -> dict[str, Any]:
    """The text the page is sent with when its text layer holds a table of goods
    (``pipeline.table_text``), from the words blob the parent stores, and the key of
    the line fields it was judged by; nothing for an offline job (no profile given)."""
    if not task.profile_path or not words:
        return {}
    # deferred: the profile and the table reader, loaded only by a child that sends pages to Claude
    from docbatch_gui.pipeline.table_text import table_key, table_layout
    from docbatch_gui.pipeline.words import decode

    profile = _profile(task.profile_path)
    return {
        "table_layout": table_layout(decode(words), page_no, profile),
        "table_key": table_key(profile),
    }


def _text_layer(task: PrepareTask, page: Any) -> str:
    """The page's text layer verdict for the request plan, judged here, off the
    parent's event loop; empty when no profile was given."""
    if not task.profile_path:
        return ""
    # deferred: the profile (pydantic, 0.13 s): a child that only renders never loads it
    from docbatch_gui.pipeline.text_layer import judge_text_layer

    return judge_text_layer(page.text, page.image_cover, _profile(task.profile_path)).value


def small_image(task: PrepareTask, page: Any, verdict: str) -> bytes:
    """The page's small image, when the request plan will send it as text and a small
    image (``pipeline.small_image``); empty for an offline job (no profile given) and
    for every other page: it costs this child about 5 ms a page it is made for."""
    if not task.profile_path or not verdict:
        return b""
    # deferred: Pillow's resize and the plan, loaded only by a child that sends pages to Claude
    from docbatch_gui.pipeline.small_image import planned_small_image

    plan = _profile(task.profile_path).page_plan
    return planned_small_image(plan, verdict, page.text, page.image)


def ocr_pages(task: dict[str, Any], send: Send) -> None:
    """Tesseract, page by page, in this isolated child: the job's deadline kills the
    whole group, tesseract's own processes included. Each result is sent as soon as it
    is ready, so the parent caches it before the next page starts."""
    tesseract_dies_with_us()

    images = ocr_images(
        task.get("source"), task.get("source_kind", ""), task.get("file_name", ""), task["pages"]
    )
    try:
        for page in images:
            result = tesseract_page(
                page.image,
                page.page_no,
                languages=task["languages"],
                timeout=task["timeout"],
                dpi=page.dpi,
            )
            notes = {
                "orientation_note": _note(result.orientation_note),
                "error": _note(result.error),
            }
            send({"event": "ocr", **result.__dict__, **notes})
    except DocBatchError as exc:  # e.g. Tesseract or a language not installed
        send(_error(exc.kind.value, exc.message))
        return
    except MemoryError:
        send(_out_of_memory(str(task.get("file_name", ""))))
        return
    send({"event": "done", "peak_rss_mb": peak_rss_mb()})


def text_of_page(task: dict[str, Any], send: Send) -> None:
    """One page's text layer, for a page whose rendering was given up."""
    try:
        text = page_text(PrepareTask(**task["task"]), int(task["page_no"]))
    except Exception as exc:  # the page is already lost; say why its text is too
        send(_error("unsupported", Message.plain(str(exc)[:200])))
        return
    send({"event": "text", "text": text})
    send({"event": "done", "peak_rss_mb": peak_rss_mb()})


_PROFILES: dict[tuple[str, int], Any] = {}


def _profile(path: str) -> Any:
    """The extraction profile, loaded once per file version: a long-lived child takes
    an administrator's edit at its next task, as a fresh process would."""
    # deferred: the profile (pydantic, 0.13 s): a child that only renders never loads it
    from docbatch_gui.config.profile import load_profile

    try:
        key = (path, os.stat(path).st_mtime_ns)
    except OSError:
        key = (path, 0)
    if key not in _PROFILES:
        _PROFILES.clear()
        _PROFILES[key] = load_profile(Path(path))
    return _PROFILES[key]


def extract_offline(task: dict[str, Any], send: Send) -> None:
    """A job's documents from its pages' text, by the offline extractor. In a child:
    pure CPU work in the parent would hold the GIL and stall its event loop (and with
    it every other job and the GUI), and a runaway pattern is stopped by the deadline."""
    # deferred: the offline extractor and the profile (pydantic, 0.13 s): a child that only
    #   renders never loads them
    from docbatch_gui.pipeline.offline import PageText, extract_documents
    from docbatch_gui.pipeline.words import as_words

    try:
        pages = [
            PageText(
                **{**page, "words": tuple(as_words(page["words"])) if page.get("words") else None}
            )
            for page in task["pages"]
        ]
        documents = extract_documents(
            int(task["job_id"]), task["file_name"], pages, _profile(task["profile"])
        )
    except DocBatchError as exc:
        send(_error(exc.kind.value, exc.message))
        return
    except MemoryError:
        send(_out_of_memory(task["file_name"]))
        return
    except Exception as exc:  # a bug, not the file: retried, and reported with the log
        error = f"{type(exc).__name__}: {str(exc)[:200]}"
        text = coded("extractor_internal_error", file=task["file_name"], error=error)
        send(_error("retryable", text))
        return
    send({"event": "documents", "documents": [d.as_dict() for d in documents]})
    send({"event": "done", "peak_rss_mb": peak_rss_mb()})


def _release_caches() -> None:
    """Give back MuPDF's object cache between tasks: a long-lived child stays small."""
    with contextlib.suppress(Exception):
        # deferred: PyMuPDF (2.1 s) loads in main(), after die_with_parent, not at this module's
        #   import
        import pymupdf

        pymupdf.TOOLS.store_shrink(100)


def main(argv: list[str]) -> int:
    global _memory_mb
    die_with_parent()  # a killed worker leaves no child
    _widen_pipe(sys.stdout.fileno())
    protocol = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    # Import the heavy libraries now, while the child waits for its first task.
    # deferred: PyMuPDF (2.1 s), Pillow and the JPEG encoder load after die_with_parent, while
    #   the child waits for its first task
    import numpy  # noqa: F401
    import pymupdf  # noqa: F401
    import simplejpeg  # noqa: F401
    from PIL import Image  # noqa: F401

    # Capped after the imports: the budget is what one task may add.
    _memory_mb = int(argv[0]) if argv else 0
    if cap_memory(_memory_mb << 20) is None:
        _memory_mb = 0

    def send(message: dict[str, Any], *payload: bytes) -> None:
        """One JSON line, then ``payload_bytes`` raw bytes (the page JPEGs): the parts
        of ``payload`` one after the other, each written from its own memory (a part
        larger than the buffer goes straight to the pipe, uncopied)."""
        message["payload_bytes"] = sum(map(len, payload))
        protocol.write(json.dumps(message, ensure_ascii=False).encode() + b"\n")
        protocol.writelines(payload)
        protocol.flush()

    for line in sys.stdin:
        if not line.strip():
            continue
        task = json.loads(line)
        if task.get("kind") == "ocr":
            ocr_pages(task, send)
        elif task.get("kind") == "page_text":
            text_of_page(task, send)
        elif task.get("kind") == "extract":
            extract_offline(task, send)
        else:
            render_one(PrepareTask(**task), send)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
