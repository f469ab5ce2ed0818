"""Review's "Known counterparty" panel: what the seller's confirmed documents showed,
confirming remembers, and forgetting asks first."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from PySide6.QtWidgets import QMessageBox

from docbatch_gui._qt.tasks import spawn
from docbatch_gui.app.facade import DocBatchApp
from docbatch_gui.domain.counterparty import ConfirmedDocument
from docbatch_gui.domain.models import Document, NewJob
from docbatch_gui.domain.states import JobState
from tests.gui.conftest import shown_box, until

pytestmark = pytest.mark.asyncio(loop_factories=["qasync"])

INN = "7701234560"


def waiting_invoice(app: DocBatchApp, inn: str = INN) -> int:
    store = app.store
    job = store.create_job(NewJob("invoice.pdf", "/tmp/invoice.pdf", "cd" * 32, 100, "offline"))
    store.claim(job.id, JobState.PREPARING)
    store.transition(job.id, JobState.BUILDING, pages=1)
    fields: dict[str, str | None] = {
        "number": "12-0047",
        "amount": "110000.00",
        "vat_amount": "10000.00",
        "seller": "ООО «Ромашка»",
        "seller_tax_id": inn,
    }
    store.replace_documents(
        job.id, [Document(job.id, 0, "invoice", 1, 1, fields=fields, needs_review=True)]
    )
    store.transition(job.id, JobState.NEEDS_REVIEW)
    return job.id


async def test_the_panel_shows_a_known_seller_and_forgets_it_after_asking(window: Any) -> None:
    app: DocBatchApp = window.ctx.app
    for n, rate in ((1, 20), (2, 20), (3, 10)):
        app.store.remember_confirmed(
            ConfirmedDocument(
                INN, 1000 + n, 99, "invoice", f"2025-01-0{n}T00:00:00", "ООО «Ромашка»",
                rate, "##-####", {"number": f"12-000{n}"},
            ),
            keep=5,
        )  # fmt: skip
    job_id = waiting_invoice(app)
    tab = window.review_tab
    panel = tab.counterparty_panel
    window.tabs.setCurrentWidget(tab)
    await tab.refresh()
    assert tab.select(job_id, 0)
    await until(lambda: panel.isVisible(), 10, "the counterparty panel")
    assert INN in panel.title()
    assert panel.name.text() == "ООО «Ромашка»"
    assert panel.rates.text() == "20% (2), 10% (1)"
    assert "##-####" in panel.formats.text()
    assert panel.count.text() == "3"

    async def answer(button: QMessageBox.StandardButton) -> None:
        task = spawn(panel.forget())
        await until(lambda: shown_box(panel), 10, "the confirmation")
        shown_box(panel).button(button).click()
        await asyncio.wait_for(task, 5)

    await answer(QMessageBox.StandardButton.No)
    assert app.store.counterparty(INN) is not None and panel.isVisible()
    await answer(QMessageBox.StandardButton.Yes)
    assert app.store.counterparty(INN) is None
    assert not panel.isVisible()


async def test_confirming_in_review_remembers_the_seller(window: Any) -> None:
    app: DocBatchApp = window.ctx.app
    job_id = waiting_invoice(app)
    tab = window.review_tab
    window.tabs.setCurrentWidget(tab)
    await tab.refresh()
    assert tab.select(job_id, 0)
    await until(lambda: tab.current is not None, 10, "the form")
    assert not tab.counterparty_panel.isVisible()  # a new seller
    await tab.confirm()
    known = app.store.counterparty(INN)
    assert known is not None and known.confirmed == 1 and known.vat_rates == {10: 1}
    assert known.recent[0].fields is not None
    assert known.recent[0].fields["number"] == "12-0047"


async def test_one_documents_confirmation_is_forgotten_from_the_window(window: Any) -> None:
    app: DocBatchApp = window.ctx.app
    app.store.remember_confirmed(
        ConfirmedDocument(
            INN, 1001, 99, "invoice", "2025-01-01T00:00:00", "ООО «Ромашка»", 20, "##-####",
            {"number": "12-0001"},
        ),
        keep=5,
    )  # fmt: skip
    job_id = waiting_invoice(app)
    tab = window.review_tab
    panel = tab.counterparty_panel
    window.tabs.setCurrentWidget(tab)
    await tab.refresh()
    assert tab.select(job_id, 0)
    await until(lambda: panel.isVisible(), 10, "the counterparty panel")
    assert not panel.forget_document_button.isVisible()  # this document taught nothing yet
    await tab.confirm()  # the confirmation the operator regrets
    known = app.store.counterparty(INN)
    assert known is not None and known.confirmed == 2
    await tab.open_job(job_id, 0)  # the done job opened again from the queue
    await until(lambda: panel.forget_document_button.isVisible(), 10, "the document's button")
    task = spawn(panel.forget_document())
    await until(lambda: shown_box(panel), 10, "the confirmation")
    shown_box(panel).button(QMessageBox.StandardButton.Yes).click()
    await asyncio.wait_for(task, 5)
    known = app.store.counterparty(INN)
    assert known is not None and known.confirmed == 1  # the other document still teaches
    assert [d.document_id for d in known.recent] == [1001]
    await until(lambda: panel.count.text() == "1", 10, "the panel shown again")
