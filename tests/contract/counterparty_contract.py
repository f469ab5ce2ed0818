"""The counterparty memory's contract: every Store backend must pass it unchanged."""

from __future__ import annotations

import pytest

from docbatch_gui.domain.counterparty import ConfirmedDocument
from docbatch_gui.domain.errors import NotFound
from docbatch_gui.storage.store import Store

INN = "7701234560"
OTHER = "5003123458"


def entry(document_id: int, at: str, inn: str = INN, **kw: object) -> ConfirmedDocument:
    values: dict[str, object] = {
        "job_id": 1,
        "doc_type": "invoice",
        "name": "ООО «Ромашка»",
        "vat_rate": 20,
        "number_format": "###",
        "fields": {"number": str(document_id), "seller_tax_id": inn},
    }
    values.update(kw)
    return ConfirmedDocument(inn, document_id, confirmed_at=at, **values)  # type: ignore[arg-type]


class CounterpartyContract:
    def test_nothing_is_known_of_a_new_inn(self, store: Store) -> None:
        assert store.counterparty(INN) is None
        assert store.list_counterparties() == []

    def test_confirmed_documents_are_summed_per_inn(self, store: Store) -> None:
        store.remember_confirmed(entry(1, "2025-01-01T00:00:00"), keep=5)
        store.remember_confirmed(entry(2, "2025-01-02T00:00:00", doc_type="act"), keep=5)
        store.remember_confirmed(
            entry(3, "2025-01-03T00:00:00", name="Ромашка", vat_rate=10), keep=5
        )
        store.remember_confirmed(entry(4, "2025-01-04T00:00:00", OTHER, name="АО «Вектор»"), keep=5)
        known = store.counterparty(INN)
        assert known is not None
        assert known.confirmed == 3
        assert known.name == "Ромашка"  # the newest
        assert known.names == ("Ромашка", "ООО «Ромашка»")
        assert known.doc_types == {"invoice": 2, "act": 1}
        assert known.vat_rates == {20: 2, 10: 1}
        assert known.number_formats == {"invoice": {"###": 2}, "act": {"###": 1}}
        assert known.last_confirmed_at == "2025-01-03T00:00:00"
        assert [d.document_id for d in known.recent] == [3, 2, 1]
        assert known.recent[0].fields == {"number": "3", "seller_tax_id": INN}
        assert [c.inn for c in store.list_counterparties()] == [OTHER, INN]  # by name

    def test_a_document_confirmed_again_counts_once_and_can_move(self, store: Store) -> None:
        store.remember_confirmed(entry(1, "2025-01-01T00:00:00"), keep=5)
        store.remember_confirmed(entry(1, "2025-01-02T00:00:00", vat_rate=10), keep=5)
        known = store.counterparty(INN)
        assert known is not None and known.confirmed == 1 and known.vat_rates == {10: 1}
        store.remember_confirmed(entry(1, "2025-01-03T00:00:00", OTHER), keep=5)
        assert store.counterparty(INN) is None  # the INN was corrected: it moved
        moved = store.counterparty(OTHER)
        assert moved is not None and moved.confirmed == 1

    def test_only_the_newest_keep_their_values(self, store: Store) -> None:
        for n in range(1, 6):
            store.remember_confirmed(entry(n, f"2025-01-0{n}T00:00:00"), keep=2)
        known = store.counterparty(INN)
        assert known is not None
        assert known.confirmed == 5  # counted, though their values are gone
        assert [d.document_id for d in known.recent] == [5, 4]
        store.remember_confirmed(entry(6, "2025-01-06T00:00:00"), keep=0)
        known = store.counterparty(INN)
        assert known is not None and known.recent == () and known.confirmed == 6

    def test_forget_drops_one_inn_and_a_missing_one_is_not_found(self, store: Store) -> None:
        store.remember_confirmed(entry(1, "2025-01-01T00:00:00"), keep=5)
        store.remember_confirmed(entry(2, "2025-01-02T00:00:00"), keep=5)
        store.remember_confirmed(entry(3, "2025-01-03T00:00:00", OTHER), keep=5)
        assert store.forget_counterparty(INN) == 2
        assert store.counterparty(INN) is None
        assert store.counterparty(OTHER) is not None
        with pytest.raises(NotFound) as caught:
            store.forget_counterparty(INN)
        assert caught.value.what == "counterparty"

    def test_one_confirmed_document_is_forgotten_alone_with_who_confirmed_it(
        self, store: Store
    ) -> None:
        from dataclasses import replace

        store.remember_confirmed(replace(entry(1, "2025-01-01T00:00:00"), confirmed_by="anna"),
                                 keep=5)  # fmt: skip
        store.remember_confirmed(replace(entry(2, "2025-01-02T00:00:00"), confirmed_by="mallory"),
                                 keep=5)  # fmt: skip
        known = store.counterparty(INN)
        assert known is not None and [d.confirmed_by for d in known.recent] == ["mallory", "anna"]
        assert store.forget_confirmed_document(2) == INN
        known = store.counterparty(INN)
        assert known is not None and known.confirmed == 1
        with pytest.raises(NotFound) as caught:
            store.forget_confirmed_document(2)
        assert caught.value.what == "document"
        with pytest.raises(NotFound):
            store.forget_confirmed_document(10**30)  # beyond any store's ids
