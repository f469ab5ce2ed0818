"""Budget reservations on SQLite: checked and written in one ``BEGIN IMMEDIATE``
transaction, so two processes on one data folder can never both take the last of a
cap. A mixin of ``SQLiteStore`` (tables of migration 19)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime

from docbatch_gui.domain.models import CapRefusal, Caps, Reservation
from docbatch_gui.storage.budget_rules import refusal
from docbatch_gui.storage.sqlite_tables import SQLiteTables
from docbatch_gui.storage.store import utc_text


def _now() -> str:
    return datetime.now(UTC).isoformat()


class BudgetTables(SQLiteTables):
    def reserve(
        self, reservation: Reservation, caps: Caps, *, forced: bool = False
    ) -> CapRefusal | None:
        with self._tx() as db:
            month_spent = float(
                db.execute(
                    "SELECT COALESCE(SUM(usd), 0) FROM spend WHERE at >= ?",
                    (utc_text(caps.month_start),),
                ).fetchone()[0]
            )
            month_reserved = float(
                db.execute(
                    "SELECT COALESCE(SUM(usd), 0) FROM reservations WHERE key != ?",
                    (reservation.key,),
                ).fetchone()[0]
            )
            run_spent = run_reserved = 0.0
            if reservation.run is not None:
                row = db.execute(
                    "SELECT usd FROM run_spend WHERE run = ?", (reservation.run,)
                ).fetchone()
                run_spent = float(row[0]) if row else 0.0
                run_reserved = float(
                    db.execute(
                        "SELECT COALESCE(SUM(usd), 0) FROM reservations WHERE run = ? AND key != ?",
                        (reservation.run, reservation.key),
                    ).fetchone()[0]
                )
            refused = refusal(
                caps,
                reservation.usd,
                month_spent=month_spent,
                month_reserved=month_reserved,
                run_spent=run_spent,
                run_reserved=run_reserved,
            )
            if refused is not None and not forced:
                return refused
            db.execute(
                "INSERT INTO reservations (key, usd, owner, run, at) VALUES (?,?,?,?,?)"
                " ON CONFLICT(key) DO UPDATE SET usd = excluded.usd, owner = excluded.owner,"
                " run = excluded.run, at = excluded.at",
                (reservation.key, reservation.usd, reservation.owner, reservation.run, _now()),
            )
            return None

    def release(self, key: str, actual_usd: float = 0.0) -> None:
        with self._tx() as db:
            row = db.execute("SELECT run FROM reservations WHERE key = ?", (key,)).fetchone()
            if row is None:
                return  # released already (a stale sweep, or a second release)
            db.execute("DELETE FROM reservations WHERE key = ?", (key,))
            if row["run"] is not None and actual_usd:
                db.execute(
                    "INSERT INTO run_spend (run, usd) VALUES (?, ?) ON CONFLICT(run)"
                    " DO UPDATE SET usd = usd + excluded.usd",
                    (row["run"], float(actual_usd)),
                )

    def hand_over(self, key: str, new_key: str, owner: str) -> None:
        with self._tx() as db:
            db.execute(
                "UPDATE reservations SET key = ?, owner = ?, at = ? WHERE key = ?",
                (new_key, owner, _now(), key),
            )

    def list_reservations(self) -> list[Reservation]:
        with self._tx() as db:
            rows = db.execute("SELECT key, usd, owner, run, at FROM reservations").fetchall()
        return [Reservation(r["key"], r["usd"], r["owner"], r["run"], r["at"]) for r in rows]

    def refresh_reservations(self, owner: str) -> None:
        with self._tx() as db:
            db.execute("UPDATE reservations SET at = ? WHERE owner = ?", (_now(), owner))

    def drop_reservations(self, keys: Sequence[str]) -> None:
        with self._tx() as db:
            db.executemany("DELETE FROM reservations WHERE key = ?", [(k,) for k in keys])

    def run_spent(self, run: str) -> float:
        with self._tx() as db:
            row = db.execute("SELECT usd FROM run_spend WHERE run = ?", (run,)).fetchone()
        return float(row[0]) if row else 0.0
