"""Bounded children (issue 18): a file built to exhaust memory fails alone, with the
reason in words, and every other job in the queue ends ``done``.

Two layers: an image inside a PDF is measured before it is decoded (``MAX_IMAGE_PIXELS``
against its declared width × height), and a child's address space is capped
(``CHILD_MEMORY_MB``), so whatever slips past the first layer fails in that child
instead of taking the machine.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import time
from pathlib import Path

import psutil
import pytest

from docbatch_gui.app.facade import DocBatchApp
from docbatch_gui.domain.errors import ErrorKind, OutOfMemory, UnsupportedInput
from docbatch_gui.domain.states import JobState
from docbatch_gui.pipeline.child_bounds import linux
from docbatch_gui.pipeline.prepare import prepare_pool, run_prepare
from docbatch_gui.pipeline.render import PrepareTask
from docbatch_gui.settings.loading import load_settings
from tests import builders
from tests.conftest import SAMPLES
from tests.helpers import child_processes

needs_linux = pytest.mark.skipif(not linux(), reason="RLIMIT_AS and PDEATHSIG are Linux's")


async def _render(task: PrepareTask, memory_mb: int) -> int:
    """Render ``task`` in a fresh pool of one child; the pages delivered."""
    pages: list[object] = []

    async def on_count(count: int) -> None:
        pass

    async def on_page(page: object) -> None:
        pages.append(page)

    async with prepare_pool(1, memory_mb) as pool:
        await run_prepare(task, time.monotonic() + 60, pool, on_count=on_count, on_page=on_page)
    return len(pages)


@pytest.mark.slow  # starts a render child
def test_an_image_declaring_too_many_pixels_is_refused_before_decoding(tmp_path: Path) -> None:
    bomb = builders.jpx_bomb_pdf(tmp_path / "bomb.pdf")
    assert bomb.stat().st_size < 2000  # a few hundred bytes declaring 3.6 gigapixels
    task = PrepareTask(str(bomb), "bomb.pdf", "pdf", max_image_pixels=200_000_000)
    with pytest.raises(UnsupportedInput) as refused:
        asyncio.run(_render(task, 0))
    found = refused.value.message
    assert found.code == "pdf_image_too_large"
    assert "60,000 × 60,000" in refused.value.text and "MAX_IMAGE_PIXELS" in str(refused.value)
    assert "60 000 × 60 000" in refused.value.words("ru").replace("\xa0", " ").replace(",", " ")


@needs_linux
@pytest.mark.slow  # starts a render child
def test_a_child_over_its_memory_cap_fails_the_file_with_that_reason(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pdf = builders.text_pdf(tmp_path / "hog.pdf")
    # 4 GB asked of a child allowed 256 MB over its start: without the cap this would
    # succeed (the machine has the memory) and the test would fail
    monkeypatch.setenv("DOCBATCH_CHILD_ALLOCATE", "hog.pdf=4096")
    with pytest.raises(OutOfMemory) as refused:
        asyncio.run(_render(PrepareTask(str(pdf), "hog.pdf", "pdf"), 256))
    assert refused.value.kind is ErrorKind.UNSUPPORTED
    assert "CHILD_MEMORY_MB = 256 MB" in refused.value.text
    assert "CHILD_MEMORY_MB = 256 МБ" in refused.value.words("ru")
    # the same file renders under a cap it fits in: the cap refused only the 4 GB
    monkeypatch.delenv("DOCBATCH_CHILD_ALLOCATE")
    assert asyncio.run(_render(PrepareTask(str(pdf), "hog.pdf", "pdf"), 256)) == 1


@pytest.mark.slow  # a queue of four files through the whole engine
@needs_linux
def test_bombs_fail_alone_and_the_rest_of_the_queue_is_done(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DOCBATCH_CHILD_ALLOCATE", "hog.pdf=4096")
    settings = load_settings(
        data_dir=tmp_path / "data",
        PROCESSING_MODE="offline",
        OCR_ENGINE="none",
        RENDER_WORKERS=2,
        CHILD_MEMORY_MB=256,
    )
    app = DocBatchApp(settings)
    files = [
        builders.jpx_bomb_pdf(tmp_path / "bomb.pdf"),
        builders.text_pdf(tmp_path / "hog.pdf"),
        shutil.copy(SAMPLES / "en_invoice_INV-2024-0042.pdf", tmp_path / "good1.pdf"),
        shutil.copy(SAMPLES / "ru_three_documents.pdf", tmp_path / "good2.pdf"),
    ]
    report = app.add([Path(f) for f in files])
    jobs = {j.file_name: j for j in asyncio.run(app.run([j.id for j in report.jobs]))}
    bomb, hog = jobs.pop("bomb.pdf"), jobs.pop("hog.pdf")
    assert bomb.state is JobState.FAILED and bomb.error_code == "pdf_image_too_large", bomb
    assert hog.state is JobState.FAILED and hog.error_code == "child_out_of_memory", hog
    assert "CHILD_MEMORY_MB" in (hog.error or "")
    assert {name: job.state for name, job in jobs.items()} == {
        "good1.pdf": JobState.DONE,
        "good2.pdf": JobState.DONE,
    }
    assert child_processes(parent=os.getpid()) == []
    app.close()


@pytest.mark.slow  # starts a render child
def test_the_local_worker_registers_each_running_job_in_the_workload(tmp_path: Path) -> None:
    """Issue 18: the window's and ``docbatch worker``'s own jobs count in the team's
    workload (``job_processing``) as Celery tasks do, so other machines see the load."""
    settings = load_settings(data_dir=tmp_path / "data", PROCESSING_MODE="offline",
                             OCR_ENGINE="none")  # fmt: skip
    app = DocBatchApp(settings)
    pdf = shutil.copy(SAMPLES / "en_invoice_INV-2024-0042.pdf", tmp_path / "one.pdf")
    (job,) = app.add([Path(pdf)]).jobs
    seen: list[tuple[str, bool]] = []

    def listener(changed: object) -> None:
        state = getattr(changed, "state", None)
        seen.append((str(state), app.workload.holds("job_processing", job.id)))

    (final,) = asyncio.run(app.run([job.id], listener))
    assert final.state is JobState.DONE
    running = [held for state, held in seen if state in ("preparing", "extracting")]
    assert running and all(running), seen  # held while it ran …
    assert not app.workload.holds("job_processing", job.id)  # … and given back
    app.close()


@pytest.mark.slow
def test_a_render_child_runs_one_thread_and_writes_its_jpegs() -> None:
    """numpy, which the JPEG encoder's arrays need, starts OpenBLAS's pool of a thread
    a core as it is imported, in every render child: the package keeps it to one
    (``OPENBLAS_NUM_THREADS``), so a child is one thread, as before numpy."""

    async def main() -> tuple[int, list[bytes]]:
        pool = prepare_pool(1)
        await pool.warm_up()
        images: list[bytes] = []

        async def on_count(count: int) -> None:
            pass

        async def on_page(page: object) -> None:
            images.append(page.image)  # type: ignore[attr-defined]

        task = PrepareTask(str(SAMPLES / "ru_three_documents.pdf"), "ru.pdf", "pdf")
        await run_prepare(task, time.monotonic() + 120, pool, on_count=on_count, on_page=on_page)
        (child,) = pool._idle
        threads = psutil.Process(child.pid).num_threads()
        await pool.close()
        return threads, images

    threads, images = asyncio.run(main())
    assert threads == 1
    assert images and all(image[:3] == b"\xff\xd8\xff" for image in images)  # JPEGs
