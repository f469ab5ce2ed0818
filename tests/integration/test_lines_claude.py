"""Lines through Claude, sync and batch: the real SDK against the strict fake, whose
"model" reads the table from the text DocBatch sends (a table page goes laid out as
printed). A 20-page table crosses two request boundaries (8 + 8 + 4 pages) and comes
back as one document with its rows in order; a total that disagrees is flagged."""

from __future__ import annotations

import asyncio
import json
from decimal import Decimal
from pathlib import Path

import pytest

from docbatch_gui.app.facade import DocBatchApp
from docbatch_gui.domain.models import Document
from docbatch_gui.domain.states import JobState
from docbatch_gui.engine.worker import LocalWorker
from docbatch_gui.settings.model import Settings
from tests.fakes.anthropic_server import FakeAnthropic
from tests.lines_builders import goods, table_pdf

pytestmark = pytest.mark.slow  # whole runs through the fake


@pytest.fixture
def app(claude_settings: Settings) -> DocBatchApp:
    application = DocBatchApp(claude_settings.model_copy(update={"poll_interval": 0.05}))
    yield application
    application.close()


def _sync(app: DocBatchApp, path: Path) -> tuple[JobState, list[Document]]:
    (job,) = app.add([path], mode="sync").jobs
    (done,) = asyncio.run(app.run([job.id]))
    return done.state, app.store.list_documents(job.id)


def _batch(app: DocBatchApp, path: Path) -> tuple[JobState, list[Document]]:
    (job,) = app.add([path], mode="batch").jobs

    async def main() -> None:
        worker = LocalWorker(app.context)
        client = app.batch_client()
        try:
            for _ in range(4):
                await app._batch_cycle(worker, client)
        finally:
            assert client is not None
            await client.close()

    asyncio.run(main())
    return app.store.get_job(job.id).state, app.store.list_documents(job.id)


RUNS = {"sync": _sync, "batch": _batch}


def _read(document: Document) -> list[tuple[str | None, ...]]:
    return [(line.qty, line.price, line.net) for line in document.lines]


@pytest.mark.parametrize("mode", ["sync", "batch"])
def test_a_20_page_table_is_stitched_across_three_request_groups(
    app: DocBatchApp, fake_anthropic: FakeAnthropic, tmp_path: Path, mode: str
) -> None:
    rows = goods(200)
    printed = table_pdf(tmp_path / "long.pdf", "torg12", rows, rows_per_page=10)
    assert printed.pages == 20
    state, documents = RUNS[mode](app, printed.path)
    assert len(documents) == 1, [(d.page_from, d.page_to) for d in documents]
    (document,) = documents
    assert (document.page_from, document.page_to) == (1, 20)
    assert _read(document) == [(r.qty, r.price, r.net) for r in rows]
    assert [line.page for line in document.lines] == [1 + n // 10 for n in range(200)]
    assert document.printed_rows == 200
    codes = {c.code for c in document.review_codes}
    assert not codes & {"lines_incomplete", "lines_sum_mismatch", "line_arithmetic"}, (
        document.review_reasons
    )
    sent = [r for r in fake_anthropic.requests if r.method == "POST"]
    schemas = [
        json.dumps(body)
        for r in sent
        for body in ([r.json] if r.path == "/v1/messages" else r.json.get("requests", []))
    ]
    assert schemas and all('"lines"' in s for s in schemas)  # the schema asks for them
    records = app.store.list_requests(document.job_id)
    assert sorted({r.group for r in records}) == [1, 2, 3]
    assert state in (JobState.DONE, JobState.NEEDS_REVIEW)


@pytest.mark.parametrize("mode", ["sync", "batch"])
def test_a_disagreeing_total_is_flagged_through_claude(
    app: DocBatchApp, tmp_path: Path, mode: str
) -> None:
    rows = goods(5)
    printed = table_pdf(tmp_path / "upd.pdf", "upd", rows, total_delta=Decimal("1000.00"))
    state, (document,) = RUNS[mode](app, printed.path)
    assert _read(document) == [(r.qty, r.price, r.net) for r in rows]
    assert "lines_sum_mismatch" in {c.code for c in document.review_codes}
    assert document.needs_review and state is JobState.NEEDS_REVIEW


def test_a_five_row_upd_agrees_through_claude(app: DocBatchApp, tmp_path: Path) -> None:
    rows = goods(5)
    printed = table_pdf(tmp_path / "upd.pdf", "upd", rows)
    _state, (document,) = _sync(app, printed.path)
    assert _read(document) == [(r.qty, r.price, r.net) for r in rows]
    line_codes = {"line_arithmetic", "lines_sum_mismatch", "lines_incomplete", "lines_missing"}
    assert not {c.code for c in document.review_codes} & line_codes, document.review_reasons
