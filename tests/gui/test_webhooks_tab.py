"""The Webhooks tab against a real local receiver: failed and waiting deliveries with
the job, the time, the tries and the last answer; Resend and Resend all; screenshots
in English and Russian."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from docbatch_gui.settings.loading import load_settings
from docbatch_gui.settings.model import Settings
from tests.gui.conftest import until
from tests.gui.test_registry_wizard import shots_dir
from tests.integration.test_webhook_resend import outbox_with
from tests.integration.test_webhooks import Receiver, receiver

pytestmark = pytest.mark.asyncio(loop_factories=["qasync"])
__all__ = ["receiver"]  # the fixture


@pytest.fixture
def gui_settings(tmp_path: Path, receiver: Receiver) -> Settings:
    return load_settings(
        data_dir=tmp_path / "data", PROCESSING_MODE="offline", OCR_ENGINE="none",
        JOB_TIMEOUT=60, RENDER_WORKERS=2, WEBHOOK_URL=receiver.url, WEBHOOK_ATTEMPTS=1,
    )  # fmt: skip


def cells(tab: Any, row: int) -> list[str]:
    return [tab.table.item(row, c).text() for c in range(tab.table.columnCount())]


async def shown(window: Any, tmp_path: Path, failed: int = 2) -> Any:
    outbox_with(window.ctx.app.settings, tmp_path, failed=failed, waiting=1)
    window.resize(1024, 640)
    tab = window.webhooks_tab
    window.tabs.setCurrentWidget(tab)
    await until(lambda: tab.table.rowCount() == failed + 1, what="the deliveries")
    return tab


@pytest.mark.slow
async def test_failed_deliveries_are_shown_and_resent(
    window: Any, tmp_path: Path, receiver: Receiver
) -> None:
    tab = await shown(window, tmp_path)
    first = cells(tab, 0)
    assert first[0] == "Failed" and first[3] == "Done" and first[5] == "3"
    assert first[6] == "HTTP 503: not today" and first[4]  # the time of the last try
    assert first[2] == "0.pdf"  # the job's file, as the operator knows it
    assert cells(tab, 2)[0] == "Waiting" and cells(tab, 2)[6] == ""
    assert receiver.url in tab.where.text()
    window.grab().save(str(shots_dir(tmp_path) / "webhooks_en.png"))
    assert not tab.resend_button.isEnabled() and tab.resend_all_button.isEnabled()
    tab.table.selectRow(2)  # a waiting one: the sender sends it, not the button
    assert not tab.resend_button.isEnabled()
    tab.table.selectRow(0)
    assert tab.resend_button.isEnabled()

    receiver.status = 500
    outcome = await tab.resend_selected()
    assert outcome is not None and (outcome.delivered, outcome.failed) == (0, 1)
    await until(lambda: tab.table.rowCount() == 3, what="the list again")
    row = next(r for r in range(3) if cells(tab, r)[5] == "4")
    assert cells(tab, row)[6].startswith("HTTP 500")

    receiver.status = 200
    outcome = await tab.resend(None)  # what Resend all runs
    assert outcome is not None and (outcome.delivered, outcome.failed) == (2, 0)
    await until(lambda: tab.table.rowCount() == 1, what="only the waiting one left")
    assert len(receiver.received) == 3
    assert not tab.resend_all_button.isEnabled()


@pytest.mark.slow
async def test_the_webhooks_tab_in_russian(
    russian: None, window: Any, tmp_path: Path, receiver: Receiver
) -> None:
    tab = await shown(window, tmp_path)
    assert cells(tab, 0)[0] == "Не доставлено" and cells(tab, 2)[0] == "Ждёт отправки"
    assert tab.resend_all_button.text() == "Отправить все снова"
    assert cells(tab, 0)[2] == "0.pdf" and tab.table.horizontalHeaderItem(2).text() == "Файл"
    window.grab().save(str(shots_dir(tmp_path) / "webhooks_ru.png"))


async def test_the_deliveries_fill_the_table_width(window: Any, tmp_path: Path) -> None:
    """The last answer takes the table's width: the header used to stop after the
    columns' contents, a grey band over half the table (the screenshots at 1600 px)."""
    from PySide6.QtWidgets import QApplication

    from docbatch_gui._qt.tasks import drain

    outbox_with(window.ctx.app.settings, tmp_path, failed=2, waiting=1)
    window.resize(1600, 1000)
    tab = window.webhooks_tab
    await tab.refresh()  # read while another tab is in front, as the window starts
    window.tabs.setCurrentWidget(tab)
    await until(lambda: tab.table.rowCount() == 3, what="the deliveries")
    await drain()
    QApplication.processEvents()
    header = tab.table.horizontalHeader()
    last = header.count() - 1
    end = header.sectionPosition(last) + header.sectionSize(last)
    assert end >= tab.table.viewport().width() - 2, (end, tab.table.viewport().width())
    assert header.width() >= tab.table.viewport().width() - 2


@pytest.mark.slow
async def test_a_refused_delivery_is_shown_failed_without_refresh(
    window: Any, tmp_path: Path
) -> None:
    """A delivery the receiver refuses (connection refused) moves from waiting to
    failed with its answer as the sender settles it, as ``docbatch webhooks`` says,
    with no press of Refresh: the list used to stay "Waiting" with no answer."""
    import asyncio

    from docbatch_gui.outbound.webhook import deliver_pending
    from tests.helpers import closed_port

    tab = await shown(window, tmp_path, failed=0)
    assert cells(tab, 0)[0] == "Waiting" and cells(tab, 0)[6] == ""
    settings = window.ctx.app.settings
    refused = settings.model_copy(update={"webhook_url": f"http://127.0.0.1:{closed_port()}/"})
    sent = await asyncio.get_running_loop().run_in_executor(None, deliver_pending, refused)
    assert sent == (0, 1)
    await until(lambda: cells(tab, 0)[0] == "Failed", what="the failed delivery shown")
    assert cells(tab, 0)[6] == "The receiver cannot be reached"
