"""Benchmark of registry import: 100,000 rows x 20 columns into a SQLite store.

The workbook is written as raw sheet XML (openpyxl's writer would dominate the run),
with text, dd.mm.yyyy dates, Excel serial dates and amounts like "1 234,56". The
import is the real one (``RegistryService.import_registry``: archive check, autoFilter
strip, streaming read, three views per row, chunks of 500 into SQLite). Peak RSS is
sampled in a thread while it runs.

Run: ``.venv/bin/python bench/registry_import.py [--rows 100000]``. The last line is JSON.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import threading
import time
import zipfile
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from docbatch_gui.registry.service import RegistryService  # noqa: E402
from docbatch_gui.storage.sqlite import SQLiteStore  # noqa: E402

COLUMNS = 20
_NS = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"'
_REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
_PKG = "http://schemas.openxmlformats.org/package/2006/relationships"


def _letter(i: int) -> str:
    return chr(ord("A") + i)


def _cell(ref: str, value: object, strings: dict[str, int]) -> str:
    """Text is written inline. A shared-strings table of this sheet's 700,000 unique
    notes made openpyxl twice as slow (74.6 s against 39.6 s), so inline it is."""
    if isinstance(value, str):
        return f'<c r="{ref}" t="inlineStr"><is><t>{value}</t></is></c>'
    return f'<c r="{ref}"><v>{value}</v></c>'


def _row_values(i: int) -> list[object]:
    values: list[object] = [f"СФ-{100000 + i}", f"{i % 28 + 1:02d}.{i % 12 + 1:02d}.2024",
                            f"{i % 9000 + 100} {i % 1000:03d},{i % 100:02d}",
                            f"ООО Контрагент {i % 500}", 45000 + i % 700]  # fmt: skip
    values += [f"примечание {i} {k}" if k % 2 else i * k for k in range(COLUMNS - len(values))]
    return values


def write_workbook(path: Path, rows: int) -> None:
    content_types = (
        '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/'
        'package/2006/content-types"><Default Extension="rels" ContentType="application/'
        'vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType='
        '"application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/'
        'vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName='
        '"/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-'
        'officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/sharedStrings.'
        'xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.'
        'sharedStrings+xml"/></Types>'
    )
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as zf:
        zf.writestr("[Content_Types].xml", content_types)
        zf.writestr(
            "_rels/.rels",
            f'<Relationships xmlns="{_PKG}"><Relationship Id="rId1" '
            f'Type="{_REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>',
        )
        zf.writestr(
            "xl/workbook.xml",
            f'<workbook {_NS} xmlns:r="{_REL}"><sheets><sheet '
            'name="Реестр" sheetId="1" r:id="rId1"/></sheets></workbook>',
        )
        zf.writestr("xl/_rels/workbook.xml.rels", f'<Relationships xmlns="{_PKG}"><Relationship '
                    f'Id="rId1" Type="{_REL}/worksheet" Target="worksheets/sheet1.xml"/>'
                    f'<Relationship Id="rId2" Type="{_REL}/sharedStrings" '
                    'Target="sharedStrings.xml"/></Relationships>')  # fmt: skip
        strings: dict[str, int] = {}
        with zf.open("xl/worksheets/sheet1.xml", "w") as out:
            header = "".join(
                _cell(f"{_letter(c)}1", f"Колонка {c + 1}", strings) for c in range(COLUMNS)
            )
            out.write(f'<worksheet {_NS}><sheetData><row r="1">{header}</row>'.encode())
            batch = []
            for i in range(2, rows + 2):
                cells = "".join(
                    _cell(f"{_letter(c)}{i}", v, strings) for c, v in enumerate(_row_values(i))
                )
                batch.append(f'<row r="{i}">{cells}</row>')
                if len(batch) >= 5000:
                    out.write("".join(batch).encode())
                    batch.clear()
            out.write(("".join(batch) + "</sheetData></worksheet>").encode())
        with zf.open("xl/sharedStrings.xml", "w") as out:
            out.write(f'<sst {_NS} count="{len(strings)}" uniqueCount="{len(strings)}">'.encode())
            for text in strings:
                out.write(f"<si><t>{text}</t></si>".encode())
            out.write(b"</sst>")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=100_000)
    args = parser.parse_args()
    config = {"mapping": {"number": "A", "date": "B", "amount": "C", "counterparty": "D"},
              "required_column_index": "A"}  # fmt: skip
    with tempfile.TemporaryDirectory() as tmp:
        book = Path(tmp) / "registry.xlsx"
        write_workbook(book, args.rows)
        size_mb = book.stat().st_size / 2**20
        store = SQLiteStore(Path(tmp) / "db.sqlite3")
        process = psutil.Process()
        peak = process.memory_info().rss
        stop = threading.Event()

        def sample() -> None:
            nonlocal peak
            while not stop.wait(0.05):
                peak = max(peak, process.memory_info().rss)

        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        started = time.perf_counter()
        summary = RegistryService(store).import_registry(book, config)
        seconds = time.perf_counter() - started
        stop.set()
        sampler.join()
        peak = max(peak, process.memory_info().rss)
        store.close()
    print(f"workbook {args.rows} rows x {COLUMNS} columns ({size_mb:.1f} MB): kept "
          f"{summary.kept}, filtered {summary.filtered} in {seconds:.1f} s, "
          f"peak RSS {peak / 2**20:.0f} MB (whole process)")  # fmt: skip
    print(json.dumps({"rows": summary.kept, "seconds": round(seconds, 2),
                      "peak_rss_mb": round(peak / 2**20, 1)}))  # fmt: skip


if __name__ == "__main__":
    main()
