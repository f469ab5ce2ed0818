"""The likely-duplicate lookup every store keeps: documents by their number and amount
(``checks.duplicates.match_key``), read through an index rather than by listing the
store."""

from __future__ import annotations

from dataclasses import replace

from docbatch_gui.checks.duplicates import match_key
from docbatch_gui.domain.models import Document
from docbatch_gui.storage.store import Store
from tests.contract.store_contract import new_job


def _doc(job_id: int, index: int, number: str | None, amount: str | None) -> Document:
    return Document(job_id, index, "invoice", 1, 1, fields={"number": number, "amount": amount})


class DuplicateContract:
    def test_documents_sharing_number_and_amount_are_found_across_jobs(self, store: Store) -> None:
        first = store.create_job(new_job(sha="1" * 64, name="first.pdf")).id
        second = store.create_job(new_job(sha="2" * 64, name="second.pdf")).id
        store.replace_documents(
            first, [_doc(first, 0, "№ 101", "1200"), _doc(first, 1, "102", "1200.00")]
        )
        store.replace_documents(
            second, [_doc(second, 0, "101", "1200.00"), _doc(second, 1, None, "1200.00")]
        )
        key = match_key({"number": "101", "amount": "1200"})
        found = store.documents_matching(key)
        assert [(d.job_id, d.doc_index) for d in found] == [(first, 0), (second, 0)]
        assert found[0].fields == {"number": "№ 101", "amount": "1200"}  # stored as read
        assert [d.fields["number"] for d in store.documents_matching("102|1200.00")] == ["102"]
        assert store.documents_matching("") == []  # a document missing either is never one
        assert store.documents_matching("999|1.00") == []

    def test_an_edited_document_is_found_under_its_new_key_only(self, store: Store) -> None:
        job = store.create_job(new_job()).id
        (doc,) = store.replace_documents(job, [_doc(job, 0, "7", "10.00")])
        store.update_document(replace(doc, fields={"number": "8", "amount": "10.00"}))
        assert store.documents_matching("7|10.00") == []
        (moved,) = store.documents_matching("8|10.00")
        assert moved.id == doc.id
        store.replace_documents(job, [])
        assert store.documents_matching("8|10.00") == []
