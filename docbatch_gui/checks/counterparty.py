"""A document against what confirmed documents of the same seller showed.

The seller's INN is the key: it has a checksum, so a valid one read from the page is
almost surely the seller's. When the rest of the document disagrees with that
seller's confirmed history (another name, another VAT rate, a number shaped
otherwise, a type it never sent), either the reader mixed something up or the
seller changed something: a person should look either way, so the value's
confidence is lowered and the reason says what was expected.

Number formats are shapes: a digit becomes ``#``, a letter is kept (upper case),
spaces go and other signs stay, so "АБ-0123/24" is "АБ-####/##". Letters are kept
because a seller's series prefix is fixed and a wrong prefix is what a misread
number most often shows; digits are not, because they change with every document.
When shapes are compared, letters that look alike in Latin and Cyrillic are the
same letter (readers mix them up) and a digit run may be one digit longer or
shorter (invoice 999 is followed by 1000).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import replace
from decimal import Decimal, InvalidOperation

from docbatch_gui.checks.locate_names import LEGAL_FORMS
from docbatch_gui.config.profile import UNKNOWN, Profile
from docbatch_gui.domain.counterparty import ConfirmedDocument, Counterparty
from docbatch_gui.domain.models import Document
from docbatch_gui.domain.normalize import inn_is_valid, normalize_number, normalize_text
from docbatch_gui.domain.reasons import ReviewCode
from docbatch_gui.pipeline.offline import PageText, extract_documents

SELLER, SELLER_INN, NUMBER, AMOUNT, VAT = (
    "seller",
    "seller_tax_id",
    "number",
    "amount",
    "vat_amount",
)
#: VAT rates in percent Russian documents carry (current and past; 0 for export)
KNOWN_VAT_RATES = (0, 5, 7, 10, 18, 20, 22)
#: a value that disagrees with the seller's history is no surer than this
PRIOR_CONFIDENCE = 0.5
#: a type is judged unusual only after this many confirmed documents: one invoice
#: does not make an act from the same seller odd
MIN_DOCUMENTS_FOR_TYPE = 3
#: a seller's name, VAT rate or number shape is its usual one only when this many of
#: its confirmed documents agree on it (``COUNTERPARTY_MIN_CONFIRMED``): one wrong or
#: hostile confirmation must not flag every genuine document of that INN
MIN_CONFIRMED = 2

#: a run of ten digits or more: an INN is a whole run of exactly 10 or 12 (a pattern
#: that begins with a digit lets the scan skip text that holds none, five times
#: faster on a page of text than one that begins with a look-behind)
_DIGIT_RUN_RE = re.compile(r"\d{10,}")
#: Cyrillic letters that look like Latin ones, folded for comparing shapes and names
_LOOKALIKE = str.maketrans("АВЕКМНОРСТУХ", "ABEKMHOPCTYX")
_FORM_WORDS = frozenset(
    {"ооо", "ао", "пао", "зао", "оао", "ип", "ано", "нко", "фгуп", "гуп", "муп"}
    | {"llc", "ltd", "inc", "gmbh", "corp", "co", "limited", "plc", "sa", "ag"}
)


# -------------------------------------------------------------- what a document says


def clean_inn(value: str | None) -> str | None:
    """The INN in ``value`` when it is a valid one, else None."""
    digits = normalize_number(value)
    return digits if inn_is_valid(digits) else None


def vat_rate(amount: str | None, vat: str | None) -> int | None:
    """The VAT rate in percent of a total that includes VAT, snapped to a known rate;
    None when there is no VAT, or it is no known rate (a mix of rates, a misread)."""
    try:
        total, tax = Decimal(amount or ""), Decimal(vat or "")
    except InvalidOperation:
        return None
    if total <= 0 or tax < 0 or tax >= total:
        return None
    rate = round(100 * tax / (total - tax))
    nearest = min(KNOWN_VAT_RATES, key=lambda known: abs(known - rate))
    return nearest if abs(nearest - rate) <= 1 else None


def number_format(number: str | None) -> str | None:
    """The number's shape: "АБ-0123/24" → "АБ-####/##" (see the module's docstring)."""
    if not number or not number.strip():
        return None
    shape = "".join(
        "#" if ch.isdigit() else ch.upper() if ch.isalpha() else ch
        for ch in number
        if not ch.isspace()
    )
    return shape or None


def _runs(shape: str) -> list[str | int]:
    """A shape as tokens: the length of each digit run, and every other sign."""
    tokens: list[str | int] = []
    for ch in shape.translate(_LOOKALIKE):
        if ch == "#" and tokens and isinstance(tokens[-1], int):
            tokens[-1] += 1
        else:
            tokens.append(1 if ch == "#" else ch)
    return tokens


def fits_format(shape: str, known: Iterable[str]) -> bool:
    """Whether ``shape`` is one of the ``known`` shapes, give or take a digit per run."""
    mine = _runs(shape)
    for other in map(_runs, known):
        if len(other) == len(mine) and all(
            abs(a - b) <= 1 if isinstance(a, int) and isinstance(b, int) else a == b
            for a, b in zip(mine, other, strict=True)
        ):
            return True
    return False


def _fold(text: str) -> str:
    """Case, punctuation and Latin/Cyrillic look-alikes folded away."""
    return normalize_text(text.upper().translate(_LOOKALIKE))


#: the legal forms written out, folded, longest first (stripped from a name's core)
_FOLDED_LEGAL_FORMS = sorted(map(_fold, LEGAL_FORMS.values()), key=len, reverse=True)
_FOLDED_FORM_WORDS = frozenset(map(_fold, _FORM_WORDS))


def _core_name(name: str) -> frozenset[str]:
    """The words of a name that identify it: no legal form, case or quotes."""
    text = f" {_fold(name)} "
    for form in _FOLDED_LEGAL_FORMS:
        text = text.replace(f" {form} ", " ")
    return frozenset(w for w in text.split() if w not in _FOLDED_FORM_WORDS)


def same_name(a: str, b: str) -> bool:
    """ "ООО «Ромашка»" and "Общество с ограниченной ответственностью Ромашка" are one
    name; so is a name with a word more (a short form of the same)."""
    first, second = _core_name(a), _core_name(b)
    if not first or not second:
        return True  # nothing but a legal form: nothing to compare
    return first <= second or second <= first


def confirmed_entry(document: Document, at: str) -> ConfirmedDocument | None:
    """What a confirmed ``document`` teaches about its seller; None without a valid
    seller INN (nothing to file it under) or an id."""
    inn = clean_inn(document.fields.get(SELLER_INN))
    if inn is None or document.id is None:
        return None
    fields = document.fields
    return ConfirmedDocument(
        inn=inn,
        document_id=document.id,
        job_id=document.job_id,
        doc_type=document.doc_type,
        confirmed_at=at,
        name=(fields.get(SELLER) or "").strip() or None,
        vat_rate=vat_rate(fields.get(AMOUNT), fields.get(VAT)),
        number_format=number_format(fields.get(NUMBER)),
        fields=dict(fields),
        confirmed_by=document.confirmed_by,
    )


# ------------------------------------------------------------------- the comparison


def _rates(rates: Iterable[int]) -> str:
    return ", ".join(f"{rate}%" for rate in rates)


def disagreements(document: Document, known: Counterparty) -> list[ReviewCode]:
    """Where ``document`` differs from what ``known``'s confirmed documents showed."""
    fields = document.fields
    codes: list[ReviewCode] = []
    name = (fields.get(SELLER) or "").strip()
    if name and known.names and not any(same_name(name, usual) for usual in known.names):
        codes.append(ReviewCode("counterparty_name", SELLER, {"value": name, "usual": known.name}))
    rate = vat_rate(fields.get(AMOUNT), fields.get(VAT))
    if rate is not None and known.vat_rates and rate not in known.vat_rates:
        params = {"rate": f"{rate}%", "usual": _rates(known.vat_rates)}
        codes.append(ReviewCode("counterparty_vat_rate", VAT, params))
    shape = number_format(fields.get(NUMBER))
    formats = known.number_formats.get(document.doc_type, {})
    if shape and formats and not fits_format(shape, formats):
        shown = {"value": fields.get(NUMBER) or "", "usual": ", ".join(formats)}
        codes.append(ReviewCode("counterparty_number_format", NUMBER, shown))
    if (
        document.doc_type != UNKNOWN
        and known.confirmed >= MIN_DOCUMENTS_FOR_TYPE
        and document.doc_type not in known.doc_types
    ):
        params = {"value": document.doc_type, "usual": ", ".join(known.doc_types)}
        codes.append(ReviewCode("counterparty_type", None, params))
    return codes


def established(known: Counterparty, min_confirmed: int = MIN_CONFIRMED) -> Counterparty:
    """``known`` with only the usual values at least ``min_confirmed`` confirmed
    documents agree on (names alike by ``same_name``, shapes alike by
    ``fits_format``). Document types stay whole: a type more only means fewer flags."""
    names = known.name_counts or dict.fromkeys(known.names, known.confirmed)

    def agreeing_names(name: str) -> int:
        return sum(count for other, count in names.items() if same_name(name, other))

    def agreeing_shapes(shape: str, shapes: dict[str, int]) -> int:
        return sum(count for other, count in shapes.items() if fits_format(shape, [other]))

    usual_names = tuple(n for n in known.names if agreeing_names(n) >= min_confirmed)
    return replace(
        known,
        name=usual_names[0] if usual_names else None,
        names=usual_names,
        vat_rates={rate: n for rate, n in known.vat_rates.items() if n >= min_confirmed},
        number_formats={
            doc_type: {
                shape: n
                for shape, n in shapes.items()
                if agreeing_shapes(shape, shapes) >= min_confirmed
            }
            for doc_type, shapes in known.number_formats.items()
        },
    )


def with_priors(
    document: Document, known: Counterparty | None, *, min_confirmed: int = MIN_CONFIRMED
) -> Document:
    """``document`` with the disagreements as review codes and those values' confidence
    lowered to PRIOR_CONFIDENCE; unchanged when it agrees, the seller is new, or too
    few confirmations agree on what would be its usual values."""
    if known is None:
        return document
    codes = disagreements(document, established(known, min_confirmed))
    if not codes:
        return document
    confidence = dict(document.confidence)
    for code in codes:
        if code.field is not None and code.field in confidence:
            confidence[code.field] = min(confidence[code.field], PRIOR_CONFIDENCE)
    return replace(
        document,
        confidence=confidence,
        review_codes=[*document.review_codes, *codes],
        needs_review=True,
    )


# ------------------------------------------------------- who the seller is, unread


def inns_in(text: str) -> list[str]:
    """Every valid INN in ``text``, in order, each once."""
    runs = (m.group() for m in _DIGIT_RUN_RE.finditer(text or ""))
    found = (run for run in runs if len(run) in (10, 12))
    return list(dict.fromkeys(inn for inn in found if inn_is_valid(inn)))


def sellers_read(file_name: str, pages: Sequence[tuple[int, str]], profile: Profile) -> list[str]:
    """The seller INNs the offline extractor finds in the pages' text, in order."""
    texts = [PageText(page_no, text) for page_no, text in pages]
    found = (
        clean_inn(d.fields.get(SELLER_INN)) for d in extract_documents(0, file_name, texts, profile)
    )
    return list(dict.fromkeys(inn for inn in found if inn))


def choose_seller(read: Sequence[str], anywhere: Sequence[str], known: Iterable[str]) -> str | None:
    """The known seller these pages most likely come from, before a model read them.

    A seller INN the offline extractor read wins; when it read one and none is known,
    the seller is new (the buyer's INN, known as a seller elsewhere, is no guide).
    Only when it read none does any known INN in the text or the file name count.
    """
    remembered = set(known)
    for inn in read or anywhere:
        if inn in remembered:
            return inn
    return None
