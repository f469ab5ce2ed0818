"""The bundled registry sample against the bundled samples, as an operator tries it
first: every kind of result shows up once, for the reason the sample was made."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import RESOURCES, SAMPLES
from tests.helpers import cli, cli_json

pytestmark = pytest.mark.slow  # the bundled samples processed, then matched

SAMPLE = RESOURCES / "registry_sample"


def test_the_registry_sample_matches_the_bundled_samples(tmp_path: Path) -> None:
    data = tmp_path / "data"
    env = {"OCR_ENGINE": "tesseract"}
    processed = cli(data, "process", str(SAMPLES), "--mode", "offline", "--wait", env=env)
    assert processed.returncode == 0, processed.stderr
    imported = cli_json(
        data, "registry", "import", str(SAMPLE / "registry.xlsx"),
        "--config", str(SAMPLE / "config.json"),
    )  # fmt: skip
    assert (imported["kept"], imported["filtered"]) == (6, 1)  # the total row is filtered
    registry = str(imported["id"])
    assert cli(data, "registry", "search", registry).returncode == 0
    documents = {d["id"]: d for d in cli_json(data, "documents")}
    rows = {r["row"]: r for r in cli_json(data, "registry", "results", registry)}

    def number(row: int) -> str | None:
        found = rows[row]["document_id"]
        return None if found is None else documents[found]["fields"]["number"]

    assert [number(row) for row in range(5, 11)] == [
        "123",
        "45",
        "7-П",
        "318",
        None,
        "INV-2024-0042",
    ]
    # the invoice exists twice (the PDF and the photo of it): the photo is marked a
    # likely duplicate of the PDF, so the registry matches one document, not a tie
    assert not any(w.startswith("tie") for w in rows[5]["warnings"])
    # the act's amount disagrees with the registry
    assert any("amount differs" in w for w in rows[6]["warnings"])
    # the missing waybill gets no document rather than a wrong one
    assert rows[9]["document_id"] is None
    assert all(rows[row]["explanation"] for row in (5, 6, 7, 8, 10))
