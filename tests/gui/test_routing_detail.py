"""The queue's detail pane says which model read a job, whether it went to the
escalation model and why, and what each answer cost, in the interface language."""

from __future__ import annotations

from typing import Any

import pytest

from docbatch_gui.domain.models import NewJob
from docbatch_gui.domain.states import ProcessingMode

pytestmark = pytest.mark.asyncio(loop_factories=["qasync"])


def routed_job(window: Any, *, escalated: bool) -> Any:
    store = window.ctx.app.store
    job = store.create_job(
        NewJob("routed.pdf", "/in/routed.pdf", "a" * 64, 10, ProcessingMode.BATCH)
    )
    fields: dict[str, Any] = {"first_model": "claude-haiku-5-5", "cost_first_usd": 0.0012}
    if escalated:
        fields.update(
            escalated=True,
            escalation_model="claude-sonnet-5-5",
            escalation_reasons=["unsure", "contradiction"],
            cost_escalation_usd=0.0234,
            answered_by="claude-sonnet-5-5",
        )
    return store.update_job(job.id, **fields)


async def test_the_detail_pane_shows_both_models_and_costs(window: Any) -> None:
    detail = window.queue_tab.detail
    detail.show_job(routed_job(window, escalated=True))
    text = detail.routing.text()
    assert not detail.routing.isHidden()
    assert "Read by claude-haiku-5-5: $0.0012" in text
    assert "sent to claude-sonnet-5-5 (unsure, contradicts the page): $0.0234" in text
    assert "answer kept: claude-sonnet-5-5" in text


async def test_a_job_read_once_says_so_and_an_offline_job_says_nothing(window: Any) -> None:
    detail = window.queue_tab.detail
    detail.show_job(routed_job(window, escalated=False))
    assert detail.routing.text() == "Read by claude-haiku-5-5: $0.0012"
    store = window.ctx.app.store
    offline = store.create_job(NewJob("plain.pdf", "/in/plain.pdf", "b" * 64, 10))
    detail.show_job(offline)
    assert detail.routing.isHidden() and detail.routing.text() == ""


async def test_the_routing_line_is_in_russian(russian: None, window: Any) -> None:
    detail = window.queue_tab.detail
    detail.show_job(routed_job(window, escalated=True))
    text = detail.routing.text()
    assert "Прочитала модель claude-haiku-5-5: $0.0012" in text
    assert "неуверенно, расходится со страницей" in text
