"""Registry records as every store backend keeps them.

Plain frozen dataclasses of JSON-friendly values, so SQLite and the coming MongoDB
backend store the same shapes and the GUI, the CLI and Celery tasks pass them around
without knowing where they came from.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import Any

from docbatch_gui.domain.messages import Message, coded, stored


class RegistryStatus(StrEnum):
    IMPORTING = "importing"
    CONFIGURED = "configured"
    SEARCHING = "searching"
    SEARCHED = "searched"
    ERROR = "error"
    #: a re-import's staging copy: never listed, swapped in whole or deleted
    STAGING = "staging"


#: Registry attributes that ``update_registry`` may set.
REGISTRY_FIELDS: frozenset[str] = frozenset(
    {"name", "source_file", "config", "status", "task_error", "stats", "task_owner"}
)


@dataclass(frozen=True)
class Registry:
    """One imported registry; ``config`` is the validated configuration JSON."""

    id: int
    name: str
    source_file: str
    config: dict[str, Any]
    status: RegistryStatus
    task_error: str | None = None
    stats: dict[str, Any] = field(default_factory=dict)
    created_at: datetime | None = None
    updated_at: datetime | None = None  # also the heartbeat of a running import or search
    #: ``host:pid:started`` of the process importing or searching it (coordination.owner)
    task_owner: str | None = None

    @classmethod
    def from_stored(
        cls, values: Mapping[str, Any], config: dict[str, Any], stats: dict[str, Any]
    ) -> Registry:
        """As both stores keep it (``values`` by column, with ``id``; times as ISO
        text), ``config`` and ``stats`` decoded by the store."""
        return cls(
            values["id"], values["name"], values["source_file"], config,
            RegistryStatus(values["status"]), values.get("task_error"), stats,
            datetime.fromisoformat(values["created_at"]),
            datetime.fromisoformat(values["updated_at"]), values.get("task_owner"),
        )  # fmt: skip


@dataclass(frozen=True)
class RegistryRowRecord:
    """A kept row in its three views: as read, by registry field, and normalised."""

    row: int  # 1-based Excel row, unique within a registry
    raw_data: dict[str, Any]
    mapped_data: dict[str, Any]
    normalized: dict[str, str | None]


@dataclass(frozen=True)
class FilteredRowRecord:
    """A row the import filters dropped, with the reason, for visual review."""

    row: int
    reason: str
    values: list[Any]
    detail: str = ""


@dataclass(frozen=True)
class SearchResult:
    """The outcome for one registry row: null over wrong, so ``document_id`` may be None.

    ``manual`` results come from an operator's assignment and survive a new search.
    """

    row: int
    document_id: int | None
    score: float
    explanation: list[dict[str, Any]] = field(default_factory=list)
    runner_up_id: int | None = None
    runner_up_score: float | None = None
    #: what the operator should look at, as messages (worded in each reader's language)
    warnings: list[Message] = field(default_factory=list)
    rule: str | None = None
    manual: bool = False
    assigned_by: str | None = None
    assigned_at: str | None = None  # ISO UTC

    def warnings_in(self, language: str = "en") -> list[str]:
        """The warnings in ``language``."""
        return [w.words(language) for w in self.warnings]

    def body(self) -> dict[str, Any]:
        """The stored form: ``warnings`` as English texts (what older readers and
        versions read) and ``warning_codes`` as their codes and parameters."""
        body = dict(self.__dict__)
        body["warnings"] = [w.english for w in self.warnings]
        body["warning_codes"] = [w.as_dict() for w in self.warnings]
        return body

    @classmethod
    def from_body(cls, body: dict[str, Any]) -> SearchResult:
        """A result from its stored form; a record written before codes existed (no
        ``warning_codes``, or a list that does not match) reads back as its texts."""
        body = dict(body)
        texts = [str(t) for t in body.pop("warnings", None) or []]
        codes = body.pop("warning_codes", None) or []
        if len(codes) != len(texts):
            codes = [{}] * len(texts)
        warnings = [
            stored(text, c.get("code"), c.get("params")) or Message.plain(text)
            for text, c in zip(texts, codes, strict=True)
        ]
        return cls(**body, warnings=warnings)


def manual_result(
    row: int, document_id: int | None, who: str, at: str, previous: SearchResult | None
) -> SearchResult:
    """What an operator's assignment (or unassignment, ``document_id`` None) makes of a
    row, in every backend alike: the earlier breakdown stays for reference."""
    code = "match_assigned_by_hand" if document_id is not None else "match_unassigned_by_hand"
    return SearchResult(
        row=row,
        document_id=document_id,
        score=1.0 if document_id is not None else 0.0,
        explanation=previous.explanation if previous else [],
        warnings=[coded(code, who=who)],
        manual=True,
        assigned_by=who,
        assigned_at=at,
    )


@dataclass(frozen=True)
class Assignment:
    """The audit record of a manual assignment (``document_id``) or unassignment (None)."""

    row: int
    document_id: int | None
    previous_document_id: int | None
    who: str
    at: str  # ISO UTC
