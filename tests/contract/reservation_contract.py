"""The budget reservation contract: check and write are one atomic step per backend."""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta

import pytest

from docbatch_gui.domain.models import Caps, Reservation
from docbatch_gui.storage.store import Store

MONTH = datetime.now(UTC) - timedelta(days=1)


def held(key: str, usd: float, run: str | None = None) -> Reservation:
    return Reservation(key, usd, "host:1", run)


class ReservationContract:
    def test_the_month_cap_counts_spend_and_every_reservation(self, store: Store) -> None:
        caps = Caps(MONTH, month_usd=1.0)
        store.record_spend(0.5)
        assert store.reserve(held("a", 0.3), caps) is None
        refused = store.reserve(held("b", 0.3), caps)
        assert refused is not None and refused.code == "budget_month_cap"
        assert refused.spent_usd == pytest.approx(0.5)
        assert refused.reserved_usd == pytest.approx(0.3)
        assert [r.key for r in store.list_reservations()] == ["a"]  # nothing written
        assert store.reserve(held("b", 0.3), caps, forced=True) is None  # run anyway
        store.release("a")
        store.release("a")  # twice: harmless
        assert sorted(r.key for r in store.list_reservations()) == ["b"]

    def test_the_run_cap_counts_the_runs_paid_and_reserved_only(self, store: Store) -> None:
        caps = Caps(MONTH, run_usd=1.0)
        assert store.reserve(held("a", 0.6, "run-1"), caps) is None
        assert store.reserve(held("other", 0.9, "run-2"), caps) is None
        store.release("a", 0.7)  # paid more than reserved: the run is charged that
        assert store.run_spent("run-1") == pytest.approx(0.7)
        refused = store.reserve(held("b", 0.4, "run-1"), caps)
        assert refused is not None and refused.code == "budget_run_cap"
        assert store.reserve(held("b", 0.3, "run-1"), caps) is None

    def test_a_batch_takes_its_reservation_over(self, store: Store) -> None:
        store.reserve(held("req:1", 0.2), Caps(MONTH))
        store.hand_over("req:1", "batch:7", "batch:7")
        (moved,) = store.list_reservations()
        assert (moved.key, moved.owner, moved.usd) == ("batch:7", "batch:7", 0.2)
        store.drop_reservations(["batch:7"])
        assert store.list_reservations() == []

    def test_concurrent_reservations_never_cross_the_cap(self, store: Store) -> None:
        caps = Caps(MONTH, month_usd=1.0)
        taken: list[str] = []

        def take(n: int) -> None:
            if store.reserve(held(f"k{n}", 0.1), caps) is None:
                taken.append(f"k{n}")

        threads = [threading.Thread(target=take, args=(n,)) for n in range(30)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert len(taken) == 10  # 1.0 / 0.1, never more
        assert sum(r.usd for r in store.list_reservations()) == pytest.approx(1.0)
