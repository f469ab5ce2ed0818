"""Write a large registry workbook quickly, for the import benchmark and tests.

The sheet XML is written directly: openpyxl's writer would take minutes for a
million rows. Row ``i`` (from 2; row 1 holds the headers) has a number
``СФ-{100000 + i}``, a dd.mm.yyyy date as text, an amount like ``"1 234,56"``, a
counterparty, an Excel serial date, then notes and whole numbers in turn: the kinds
of values a real registry mixes. Text is written inline: a shared-strings table of
700,000 unique notes made openpyxl twice as slow to read (74.6 s against 39.6 s).

Run: ``python scripts/big_registry.py out.xlsx [--rows 100000] [--columns 20]``.
"""

from __future__ import annotations

import argparse
import zipfile
from collections.abc import Iterator
from pathlib import Path
from xml.sax.saxutils import escape

from openpyxl.utils import get_column_letter

__all__ = ["row_values", "write_big_registry"]

_NS = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"'
_REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
_PKG = "http://schemas.openxmlformats.org/package/2006/relationships"
_CT = "application/vnd.openxmlformats-officedocument.spreadsheetml"
_CONTENT_TYPES = (
    '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/'
    'package/2006/content-types"><Default Extension="rels" ContentType="application/'
    'vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType='
    f'"application/xml"/><Override PartName="/xl/workbook.xml" ContentType="{_CT}.sheet.'
    f'main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="{_CT}.'
    'worksheet+xml"/></Types>'
)


def row_values(i: int, columns: int) -> list[object]:
    """The values of sheet row ``i``; the first ``columns`` of them."""
    values: list[object] = [f"СФ-{100000 + i}", f"{i % 28 + 1:02d}.{i % 12 + 1:02d}.2024",
                            f"{i % 9000 + 100} {i % 1000:03d},{i % 100:02d}",
                            f"ООО Контрагент {i % 500}", 45000 + i % 700]  # fmt: skip
    values += [f"примечание {i} {k}" if k % 2 else i * k for k in range(columns - len(values))]
    return values[:columns]


def _cell(ref: str, value: object) -> str:
    if isinstance(value, str):
        return f'<c r="{ref}" t="inlineStr"><is><t>{escape(value)}</t></is></c>'
    return f'<c r="{ref}"><v>{value}</v></c>'


def _sheet(rows: int, columns: int) -> Iterator[str]:
    letters = [get_column_letter(c + 1) for c in range(columns)]
    header = "".join(_cell(f"{letters[c]}1", f"Колонка {c + 1}") for c in range(columns))
    # the <dimension> Excel writes: without it openpyxl's read-only mode parses the
    # whole sheet once more on open only to find its size (a million rows × 3 read in
    # 81 s without it, 74 s with it); the import ignores it (reset_dimensions)
    dimension = f'<dimension ref="A1:{letters[-1]}{rows + 1}"/>'
    yield f'<worksheet {_NS}>{dimension}<sheetData><row r="1">{header}</row>'
    for i in range(2, rows + 2):
        cells = "".join(
            _cell(f"{letter}{i}", value)
            for letter, value in zip(letters, row_values(i, columns), strict=True)
        )
        yield f'<row r="{i}">{cells}</row>'
    yield "</sheetData></worksheet>"


def write_big_registry(path: Path, rows: int, columns: int = 20) -> None:
    """A workbook with one sheet "Реестр": a header row, then ``rows`` data rows."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as zf:
        zf.writestr("[Content_Types].xml", _CONTENT_TYPES)
        zf.writestr(
            "_rels/.rels",
            f'<Relationships xmlns="{_PKG}"><Relationship Id="rId1" '
            f'Type="{_REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>',
        )
        zf.writestr(
            "xl/workbook.xml",
            f'<workbook {_NS} xmlns:r="{_REL}"><sheets><sheet name="Реестр" sheetId="1" '
            'r:id="rId1"/></sheets></workbook>',
        )
        zf.writestr(
            "xl/_rels/workbook.xml.rels",
            f'<Relationships xmlns="{_PKG}"><Relationship Id="rId1" Type="{_REL}/worksheet" '
            'Target="worksheets/sheet1.xml"/></Relationships>',
        )
        with zf.open("xl/worksheets/sheet1.xml", "w", force_zip64=True) as out:
            batch: list[str] = []
            for part in _sheet(rows, columns):
                batch.append(part)
                if len(batch) >= 5000:
                    out.write("".join(batch).encode())
                    batch.clear()
            out.write("".join(batch).encode())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path", type=Path)
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--columns", type=int, default=20)
    args = parser.parse_args()
    write_big_registry(args.path, args.rows, args.columns)


if __name__ == "__main__":
    main()
