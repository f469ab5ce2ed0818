"""Field extraction from the text lines of one document (offline, rule based).

Rules follow what back-office documents actually print: the number and date sit in
the title line ("Счет на оплату № 123 от 12 марта 2024 г."), totals follow a label
("Итого к оплате"), parties follow "Поставщик:"/"Bill To:". A value found next to
its label gets high confidence; one found by pattern only, or contradicted by
another candidate, gets a low one so the document goes to review. When nothing
trustworthy is found the field stays None: null over wrong.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from docbatch_gui.config.profile import FieldProfile, Profile
from docbatch_gui.domain.normalize import find_dates, inn_is_valid, normalize_number, normalize_text
from docbatch_gui.domain.reasons import ReviewCode
from docbatch_gui.pipeline.amounts import extract_amounts
from docbatch_gui.pipeline.cross_checks import doubt_far_date, doubt_total
from docbatch_gui.pipeline.textutil import fold, label_at_start
from docbatch_gui.pipeline.written_dates import find_written_dates

HIGH, LABEL_NEXT_LINE, PATTERN_ONLY, CONFLICT = 0.9, 0.75, 0.5, 0.5
#: a value paired with its label by the order of a column of labels and one of values
COLUMN = 0.55

_NUMBER_TOKEN = r"([0-9A-Za-zА-Яа-яЁё][0-9A-Za-zА-Яа-яЁё\-/._]*)"
_NUMBER_MARK_RE = re.compile(
    r"(?:№|#|(?<!\w)(?:no|nr|n|number|номер)(?!\w))\.?\s*[:№#°º]?\s*" + _NUMBER_TOKEN, re.IGNORECASE
)
_FROM_RE = re.compile(r"(?<!\w)(?:от|from|dated|of|du|vom|van)\s*$", re.IGNORECASE)
_PARTY_SEP_RE = re.compile(r"\s*(?:\([^)]*\))?\s*(?P<colon>[:])?\s*")
_PARTY_CUT_RE = re.compile(
    r",?\s*(?:(?<!\w)(?:инн|кпп|огрн|огрнип|окпо|р/с|р\.с|к/с|бик|тел|телефон|адрес|e-?mail"
    r"|tax id|vat|ein|tel|phone)(?!\w)|(?<!\d)\d{6}(?!\d)|,\s*г\.|,\s*ул\.)",
    re.IGNORECASE,
)
# "ИНН 7701234560", "ИНН/КПП 7701234560/770101001", "ИНН/КПП продавца: 7810987652/…"
_INN_VALUE_RE = re.compile(
    r"^(?:\s*/\s*кпп)?(?:\s+[а-яё]{4,12})?\s*[:№]?\s*(\d{10}|\d{12})(?!\d)", re.IGNORECASE
)
_TAX_VALUE_RE = re.compile(r"^[\s:#№.]*(?:\([^)]*\)\s*:?\s*)?([A-Z]{0,3}\d[\d\- ]{3,18}\d)(?!\d)")
_PARTY_CONTEXT_LINES = 5


@dataclass
class FieldResult:
    values: dict[str, str | None]
    confidence: dict[str, float]
    notes: list[ReviewCode] = field(default_factory=list)


@dataclass(frozen=True)
class _Cand:
    value: str
    confidence: float
    line: int


def _pick(cands: Sequence[_Cand], key: object = None) -> tuple[str | None, float]:
    """First candidate wins; disagreeing candidates lower its confidence."""
    value, confidence, _other = _pick_other(cands, key)
    return value, confidence


def _pick_other(cands: Sequence[_Cand], key: object = None) -> tuple[str | None, float, str | None]:
    """``_pick``, with the first value that disagrees with the chosen one (None: all
    candidates agree): the reason its confidence was lowered."""
    if not cands:
        return None, 0.0, None
    first = cands[0]
    norm = key if callable(key) else (lambda v: v)
    distinct = {norm(c.value) for c in cands}
    if len(distinct) > 1:
        other = next(c.value for c in cands if norm(c.value) != norm(first.value))
        return first.value, min(first.confidence, CONFLICT), other
    return first.value, max(c.confidence for c in cands), None


# ----------------------------------------------------------------- number, date


def _number_token_ok(token: str) -> bool:
    return any(ch.isdigit() for ch in token) and not find_dates(token) and len(token) <= 40


def _clean_token(token: str) -> str:
    return token.rstrip(".,;:/-_")


def _marked_number(line: str) -> str | None:
    match = _NUMBER_MARK_RE.search(line)
    if match and _number_token_ok(_clean_token(match.group(1))):
        return _clean_token(match.group(1))
    return None


def extract_number(
    lines: Sequence[str], titles: Sequence[int], profile: Profile
) -> tuple[str | None, float, str | None]:
    """The number, its confidence, and another number its labels gave (``_pick_other``)."""
    spec = profile.field("number")
    cands: list[_Cand] = []
    marked = next(((i, m) for i in titles if (m := _marked_number(lines[i]))), None)
    if marked is not None:
        cands.append(_Cand(marked[1], HIGH, marked[0]))
    elif titles:
        title = titles[0]
        line = lines[title]
        # No "№": only "Счет 123 от …" / "Invoice 42 dated …" shapes, where the token
        # sits right before "от" or the date; "за 1 квартал 2024" must stay unread.
        dates = find_dates(line)
        stop = dates[0][0] if dates else len(line)
        tokens = line[:stop].split()
        for n, token in enumerate(tokens[1:], start=1):
            after = tokens[n + 1] if n + 1 < len(tokens) else None
            before_date = after is None and bool(dates)
            if (before_date or (after and _FROM_RE.search(after))) and _number_token_ok(
                _clean_token(token)
            ):
                cands.append(_Cand(_clean_token(token), 0.7, title))
                break
    if spec is not None:
        region = range(min(len(lines), profile.label_region_lines))
        for i in region:
            folded = fold(lines[i])
            if i in titles or any(p.search(folded) for p in spec.exclude_re):
                continue
            for pattern in spec.keyword_re:
                label = label_at_start(pattern, folded)
                if label is None:
                    continue
                rest = re.match(
                    r"[\s.:#№°º]*(?:no\.?|number|№|#)?[\s.:°º]*" + _NUMBER_TOKEN,
                    lines[i][label.end() :],
                    re.IGNORECASE,
                )
                if rest and _number_token_ok(_clean_token(rest.group(1))):
                    cands.append(_Cand(_clean_token(rest.group(1)), HIGH, i))
                elif not lines[i][label.end() :].strip(" .:#№"):
                    value = _column_value(lines, i, _column_number)
                    if value:
                        cands.append(_Cand(value, COLUMN, i))
                break
    return _pick_other(cands, normalize_number)


# ------------------------------------------------- labels in a column, values in the next


def _label_only(line: str) -> bool:
    """A line that is a label without its value ("Factuurnummer:", "Klantnummer:"):
    a few words without digits, ending with a colon (a name would be taken for one
    without it)."""
    text = line.strip()
    return text.endswith(":") and not any(ch.isdigit() for ch in text) and len(text.split()) <= 4


def _column_value(lines: Sequence[str], at: int, accept: Callable[[str], str | None]) -> str | None:
    """The value of the label alone on line ``at``, when the file's text layer puts
    labels and values on lines of their own. Two layouts are common: a column of
    labels and then the column of their values (the label's place in its run of
    labels is its value's place in the run that follows), and each label next to its
    value, before or after it (when both neighbours hold a value of the field's shape,
    the one that is not next to another label). None when no line holds a value of
    the field's shape. The pairing is a guess about the layout, so its value is given
    COLUMN confidence, under the review threshold: it goes to review."""
    start = at
    while start > 0 and _label_only(lines[start - 1]):
        start -= 1
    end = at
    while end + 1 < len(lines) and _label_only(lines[end + 1]):
        end += 1
    if end > start:  # a run of labels: the values follow in the same order
        target = end + 1 + (at - start)
        return accept(lines[target]) if target < len(lines) else None
    after = accept(lines[at + 1]) if at + 1 < len(lines) else None
    before = accept(lines[at - 1]) if at > 0 else None
    if after and before:  # values before their labels when the next value has its own
        return before if at + 2 < len(lines) and _label_only(lines[at + 2]) else after
    return after or before


def _column_number(line: str) -> str | None:
    token = _clean_token(line.strip().lstrip("#№: "))
    if " " in token or not token or not _number_token_ok(token):
        return None
    return token


def _dates(text: str, profile: Profile) -> list[tuple[int, int, str]]:
    """Numeric and Russian dates (``find_dates``) and those written with the month's
    name in the profile's languages, in text order, without overlaps."""
    found = find_dates(text)
    for written in find_written_dates(text, profile.languages):
        if not any(written[0] < end and start < written[1] for start, end, _ in found):
            found.append(written)
    return sorted(found)


def _all_dates(lines: Sequence[str], profile: Profile) -> list[str]:
    """Every date of the document's lines (ISO), for the check that its date is near them."""
    return [iso for line in lines for _s, _e, iso in _dates(line, profile)]


def _wrong_label(line: str, spec: FieldProfile | None) -> bool:
    """The line carries a label of another date or amount (``exclude``: order date,
    due date, subtotal): its value is left out rather than taken for this field."""
    if spec is None or not spec.exclude_re:
        return False
    folded = fold(line)
    return any(pattern.search(folded) for pattern in spec.exclude_re)


def extract_date(
    lines: Sequence[str], titles: Sequence[int], profile: Profile
) -> tuple[str | None, float, str | None]:
    """The date, its confidence, and another date its labels gave (``_pick_other``)."""
    spec = profile.field("date")
    cands: list[_Cand] = []
    dated = next(
        (
            (i, d[0])
            for i in titles
            if not _wrong_label(lines[i], spec) and (d := _dates(lines[i], profile))
        ),
        None,
    )
    if dated is not None:
        title, (start, _end, iso) = dated
        line = lines[title]
        conf = HIGH if _FROM_RE.search(line[:start].rstrip(" «\"'")) else 0.85
        cands.append(_Cand(iso, conf, title))
    elif titles:
        title = titles[0]
        for i in range(title + 1, min(len(lines), title + 4)):
            dates = [] if _wrong_label(lines[i], spec) else _dates(lines[i], profile)
            if dates and len(normalize_text(lines[i]).split()) <= 8:
                cands.append(_Cand(dates[0][2], 0.8, i))
                break
    if spec is not None:
        for i in range(min(len(lines), profile.label_region_lines)):
            folded = fold(lines[i])
            if _wrong_label(lines[i], spec):
                continue
            for pattern in spec.keyword_re:
                label = label_at_start(pattern, folded)
                if label is None:
                    continue
                dates = _dates(lines[i][label.end() :], profile)
                if dates:
                    cands.append(_Cand(dates[0][2], HIGH, i))
                elif not lines[i][label.end() :].strip(" .:"):

                    def column_date(line: str) -> str | None:
                        found = _dates(line, profile)
                        return found[0][2] if found and len(line.split()) <= 5 else None

                    value = _column_value(lines, i, column_date)
                    if value:
                        cands.append(_Cand(value, COLUMN, i))
                break
    number = profile.field("number")
    if not cands and number is not None:  # "Facture n°562044387 du 02 Juillet 2015"
        for i in range(min(len(lines), profile.label_region_lines)):
            folded = fold(lines[i])
            if not any(label_at_start(p, folded) for p in number.keyword_re):
                continue
            dates = [] if _wrong_label(lines[i], spec) else _dates(lines[i], profile)
            if dates and _FROM_RE.search(lines[i][: dates[0][0]].rstrip(" «\"'")):
                cands.append(_Cand(dates[0][2], 0.85, i))
                break
    if not cands:
        for i in range(min(len(lines), profile.title_region_lines)):
            dates = [] if _wrong_label(lines[i], spec) else _dates(lines[i], profile)
            if dates:
                cands.append(_Cand(dates[0][2], PATTERN_ONLY, i))
                break
    return _pick_other(cands)


# ------------------------------------------------------------------ currency


def extract_currency(
    lines: Sequence[str], amount_lines: Sequence[int], profile: Profile
) -> tuple[str | None, float]:
    def codes_in(text: str) -> list[str]:
        folded = fold(text)
        return [c.code for c in profile.currencies if any(p.search(folded) for p in c.marker_re)]

    for i in amount_lines:
        near = codes_in(lines[i])
        if len(set(near)) == 1:
            return near[0], HIGH
    counts: dict[str, int] = {}
    for line in lines:
        for code in codes_in(line):
            counts[code] = counts.get(code, 0) + 1
    if not counts:
        return None, 0.0
    best = max(counts, key=lambda c: counts[c])
    return best, (0.7 if len(counts) == 1 else PATTERN_ONLY)


# --------------------------------------------------------------------- parties


def _clean_party(text: str) -> str | None:
    if "___" in text:
        return None  # a signature line, not a name
    cut = _PARTY_CUT_RE.search(text)
    value = (text[: cut.start()] if cut else text).strip(" ,;:-–—")
    letters = sum(ch.isalpha() for ch in value)
    if letters < 3 or len(value) > 150 or len(value.split()) > 12:
        return None
    return value


def _party_label(folded: str, spec: FieldProfile, weak: bool) -> re.Match[str] | None:
    for pattern, phrase in zip(
        spec.weak_keyword_re if weak else spec.keyword_re,
        spec.weak_keywords if weak else spec.keywords,
        strict=True,
    ):
        match = label_at_start(pattern, folded)
        if match is None:
            continue
        sep = _PARTY_SEP_RE.match(folded, match.end())
        rest = folded[sep.end() if sep else match.end() :].strip()
        colon = bool(sep and sep.group("colon"))
        # Short English labels ("From", "To") start ordinary sentences: demand a colon.
        if colon or not rest or (len(phrase) > 4 and not phrase.isascii() and rest[:1] in "«\"'"):
            return match
    return None


def _party_candidates(
    lines: Sequence[str], spec: FieldProfile, weak: bool
) -> tuple[list[_Cand], list[int]]:
    cands, label_lines = [], []
    for i, line in enumerate(lines):
        folded = fold(line)
        label = _party_label(folded, spec, weak)
        if label is None:
            continue
        label_lines.append(i)
        sep = _PARTY_SEP_RE.match(line, label.end())
        rest = line[sep.end() if sep else label.end() :].strip()
        base = 0.7 if weak else HIGH
        if rest:
            value = _clean_party(rest)
            if value:
                cands.append(_Cand(value, base, i))
        elif i + 1 < len(lines) and not _starts_with_any_label(lines[i + 1]):
            value = _clean_party(lines[i + 1])
            if value:
                cands.append(_Cand(value, base - 0.15, i))
    return cands, label_lines


_ANY_LABEL_HINT = re.compile(r"^(?:инн|кпп|сч|р/с|бик|дата|date|invoice|№)\b", re.IGNORECASE)


def _starts_with_any_label(line: str) -> bool:
    return bool(_ANY_LABEL_HINT.match(fold(line)))


def extract_party(lines: Sequence[str], spec: FieldProfile) -> tuple[str | None, float, list[int]]:
    """Return value, confidence and the lines that introduce this party (for tax ids)."""
    strong, strong_rows = _party_candidates(lines, spec, weak=False)
    weak, weak_rows = _party_candidates(lines, spec, weak=True)
    value, conf = _pick(strong or weak, normalize_text)
    # Label lines count even when the name was unreadable: they still own the INN below.
    return value, conf, sorted(set(strong_rows + weak_rows))


# --------------------------------------------------------------------- tax ids


def extract_tax_ids(
    lines: Sequence[str], party_lines: dict[str, list[int]], spec: FieldProfile
) -> tuple[dict[str, list[_Cand]], list[tuple[str, str]]]:
    """Tax ids by party; a line belongs to the nearest party label above it."""
    label_owner: dict[int, str] = {}
    for party, rows in party_lines.items():
        for row in rows:
            label_owner.setdefault(row, party)
    found: dict[str, list[_Cand]] = {party: [] for party in party_lines}
    bad: list[tuple[str, str]] = []  # (party, an INN that fails its checksum)
    for i, line in enumerate(lines):
        folded = fold(line)
        for pattern, phrase in zip(spec.keyword_re, spec.keywords, strict=True):
            for match in pattern.finditer(folded):
                owner, same_line = _owner(i, label_owner)
                if owner is None:
                    continue
                if phrase == "инн":
                    value_m = _INN_VALUE_RE.match(line[match.end() :])
                    if value_m is None:
                        continue
                    inn = value_m.group(1)
                    if not inn_is_valid(inn):
                        bad.append((owner, inn))
                        continue
                    conf = HIGH if same_line else 0.8
                    found[owner].append(_Cand(inn, conf, i))
                else:
                    value_m = _TAX_VALUE_RE.match(line[match.end() :])
                    if value_m is None:
                        continue
                    # No checksum to verify a foreign tax id: never as sure as an INN.
                    conf = 0.8 if same_line else 0.7
                    found[owner].append(_Cand(value_m.group(1).strip(), conf, i))
    return found, bad


def _owner(line: int, label_owner: dict[int, str]) -> tuple[str | None, bool]:
    for back in range(_PARTY_CONTEXT_LINES):
        owner = label_owner.get(line - back)
        if owner is not None:
            return owner, back == 0
    return None, False


# ------------------------------------------------------------------------ all


def extract_fields(lines: Sequence[str], titles: Sequence[int], profile: Profile) -> FieldResult:
    """Fill every profile field (None when not found) with a confidence per field.

    ``titles`` are the heading lines of the document, the title itself first.
    """
    values: dict[str, str | None] = dict.fromkeys(profile.field_keys)
    conf: dict[str, float] = dict.fromkeys(profile.field_keys, 0.0)
    notes: list[ReviewCode] = []
    amount_lines: list[int] = []
    party_lines: dict[str, list[int]] = {}
    kinds = {f.kind for f in profile.fields}
    amounts = extract_amounts(lines, profile) if {"amount", "vat"} & kinds else None
    others: dict[str, str | None] = {}
    for spec in profile.fields:
        if spec.kind == "number":
            values[spec.key], conf[spec.key], others[spec.key] = extract_number(
                lines, titles, profile
            )
        elif spec.kind == "date":
            values[spec.key], conf[spec.key], others[spec.key] = extract_date(
                lines, titles, profile
            )
            notes.extend(doubt_far_date(spec.key, values, conf, _all_dates(lines, profile)))
        elif spec.kind == "amount" and amounts is not None:
            values[spec.key], conf[spec.key] = amounts.total, amounts.total_confidence
            amount_lines = amounts.total_lines
            others[spec.key] = amounts.total_other
        elif spec.kind == "vat" and amounts is not None:
            values[spec.key], conf[spec.key] = amounts.vat, amounts.vat_confidence
        elif spec.kind == "party":
            values[spec.key], conf[spec.key], party_lines[spec.key] = extract_party(lines, spec)
    if amounts is not None:
        notes.extend(doubt_total(profile, values, conf, amounts.net))
    notes.extend(
        ReviewCode("read_differently", key, {"value": values[key], "other": other})
        for key, other in others.items()
        if other is not None and values[key] is not None
    )
    for spec in profile.fields:
        if spec.kind == "currency":
            values[spec.key], conf[spec.key] = extract_currency(lines, amount_lines, profile)
    tax_specs = [f for f in profile.fields if f.kind == "tax_id"]
    if tax_specs:
        found, bad = extract_tax_ids(lines, party_lines, tax_specs[0])
        for spec in tax_specs:
            cands = found.get(spec.party or "", [])
            values[spec.key], conf[spec.key] = _pick(cands, normalize_number)
            if values[spec.key] is None:
                notes.extend(
                    ReviewCode("inn_invalid", spec.key, {"value": inn})
                    for party, inn in bad
                    if party == spec.party
                )
    for key, value in values.items():
        if value is None:
            conf[key] = 0.0
    return FieldResult(values, {k: round(v, 2) for k, v in conf.items()}, notes)
