"""What the Claude clients ask before a paid request: money set aside for it.

The engine's ``Purse`` (``engine/reservations.py``) implements it against the store;
this layer only calls it, so every send, re-ask and cut-off retry reserves first.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from docbatch_gui.llm.requests import ExtractionRequest


class Spending(Protocol):
    def reserve(
        self, requests: Sequence[ExtractionRequest], *, batch: bool, key: str | None = None
    ) -> str | None:
        """Reserve the requests' high-end estimate; raises ``OverBudget`` (nothing
        reserved) when a cap would be crossed. Returns the reservation's key."""
        ...

    def release(self, key: str | None, actual_usd: float = 0.0) -> None:
        """Release a reservation once its actual cost is recorded (0: never paid)."""
        ...
