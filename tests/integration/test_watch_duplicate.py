"""A file dropped in the watched folder that is already known is a duplicate from the
start: no worker ever takes it, so the engine host itself tells its listeners (the
queue) of it, or the window would not show it until its next start."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from docbatch_gui.app.host import EngineHost
from docbatch_gui.domain.models import Job
from docbatch_gui.domain.states import JobState
from docbatch_gui.settings.loading import load_settings
from tests.helpers import REPO, wait_for

INVOICE = REPO / "docbatch_gui" / "resources" / "samples" / "en_invoice_INV-2024-0042.pdf"


@pytest.mark.slow  # the engine renders the original in a child process
def test_a_duplicate_dropped_in_the_watched_folder_reaches_the_listeners(tmp_path: Path) -> None:
    folder = tmp_path / "inbox"
    folder.mkdir()
    settings = load_settings(
        data_dir=tmp_path / "data", OCR_ENGINE="none", PROCESSING_MODE="offline",
        WATCH_FOLDERS=str(folder), WATCH_SETTLE_SECONDS="0.2", WATCH_POLL_SECONDS="0.2",
    )  # fmt: skip
    host = EngineHost.for_settings(settings)
    heard: dict[int, Job] = {}
    lock = threading.Lock()

    def listen(job: Job) -> None:
        with lock:
            heard[job.id] = job

    host.add_job_listener(listen)
    try:
        host.start()
        (folder / "invoice.pdf").write_bytes(INVOICE.read_bytes())
        wait_for(lambda: any(j.state is JobState.DONE for j in heard.values()), 120,
                 "the original processed")  # fmt: skip
        (folder / "invoice copy.pdf").write_bytes(INVOICE.read_bytes())
        wait_for(lambda: len(host.app.jobs()) == 2, 60, "the copy taken")

        def copy_heard() -> bool:
            with lock:
                return any(j.file_name == "invoice copy.pdf" for j in heard.values())

        wait_for(copy_heard, 30, "the duplicate announced to the listeners")
        (copy,) = [j for j in heard.values() if j.file_name == "invoice copy.pdf"]
        assert copy.state is JobState.DUPLICATE and copy.is_duplicate
    finally:
        host.stop()
        host.close()
