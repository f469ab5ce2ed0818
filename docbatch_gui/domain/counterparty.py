"""What confirmed documents taught about a seller, kept per INN.

A person's confirmation is the only evidence trusted here: what a reader found but
nobody checked could be wrong, and learning from it would make the next mistake look
usual. Each confirmed document is one :class:`ConfirmedDocument`, stored once (a
second confirmation of the same document replaces it, so it never counts twice). A
:class:`Counterparty` is derived from them on reading, so counts never drift from the
documents behind them. Only the newest few keep their field values (a setting): the
shape of a seller's documents needs no more, and old values are personal data nobody
needs to keep.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class ConfirmedDocument:
    """What one confirmed document says about its seller."""

    inn: str
    document_id: int
    job_id: int
    doc_type: str
    confirmed_at: str  # ISO UTC: the newest are kept with their values
    name: str | None = None
    vat_rate: int | None = None  # percent, snapped to a known rate
    number_format: str | None = None  # "####-####": see checks.counterparty
    #: the confirmed field values; None once newer documents pushed them out
    fields: dict[str, str | None] | None = None
    #: who confirmed it (the operator's name): a wrong confirmation can be traced and
    #: forgotten alone
    confirmed_by: str | None = None

    def body(self) -> dict[str, Any]:
        return dict(self.__dict__)

    @classmethod
    def from_body(cls, body: dict[str, Any]) -> ConfirmedDocument:
        known = cls.__dataclass_fields__
        return cls(**{k: v for k, v in body.items() if k in known})


@dataclass(frozen=True)
class Counterparty:
    """A seller as its confirmed documents show it; counts are most frequent first."""

    inn: str
    name: str | None  # the name on the newest confirmed document
    names: tuple[str, ...] = ()  # every confirmed spelling, newest first
    #: each spelling's confirmed documents, most frequent first
    name_counts: dict[str, int] = field(default_factory=dict)
    doc_types: dict[str, int] = field(default_factory=dict)
    vat_rates: dict[int, int] = field(default_factory=dict)
    #: document type → number shape → count: an act and an invoice of one seller are
    #: numbered apart, often differently
    number_formats: dict[str, dict[str, int]] = field(default_factory=dict)
    confirmed: int = 0  # confirmed documents in all
    last_confirmed_at: str | None = None
    #: the newest documents that kept their values, newest first
    recent: tuple[ConfirmedDocument, ...] = ()

    def as_dict(self) -> dict[str, Any]:
        return {
            "inn": self.inn,
            "name": self.name,
            "names": list(self.names),
            "doc_types": dict(self.doc_types),
            "vat_rates": {str(rate): count for rate, count in self.vat_rates.items()},
            "number_formats": {k: dict(v) for k, v in self.number_formats.items()},
            "confirmed": self.confirmed,
            "last_confirmed_at": self.last_confirmed_at,
            "recent": [
                {
                    "document_id": d.document_id,
                    "job_id": d.job_id,
                    "doc_type": d.doc_type,
                    "confirmed_at": d.confirmed_at,
                    "confirmed_by": d.confirmed_by,
                    "fields": dict(d.fields or {}),
                }
                for d in self.recent
            ],
        }


def _newest_first(documents: Sequence[ConfirmedDocument]) -> list[ConfirmedDocument]:
    return sorted(documents, key=lambda d: (d.confirmed_at, d.document_id), reverse=True)


def _ranked(values: list[Any]) -> dict[Any, int]:
    """Counts, most frequent first; a tie goes to the newest (values come newest first)."""
    return dict(Counter(values).most_common())


def _formats(newest: list[ConfirmedDocument]) -> dict[str, dict[str, int]]:
    by_type: dict[str, list[str]] = {}
    for document in newest:
        if document.number_format:
            by_type.setdefault(document.doc_type, []).append(document.number_format)
    return {doc_type: _ranked(shapes) for doc_type, shapes in by_type.items()}


def summarise(inn: str, documents: Sequence[ConfirmedDocument]) -> Counterparty | None:
    """The counterparty ``documents`` describe, or None when there are none."""
    if not documents:
        return None
    newest = _newest_first(documents)
    names = [d.name for d in newest if d.name]
    return Counterparty(
        inn=inn,
        name=names[0] if names else None,
        names=tuple(dict.fromkeys(names)),
        name_counts=_ranked(names),
        doc_types=_ranked([d.doc_type for d in newest]),
        vat_rates=_ranked([d.vat_rate for d in newest if d.vat_rate is not None]),
        number_formats=_formats(newest),
        confirmed=len(newest),
        last_confirmed_at=newest[0].confirmed_at,
        recent=tuple(d for d in newest if d.fields is not None),
    )


def summarise_all(documents: Sequence[ConfirmedDocument]) -> list[Counterparty]:
    """Every counterparty in ``documents``, by name, then INN."""
    by_inn: dict[str, list[ConfirmedDocument]] = {}
    for document in documents:
        by_inn.setdefault(document.inn, []).append(document)
    found = [summarise(inn, docs) for inn, docs in by_inn.items()]
    return sorted(
        (c for c in found if c is not None), key=lambda c: ((c.name or "").casefold(), c.inn)
    )
