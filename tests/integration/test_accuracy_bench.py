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
    assert set(offline["fields"]) == {"number", "date", "amount", "vat", "currency", "doc_type"}
    counted = offline["fields"]["amount"]
    assert counted["right"] + counted["wrong"] + counted["missing"] == 5
    assert offline["fields"]["doc_type"]["right"] >= 4  # Rechnung, Factuur, Счёт… are invoices
    assert "claude" not in figures  # the Claude path only with --live
    assert "offline: amount" in result.stdout  # the table per field
