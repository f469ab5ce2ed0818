"""Write ``docbatch_gui/resources/registry_sample/``: an auditor's registry for the bundled samples.

It is laid out the way real ones are: a title above the table, the header on row 3
with the amount's unit on row 4, the counterparty written once per group (fill
down), dates both as Excel dates and as text, amounts both as numbers and as
"1 234,56" text, a total row, a row whose document is missing and a row whose amount
disagrees with its document. ``config.json`` is what the wizard saves for it.
"""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

from openpyxl import Workbook
from openpyxl.styles import Alignment, Font

OUT = Path(__file__).resolve().parents[1] / "docbatch_gui" / "resources" / "registry_sample"

ROWS = [
    # counterparty (written once per group), no., number, date, kind, amount
    ("ООО «Ромашка»", 1, "123", dt.date(2024, 3, 12), "Счёт", 118000.00),
    (None, 2, "45", "15.03.2024", "Акт", "15 500,00"),  # the act says 15 000,00
    (None, 3, "7-П", dt.date(2024, 2, 1), "Договор", 500000),
    ("ООО «Альфа-Снаб»", 4, "318", "20.03.2024", "ТОРГ-12", "70 000,00"),
    (None, 5, "319", "22.03.2024", "ТОРГ-12", "12 400,00"),  # no such document
    ("Acme Widgets LLC", 6, "INV-2024-0042", dt.date(2024, 3, 5), "Invoice", 1234.56),
]

CONFIG = {
    "sheet": "Реестр",
    "header_row": 3,
    "data_start_row": 5,
    "column_header_row": {"F": 4},
    "fill_down_columns": ["A"],
    "skip_rows_containing": ["ИТОГО", "Всего"],
    "required_column_index": "C",
    "min_filled_cells": 3,
    "mapping": {"counterparty": "A", "number": "C", "date": "D", "amount": "F"},
    "threshold": 0.7,
}


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    book = Workbook()
    sheet = book.active
    sheet.title = "Реестр"
    sheet["A1"] = "Реестр первичных документов за март 2024 г."
    sheet["A1"].font = Font(bold=True, size=13)
    sheet.append([])
    sheet.append(["Контрагент", "№ п/п", "Номер документа", "Дата", "Вид документа", "Сумма"])
    sheet.append([None, None, None, None, None, "руб."])
    sheet.merge_cells("F3:F3")
    for cell in sheet[3]:
        cell.font = Font(bold=True)
        cell.alignment = Alignment(horizontal="center")
    for row in ROWS:
        sheet.append(list(row))
        if isinstance(row[3], dt.date):
            sheet.cell(sheet.max_row, 4).number_format = "DD.MM.YYYY"
    sheet.append(["ИТОГО", None, None, None, None, "=SUM(F5:F10)"])
    for column, width in zip("ABCDEF", (22, 7, 18, 12, 16, 14), strict=True):
        sheet.column_dimensions[column].width = width
    book.save(OUT / "registry.xlsx")
    (OUT / "config.json").write_text(
        json.dumps(CONFIG, ensure_ascii=False, indent=2) + "\n", encoding="utf-8"
    )
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
