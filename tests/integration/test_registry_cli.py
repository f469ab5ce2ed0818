"""Registry end to end through the real CLI: import, search, results JSON, export.

Documents are inserted into the data directory's store directly (the pipeline is
tested elsewhere); the registry is a real .xlsx with a real registry's layout quirks.
"""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path

import openpyxl
import pytest

from docbatch_gui.domain.models import Document, NewJob
from docbatch_gui.storage.sqlite import SQLiteStore
from tests.helpers import cli, cli_json, wait_for

pytestmark = pytest.mark.slow  # the registry CLI, a 120,000-row import killed

CONFIG = {
    "sheet": "Реестр",
    "header_row": 1,
    "skip_rows_containing": ["ИТОГО"],
    "required_column_index": "A",
    "mapping": {"number": "A", "date": "B", "amount": "C", "counterparty": "D"},
    "threshold": 0.7,
}


def make_documents(data_dir: Path) -> dict[str, int]:
    store = SQLiteStore(data_dir / "docbatch.sqlite3")
    job = store.create_job(NewJob("scan.pdf", "/in/scan.pdf", "c" * 64, 10))
    specs = [
        ("invoice", {"number": "СЧ-1001", "date": "2024-03-01", "amount": "1234.56"}),
        ("invoice", {"number": "СЧ-1002", "date": "2024-03-02", "amount": "500.00"}),
        ("act", {"number": "А-77", "date": "2024-04-10", "amount": "99.00"}),
        ("invoice", {"number": "СЧ-5555", "date": "2024-05-05", "amount": "10.00"}),
    ]
    docs = [
        Document(job.id, i, doc_type, i + 1, i + 1, fields=fields)
        for i, (doc_type, fields) in enumerate(specs)
    ]
    saved = store.replace_documents(job.id, docs)
    store.close()
    return {d.fields["number"] or "": d.id or 0 for d in saved}


def make_registry(path: Path) -> Path:
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Реестр"
    ws.append(["Номер", "Дата", "Сумма", "Контрагент"])
    ws.append(["1001", "01.03.2024", "1 234,56", "=cmd|' /C calc'!A0"])  # row 2
    ws.append(["1002", datetime(2024, 3, 2), 600, "ООО Ромашка"])  # row 3: amount differs
    ws.append(["9999", "07.07.2024", 1, "нет такого"])  # row 4: no document
    ws.append(["ИТОГО", None, 1835.56, None])  # row 5: filtered
    ws["D2"].data_type = "s"  # text that looks like a formula, as exports from 1C have
    wb.save(path)
    return path


@pytest.fixture
def setup(tmp_path: Path) -> tuple[Path, Path, Path, dict[str, int]]:
    data = tmp_path / "data"
    data.mkdir()
    ids = make_documents(data)
    config = tmp_path / "config.json"
    config.write_text(json.dumps(CONFIG, ensure_ascii=False), encoding="utf-8")
    return data, make_registry(tmp_path / "реестр.xlsx"), config, ids


def test_import_search_results_export(setup, tmp_path: Path) -> None:
    data, registry, config, ids = setup
    imported = cli_json(data, "registry", "import", str(registry), "--config", str(config))
    assert (imported["kept"], imported["filtered"]) == (3, 1)
    assert imported["by_reason"] == {"skip_word": 1}
    reg_id = str(imported["id"])

    plain = cli(data, "registry", "search", reg_id)
    assert plain.returncode == 0, plain.stderr
    assert "candidate pairs" in plain.stdout and "2 rows matched" in plain.stdout

    results = {r["row"]: r for r in cli_json(data, "registry", "results", reg_id)}
    assert set(results) == {2, 3, 4}
    for r in results.values():
        assert {"row", "document_id", "score", "warnings", "explanation"} <= set(r)
    assert results[2]["document_id"] == ids["СЧ-1001"] and results[2]["score"] == 1.0
    assert results[3]["document_id"] == ids["СЧ-1002"]
    assert any(w.startswith("amount differs") for w in results[3]["warnings"])
    assert results[4]["document_id"] is None  # null over wrong
    fields = [e["field"] for e in results[2]["explanation"]]
    assert fields[:3] == ["number", "date", "amount"]

    out = tmp_path / "export.xlsx"
    exported = cli(data, "registry", "export", reg_id, str(out))
    assert exported.returncode == 0, exported.stderr
    wb = openpyxl.load_workbook(out)
    sheet = wb["Реестр"]
    header = [c.value for c in sheet[1]]
    assert header[:4] == ["Номер", "Дата", "Сумма", "Контрагент"]
    row2 = dict(zip(header, [c.value for c in sheet[2]], strict=True))
    assert row2["Контрагент"] == "'=cmd|' /C calc'!A0"  # escaped, not a formula
    assert sheet.cell(2, 4).data_type != "f"
    assert row2["Документ: идентификатор"] == ids["СЧ-1001"]
    assert row2["Документ: файл"] == "scan.pdf"
    assert (row2["Документ: тип"], row2["Документ: номер"]) == ("Счёт", "СЧ-1001")  # labelled
    # typed, so that an auditor can sort and sum: a date, a number, a percentage
    assert (row2["Документ: дата"], row2["Документ: сумма"]) == (datetime(2024, 3, 1), 1234.56)
    cells = dict(zip(header, sheet[2], strict=True))
    assert cells["Документ: дата"].number_format == "DD.MM.YYYY"
    assert cells["Документ: сумма"].number_format == "#,##0.00"
    assert cells["Оценка"].number_format == "0%"
    assert sheet.freeze_panes == "A2" and sheet.auto_filter.ref
    assert row2["Документ: страницы"] == "1"
    assert row2["Оценка"] == 1.0
    lonely = wb["Документы без строки"]
    lonely_ids = sorted(r[0].value for r in lonely.iter_rows(min_row=2))
    assert lonely_ids == sorted([ids["А-77"], ids["СЧ-5555"]])

    by_type = cli_json(data, "registry", "unmatched", reg_id)
    assert {t: len(d) for t, d in by_type.items()} == {"act": 1, "invoice": 1}


def test_reimport_with_results_needs_force_and_manual_assignment_survives(setup) -> None:
    data, registry, config, ids = setup
    reg_id = str(cli_json(data, "registry", "import", str(registry), "--config", str(config))["id"])
    assert cli(data, "registry", "search", reg_id).returncode == 0

    again = cli(data, "registry", "import", str(registry), "--config", str(config))
    assert again.returncode == 4  # refused as things are: --force says go ahead
    assert registry.name in again.stderr and "--force" in again.stderr

    assigned = cli(data, "registry", "assign", reg_id, "4", str(ids["СЧ-5555"]), "--who", "anna")
    assert assigned.returncode == 0, assigned.stderr
    assert cli(data, "registry", "search", reg_id).returncode == 0
    manual = cli_json(data, "registry", "results", reg_id, "--filter", "manual")
    assert [(r["row"], r["document_id"], r["assigned_by"]) for r in manual] == [
        (4, ids["СЧ-5555"], "anna")
    ]

    forced = cli_json(data, "registry", "import", str(registry), "--config", str(config), "--force")
    assert forced["id"] == int(reg_id) and forced["kept"] == 3
    assert cli_json(data, "registry", "results", reg_id) == []


def test_bad_config_names_the_key_path(setup, tmp_path: Path) -> None:
    data, registry, _config, _ids = setup
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({**CONFIG, "mapping": {"number": "A"}, "colour": 1}))
    result = cli(data, "registry", "import", str(registry), "--config", str(bad))
    assert result.returncode == 5
    assert "colour: unknown key" in result.stderr and "bad.json" in result.stderr


def test_unknown_registry_is_a_clear_error(setup) -> None:
    data, *_ = setup
    result = cli(data, "registry", "search", "42")
    assert result.returncode == 3
    assert "No registry 42" in result.stderr and "registry list" in result.stderr


def test_kill_during_a_reimport_keeps_the_old_registry_and_releases_it(
    setup: tuple[Path, Path, Path, dict[str, int]], tmp_path: Path
) -> None:
    """kill -9 while a big file is being imported over a searched registry: the old
    rows and results stay whole, the registry is not left "importing", and a new
    import goes ahead at once."""
    import signal
    import sqlite3
    import subprocess
    import sys

    from scripts.big_registry import write_big_registry
    from tests.helpers import REPO

    data, book, config, _ = setup
    reg = cli_json(data, "registry", "import", str(book), "--config", str(config))["id"]
    assert cli(data, "registry", "search", str(reg)).returncode == 0
    before = cli_json(data, "registry", "results", str(reg))
    write_big_registry(book, 120_000, columns=3)  # the same file, now big
    big_config = tmp_path / "big.json"
    big_config.write_text(json.dumps({"mapping": {"number": "A", "date": "B", "amount": "C"}}))
    command = [sys.executable, "-m", "docbatch_gui.cli", "--data-dir", str(data), "registry",
               "import", str(book), "--config", str(big_config), "--force"]  # fmt: skip
    process = subprocess.Popen(command, cwd=REPO, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)  # fmt: skip
    db = sqlite3.connect(data / "docbatch.sqlite3", timeout=30)

    def staged() -> bool:
        assert process.poll() is None, "the import ended before it could be killed"
        return (
            db.execute(
                "SELECT COUNT(*) FROM registry_rows WHERE registry_id IN "
                "(SELECT id FROM registries WHERE status = 'staging')"
            ).fetchone()[0]
            >= 5_000
        )

    wait_for(staged, 120, "the import to reach its staging rows")
    process.send_signal(signal.SIGKILL)
    process.wait()
    assert db.execute("SELECT status FROM registries WHERE id = ?", (reg,)).fetchone()[0] == (
        "importing"
    )
    db.close()
    listed = cli(data, "registry", "list")
    assert listed.returncode == 0 and "searched" in listed.stdout, listed.stdout
    assert cli_json(data, "registry", "results", str(reg)) == before  # whole, results too
    out = tmp_path / "after_kill.xlsx"
    assert cli(data, "registry", "export", str(reg), str(out)).returncode == 0
    make_registry(book)
    again = cli(data, "registry", "import", str(book), "--config", str(config), "--force")
    assert again.returncode == 0, again.stderr  # not refused as busy
    db = sqlite3.connect(data / "docbatch.sqlite3")
    statuses = [s for (s,) in db.execute("SELECT status FROM registries")]
    db.close()
    assert statuses == ["configured"]  # the dead staging copy was swept


def test_export_refuses_a_registry_that_is_not_fully_imported(
    setup: tuple[Path, Path, Path, dict[str, int]], tmp_path: Path
) -> None:
    data, book, config, _ = setup
    reg = cli_json(data, "registry", "import", str(book), "--config", str(config))["id"]
    store = SQLiteStore(data / "docbatch.sqlite3")
    store.update_registry(reg, stats={})  # as a first import killed halfway leaves it
    store.close()
    result = cli(data, "registry", "export", str(reg), str(tmp_path / "part.xlsx"))
    assert result.returncode == 4
    assert "is not fully imported" in result.stderr and "import it again" in result.stderr
    assert not (tmp_path / "part.xlsx").exists()
