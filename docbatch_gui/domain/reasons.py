"""Why a document needs a person, as data: a code, the field it is about, parameters.

Every reason a reader, a check or a reprocess gives is a :class:`ReviewCode`. The
words come last, from :data:`TEMPLATES`, in the language of whoever reads them (the
CLI, the window in English or Russian, a script that reads the codes and words them
itself). The stored form is ``{"code", "field", "params"}``; ``documents --json``
gives it as ``review_codes`` beside the English ``review_reasons``.

A template's placeholders are the code's parameters plus ``{field}``, the field's
label in that language when the caller knows it (else its key). A parameter that is
missing or of the wrong type never breaks the wording: the code and its raw
parameters are shown instead, so an old record or a newer code is still readable.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from docbatch_gui.i18n import N_, NN_, Plural, translation

#: code → its English template (``code:kind`` for a variant), marked for the
#: catalogue (``NN_`` when a number picks the form); the Russian is in the ``.po``.
#: Every code is there (a test checks).
TEMPLATES: dict[str, str | Plural] = {
    # what the readers say
    "type_unknown": N_("document type unknown"),
    "field_missing": N_("{field} not found"),
    "low_confidence": N_("{field} uncertain (confidence {confidence:.0%})"),
    "unreadable_value": N_("{field} {value!r} is not readable as a value of this kind; left empty"),
    "read_twice": N_("{field} was read twice ({first!r}, {second!r}); left empty"),
    "filename_mismatch": N_("{field} differs from file name ({value} vs {hint})"),
    "ocr_unsure": N_("{field} {value!r}: OCR was unsure of these characters ({ocr}%)"),
    "total_not_sum": N_(
        "{field} {value} is not the net amount {net} plus the VAT {vat}: one of them is misread"
    ),
    "date_far": N_("{field} {value} is far from the other dates on the page ({other})"),
    "read_differently": N_("{field} was read as {value!r} and as {other!r} on the document"),
    # what happened to the pages
    "pages_no_text": N_("no text layer on {pages} (scan): OCR needed"),
    "pages_little_text": N_(
        "almost no text on {pages} (a few characters in the file's text layer)",
    ),
    "pages_ocr_empty": N_("OCR ({engine}) found no readable text on {pages}: check the scan"),
    "pages_not_rendered": N_(
        "{pages} could not be rendered in time (PAGE_TIMEOUT or the job's time): only the file's "
        "text layer was read; check it against the source file",
    ),
    "orientation_uncertain": N_(
        "orientation uncertain on {pages}: kept as scanned; turn it if it is upside down or "
        "sideways",
    ),
    "reprocessed_after_confirm": N_(
        "processed again after {who} confirmed it: {changed} changed; check and confirm again",
    ),
    # field checks
    "inn_invalid": N_("{field}: INN {value} fails the checksum"),
    "kpp_invalid": N_("{field}: KPP {value} is not 9 characters of the form NNNNPPNNN"),
    "ogrn_invalid": N_("{field}: OGRN {value} fails the checksum"),
    "bik_invalid": N_("{field}: BIK {value} is not 9 digits starting with 04"),
    "account_key_invalid": N_("{field}: account {value} does not match BIK {bik} (control key)"),
    "vat_over_total": N_("{field}: VAT {value} is more than the total {amount}"),
    "vat_mismatch": N_(
        "{field}: VAT {value} is not {rates} of the total {amount} as of {date} (expected "
        "{expected})",
    ),
    "vat_without": N_("{field}: VAT {value} on a document marked without VAT"),
    "same_party": N_("{field}: seller and buyer are the same ({value})"),
    "date_future": N_("{field}: {value} is in the future"),
    "date_too_old": N_("{field}: {value} is before {year}"),
    "likely_duplicate": N_(
        "likely the same document as document {document} of job {job} ({file}): same seller, "
        "number, date and amount; mark it Not a duplicate if it is another one",
    ),
    "not_on_page": N_("{field}: {value} was not found on the page; check it against the page"),
    # what the lines say against themselves and the totals (``checks.lines``); a code
    # with a ``kind`` parameter is worded by "code:kind" when that template exists
    "line_arithmetic": N_("line {row} (page {page}) does not add up"),
    "line_arithmetic:qty_price": N_(
        "line {row} (page {page}): quantity × price is {expected}, the line says {printed}",
    ),
    "line_arithmetic:net_vat": N_(
        "line {row} (page {page}): net + VAT is {expected}, the line says {printed}",
    ),
    "line_arithmetic:vat_rate": N_(
        # "{rate}% VAT", not "VAT at {rate}% of": "% o" reads as a printf directive to msgfmt
        "line {row} (page {page}): {rate}% VAT on {net} is {expected}, the line says {printed}",
    ),
    "line_arithmetic:required": N_("line {row} (page {page}): {column} not read"),
    "lines_sum_mismatch": N_("the lines add up to {sum}, the document says {total}"),
    "lines_sum_mismatch:vat": N_("the lines' VAT adds up to {sum}, the document's VAT is {total}"),
    "lines_incomplete": N_("the table of goods is incomplete"),
    "lines_incomplete:gap": N_("line numbers missing from the table: {numbers}"),
    "lines_incomplete:repeat": N_("line numbers read twice: {numbers}"),
    "lines_incomplete:count": NN_(
        "{read} line read, the document prints {printed}",
        "{read} lines read, the document prints {printed}",
        "read",
    ),
    "lines_incomplete:open": N_("the table goes on past page {page}, the last page read"),
    "lines_missing": N_("{pages} show a table of goods, but no line was read"),
    "lines_not_read_offline": N_(
        "{pages}: a scan; the offline reader reads no lines from it (use Claude)",
    ),
    # what the counterparty's earlier documents say
    "counterparty_name": N_(
        "{field}: {value} differs from the name confirmed for this INN ({usual})",
    ),
    "counterparty_vat_rate": N_(
        "{field}: VAT rate {rate} differs from this counterparty's usual {usual}",
    ),
    "counterparty_number_format": N_(
        "{field}: {value} differs from this counterparty's usual number format ({usual})",
    ),
    "counterparty_type": N_(
        "document type {value} is unusual for this counterparty (usually {usual})",
    ),
    # free text: a model's note, or a reason stored before reasons had codes
    "note": N_("{text}"),
}


@dataclasses.dataclass(frozen=True)
class ReviewCode:
    """One reason for review: which rule, about which field, with what values."""

    code: str
    field: str | None = None
    params: dict[str, Any] = dataclasses.field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return {"code": self.code, "field": self.field, "params": dict(self.params)}

    @classmethod
    def from_dict(cls, body: Mapping[str, Any]) -> ReviewCode:
        params = body.get("params")
        name = body.get("field")
        return cls(
            code=str(body.get("code") or "note"),
            field=str(name) if name else None,
            params=dict(params) if isinstance(params, Mapping) else {},
        )

    @classmethod
    def note(cls, text: str, field: str | None = None) -> ReviewCode:
        """A free-text reason (a model's note, an old record)."""
        return cls("note", field, {"text": text})

    def words(self, language: str = "en", labels: Mapping[str, str] | None = None) -> str:
        """The reason in ``language``, with the field's label when ``labels`` has it."""
        kind = self.params.get("kind")
        english = TEMPLATES.get(f"{self.code}:{kind}") if isinstance(kind, str) else None
        english = english or TEMPLATES.get(self.code)
        if english is None:
            return self._raw()
        template = (
            english.form(self.params, language)
            if isinstance(english, Plural)
            else translation(language).gettext(english)
        )
        label = (labels or {}).get(self.field or "", self.field or "")
        params = {k: _page_span(v, language) if k == "pages" else v for k, v in self.params.items()}
        try:
            return template.format(**{**params, "field": label})
        except (KeyError, IndexError, ValueError, TypeError):
            return self._raw()

    def _raw(self) -> str:
        shown = ", ".join(f"{k}={v}" for k, v in self.params.items())
        subject = f"{self.field}: " if self.field else ""
        return f"{subject}{self.code}" + (f" ({shown})" if shown else "")


#: pages as ``page_ranges`` stores them ("page 3", "pages 1-3, 5"), worded again
_PAGE_SPANS = {"page ": N_("page {numbers}"), "pages ": N_("pages {numbers}")}


def _page_span(value: Any, language: str) -> Any:
    """Pages as stored (the English of ``page_ranges``) in ``language``: the numbers
    stay, the word before them is translated."""
    if language == "en" or not isinstance(value, str):
        return value
    for prefix in ("pages ", "page "):
        if value.startswith(prefix):
            words = translation(language).gettext(_PAGE_SPANS[prefix])
            return words.format(numbers=value[len(prefix) :])
    return value


def codes_from_body(body: Mapping[str, Any]) -> list[ReviewCode]:
    """A stored document's codes; reasons saved before codes existed become notes."""
    raw = body.get("review_codes")
    if isinstance(raw, list):
        return [ReviewCode.from_dict(c) for c in raw if isinstance(c, Mapping)]
    return [ReviewCode.note(str(r)) for r in body.get("review_reasons") or []]


def without_fields(codes: list[ReviewCode], fields: set[str]) -> list[ReviewCode]:
    """The codes that are not about ``fields`` (a person has just set them)."""
    return [c for c in codes if c.field not in fields]
