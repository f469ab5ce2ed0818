"""One checker for every document, whoever read it and whenever a person edits it.

The offline extractor, Claude sync and Claude batch all produce documents whose
values can be wrong in ways the values themselves give away: a tax id that fails its
control digit, VAT that is not the VAT of the total, a seller who is also the buyer,
a date in the future. The same rules run on every path (``engine.checking`` before a
document is saved, ``app.review`` after a person's edit), so a document gets the same
verdict however it was read.

Checks dispatch on the profile's field kinds, not on key names, so a profile that
names its fields differently, or adds KPP, OGRN, BIK and account fields, is checked
the same way. A failed check is a :class:`ReviewCode` on the field, the field's
confidence drops below the review threshold, and the document needs review.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator, Sequence
from datetime import date, timedelta

from docbatch_gui.checks.ids import (
    account_key_is_valid,
    bik_is_valid,
    digits_of,
    inn_is_valid,
    kpp_is_valid,
    ogrn_is_valid,
)
from docbatch_gui.checks.lines import LINE_CODES, line_findings
from docbatch_gui.checks.vat import RateTable, load_rates, vat_codes
from docbatch_gui.config.profile import FieldProfile, Profile
from docbatch_gui.domain.models import Document, Page
from docbatch_gui.domain.normalize import normalize_text
from docbatch_gui.domain.reasons import ReviewCode

__all__ = [
    "CHECK_CODES",
    "CHECK_CONFIDENCE",
    "DEFAULT_MIN_YEAR",
    "DocumentChecker",
    "document_text",
]

#: the codes the checks give; a re-check replaces them on every field it can judge
CHECK_CODES = frozenset(
    {
        "inn_invalid",
        "kpp_invalid",
        "ogrn_invalid",
        "bik_invalid",
        "account_key_invalid",
        "vat_over_total",
        "vat_mismatch",
        "vat_without",
        "same_party",
        "date_future",
        "date_too_old",
    }
)
#: the confidence of a value a check failed, at most (and below the review threshold)
CHECK_CONFIDENCE = 0.3
DEFAULT_MIN_YEAR = 2000
#: a document dated tomorrow is a time zone, not the future
_FUTURE_GRACE = timedelta(days=1)

_Rule = Callable[[Document, FieldProfile, str], ReviewCode | None]


@dataclasses.dataclass(frozen=True)
class DocumentChecker:
    """The checks for one profile: pure, so the engine and the review share one."""

    profile: Profile
    min_year: int = DEFAULT_MIN_YEAR
    rates: RateTable = dataclasses.field(default_factory=load_rates)
    #: today's date; None reads the clock at each check (a long-running engine)
    today: date | None = None

    def check(self, document: Document, text: str = "") -> Document:
        """``document`` with what the checks find now: codes, capped confidence,
        ``needs_review``.

        ``text`` is the text of the document's pages (the "без НДС" marker is on
        the page, not in any field). Earlier check codes on fields that hold a value
        are judged again, so a fixed value loses its code; a code on an empty field
        stays, since nothing is left to judge (the offline extractor's
        ``inn_invalid`` for an INN it dropped).
        """
        found = list(self.findings(document, text))
        kept = [
            c
            for c in document.review_codes
            if not (c.code in CHECK_CODES and document.fields.get(c.field or "") is not None)
            and c.code not in LINE_CODES  # the lines are judged afresh every time
        ]
        seen = {_identity(c) for c in kept}
        added = []
        for code in found:
            if _identity(code) not in seen:
                seen.add(_identity(code))
                added.append(code)
        if not added and len(kept) == len(document.review_codes):
            return document
        confidence = dict(document.confidence)
        cap = min(CHECK_CONFIDENCE, self.profile.review_threshold)
        for code in added:
            if code.field in confidence:
                confidence[code.field] = min(confidence[code.field], cap)
        codes = kept + added
        before = {_identity(c) for c in document.review_codes}
        fresh = any(_identity(c) not in before for c in added)
        needs_review = bool(codes) and (document.needs_review or fresh)
        return dataclasses.replace(
            document, review_codes=codes, confidence=confidence, needs_review=needs_review
        )

    def findings(self, document: Document, text: str = "") -> Iterator[ReviewCode]:
        """Every failed check of ``document``, one code per (code, field)."""
        rules: dict[str, _Rule] = {
            "tax_id": self._inn,
            "kpp": self._kpp,
            "ogrn": self._ogrn,
            "bik": self._bik,
            "account": self._account,
            "date": self._date,
        }
        for spec in self.profile.fields:
            value = document.fields.get(spec.key)
            rule = rules.get(spec.kind)
            if value is None or rule is None:
                continue
            code = rule(document, spec, value)
            if code is not None:
                yield code
        yield from self._vat(document, text)
        yield from self._same_party(document)
        yield from line_findings(document, self.profile, text)

    # -- one value -------------------------------------------------------------------

    def _inn(self, document: Document, spec: FieldProfile, value: str) -> ReviewCode | None:
        """A tax id of 10 or 12 digits is a Russian INN and must pass its checksum;
        other tax ids (an EIN, a European VAT number) have no rule here."""
        number = digits_of(value)
        if number.isdigit() and len(number) in (10, 12) and not inn_is_valid(number):
            return ReviewCode("inn_invalid", spec.key, {"value": value})
        return None

    def _kpp(self, document: Document, spec: FieldProfile, value: str) -> ReviewCode | None:
        return (
            None if kpp_is_valid(value) else ReviewCode("kpp_invalid", spec.key, {"value": value})
        )

    def _ogrn(self, document: Document, spec: FieldProfile, value: str) -> ReviewCode | None:
        if ogrn_is_valid(value):
            return None
        return ReviewCode("ogrn_invalid", spec.key, {"value": value})

    def _bik(self, document: Document, spec: FieldProfile, value: str) -> ReviewCode | None:
        return (
            None if bik_is_valid(value) else ReviewCode("bik_invalid", spec.key, {"value": value})
        )

    def _account(self, document: Document, spec: FieldProfile, value: str) -> ReviewCode | None:
        """An account is judged against the BIK of its own party (or the only BIK):
        without a valid BIK there is nothing to hold it to."""
        biks = [f for f in self.profile.fields if f.kind == "bik"]
        own = [f for f in biks if f.party == spec.party] or (biks if len(biks) == 1 else [])
        bik = document.fields.get(own[0].key) if own else None
        if bik is None or not bik_is_valid(bik) or account_key_is_valid(value, bik):
            return None
        return ReviewCode("account_key_invalid", spec.key, {"value": value, "bik": bik})

    def _date(self, document: Document, spec: FieldProfile, value: str) -> ReviewCode | None:
        day = _iso_day(value)
        if day is None:
            return None
        today = self.today or date.today()
        if day > today + _FUTURE_GRACE:
            return ReviewCode("date_future", spec.key, {"value": value})
        if day.year < self.min_year:
            return ReviewCode("date_too_old", spec.key, {"value": value, "year": self.min_year})
        return None

    # -- values together ---------------------------------------------------------------

    def _first(self, document: Document, kind: str) -> str | None:
        spec = next((f for f in self.profile.fields if f.kind == kind), None)
        return document.fields.get(spec.key) if spec else None

    def _vat(self, document: Document, text: str) -> Iterator[ReviewCode]:
        """Each VAT field against the document's first total, date and currency."""
        amount = self._first(document, "amount")
        day = _iso_day(self._first(document, "date") or "")
        currency = self._first(document, "currency")
        for spec in self.profile.fields:
            if spec.kind == "vat":
                value = document.fields.get(spec.key)
                yield from vat_codes(spec.key, value, amount, day, currency, text, self.rates)

    def _same_party(self, document: Document) -> Iterator[ReviewCode]:
        """Seller and buyer are never one party: the same tax id on both sides, or the
        same name, is a party read twice. The code goes on the later field (the
        buyer's, in the usual profile order)."""
        tax_ids = [f for f in self.profile.fields if f.kind == "tax_id"]
        names = [f for f in self.profile.fields if f.kind == "party"]
        for group, fold in ((tax_ids, digits_of), (names, normalize_text)):
            seen: dict[str, FieldProfile] = {}
            for spec in group:
                value = document.fields.get(spec.key)
                folded = fold(value) if value else ""
                if not folded:
                    continue
                earlier = seen.setdefault(folded, spec)
                # two tax ids of one party (an INN and a VAT number) may well agree
                if earlier is not spec and (spec.kind != "tax_id" or earlier.party != spec.party):
                    yield ReviewCode("same_party", spec.key, {"value": value})


def _identity(code: ReviewCode) -> tuple[str, ...]:
    """What makes two codes the same finding: the code and its field; a line code is
    about a row or a sum, so its parameters too (two rows, two findings)."""
    if code.code in LINE_CODES:
        return (code.code, repr(sorted(code.params.items())))
    return (code.code, code.field or "")


def document_text(document: Document, pages: Sequence[Page]) -> str:
    """The text of the document's own pages, in page order (what the checks read
    beside the fields)."""
    inside = [p for p in pages if document.page_from <= p.page_no <= document.page_to]
    return "\n".join(p.text for p in sorted(inside, key=lambda p: p.page_no))


def _iso_day(value: str) -> date | None:
    try:
        return date.fromisoformat(value)
    except ValueError:
        return None
