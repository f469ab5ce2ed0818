"""The batch engine's render lanes: with ``OCR_WORKERS=1`` one job at a time holds the
lane, from its claim while its pages need the CPU. A job whose pages all have a text
layer gives the lane up once its child has rendered its last page, so the next job's
child renders while it writes its pages; a job whose pages need OCR keeps it until its
OCR has read them, so no job waits for OCR with its deadline running."""

from __future__ import annotations

import asyncio
import shutil
import threading
from collections.abc import Iterator
from contextvars import ContextVar
from pathlib import Path
from typing import Any

import pytest

from docbatch_gui.app.facade import DocBatchApp
from docbatch_gui.engine import render_step
from docbatch_gui.engine.plugins import plugins
from docbatch_gui.engine.worker import LocalWorker
from docbatch_gui.settings.model import Settings
from docbatch_gui.storage.blob_batch import BlobBatch
from tests.conftest import SAMPLES
from tests.fakes.anthropic_server import FakeAnthropic
from tests.integration.test_steps import THIRD, ThirdPlugin, read_with_third

pytestmark = pytest.mark.slow  # whole jobs rendered in children

INVOICE = SAMPLES / "en_invoice_INV-2024-0042.pdf"
SCAN = SAMPLES / "scan_two_pages.tiff"
#: a failure's bound, never a wait: the event comes at once when the code is right
BOUND_S = 60.0

#: the file whose child has just rendered its last page, in the job's own context
rendered: ContextVar[str] = ContextVar("rendered", default="")


class Order:
    """What happened, in the order it happened, from the engine and its threads."""

    def __init__(self) -> None:
        self.events: list[str] = []
        self.lock = threading.Lock()
        self.renders = 0
        self.second_render = threading.Event()

    def add(self, event: str) -> None:
        with self.lock:
            self.events.append(event)


@pytest.fixture
def order(monkeypatch: pytest.MonkeyPatch) -> Iterator[Order]:
    seen = Order()
    real_prepare = render_step.run_prepare

    async def run_prepare(task: Any, *args: Any, **kwargs: Any) -> Any:
        seen.add(f"render {task.file_name}")
        seen.renders += 1
        if seen.renders == 2:
            seen.second_render.set()
        result = await real_prepare(task, *args, **kwargs)
        seen.add(f"rendered {task.file_name}")
        rendered.set(task.file_name)  # the final flush's thread sees it (a copied context)
        return result

    monkeypatch.setattr(render_step, "run_prepare", run_prepare)
    yield seen


def copies(folder: Path, source: Path, count: int) -> list[Path]:
    """``count`` files of ``source``'s pages, each with bytes of its own (a copy of the
    same bytes would be one file twice)."""
    folder.mkdir()
    paths = []
    for number in range(1, count + 1):
        path = folder / f"{number}{source.suffix}"
        shutil.copyfile(source, path)
        with path.open("ab") as handle:  # trailing bytes: same pages, another file
            handle.write(b"\n%" + str(number).encode() * 8 + b"\n")
        paths.append(path)
    return paths


def submit(app: DocBatchApp, paths: list[Path]) -> None:
    """One batch cycle's submit: the jobs prepared under the lanes, then sent."""
    app.add(paths, mode="batch")

    async def main() -> None:
        worker = LocalWorker(app.context)
        client = app.batch_client()
        assert client is not None
        try:
            await app._batch_cycle(worker, client)
        finally:
            await client.close()

    asyncio.run(main())


def test_the_next_child_renders_while_a_text_job_writes_its_pages(
    claude_settings: Settings,
    fake_anthropic: FakeAnthropic,
    order: Order,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    real_commit = BlobBatch.commit
    waited: list[bool] = []

    def commit(self: BlobBatch) -> None:
        if rendered.get() == "1.pdf":  # the first job's last flush, after its child
            waited.append(order.second_render.wait(BOUND_S))
            order.add("stored 1.pdf")
        real_commit(self)

    monkeypatch.setattr(BlobBatch, "commit", commit)
    # every page in the last flush, whatever the time a cold child takes for the first
    monkeypatch.setattr(render_step, "PAGE_FLUSH_SECONDS", float("inf"))
    app = DocBatchApp(claude_settings.model_copy(update={"ocr_workers": 1}))
    try:
        submit(app, copies(tmp_path / "in", INVOICE, 2))
    finally:
        app.close()
    assert waited == [True], order.events  # the second child did not wait for the writes
    events = order.events
    assert events.index("rendered 1.pdf") < events.index("render 2.pdf")
    assert events.index("render 2.pdf") < events.index("stored 1.pdf"), events


def test_a_job_that_needs_ocr_keeps_the_lane_until_ocr_has_read_it(
    claude_settings: Settings,
    fake_anthropic: FakeAnthropic,
    order: Order,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    third = ThirdPlugin()
    engine = third.engine
    real_recognise = engine.recognise

    def recognise(jpeg: bytes, page_no: int) -> Any:
        order.add(f"ocr page {page_no}")
        return real_recognise(jpeg, page_no)

    monkeypatch.setattr(engine, "recognise", recognise)
    settings = read_with_third(claude_settings).model_copy(update={"ocr_workers": 1})
    assert settings.ocr_engine == THIRD
    app = DocBatchApp(settings)
    plugins().register(third)
    try:
        submit(app, copies(tmp_path / "in", SCAN, 2))
    finally:
        plugins().unregister(third)
        app.close()
    events = order.events
    before = events[: events.index("render 2.tiff")]
    assert [e for e in before if e.startswith("ocr")] == ["ocr page 1", "ocr page 2"], events
    assert len([e for e in events if e.startswith("ocr")]) == 4, events  # both scans read
