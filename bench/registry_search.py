"""Benchmark of registry search: inverted index + rapidfuzz against brute force.

20,000 documents and a 20,000-row registry with known true matches and noise: typos in
numbers, dates written in other formats (dd.mm.yyyy, "5 марта 2024 г.", Excel
serials), amounts that differ, missing values, and rows with no document at all. The
search runs on every row. Brute force scores every document for a random sample of
rows with the matcher's own scoring (the same rules, so the same numbers), and its
time is extrapolated to all rows: 400 million pair scores in Python would take hours.

Run: ``.venv/bin/python bench/registry_search.py [--rows 20000] [--docs 20000]
[--sample 200]``. The last line is JSON.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from datetime import date, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from docbatch_gui.domain.models import Document  # noqa: E402
from docbatch_gui.registry.importer import normalize_field  # noqa: E402
from docbatch_gui.registry.matcher import RegistryMatcher, RegistryRow, Rule, SubRule  # noqa: E402

RULES = [
    Rule(
        "number, date, amount, counterparty",
        (
            SubRule("number", "from_content.number", "number", 0.5, True, threshold=85),
            SubRule("date", "from_content.date", "date", 0.2, tolerance_days=0),
            SubRule("amount", "from_content.amount", "amount", 0.2, tolerance=0.01),
            SubRule("counterparty", "from_content.counterparty", "fuzzy", 0.1, threshold=85),
        ),
    )
]
RU_MONTHS = ["января", "февраля", "марта", "апреля", "мая", "июня", "июля", "августа",
             "сентября", "октября", "ноября", "декабря"]  # fmt: skip
EXCEL_EPOCH = date(1899, 12, 30)


def _typo(rng: random.Random, number: str) -> str:
    i = rng.randrange(len(number))
    return number[:i] + str((int(number[i]) + rng.randrange(1, 10)) % 10) + number[i + 1 :]


def _date_text(rng: random.Random, day: date) -> object:
    style = rng.randrange(4)
    if style == 0:
        return day.strftime("%d.%m.%Y")
    if style == 1:
        return f"{day.day} {RU_MONTHS[day.month - 1]} {day.year} г."
    if style == 2:
        return (day - EXCEL_EPOCH).days  # an Excel serial
    return day.isoformat()


def generate(
    n_docs: int, n_rows: int, seed: int = 11
) -> tuple[list[Document], list[RegistryRow], dict[int, int]]:
    """Documents, rows (normalised as the import does) and row → true document id."""
    rng = random.Random(seed)
    names = [
        f"ООО {''.join(rng.choice('абвгдежзиклмнопрстуфх') for _ in range(rng.randint(5, 10)))}"
        for _ in range(max(1, n_docs // 10))
    ]
    docs: list[Document] = []
    for i in range(n_docs):
        number = str(rng.randrange(10**6, 10**7))
        day = date(2023, 1, 1) + timedelta(rng.randrange(730))
        amount = f"{rng.randrange(100, 10**6)}.{rng.randrange(100):02d}"
        prefix = rng.choice(["СФ-", "АКТ ", "№", "", "INV-"])
        fields = {"number": prefix + number, "date": day.isoformat(), "amount": amount,
                  "counterparty": rng.choice(names)}  # fmt: skip
        docs.append(Document(1, i, rng.choice(["invoice", "act", "waybill"]), 1, 1,
                             fields=fields, id=i + 1))  # fmt: skip
    truth: dict[int, int] = {}
    rows: list[RegistryRow] = []
    matched = rng.sample(range(n_docs), min(n_docs, int(n_rows * 0.9)))
    for r in range(n_rows):
        excel_row = r + 2
        if r < len(matched):
            doc = docs[matched[r]]
            truth[excel_row] = doc.id or 0
            number = "".join(ch for ch in doc.fields["number"] or "" if ch.isdigit())
            day: object = _date_text(rng, date.fromisoformat(doc.fields["date"] or ""))
            amount: object = doc.fields["amount"]
            name: object = doc.fields["counterparty"]
            if rng.random() < 0.10:
                number = _typo(rng, number)
            if rng.random() < 0.05:
                amount = f"{float(str(amount)) * 1.1:.2f}"  # amount differs
            elif rng.random() < 0.5:
                amount = f"{float(str(amount)):,.2f}".replace(",", " ").replace(".", ",")
            if rng.random() < 0.05:
                day = None
            if rng.random() < 0.05:
                amount = None
            if rng.random() < 0.10:
                name = None
        else:  # no document has this row
            number = str(rng.randrange(10**6, 10**7))
            day = _date_text(rng, date(2023, 1, 1) + timedelta(rng.randrange(730)))
            amount, name = f"{rng.randrange(100, 10**6)}.00", rng.choice(names)
        values = {"number": number, "date": day, "amount": amount, "counterparty": name}
        rows.append(RegistryRow(excel_row, {k: normalize_field(k, v) for k, v in values.items()}))
    rng.shuffle(rows)
    return docs, rows, truth


def brute_best(matcher: RegistryMatcher, row: RegistryRow) -> tuple[int | None, float]:
    """Score every document with the matcher's own scoring; best above threshold."""
    values = matcher._row_values(row)
    best_doc, best_score = None, -1.0
    for d in range(len(matcher.documents)):
        score = matcher._fast_score(values, d)[0]
        if score > best_score:
            best_doc, best_score = d, score
    if best_doc is None or best_score < matcher.threshold:
        return None, best_score
    return matcher.ids[best_doc], best_score


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=20_000)
    parser.add_argument("--docs", type=int, default=20_000)
    parser.add_argument("--sample", type=int, default=200, help="rows brute-forced")
    args = parser.parse_args()

    docs, rows, truth = generate(args.docs, args.rows)
    findable = sum(1 for r in rows if r.row in truth)
    started = time.perf_counter()
    matcher = RegistryMatcher(RULES, docs, threshold=0.7)
    matches = {m.row: m for m in matcher.match(rows)}
    seconds = time.perf_counter() - started
    pairs = matcher.last_candidate_pairs  # the same count candidate_pairs() previews
    hits = sum(1 for row, doc in truth.items() if matches[row].document_id == doc)
    print(f"search: {args.rows} rows x {args.docs} docs in {seconds:.2f} s "
          f"({pairs} candidate pairs); true matches found {hits}/{findable}")  # fmt: skip

    sample = random.Random(5).sample(rows, min(args.sample, len(rows)))
    b_started = time.perf_counter()
    brute = {row.row: brute_best(matcher, row) for row in sample}
    b_sample = time.perf_counter() - b_started
    brute_seconds = b_sample * len(rows) / len(sample)
    s_truth = [r.row for r in sample if r.row in truth]
    brute_hits = sum(1 for row in s_truth if brute[row][0] == truth[row])
    search_hits = sum(1 for row in s_truth if matches[row].document_id == truth[row])
    agree = sum(1 for r in sample if brute[r.row][0] == matches[r.row].document_id)
    print(f"brute force: {len(sample)} sampled rows x {args.docs} docs in {b_sample:.1f} s, "
          f"extrapolated to {brute_seconds:.0f} s for all rows")  # fmt: skip
    print(f"sample: search finds {search_hits}/{len(s_truth)} true matches, brute force "
          f"{brute_hits}; agreement with brute force {agree}/{len(sample)}")  # fmt: skip
    brute_pairs = args.rows * args.docs
    recall = hits / findable if findable else 1.0
    brute_recall = brute_hits / len(s_truth) if s_truth else 1.0
    sample_recall = search_hits / len(s_truth) if s_truth else 1.0
    print(f"pair ratio {brute_pairs / max(pairs, 1):.0f}x; recall {recall:.4f} (all rows), "
          f"{sample_recall:.4f} on the sample vs brute force {brute_recall:.4f}")  # fmt: skip
    print(json.dumps({
        "rows": args.rows, "docs": args.docs, "seconds": round(seconds, 2),
        "brute_seconds": round(brute_seconds, 1), "pairs": pairs, "brute_pairs": brute_pairs,
        "pair_ratio": round(brute_pairs / max(pairs, 1), 1), "recall": round(recall, 4),
        "brute_recall": round(brute_recall, 4), "sample_recall": round(sample_recall, 4),
        "agreement": round(agree / len(sample), 4), "brute_sampled_rows": len(sample),
        "sample_recall_over_brute": round(sample_recall / max(brute_recall, 1e-9), 4),
    }))  # fmt: skip


if __name__ == "__main__":
    main()
