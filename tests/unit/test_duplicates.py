"""The rule of a likely duplicate, as plain data (fast)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from docbatch_gui.checks.duplicates import mark_duplicates, same_document, without_duplicates
from docbatch_gui.config.profile import load_profile
from docbatch_gui.domain.models import Document, NewJob
from docbatch_gui.engine.checking import likely_duplicates
from docbatch_gui.engine.context import EngineContext
from docbatch_gui.settings.model import Settings
from docbatch_gui.storage.blobs import LocalBlobStore
from docbatch_gui.storage.sqlite import SQLiteStore


def doc(job: int, id_: int | None = None, **fields: str | None) -> Document:
    base = {"number": "№ 15", "date": "2026-11-02", "amount": "1200.00",
            "seller_tax_id": "7707083893"}  # fmt: skip
    return Document(job, 0, "invoice", 1, 1, fields={**base, **fields}, id=id_)


def test_seller_number_date_and_amount_or_number_and_amount_when_the_rest_is_unread() -> None:
    assert same_document(doc(1), doc(2, number="15", amount="1200"))  # spaces, №, 1200 = 1200.00
    assert not same_document(doc(1), doc(2, date="2026-11-03"))
    assert not same_document(doc(1), doc(2, seller_tax_id="7736207543"))
    assert not same_document(doc(1), doc(2, amount="1200.01"))
    assert same_document(doc(1), doc(2, seller_tax_id=None, date=None))  # a photo read badly
    assert not same_document(doc(1, number=None), doc(2, number=None))  # nothing to go on


def test_the_earliest_other_document_is_named_and_a_clearing_is_kept() -> None:
    others = [doc(5, 50), doc(3, 30)]
    (marked,) = mark_duplicates([doc(9)], others, {3: "scan.pdf", 5: "photo.jpg"})
    (code,) = marked.review_codes
    assert code.params == {"document": 30, "job": 3, "file": "scan.pdf"} and marked.needs_review
    (left,) = mark_duplicates([doc(9)], others, {}, cleared_before={30, 50})
    assert left.review_codes == [] and not left.needs_review
    assert mark_duplicates([doc(3)], [doc(3, 31)], {})[0].review_codes == []  # same job
    assert without_duplicates([marked, doc(3, 30)]) == [doc(3, 30)]


def test_a_duplicate_is_left_out_only_beside_the_document_it_names() -> None:
    """The export of a photo's job alone (its invoice a likely duplicate of a scan's)
    wrote an empty file: the photo's document is its only copy there."""
    (marked,) = mark_duplicates([doc(9, 90)], [doc(3, 30)], {3: "scan.pdf"})
    assert without_duplicates([marked, doc(3, 30)]) == [doc(3, 30)]  # exported once
    assert without_duplicates([marked]) == [marked]  # alone: kept
    assert without_duplicates([marked, doc(4, 40)]) == [marked, doc(4, 40)]  # other: kept


class CountingStore:
    """A real SQLite store that counts the documents each call hands back."""

    def __init__(self, store: object) -> None:
        self.store = store
        self.read: dict[str, int] = {}

    def __getattr__(self, name: str) -> object:
        method = getattr(self.store, name)
        if name not in ("list_documents", "documents_matching"):
            return method

        def counted(*args: object) -> object:
            found = method(*args)
            key = name if args and args[0] is not None else f"{name}(all)"
            self.read[key] = self.read.get(key, 0) + len(found)
            return found

        return counted


def _filled(tmp_path: Path, unrelated: int) -> tuple[CountingStore, int]:
    """A store with one earlier copy of the invoice among ``unrelated`` documents, and
    the job of the later copy."""
    store = SQLiteStore(tmp_path / f"db{unrelated}.sqlite3")
    earlier = store.create_job(NewJob("a.pdf", "/a.pdf", "a" * 64, 1)).id
    store.replace_documents(
        earlier,
        [replace(doc(earlier, number=f"X-{n}"), doc_index=n) for n in range(unrelated)]
        + [replace(doc(earlier), doc_index=unrelated)],
    )
    later = store.create_job(NewJob("b.pdf", "/b.pdf", "b" * 64, 1)).id
    return CountingStore(store), later


def test_the_check_reads_the_documents_sharing_the_key_not_the_store(tmp_path: Path) -> None:
    """Each saved document was compared with every stored one; now with those whose
    number and amount it shares (an indexed store query): the documents read stay the
    same whether the store holds 5 or 500 others."""
    reads = []
    for unrelated in (5, 500):
        store, job = _filled(tmp_path, unrelated)
        blobs = LocalBlobStore(tmp_path / "blobs")
        ctx = EngineContext(store, blobs, Settings(), load_profile())  # type: ignore[arg-type]
        (marked,) = likely_duplicates(ctx, job, [doc(job)])
        assert [c.code for c in marked.review_codes] == ["likely_duplicate"]
        assert "list_documents(all)" not in store.read
        reads.append(store.read)
        store.store.close()
    assert reads[0] == reads[1] == {"documents_matching": 1, "list_documents": 0}  # its own
