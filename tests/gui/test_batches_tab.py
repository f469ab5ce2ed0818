"""The Batches tab over a real store: rows, summary, sync figures, cancel."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QMessageBox
from pytestqt.qtbot import QtBot

from docbatch_gui._qt.batches.model import (
    COL_ACTUAL,
    COL_BATCH,
    COL_CACHE,
    COL_EXPIRES,
    COL_JOBS,
    COL_MODEL,
    COL_REQUESTS,
    COL_STATUS,
    BatchProgressRole,
    CancelableRole,
    StatusRole,
)
from docbatch_gui._qt.batches.tab import BatchesTab
from docbatch_gui._qt.bridge import EngineBridge
from docbatch_gui._qt.context import GuiContext
from docbatch_gui._qt.notify import Notifier
from docbatch_gui._qt.tasks import drain, spawn
from docbatch_gui.app.facade import DocBatchApp
from docbatch_gui.app.host import EngineHost
from docbatch_gui.domain.models import BatchRecord
from docbatch_gui.domain.states import JobState
from docbatch_gui.settings.loading import load_settings
from tests.batch_seed import ENDED_ID, OPEN_ID, batch_job, seed
from tests.gui.conftest import shown_box, until


def make_tab(qtbot: QtBot, app: DocBatchApp, qsettings: QSettings) -> BatchesTab:
    host = EngineHost(app)
    ctx = GuiContext(host, EngineBridge(host), Notifier(), qsettings, "tester")
    tab = BatchesTab(ctx)
    qtbot.addWidget(tab)
    tab.resize(1180, 420)
    return tab


@pytest.fixture
def sync_app(tmp_path: Path) -> Iterator[DocBatchApp]:
    """Sync mode with a key (never used: nothing is sent)."""
    settings = load_settings(
        data_dir=tmp_path / "data", ANTHROPIC_API_KEY="test-key", MAX_CONCURRENCY=8
    )
    application = DocBatchApp(settings)
    yield application
    application.close()


def cell(tab: BatchesTab, row: int, column: int, role: int = 0) -> object:
    return tab.model.index(row, column).data(role)


@pytest.mark.asyncio
async def test_the_tab_shows_the_stored_batches_and_the_month(
    qtbot: QtBot, app: DocBatchApp, qsettings: QSettings
) -> None:
    batches = seed(app.store)
    tab = make_tab(qtbot, app, qsettings)
    await tab.refresh(full=True)
    assert tab.stack.currentWidget() is tab.table and tab.model.rowCount() == 3
    rows = {cell(tab, r, COL_BATCH): r for r in range(3)}
    assert list(rows) == ["(being created)", ENDED_ID, OPEN_ID]  # newest first
    running = rows[OPEN_ID]
    assert cell(tab, running, COL_STATUS) == "In progress"
    assert cell(tab, running, COL_REQUESTS) == "2 / 4"
    assert cell(tab, running, 0, BatchProgressRole) == 0.5
    assert cell(tab, running, COL_EXPIRES).startswith(("20 h", "21 h"))
    assert cell(tab, running, COL_JOBS) == "2" and cell(tab, running, 0, CancelableRole)
    ended = rows[ENDED_ID]
    assert cell(tab, ended, COL_ACTUAL) == "$0.2500" and cell(tab, ended, COL_EXPIRES) == "—"
    assert cell(tab, ended, COL_MODEL) == "claude-opus-5-5 · low, thinking on"
    assert "1,200 thinking tokens" in str(cell(tab, ended, COL_ACTUAL, Qt.ItemDataRole.ToolTipRole))
    assert cell(tab, running, COL_MODEL) == "—"  # recorded before models were
    assert cell(tab, ended, COL_CACHE) == "30%"  # 3,000 read of 10,000 prompt tokens
    assert "prompt cache" in str(cell(tab, ended, COL_CACHE, Qt.ItemDataRole.ToolTipRole))
    assert cell(tab, running, COL_CACHE) == "—"  # no results yet
    summary = tab.summary.text()
    assert "<b>3</b> pages" in summary and "cost <b>$0.2500</b>" in summary
    assert "saved <b>$0.2500</b>" in summary
    assert not tab.live.isVisibleTo(tab)  # offline here: no sync panel
    assert batches["open"].id is not None


@pytest.mark.asyncio
async def test_refresh_updates_rows_in_place(
    qtbot: QtBot, app: DocBatchApp, qsettings: QSettings
) -> None:
    batches = seed(app.store)
    tab = make_tab(qtbot, app, qsettings)
    await tab.refresh(full=True)
    resets: list[bool] = []
    changed: list[tuple[int, int]] = []
    tab.model.modelReset.connect(lambda: resets.append(True))
    tab.model.dataChanged.connect(lambda a, b, *_: changed.append((a.row(), b.row())))
    tab.select(batches["open"].id)
    app.store.update_batch(
        batches["open"].id, request_counts={"processing": 1, "succeeded": 0, "errored": 0}
    )
    await tab.refresh()
    row = tab.model.row_of(batches["open"].id)
    assert cell(tab, row, COL_REQUESTS) == "3 / 4" and not resets and changed
    assert tab.selected() is not None and tab.selected().local_id == batches["open"].id


@pytest.mark.asyncio
async def test_cancel_asks_then_cancels_the_jobs_and_the_row_shows_it(
    qtbot: QtBot, app: DocBatchApp, qsettings: QSettings
) -> None:
    batches = seed(app.store)
    tab = make_tab(qtbot, app, qsettings)
    notes: list[tuple[str, str]] = []
    tab.ctx.notifier.shown.connect(lambda text, level: notes.append((text, level)))
    await tab.refresh(full=True)
    tab.select(batches["open"].id)
    assert tab.cancel_button.isEnabled()

    async def answer(button: QMessageBox.StandardButton) -> None:
        task = spawn(tab.cancel_selected())
        await until(lambda: shown_box(tab), 10, "the confirmation")
        shown_box(tab).button(button).click()
        await asyncio.wait_for(task, 5)

    await answer(QMessageBox.StandardButton.No)
    assert {app.store.get_job(j).state for j in batches["open"].job_ids} == {JobState.PROCESSING}

    await answer(QMessageBox.StandardButton.Yes)
    assert {app.store.get_job(j).state for j in batches["open"].job_ids} == {JobState.CANCELED}
    row = tab.model.row_of(batches["open"].id)
    assert cell(tab, row, 0, StatusRole) == "canceling"
    assert cell(tab, row, COL_STATUS) == "Canceling"
    assert not tab.cancel_button.isEnabled()
    assert notes and notes[-1][1] == "info" and "2 jobs canceled" in notes[-1][0]
    await drain()


@pytest.mark.asyncio
async def test_no_batches_shows_what_batch_mode_is(
    qtbot: QtBot, app: DocBatchApp, qsettings: QSettings
) -> None:
    tab = make_tab(qtbot, app, qsettings)
    await tab.refresh(full=True)
    assert tab.stack.currentWidget() is tab.empty
    assert "Message Batches API" in tab.empty.text() and "half the price" in tab.empty.text()
    assert "<b>0</b> pages" in tab.summary.text()


@pytest.mark.asyncio
async def test_sync_mode_shows_live_concurrency_and_counts(
    qtbot: QtBot, sync_app: DocBatchApp, qsettings: QSettings
) -> None:
    tab = make_tab(qtbot, sync_app, qsettings)
    metrics = sync_app.sync_metrics
    for _ in range(3):
        metrics.sending()
    metrics.answered()
    metrics.outcome(True)
    metrics.outcome(False, attempts=3)
    tab.show()
    await tab.refresh(full=True)
    assert tab.live.isVisible()
    assert "<b>2</b> / 8" in tab.in_flight.text()
    assert ">1</b>" in tab.succeeded.text() and ">1</b>" in tab.failed.text()
    assert "<b>2</b>" in tab.retried.text()
    await drain()


@pytest.mark.asyncio
async def test_screenshot_with_data(
    qtbot: QtBot, sync_app: DocBatchApp, qsettings: QSettings, tmp_path: Path
) -> None:
    """The tab with rows, grabbed offscreen; DOCBATCH_SCREENSHOT_DIR=docs/screenshots
    refreshes the committed picture."""
    more_batches(sync_app)
    seed(sync_app.store)
    metrics = sync_app.sync_metrics
    for _ in range(4):
        metrics.sending()
    for ok in (True,) * 37 + (False,):
        metrics.outcome(ok)
    tab = make_tab(qtbot, sync_app, qsettings)
    tab.show()
    await tab.refresh(full=True)
    tab.select(tab.model.batch(3).local_id)
    await drain()
    folder = Path(os.environ.get("DOCBATCH_SCREENSHOT_DIR") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    assert tab.grab().save(str(folder / "batches.png"))


def more_batches(app: DocBatchApp) -> None:
    """A month's worth of variety for the picture: a large ended batch, a canceled
    one and one close to the API's 24-hour limit."""
    now = datetime.now(UTC)
    shapes = [
        ("msgbatch_01K6ZC4N8W2D5QF7HJ1TR9VB3M", 70, "ended", 120, 0, 2.3105, 1.8421),
        ("msgbatch_01K70B1X5S8G3YN2KQ6DW4PZ7E", 52, "ended", 18, 18, 0.4120, 0.0),
        ("msgbatch_01K7P9R2T6V4C8M1XJ3HZ5NQWD", 22.6, "in_progress", 96, 14, 1.7733, None),
    ]
    for batch_id, hours, status, total, left, estimate, actual in shapes:
        canceled = status == "ended" and actual == 0.0
        finished = status == "ended" and not canceled
        job = batch_job(
            app.store, f"{batch_id[-6:]}.pdf", finished=finished, cost=actual or 0, pages=total
        )
        counts = (
            {"processing": 0, "canceled": total}
            if canceled
            else {"processing": left, "succeeded": total - left}
        )
        created = now - timedelta(hours=hours)
        app.store.create_batch(
            BatchRecord(
                request_ids=[f"r{n}" for n in range(total)],
                job_ids=[job.id],
                window_start=created.isoformat(),
                status=status,
                batch_id=batch_id,
                created_at=created.isoformat(),
                ended_at=(created + timedelta(hours=2)).isoformat() if status == "ended" else None,
                request_counts=counts,
                cost_estimate_usd=estimate,
                cost_actual_usd=actual,
            )
        )
