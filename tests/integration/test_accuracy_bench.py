"""``bench/accuracy.py`` runs offline on a small subset and its figures hold up."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_the_accuracy_bench_runs_offline_and_ends_with_its_figures() -> None:
    result = subprocess.run(
        [
            sys.executable,
            str(ROOT / "bench" / "accuracy.py"),
            "--sets",
            "invoice2data,ru_scans",
            "--limit",
            "3",
            "--ru-scans",
            "2",
        ],
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        check=True,
    )
    figures = json.loads(result.stdout.strip().splitlines()[-1])
    assert figures["files"] == 5
    offline = figures["offline"]
    assert set(offline["fields"]) == {
        "number",
        "date",
        "amount",
        "vat",
        "currency",
        "lines",
        "doc_type",
    }
    counted = offline["fields"]["amount"]
    assert counted["right"] + counted["wrong"] + counted["missing"] == 5
    assert offline["fields"]["doc_type"]["right"] >= 4  # Rechnung, Factuur, Счёт… are invoices
    assert "claude" not in figures  # the Claude path only with --live
    assert "offline: amount" in result.stdout  # the table per field


def test_a_docile_annotation_gives_number_date_total_type_and_line_count() -> None:
    sys.path.insert(0, str(ROOT / "bench"))
    import accuracy

    annotation = {
        "metadata": {"document_type": "tax_invoice", "language": "eng"},
        "field_extractions": [
            {"fieldtype": "document_id", "text": "INV-7"},
            {"fieldtype": "date_issue", "text": "2024-03-05"},
            {"fieldtype": "amount_due", "text": "4,585.49"},
            {"fieldtype": "amount_total_gross", "text": "4,759.20"},
        ],
        "line_item_extractions": [
            {"fieldtype": "line_item_code", "text": "1", "line_item_id": 1},
            {"fieldtype": "line_item_amount_gross", "text": "3.00", "line_item_id": 1},
            {"fieldtype": "line_item_code", "text": "2", "line_item_id": 2},
        ],
    }
    answers = accuracy.docile_answers(annotation)
    assert answers == {
        "number": "INV-7",
        "date": "2024-03-05",
        "amount": "4759.20",
        "lines": 2,
        "doc_type": "invoice",
    }
    assert accuracy.verdict("lines", 2, 2) == "right"
    assert accuracy.verdict("lines", 2, 3) == "wrong"
