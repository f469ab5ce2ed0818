"""Total and VAT amounts: labelled segments of a line, not "the biggest number".

A totals line often carries several labels and numbers ("Итого к оплате: 118 000,00
руб., в т.ч. НДС 19 666,67"), so each line is cut into segments, one per label, and
a number belongs to the label in front of it. Labels come from the profile: strong
total labels ("итого к оплате"), weak ones ("итого", "сумма"), VAT labels, and
exclusions ("без НДС", "subtotal") whose numbers are thrown away.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

from docbatch_gui.config.profile import Profile
from docbatch_gui.domain.normalize import normalize_amount
from docbatch_gui.pipeline.textutil import amount_tokens, fold, join_wrapped_number

TOTAL1, TOTAL2, VAT, DISCARD, NEUTRAL, CUT = "total1", "total2", "vat", "discard", "neutral", "cut"
#: the one amount after an excluded total label ("без НДС", "subtotal"): the net amount
NET = "net"
_VALUE_KINDS = (TOTAL1, TOTAL2, VAT)
# Confidence by (kind, how found): same line, several numbers in one segment,
# value on the next line (table cell), bare integer.
_CONF = {TOTAL1: (0.9, 0.7, 0.75, 0.7), TOTAL2: (0.8, 0.6, 0.65, 0.6), VAT: (0.9, 0.6, 0.75, 0.7)}
_CONFLICT = 0.55
_ONLY_CURRENCY_RE = re.compile(r"^[\s.,:;()$€₽]*(?:[^\W\d_]{1,7}\.?)?[\s.,:;()$€₽]*$")


@dataclass(frozen=True)
class AmountResult:
    total: str | None
    total_confidence: float
    total_lines: list[int]
    vat: str | None
    vat_confidence: float
    #: the net amount ("Сумма без НДС", "Subtotal") when one is read, for the check
    #: that the total is it plus the VAT
    net: str | None = None
    #: another total the same tier of labels gave (the total is then doubted)
    total_other: str | None = None


@dataclass(frozen=True)
class _Cand:
    kind: str
    value: str
    confidence: float
    line: int
    #: the digits as printed ("588 618" → "588618"): an OCR reading cut short has fewer
    printed: str = ""


def _lexicon(profile: Profile) -> list[tuple[re.Pattern[str], str]]:
    lexicon: list[tuple[re.Pattern[str], str]] = []
    for spec in profile.fields:
        if spec.kind == "amount":
            lexicon += [(p, TOTAL1) for p in spec.keyword_re]
            lexicon += [(p, TOTAL2) for p in spec.weak_keyword_re]
            lexicon += [(p, DISCARD) for p in spec.exclude_re]
        elif spec.kind == "vat":
            lexicon += [(p, VAT) for p in spec.keyword_re + spec.weak_keyword_re]
            lexicon += [(p, NEUTRAL) for p in spec.exclude_re]
        elif spec.kind == "tax_id":
            lexicon += [(p, CUT) for p in spec.keyword_re]
    return lexicon


def _any_label(lexicon: list[tuple[re.Pattern[str], str]]) -> re.Pattern[str]:
    """One alternation of every label: most lines have none, and one search says so."""
    return re.compile("|".join(f"(?:{p.pattern})" for p, _ in lexicon))


def _labels(
    folded: str, lexicon: list[tuple[re.Pattern[str], str]], any_label: re.Pattern[str]
) -> list[tuple[int, int, str]]:
    """Non-overlapping labels, longest first at each position ("итого ндс" over "итого")."""
    if any_label.search(folded) is None:
        return []
    hits = [(m.start(), m.end(), kind) for p, kind in lexicon for m in p.finditer(folded)]
    hits.sort(key=lambda h: (h[0], -(h[1] - h[0])))
    chosen: list[tuple[int, int, str]] = []
    for hit in hits:
        if chosen and hit[0] < chosen[-1][1]:
            continue
        chosen.append(hit)
    return chosen


def _segment_value(segment: str, kind: str) -> tuple[str, int] | None:
    """Pick the number of one label segment; index 0/1/3 says how sure it is."""
    tokens = amount_tokens(segment)
    strong = [t for t in tokens if t.strong and normalize_amount(t.text) is not None]
    if strong:
        values = [normalize_amount(t.text) or "" for t in strong]
        if kind == VAT:
            return values[0], 0 if len(set(values)) == 1 else 1
        # Several numbers after a total label (columns "без НДС | НДС | с НДС"):
        # the total including everything is the largest one.
        best = max(values, key=Decimal)
        return best, 0 if len(set(values)) == 1 else 1
    for token in tokens:
        prefix = segment[: token.start]
        if not re.search(r"[^\W\d_]", prefix):
            value = normalize_amount(token.text)
            if value is not None:
                return value, 3
    return None


def _next_line_value(line: str | None) -> str | None:
    """A total printed in the next table cell: the line must hold just that amount."""
    if line is None:
        return None
    tokens = amount_tokens(line)
    if len(tokens) != 1 or not tokens[0].strong:
        return None
    rest = line[: tokens[0].start] + line[tokens[0].start + len(tokens[0].text) :]
    if not _ONLY_CURRENCY_RE.match(rest):
        return None
    return normalize_amount(tokens[0].text)


def _line_candidates(
    lines: Sequence[str],
    i: int,
    lexicon: list[tuple[re.Pattern[str], str]],
    any_label: re.Pattern[str],
) -> list[_Cand]:
    nxt = lines[i + 1] if i + 1 < len(lines) else None
    text = join_wrapped_number(lines[i], nxt)
    labels = _labels(fold(text), lexicon, any_label)
    cands: list[_Cand] = []
    for n, (_start, end, kind) in enumerate(labels):
        if kind not in _VALUE_KINDS and kind != DISCARD:
            continue
        later = [lab for lab in labels[n + 1 :] if lab[2] != NEUTRAL]
        seg_end = later[0][0] if later else len(text)
        found = _segment_value(text[end:seg_end], TOTAL1 if kind == DISCARD else kind)
        if kind == DISCARD:
            if found is not None and found[1] == 0:  # one number, written as an amount
                cands.append(_Cand(NET, found[0], 0.0, i))
            continue
        if found is not None:
            value, how = found
            printed = _printed(text[end:seg_end], value)
            cands.append(_Cand(kind, value, _CONF[kind][how], i, printed))
        elif not later and not re.search(r"\d", text[end:]):
            next_value = _next_line_value(nxt)
            if next_value is not None:
                printed = _printed(nxt or "", next_value)
                cands.append(_Cand(kind, next_value, _CONF[kind][2], i, printed))
    return cands


def _printed(segment: str, value: str) -> str:
    """The digits of the token of ``segment`` that reads as ``value``."""
    for token in amount_tokens(segment):
        if normalize_amount(token.text) == value:
            return "".join(ch for ch in token.text if ch.isdigit())
    return ""


def _within(short: str, long: str) -> bool:
    """``short`` is ``long`` with digits lost (a proper subsequence of it)."""
    if not short or len(short) >= len(long):
        return False
    rest = iter(long)
    return all(ch in rest for ch in short)


def _fuller_reading(strong: _Cand, weak: Sequence[_Cand]) -> _Cand | None:
    """The weak-label total that the strong label's total is a cut-short reading of:
    OCR lost digits of "Итого к оплате: 588 618,54" under a stamp ("588 618", "/9"),
    while "Итого: 588 618,54" above it was read whole. The largest such one."""
    fuller = [
        c
        for c in weak
        if Decimal(c.value) > Decimal(strong.value) and _within(strong.printed, c.printed)
    ]
    return max(fuller, key=lambda c: Decimal(c.value)) if fuller else None


_RATE_RE = re.compile(r"(?<![\d.,])(\d{1,2}(?:[.,]\d{1,2})?)\s*%")


def _fits_rate(line: str, vat: str, total: str) -> bool:
    """Whether the VAT is the rate its line names of the total (included, as Russian
    invoices print it, or added on top of it as a net amount); True when the line
    names no rate. "Tax 15% on $ 112.90: $ 16.94" with a total of 279.84 does not fit:
    that VAT is doubted, never given as read."""
    rates = _RATE_RE.findall(line)
    if not rates:
        return True
    rate = Decimal(rates[0].replace(",", "."))
    if rate <= 0:
        return True
    amount, tax = Decimal(total), Decimal(vat)
    included = amount * rate / (100 + rate)
    on_top = amount * rate / 100
    # a cent of rounding; an OCR slip in the last digits (…,42 read …,40) is more
    tolerance = Decimal("0.011")
    return abs(tax - included) <= tolerance or abs(tax - on_top) <= tolerance


def extract_amounts(lines: Sequence[str], profile: Profile) -> AmountResult:
    lexicon = _lexicon(profile)
    any_label = _any_label(lexicon)
    cands = [c for i in range(len(lines)) for c in _line_candidates(lines, i, lexicon, any_label)]
    total, total_conf, total_lines, total_other = None, 0.0, [], None
    tier = [c for c in cands if c.kind == TOTAL1] or [c for c in cands if c.kind == TOTAL2]
    if tier:
        values = {c.value for c in tier}
        # Line items and subtotals carry labels too; the document total is the largest.
        total = max(values, key=Decimal)
        chosen = [c for c in tier if c.value == total]
        total_conf = max(c.confidence for c in chosen)
        if len(values) > 1:
            total_conf = min(total_conf, _CONFLICT)
            total_other = next(c.value for c in tier if c.value != total)
        weak = {c.value for c in cands if c.kind == TOTAL2}
        fuller = (
            _fuller_reading(chosen[0], [c for c in cands if c.kind == TOTAL2])
            if tier[0].kind == TOTAL1
            else None
        )
        if fuller is not None:
            total_other, total = total, fuller.value
            chosen = [c for c in cands if c.kind == TOTAL2 and c.value == total]
            total_conf = _CONFLICT
        elif tier[0].kind == TOTAL1 and any(Decimal(v) > Decimal(total) for v in weak):
            # "Итого: 588 618,54" above "Итого к оплате: 588 618": the strong label's
            # value is cut short (OCR lost its end) or only part is due: doubted
            total_conf = min(total_conf, _CONFLICT)
        total_lines = [c.line for c in chosen]
    vat, vat_conf = None, 0.0
    vats = [c for c in cands if c.kind == VAT]
    if vats:
        vat, vat_conf = vats[0].value, vats[0].confidence
        if len({c.value for c in vats}) > 1:
            vat_conf = min(vat_conf, _CONFLICT)
        if total is not None and Decimal(vat) > Decimal(total):
            vat_conf = min(vat_conf, _CONFLICT)  # VAT above the total: a misread
        elif total is not None and not _fits_rate(lines[vats[0].line], vat, total):
            vat_conf = min(vat_conf, _CONFLICT)
    net = next((c.value for c in cands if c.kind == NET), None)
    return AmountResult(total, total_conf, total_lines, vat, vat_conf, net, total_other)
