"""A job the worker tries again after a failed attempt says so in its row: the state
counts the attempt, its tooltip and the detail pane say why the last one failed."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from PySide6.QtCore import Qt

from docbatch_gui._qt.bridge import EngineBridge
from docbatch_gui._qt.queue.jobs_model import COL_STATE, JobTableModel, refresh_labels
from docbatch_gui.app.facade import DocBatchApp
from docbatch_gui.app.host import EngineHost
from docbatch_gui.domain.messages import Message, coded
from docbatch_gui.domain.models import Job
from docbatch_gui.domain.states import JobState
from docbatch_gui.settings.loading import load_settings
from tests.gui.conftest import interface_in

FAILURE = coded(
    "claude_requests_failed_retry",
    file="a.pdf",
    failed=1,
    total=1,
    first="Claude cannot be reached",
)


def a_job(state: JobState, attempts: int) -> Job:
    return Job(
        id=7,
        file_name="a.pdf",
        source_path="/in/a.pdf",
        sha256="0" * 64,
        size=1,
        mode="sync",
        state=state,
        phase=None,
        attempts=attempts,
        progress=0.65,
    )


def cell(model: JobTableModel, role: Qt.ItemDataRole) -> object:
    return model.data(model.index(0, COL_STATE), role)


def failures(job_id: int) -> Message | None:
    return FAILURE if job_id == 7 else None


def test_a_second_attempt_is_counted_in_the_state_and_its_reason_is_in_the_tooltip() -> None:
    model = JobTableModel()
    model.last_failure = failures
    model.load([a_job(JobState.EXTRACTING, 1)])
    assert cell(model, Qt.ItemDataRole.DisplayRole) == "Reading"  # the first: no count
    assert not cell(model, Qt.ItemDataRole.ToolTipRole)
    model.apply([a_job(JobState.EXTRACTING, 2)])
    assert cell(model, Qt.ItemDataRole.DisplayRole) == "Reading · 2/3"
    tip = str(cell(model, Qt.ItemDataRole.ToolTipRole))
    assert tip.startswith("Attempt 1 of 3 failed; DocBatch is trying again by itself.\n")
    assert "1 of 1 request to Claude failed" in tip and "Retry the job" not in tip
    # an operator's Retry after the last attempt starts a new round: its first attempt
    # is not counted, its second is "2/3" again
    model.apply([replace(a_job(JobState.EXTRACTING, 4), retry_base=3)])
    assert cell(model, Qt.ItemDataRole.DisplayRole) == "Reading"
    model.apply([replace(a_job(JobState.EXTRACTING, 5), retry_base=3)])
    assert cell(model, Qt.ItemDataRole.DisplayRole) == "Reading · 2/3"
    tip = str(cell(model, Qt.ItemDataRole.ToolTipRole))
    assert tip.startswith("Attempt 1 of 3 failed; DocBatch is trying again by itself.\n")
    # the final failure keeps its own words
    model.apply([replace(a_job(JobState.FAILED, 3), progress=0.0)])
    assert "try" not in str(cell(model, Qt.ItemDataRole.DisplayRole))


def test_in_russian_the_attempt_is_counted_in_russian() -> None:
    with interface_in("ru"):
        refresh_labels()
        try:
            model = JobTableModel()
            model.last_failure = failures
            model.load([a_job(JobState.EXTRACTING, 3)])
            assert cell(model, Qt.ItemDataRole.DisplayRole) == "Извлечение · 3/3"
            tip = str(cell(model, Qt.ItemDataRole.ToolTipRole))
            assert tip.startswith("Попытка 2 из 3 не удалась")
        finally:
            refresh_labels()
    refresh_labels()


def test_the_bridge_keeps_a_failed_attempts_reason_through_the_requeue(tmp_path: Path) -> None:
    """The worker requeues at once, so the window's batch holds only the queued job
    (its error cleared): the reason is kept aside for the tooltip."""
    settings = load_settings(data_dir=tmp_path / "data", ANTHROPIC_API_KEY="test-key")
    app = DocBatchApp(settings)
    try:
        host = EngineHost(app)
        bridge = EngineBridge(host)
        failed = replace(
            a_job(JobState.FAILED, 1),
            error=FAILURE.english,
            error_code=FAILURE.code,
            error_params=FAILURE.params,
        )
        for job in (failed, a_job(JobState.QUEUED, 1), a_job(JobState.EXTRACTING, 2)):
            host._on_job(job)  # as the worker reports them, from the engine's thread
        assert bridge.last_failure(7) == FAILURE
        assert bridge.last_failure(8) is None
    finally:
        app.close()
