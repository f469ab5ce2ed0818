"""Delete, then *Undo*: the log file says both, as they happen (the store is asked
only when the undo time is over, so its own line never comes for an undone delete)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine
from pathlib import Path
from typing import Any

import pytest

from docbatch_gui._qt.queue.pending_deletes import PendingDeletes
from docbatch_gui.app.facade import DocBatchApp
from docbatch_gui.domain.models import Job
from docbatch_gui.settings.loading import load_settings
from tests.builders import text_pdf


def test_a_delete_and_its_undo_are_each_one_log_line(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    app = DocBatchApp(load_settings(data_dir=tmp_path / "data", PROCESSING_MODE="offline"))
    try:
        (job,) = app.add([text_pdf(tmp_path / "march invoice.pdf")]).jobs
        committed: list[list[tuple[Job, bool]]] = []
        restored: list[list[Job]] = []

        async def commit(due: list[tuple[Job, bool]]) -> None:
            committed.append(due)

        def run(coroutine: Coroutine[Any, Any, None]) -> None:
            asyncio.run(coroutine)

        pending = PendingDeletes(commit, restored.append, run)
        with caplog.at_level(logging.INFO):
            pending.add([job], keep_documents=False)
            assert pending.undo([job.id]) == [job]
        lines = [r.getMessage() for r in caplog.records if f"job {job.id} " in r.getMessage()]
        assert len(lines) == 2, lines
        deleted, back = lines
        assert "march invoice.pdf" in deleted and "deleted with its documents" in deleted
        assert "Undo" in deleted
        assert "march invoice.pdf" in back and "brought back" in back
        assert restored == [[job]] and not committed  # nothing reached the store
        assert app.jobs([job.id]) == [job]
    finally:
        app.close()
