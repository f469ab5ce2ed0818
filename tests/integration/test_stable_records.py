"""A document keeps its id through review and reprocessing; a person's corrections and
the audit trail survive a retry; registry rows pointing at a vanished document are
matched again."""

from __future__ import annotations

import asyncio
import shutil
from dataclasses import replace
from pathlib import Path

import openpyxl
import pytest

from docbatch_gui.app.facade import DocBatchApp
from docbatch_gui.app.review import ReviewService
from docbatch_gui.domain.models import Document, NewJob
from docbatch_gui.domain.reasons import ReviewCode
from docbatch_gui.domain.states import JobState
from docbatch_gui.engine.documents import NOT_FOUND_AGAIN, CorrectionsAtRisk, carry_corrections
from docbatch_gui.registry.service import RegistryService
from docbatch_gui.storage.sqlite import SQLiteStore
from tests.conftest import SAMPLES
from tests.helpers import cli

INVOICE = SAMPLES / "en_invoice_INV-2024-0042.pdf"


def _registry_book(path: Path, numbers: list[str]) -> Path:
    book = openpyxl.Workbook()
    book.active.append(["Number"])
    for number in numbers:
        book.active.append([number])
    book.save(path)
    return path


def test_a_review_edit_keeps_the_id_and_the_registry_match(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "db.sqlite3")
    job = store.create_job(NewJob("a.pdf", "/a.pdf", "a" * 64, 1))
    store.update_job(job.id, pages=3)
    store.replace_documents(
        job.id, [Document(job.id, i, "invoice", i + 1, i + 1, fields={"number": f"N-{i}"})
                 for i in range(3)]
    )  # fmt: skip
    ids = [d.id for d in store.list_documents(job.id)]
    registry = RegistryService(store)
    book = _registry_book(tmp_path / "r.xlsx", ["N-0", "N-1", "N-2"])
    reg = registry.import_registry(book, {"mapping": {"number": "A"}}).registry_id
    registry.search(reg)
    before = {r.row: r.document_id for r in registry.results(reg)}
    review = ReviewService(store)
    review.edit(job.id, 1, who="olga", fields={"number": "N-1"}, doc_type="act", pages=(2, 3))
    review.confirm(job.id, 1, who="olga")
    review.confirm(job.id, 0, who="olga")
    assert [d.id for d in store.list_documents(job.id)] == ids
    after = registry.results(reg)
    assert {r.row: r.document_id for r in after} == before
    assert not any("deleted or replaced" in w.english for r in after for w in r.warnings)
    store.close()


def test_carry_over_matches_on_the_pages_the_model_gave() -> None:
    """A page range a person changed still finds the document the model finds again."""
    earlier = Document(
        1, 0, "act", 1, 3,
        fields={"number": "7", "date": "2024-01-02", "amount": "10.00"},
        confirmed_by="olga", confirmed_at="2026-11-30T10:00:00+00:00",
        audit=[
            {"action": "pages", "field": "pages", "old": "1-2", "new": "1-3", "who": "olga"},
            {"action": "type", "field": "doc_type", "old": "invoice", "new": "act", "who": "olga"},
            {"action": "edit", "field": "number", "old": "1", "new": "7", "who": "olga"},
            {"action": "confirm", "field": None, "old": None, "new": None, "who": "olga"},
        ],
        id=41,
    )  # fmt: skip
    again = Document(
        1, 0, "invoice", 1, 2,
        fields={"number": "1", "date": "2024-01-02", "amount": "10.00"},
        needs_review=True,
        review_codes=[ReviewCode("low_confidence", "number", {"confidence": 0.4})],
    )  # fmt: skip
    (kept,), lost = carry_corrections([earlier], [again])
    assert lost == []
    assert kept.id == 41 and kept.doc_type == "act" and (kept.page_from, kept.page_to) == (1, 3)
    assert kept.fields["number"] == "7" and kept.confirmed_by == "olga"
    assert not kept.needs_review and kept.review_reasons == []
    assert kept.audit[:4] == earlier.audit and kept.audit[-1]["action"] == "reprocess"
    changed = Document(1, 0, "invoice", 1, 2, fields={"number": "1", "amount": "99.00"})
    (kept,), _ = carry_corrections([earlier], [changed])
    assert kept.confirmed_by is None and kept.needs_review
    assert any("amount, date changed" in r for r in kept.review_reasons), kept.review_reasons
    (fresh,), lost = carry_corrections([earlier], [Document(1, 0, "invoice", 4, 4)])
    assert fresh.id is None and lost == [earlier]


@pytest.fixture
def corrected_job(tmp_path: Path) -> tuple[DocBatchApp, int, int]:
    """A processed sample whose document a person corrected and confirmed."""
    from docbatch_gui.settings.loading import load_settings

    app = DocBatchApp(load_settings(data_dir=tmp_path / "data", PROCESSING_MODE="offline"))
    source = tmp_path / "invoice.pdf"
    shutil.copy(INVOICE, source)
    (job,) = asyncio.run(app.run([j.id for j in app.add([source]).jobs]))
    (document,) = app.documents(job.id)
    app.review.edit(job.id, 0, who="olga", fields={"number": "INV-42-CORRECTED"})
    app.review.confirm(job.id, 0, who="olga")
    assert document.id is not None
    return app, job.id, document.id


@pytest.mark.slow
def test_a_retry_asks_first_then_keeps_the_corrections(
    corrected_job: tuple[DocBatchApp, int, int],
) -> None:
    app, job_id, doc_id = corrected_job
    with pytest.raises(CorrectionsAtRisk, match="corrected or confirmed by a person"):
        app.retry(job_id)
    with pytest.raises(CorrectionsAtRisk):
        app.reprocess(job_id)
    assert app.store.get_job(job_id).state is JobState.DONE  # nothing moved
    app.retry(job_id, force=True)
    (job,) = asyncio.run(app.run([job_id]))
    assert job.state is JobState.DONE, (job.state, job.error)
    (document,) = app.documents(job_id)
    assert document.id == doc_id
    assert document.fields["number"] == "INV-42-CORRECTED"
    assert document.confirmed_by == "olga"
    assert [e["action"] for e in document.audit] == ["edit", "confirm", "reprocess"]
    app.close()


@pytest.mark.slow
def test_a_document_not_found_again_is_archived_and_its_row_matched_again(
    corrected_job: tuple[DocBatchApp, int, int], tmp_path: Path
) -> None:
    app, job_id, doc_id = corrected_job
    registry = RegistryService(app.store)
    book = _registry_book(tmp_path / "r.xlsx", ["INV-42-CORRECTED"])
    reg = registry.import_registry(book, {"mapping": {"number": "A"}}).registry_id
    registry.search(reg)
    assert [r.document_id for r in registry.results(reg)] == [doc_id]
    # the person had moved the document to other pages; the model now finds page 1 only
    # as something else entirely
    (document,) = app.documents(job_id)
    moved = {"action": "pages", "field": "pages", "old": "9-9", "new": "1-1", "who": "olga"}
    app.store.update_document(replace(document, audit=[*document.audit, moved]))
    app.retry(job_id, force=True)
    asyncio.run(app.run([job_id]))
    (fresh,) = app.documents(job_id)
    assert fresh.id != doc_id
    (archived,) = app.store.document_history(job_id)
    assert archived["document_id"] == doc_id and archived["reason"] == NOT_FOUND_AGAIN
    assert archived["document"]["fields"]["number"] == "INV-42-CORRECTED"
    assert [e["action"] for e in archived["document"]["audit"]][:2] == ["edit", "confirm"]
    (result,) = registry.results(reg)
    assert result.document_id != doc_id
    assert any(f"document {doc_id} (matched before) was deleted or replaced" in w.english
               for w in result.warnings), result.warnings  # fmt: skip
    app.close()


@pytest.mark.slow
def test_cli_retry_needs_force_over_corrections(
    corrected_job: tuple[DocBatchApp, int, int], tmp_path: Path
) -> None:
    app, job_id, _ = corrected_job
    app.close()
    data = tmp_path / "data"
    refused = cli(data, "retry", str(job_id))
    assert refused.returncode == 4
    assert "corrected or confirmed by a person" in refused.stderr
    assert "--force" in refused.stderr
    forced = cli(data, "retry", str(job_id), "--force")
    assert forced.returncode == 0, forced.stderr
    assert f"job {job_id} (invoice.pdf) queued again" in forced.stdout
