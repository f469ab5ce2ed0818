"""A document's lines checked against themselves, its totals and its printed count.

Whoever read the lines (the offline table reader, Claude, an XML reader), the same
rules say whether the table is whole and adds up, so a dropped or invented row is
said, never silently passed on:

- ``line_arithmetic``: a row whose quantity × price is not its net, whose net + VAT
  is not its gross, or whose VAT is not its rate of the net, beyond rounding; or a
  row of goods without a column the profile requires;
- ``lines_sum_mismatch``: the rows' sum is not the document's total (with VAT, or
  without it when the rows print no VAT), or the rows' VAT is not its VAT;
- ``lines_incomplete``: row numbers with a gap or a repeat, fewer rows than the
  document prints it has, or a table that runs on past the last page read;
- ``lines_missing``: the pages show a table of goods and no line was read.

Each is a :class:`ReviewCode` without a field (``params["kind"]`` says which rule);
lines that agree raise nothing.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from decimal import Decimal

from docbatch_gui.config.profile import Profile
from docbatch_gui.domain.lines import Line, decimal, total
from docbatch_gui.domain.models import Document
from docbatch_gui.domain.reasons import ReviewCode
from docbatch_gui.pipeline.tables import has_goods_table, printed_row_count

#: the codes these checks give: every check of a document judges them afresh
LINE_CODES = frozenset(
    {"line_arithmetic", "lines_sum_mismatch", "lines_incomplete", "lines_missing"}
)
CENT = Decimal("0.01")
#: rows named in one ``line_arithmetic`` each at most; the rest are counted
MAX_NAMED_ROWS = 20


def line_findings(document: Document, profile: Profile, text: str = "") -> Iterator[ReviewCode]:
    """Every problem of ``document``'s lines; ``text`` is its pages' text."""
    lines = document.lines
    if not lines:
        if text and has_goods_table(text.splitlines(), profile):
            yield ReviewCode("lines_missing", params={"pages": _pages(document)})
        return
    yield from _rows(lines, profile)
    yield from _sums(document, lines, profile)
    yield from _completeness(document, lines, text)


def _pages(document: Document) -> str:
    if document.page_from == document.page_to:
        return f"page {document.page_from}"
    return f"pages {document.page_from}-{document.page_to}"


def _row_name(line: Line, index: int) -> str:
    return line.no or f"#{index + 1}"


def _rows(lines: Sequence[Line], profile: Profile) -> Iterator[ReviewCode]:
    named = 0
    # a column no line has is one the table does not print; one some lines lack is
    # a value not read
    required = [
        f for f in profile.line_fields if f.required and any(line.value(f.key) for line in lines)
    ]
    for index, line in enumerate(lines):
        if named >= MAX_NAMED_ROWS:
            return
        found = _row_problem(line, index, required)
        if found is not None:
            named += 1
            yield found


def _row_problem(line: Line, index: int, required: Sequence[object]) -> ReviewCode | None:
    where = {"row": _row_name(line, index), "page": line.page or "?"}
    for spec in required:
        key = getattr(spec, "key", "")
        if line.value(key) is None:
            labels = getattr(spec, "labels", {})
            column = " / ".join(dict.fromkeys(labels.values())) or key  # both languages
            return ReviewCode(
                "line_arithmetic", params={**where, "kind": "required", "column": column}
            )
    qty, price, net = decimal(line.qty), decimal(line.price), decimal(line.net)
    vat, gross = decimal(line.vat), decimal(line.gross)
    if qty is not None and price is not None and net is not None:
        expected = qty * price
        # a price printed to kopecks is rounded: its error grows with the quantity
        if abs(expected - net) > CENT + abs(qty) * Decimal("0.005"):
            return _arith(where, "qty_price", expected, net)
    if net is not None and vat is not None and gross is not None and abs(net + vat - gross) > CENT:
        return _arith(where, "net_vat", net + vat, gross)
    rate = _rate(line.vat_rate)
    if rate is not None and net is not None and vat is not None:
        expected = net * rate / 100
        if abs(expected - vat) > CENT:
            return ReviewCode(
                "line_arithmetic",
                params={
                    **where,
                    "kind": "vat_rate",
                    "rate": f"{rate:g}",
                    "net": str(net),
                    "expected": _money(expected),
                    "printed": str(vat),
                },
            )
    return None


def _arith(
    where: Mapping[str, object], kind: str, expected: Decimal, printed: Decimal
) -> ReviewCode:
    params = {**where, "kind": kind, "expected": _money(expected), "printed": str(printed)}
    return ReviewCode("line_arithmetic", params=params)


def _rate(value: str | None) -> Decimal | None:
    """A plain percentage ("20"); None for "без НДС" and for an inclusive "20/120"."""
    number = decimal(value)
    return number if number is not None and 0 <= number <= 100 else None


def _money(value: Decimal) -> str:
    return str(value.quantize(CENT))


def _tolerance(lines: Sequence[Line]) -> Decimal:
    """Rows rounded one by one may differ from a total rounded once by a kopeck each."""
    return CENT * max(1, len(lines) // 10 + 1)


def _sums(document: Document, lines: Sequence[Line], profile: Profile) -> Iterator[ReviewCode]:
    amount_key = _key_of(profile, "amount")
    vat_key = _key_of(profile, "vat")
    printed_total = decimal(document.fields.get(amount_key)) if amount_key else None
    printed_vat = decimal(document.fields.get(vat_key)) if vat_key else None
    gross, net, vat = total(lines, "gross"), total(lines, "net"), total(lines, "vat")
    tolerance = _tolerance(lines)
    if printed_total is not None:
        candidates = [s for s in (gross,) if s is not None]
        if gross is None and net is not None:
            candidates = [net] + ([net + printed_vat] if printed_vat is not None else [])
        if candidates and all(abs(c - printed_total) > tolerance for c in candidates):
            yield ReviewCode(
                "lines_sum_mismatch",
                params={
                    "kind": "total",
                    "sum": _money(candidates[-1]),
                    "total": str(printed_total),
                },
            )
    if printed_vat is not None and vat is not None and abs(vat - printed_vat) > tolerance:
        yield ReviewCode(
            "lines_sum_mismatch",
            params={"kind": "vat", "sum": _money(vat), "total": str(printed_vat)},
        )


def _key_of(profile: Profile, kind: str) -> str | None:
    return next((f.key for f in profile.fields if f.kind == kind), None)


def _completeness(document: Document, lines: Sequence[Line], text: str) -> Iterator[ReviewCode]:
    numbers = [
        int(line.no.rstrip(".")) for line in lines if line.no and line.no.rstrip(".").isdigit()
    ]
    if numbers and len(numbers) == len(lines):
        counts = Counter(numbers)
        repeats = sorted(n for n, c in counts.items() if c > 1)
        gaps = sorted(set(range(min(numbers), max(numbers) + 1)) - set(numbers))
        if min(numbers) > 1:
            gaps = sorted(set(range(1, min(numbers))) | set(gaps))
        if gaps:
            yield ReviewCode("lines_incomplete", params={"kind": "gap", "numbers": _span(gaps)})
        if repeats:
            yield ReviewCode(
                "lines_incomplete", params={"kind": "repeat", "numbers": _span(repeats)}
            )
    printed = document.printed_rows
    if printed is None and text:
        printed = printed_row_count(text.splitlines())
    if printed is not None and printed > len(lines):
        yield ReviewCode(
            "lines_incomplete", params={"kind": "count", "read": len(lines), "printed": printed}
        )
    if document.table_open:
        yield ReviewCode("lines_incomplete", params={"kind": "open", "page": document.page_to})


def _span(numbers: Sequence[int]) -> str:
    """[3, 4, 5, 9] as "3-5, 9"; a long list is cut with a count."""
    parts: list[str] = []
    start = previous = numbers[0]
    for n in [*numbers[1:], None]:
        if n is not None and n == previous + 1:
            previous = n
            continue
        parts.append(str(start) if start == previous else f"{start}-{previous}")
        if n is not None:
            start = previous = n
    shown = ", ".join(parts[:10])
    return shown + (f" (+{len(parts) - 10})" if len(parts) > 10 else "")
