"""Deleting, processing again or canceling a job never leaves a registry row sure of a
document that is gone or changing: such rows are matched again or flagged stale, and
the export carries no document that is gone."""

from __future__ import annotations

from pathlib import Path

import openpyxl

from docbatch_gui.app.facade import DocBatchApp
from docbatch_gui.domain.models import Document, NewJob
from docbatch_gui.domain.states import JobState
from docbatch_gui.registry.search import is_stale


def _book(path: Path, numbers: list[str]) -> Path:
    book = openpyxl.Workbook()
    book.active.append(["Number"])
    for number in numbers:
        book.active.append([number])
    book.save(path)
    return path


def _done_job(app: DocBatchApp, name: str, numbers: list[str]) -> tuple[int, list[int]]:
    store = app.store
    job = store.create_job(NewJob(name, f"/in/{name}", name[0] * 64, 1))
    store.claim(job.id, JobState.PREPARING)
    store.transition(job.id, JobState.BUILDING, pages=len(numbers))
    docs = [
        Document(job.id, i, "invoice", i + 1, i + 1, fields={"number": n})
        for i, n in enumerate(numbers)
    ]
    saved = store.replace_documents(job.id, docs)
    store.transition(job.id, JobState.DONE)
    return job.id, [d.id or 0 for d in saved]


def _finish_again(app: DocBatchApp, job_id: int, numbers: list[str]) -> None:
    """The worker's part of a reprocess: the same documents (stable ids), new values."""
    store = app.store
    old = store.list_documents(job_id)
    store.claim(job_id, JobState.PREPARING)
    store.transition(job_id, JobState.BUILDING)
    store.replace_documents(
        job_id, [Document(job_id, d.doc_index, d.doc_type, d.page_from, d.page_to,
                          fields={"number": n}, id=d.id) for d, n in zip(old, numbers, strict=True)]
    )  # fmt: skip
    store.transition(job_id, JobState.DONE)


def _exported_numbers(app: DocBatchApp, registry_id: int, out: Path) -> list[str]:
    app.registry.export(registry_id, out)
    sheet = openpyxl.load_workbook(out, read_only=True).worksheets[0]
    return [str(c) for row in sheet.iter_rows(values_only=True) for c in row if c]


def test_reprocess_flags_rows_stale_until_done_then_matches_them_again(
    app: DocBatchApp, tmp_path: Path
) -> None:
    job_id, ids = _done_job(app, "a.pdf", ["N-1", "N-2"])
    registry = app.registry
    reg = registry.import_registry(_book(tmp_path / "r.xlsx", ["N-1", "N-2"]),
                                   {"mapping": {"number": "A"}}).registry_id  # fmt: skip
    registry.search(reg)
    assert [r.document_id for r in registry.results(reg)] == ids

    app.reprocess(job_id)
    flagged = registry.results(reg)
    assert all(is_stale(r) for r in flagged)  # shown as stale while the job runs

    _finish_again(app, job_id, ["N-1", "X-9"])  # the second document reads otherwise now
    after = {r.row: r for r in registry.results(reg)}
    assert not any(is_stale(r) for r in after.values())
    first, second = sorted(after)
    assert after[first].document_id == ids[0]
    assert after[second].document_id is None  # no longer a sure match
    assert any("was processed again; matched again" in w for w in after[second].warnings_in())


def test_deleting_a_job_with_its_documents_rematches_and_the_export_drops_them(
    app: DocBatchApp, tmp_path: Path
) -> None:
    gone_id, _ = _done_job(app, "gone.pdf", ["N-1"])
    kept_id, kept_docs = _done_job(app, "kept.pdf", ["N-2"])
    registry = app.registry
    reg = registry.import_registry(_book(tmp_path / "r.xlsx", ["N-1", "N-2"]),
                                   {"mapping": {"number": "A"}}).registry_id  # fmt: skip
    registry.search(reg)
    assert _exported_numbers(app, reg, tmp_path / "before.xlsx").count("gone.pdf") == 1

    app.delete(kept_id, keep_documents=True)  # leaves the queue, documents stay
    assert kept_id not in {j.id for j in app.jobs()}
    assert [d.id for d in app.documents(kept_id)] == kept_docs
    app.delete(gone_id)
    results = registry.results(reg)
    assert [r.document_id for r in results] == [None, kept_docs[0]]
    assert "gone.pdf" not in _exported_numbers(app, reg, tmp_path / "after.xlsx")


def test_a_canceled_job_keeps_no_documents_and_leaves_the_export(
    app: DocBatchApp, tmp_path: Path
) -> None:
    job_id, _ = _done_job(app, "c.pdf", ["N-1"])
    registry = app.registry
    reg = registry.import_registry(_book(tmp_path / "r.xlsx", ["N-1"]),
                                   {"mapping": {"number": "A"}}).registry_id  # fmt: skip
    registry.search(reg)
    app.reprocess(job_id)
    app.cancel(job_id)
    assert app.store.get_job(job_id).state is JobState.CANCELED
    assert app.documents(job_id) == []
    assert [r.document_id for r in registry.results(reg)] == [None]
    assert "c.pdf" not in _exported_numbers(app, reg, tmp_path / "out.xlsx")


def test_a_tie_names_the_rival_document_by_file_and_page_not_by_id(
    app: DocBatchApp, tmp_path: Path
) -> None:
    """Two files carry the same number: the warning (and the export) says which file
    and page the rival is on, in the operator's language; no internal id."""
    _done_job(app, "first.pdf", ["N-1"])
    _, (rival,) = _done_job(app, "second.pdf", ["N-1"])
    registry = app.registry
    reg = registry.import_registry(_book(tmp_path / "r.xlsx", ["N-1"]),
                                   {"mapping": {"number": "A"}}).registry_id  # fmt: skip
    registry.search(reg)
    (result,) = registry.results(reg)
    (tie,) = [w for w in result.warnings if w.code == "match_tie"]
    assert tie.english.startswith("tie: document second.pdf, page 1 scores")
    assert f"document {rival} " not in tie.english
    assert "second.pdf, страница 1" in tie.words("ru")
    exported = _exported_numbers(app, reg, tmp_path / "out.xlsx")
    assert any("second.pdf, страница 1" in cell for cell in exported)  # in Russian by default


def test_the_rule_docbatch_makes_is_named_in_the_operators_language() -> None:
    from docbatch_gui.i18n import set_language
    from docbatch_gui.registry.words import rule_words

    try:
        set_language("ru")
        assert rule_words("default") == "основное"
        assert rule_words("по номеру") == "по номеру"  # the operator's own name
    finally:
        set_language("en")
    assert rule_words("default") == "default"
