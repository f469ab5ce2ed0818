"""A registry as an accountant sends it: a merged title, a two-row header ("Сумма"
merged over "с НДС, руб." and "НДС, руб."), text dates, a totals row and a signature
line. Shared by the layout unit tests and the wizard's GUI test."""

from __future__ import annotations

from pathlib import Path

import openpyxl

SHEET = "Март"
#: the registry's documents: (number, counterparty, text date, amount with VAT, VAT)
LINES = [
    ("СЧ-1001", "ООО Ромашка", "01.03.2024", "1 234,56", "205,76"),
    ("1002", "ООО Ромашка", "02.03.2024", "500,00", "83,33"),
    ("А-77", "АО Вектор", "10.04.2024", "99,00", "16,50"),
    ("СЧ-5555", "ИП Сидоров", "05.05.2024", "10,00", "1,67"),
    ("СЧ-1006", "ООО Луч", "15.03.2024", "7 800,00", "1 300,00"),
]
HEADER_ROW, HEADER_TOP, FIRST_DATA = 5, 4, 6
TOTALS_ROW = FIRST_DATA + len(LINES)  # 11
SIGNATURE_ROW = TOTALS_ROW + 2  # 13, after a blank row


def accountant_xlsx(path: Path) -> Path:
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = SHEET
    ws["A1"] = "Реестр входящих счетов за март 2024 г."
    ws.merge_cells("A1:F1")
    ws["A2"] = "Организация: ООО «Север»"
    ws.merge_cells("A2:F2")
    for col, name in zip("ABCD", ["№ п/п", "Контрагент", "Номер счёта", "Дата"], strict=True):
        ws[f"{col}4"] = name
        ws.merge_cells(f"{col}4:{col}5")
    ws["E4"] = "Сумма"
    ws.merge_cells("E4:F4")
    ws["E5"], ws["F5"] = "с НДС, руб.", "НДС, руб."
    for n, (number, who, day, amount, vat) in enumerate(LINES, start=1):
        ws.append([n, who, number, day, amount, vat])
    ws.append([None, "Итого", None, None, "9 643,56", "1 607,26"])
    ws.append([])
    ws.append(["Главный бухгалтер ______________ Петрова А. В."])
    ws.merge_cells(f"A{SIGNATURE_ROW}:F{SIGNATURE_ROW}")
    wb.save(path)
    return path
