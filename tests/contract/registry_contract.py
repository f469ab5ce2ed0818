"""The registry part of the store contract: every Store backend must pass it unchanged.

A backend's test module subclasses ``RegistryContract`` and provides a ``store``
fixture that yields an empty store. Nothing here knows which backend it runs on.
"""

from __future__ import annotations

import pytest

from docbatch_gui.domain.errors import NotFound
from docbatch_gui.domain.messages import coded
from docbatch_gui.domain.registry import (
    FilteredRowRecord,
    RegistryRowRecord,
    RegistryStatus,
    SearchResult,
)
from docbatch_gui.storage.row_json import encode_record
from docbatch_gui.storage.store import Store

CONFIG = {"mapping": {"number": 2}, "threshold": 0.7}


def rows(*numbers: int) -> list[RegistryRowRecord]:
    return [
        RegistryRowRecord(
            row=n,
            raw_data={"Номер": f"№ {n}", "Сумма": 1.5},
            mapped_data={"number": f"№ {n}"},
            normalized={"number": str(n), "date": None},
        )
        for n in numbers
    ]


def result(row: int, document_id: int | None, score: float = 0.9) -> SearchResult:
    return SearchResult(
        row=row,
        document_id=document_id,
        score=score,
        explanation=[{"field": "number", "passed": True, "score": 1.0}],
        runner_up_id=None if document_id is None else document_id + 1,
        runner_up_score=0.5,
        warnings=[coded("match_amount_differs", registry="1.00", document="2.00")],
        rule="default",
    )


class RegistryContract:
    def test_create_get_and_list(self, store: Store) -> None:
        reg = store.create_registry("Реестр счетов", "/in/реестр.xlsx", CONFIG)
        assert reg.id > 0
        assert reg.status is RegistryStatus.IMPORTING
        assert reg.config == CONFIG and reg.stats == {} and reg.task_error is None
        assert reg.created_at is not None and reg.created_at.tzinfo is not None
        assert store.get_registry(reg.id) == reg
        other = store.create_registry("b", "/in/b.xlsx", {})
        assert [r.id for r in store.list_registries()] == [reg.id, other.id]

    def test_missing_registry_is_not_found(self, store: Store) -> None:
        with pytest.raises(NotFound, match=r"^no registry 99$") as missing:
            store.get_registry(99)
        assert (missing.value.what, missing.value.which) == ("registry", 99)
        with pytest.raises(NotFound):
            store.update_registry(99, status="error")

    def test_find_by_source_file_gives_the_newest(self, store: Store) -> None:
        store.create_registry("a", "/in/a.xlsx", {})
        newer = store.create_registry("a again", "/in/a.xlsx", {})
        assert store.find_registry("/in/a.xlsx") == newer
        assert store.find_registry("/in/none.xlsx") is None

    def test_update_status_error_and_stats(self, store: Store) -> None:
        reg = store.create_registry("a", "/in/a.xlsx", {})
        updated = store.update_registry(
            reg.id, status=RegistryStatus.ERROR, task_error="boom", stats={"kept": 3}
        )
        assert updated.status is RegistryStatus.ERROR
        assert (updated.task_error, updated.stats) == ("boom", {"kept": 3})
        assert store.get_registry(reg.id) == updated
        with pytest.raises(ValueError, match="unknown registry fields"):
            store.update_registry(reg.id, colour="red")
        with pytest.raises(ValueError):
            store.update_registry(reg.id, status="sleeping")

    def test_rows_round_trip_in_row_order_with_paging(self, store: Store) -> None:
        reg = store.create_registry("a", "/in/a.xlsx", {})
        store.add_registry_rows(reg.id, rows(7, 3))
        store.add_registry_rows(reg.id, rows(5))
        listed = store.list_registry_rows(reg.id)
        assert [r.row for r in listed] == [3, 5, 7]
        assert listed[0] == rows(3)[0]
        assert [r.row for r in store.list_registry_rows(reg.id, offset=1, limit=1)] == [5]
        assert store.count_registry_rows(reg.id) == 3

    def test_encoded_rows_are_the_rows_they_encode(self, store: Store) -> None:
        reg = store.create_registry("a", "/in/a.xlsx", {})
        store.add_encoded_registry_rows(reg.id, [encode_record(r) for r in rows(4, 2)])
        assert store.list_registry_rows(reg.id) == rows(2, 4)

    def test_filtered_samples_are_replaced(self, store: Store) -> None:
        reg = store.create_registry("a", "/in/a.xlsx", {})
        first = [FilteredRowRecord(4, "skip_word", ["ИТОГО", 10], "contains 'ИТОГО'")]
        store.set_filtered_rows(reg.id, first)
        assert store.list_filtered_rows(reg.id) == first
        second = [FilteredRowRecord(9, "required_empty", [None], "required column C is empty")]
        store.set_filtered_rows(reg.id, second)
        assert store.list_filtered_rows(reg.id) == second

    def test_results_upsert_by_row(self, store: Store) -> None:
        reg = store.create_registry("a", "/in/a.xlsx", {})
        store.add_registry_rows(reg.id, rows(2, 3))
        store.put_results(reg.id, [result(3, 11), result(2, None, 0.2)])
        store.put_results(reg.id, [result(3, 12)])
        listed = store.list_results(reg.id)
        assert [(r.row, r.document_id) for r in listed] == [(2, None), (3, 12)]
        assert listed[1] == result(3, 12)
        assert store.count_results(reg.id) == 2

    def test_manual_assignment_is_audited_and_survives_clear(self, store: Store) -> None:
        reg = store.create_registry("a", "/in/a.xlsx", {})
        store.add_registry_rows(reg.id, rows(2, 3))
        store.put_results(reg.id, [result(2, 11), result(3, None)])
        assigned = store.assign(reg.id, 3, 40, "anna")
        assert (assigned.document_id, assigned.manual, assigned.assigned_by) == (40, True, "anna")
        store.assign(reg.id, 2, None, "boris")
        audit = store.list_assignments(reg.id)
        assert [(a.row, a.document_id, a.previous_document_id, a.who) for a in audit] == [
            (3, 40, None, "anna"),
            (2, None, 11, "boris"),
        ]
        assert all(a.at for a in audit)
        store.clear_results(reg.id)  # a new search keeps what people decided
        kept = {r.row: r.document_id for r in store.list_results(reg.id)}
        assert kept == {3: 40, 2: None}
        store.clear_results(reg.id, keep_manual=False)
        assert store.list_results(reg.id) == []
        assert len(store.list_assignments(reg.id)) == 2

    def test_assigning_an_unknown_row_is_refused(self, store: Store) -> None:
        reg = store.create_registry("a", "/in/a.xlsx", {})
        with pytest.raises(NotFound, match=rf"^registry {reg.id} has no row 5$") as missing:
            store.assign(reg.id, 5, 1, "anna")
        assert (missing.value.what, missing.value.which) == ("row", 5)
        with pytest.raises(NotFound, match=r"^no registry 999$"):
            store.assign(999, 5, None, "anna")
        assert store.list_assignments(reg.id) == []

    def test_clear_data_and_delete(self, store: Store) -> None:
        reg = store.create_registry("a", "/in/a.xlsx", {})
        other = store.create_registry("b", "/in/b.xlsx", {})
        for r in (reg, other):
            store.add_registry_rows(r.id, rows(2))
            store.set_filtered_rows(r.id, [FilteredRowRecord(3, "empty_row", [])])
            store.put_results(r.id, [result(2, 1)])
        store.clear_registry_data(reg.id)
        assert store.list_registry_rows(reg.id) == []
        assert store.list_filtered_rows(reg.id) == []
        assert store.list_results(reg.id) == []
        assert store.count_registry_rows(other.id) == 1  # the other registry is untouched
        store.delete_registry(other.id)
        with pytest.raises(NotFound):
            store.get_registry(other.id)
        assert store.list_registry_rows(other.id) == []

    def test_a_staging_copy_is_swapped_in_whole(self, store: Store) -> None:
        reg = store.create_registry("a", "/in/a.xlsx", CONFIG)
        store.add_registry_rows(reg.id, rows(2, 3))
        store.put_results(reg.id, [result(2, 1)])
        store.assign(reg.id, 3, 5, "olga")
        staging = store.create_registry("a", "/in/a.xlsx", {}, staging=True, task_owner="h:1:2")
        assert staging.status is RegistryStatus.STAGING and staging.task_owner == "h:1:2"
        assert [r.id for r in store.list_registries()] == [reg.id]  # the copy is hidden
        assert [r.id for r in store.list_registries(staging=True)] == [reg.id, staging.id]
        assert store.find_registry("/in/a.xlsx") == store.get_registry(reg.id)
        store.add_registry_rows(staging.id, rows(4, 5, 6))
        store.set_filtered_rows(staging.id, [FilteredRowRecord(7, "empty_row", [])])
        assert store.count_registry_rows(reg.id) == 2  # untouched until the swap
        swapped = store.swap_registry_data(
            reg.id, staging.id, status=RegistryStatus.CONFIGURED, stats={"kept": 3}
        )
        assert swapped.status is RegistryStatus.CONFIGURED and swapped.stats == {"kept": 3}
        assert [r.row for r in store.list_registry_rows(reg.id)] == [4, 5, 6]
        assert [r.row for r in store.list_filtered_rows(reg.id)] == [7]
        assert store.list_results(reg.id) == []  # results of the old rows are gone
        assert [a.document_id for a in store.list_assignments(reg.id)] == [5]  # the audit stays
        with pytest.raises(NotFound):
            store.get_registry(staging.id)
        assert [r.id for r in store.list_registries(staging=True)] == [reg.id]
        store.put_results(reg.id, [result(4, 9)])
        assert [r.document_id for r in store.list_results(reg.id)] == [9]
        with pytest.raises(ValueError, match="not a staging copy"):
            store.swap_registry_data(reg.id, reg.id)
