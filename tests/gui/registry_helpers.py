"""Shared data of the registry GUI tests: a real .xlsx with the layout quirks people
send (a title above the header, fill-down, subtotal rows, notes), and documents with
rendered page images inserted straight into the store."""

from __future__ import annotations

import io
import json
from datetime import datetime
from pathlib import Path
from typing import Any

import openpyxl
from PIL import Image, ImageDraw, ImageFont

from docbatch_gui.app.facade import DocBatchApp
from docbatch_gui.domain.models import Document, NewJob, Page
from docbatch_gui.domain.states import JobState

SHEET = "Реестр"
#: the configuration the wizard ends up with for registry_xlsx (the CLI format)
CONFIG: dict[str, Any] = {
    "sheet": SHEET,
    "header_row": 3,
    "data_start_row": 4,
    "fill_down_columns": ["B"],
    "skip_rows_containing": ["ИТОГО", "Всего"],
    "required_column_index": "C",
    "min_filled_cells": 1,
    "mapping": {"number": "C", "date": "D", "amount": "E", "counterparty": "B"},
}

DOCS = [
    ("invoice", {"number": "СЧ-1001", "date": "2024-03-01", "amount": "1234.56",
                 "seller": "ООО Ромашка"}),
    ("invoice", {"number": "СЧ-1002", "date": "2024-03-02", "amount": "500.00",
                 "seller": "ООО Ромашка"}),
    ("act", {"number": "А-77", "date": "2024-04-10", "amount": "99.00", "seller": "АО Вектор"}),
    ("invoice", {"number": "СЧ-5555", "date": "2024-05-05", "amount": "10.00",
                 "seller": "ИП Сидоров"}),
    ("invoice", {"number": "СЧ-1006", "date": "2024-03-15", "amount": "7800.00",
                 "seller": "ООО Луч"}),
]  # fmt: skip


def registry_xlsx(path: Path, extra_rows: int = 0) -> Path:
    """Rows 4-6 and 8 are invoices (6 has no document, 5 a different amount), 7 is a
    subtotal, 9 a note without a number, 10 the total; ``extra_rows`` adds plain rows."""
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = SHEET
    ws.append(["Реестр счетов за март 2024"])
    ws.append([])
    ws.append(["№ п/п", "Контрагент", "Номер счёта", "Дата", "Сумма"])
    ws.append([1, "ООО Ромашка", "СЧ-1001", "01.03.2024", "1 234,56"])
    ws.append([2, None, "1002", datetime(2024, 3, 2), 600])
    ws.append([3, "ИП Петров", "9999", "07.07.2024", 1])
    ws.append([None, "Итого по ООО Ромашка", None, None, 1834.56])
    ws.append([4, "АО Вектор", "А-77", "10.04.2024", 99])
    ws.append([None, "примечание: счёт 4 оплачен частично", None, None, None])
    ws.append([5, "ООО Луч", "СЧ-1006", "15.03.2024", "7 800,00"])
    for n in range(extra_rows):
        ws.append([6 + n, f"ООО Поток {n}", f"X-{50000 + n}", "20.03.2024", n + 1])
    ws.append(["ИТОГО", None, None, None, 9734.56])
    sheet2 = wb.create_sheet("Справка")
    sheet2.append(["Составил", "Иванова"])
    wb.save(path)
    return path


def config_file(path: Path, **changes: Any) -> Path:
    path.write_text(json.dumps({**CONFIG, **changes}, ensure_ascii=False), encoding="utf-8")
    return path


def _page_image(fields: dict[str, str], doc_type: str) -> bytes:
    """A page that looks like a document in the thumbnail."""
    image = Image.new("RGB", (600, 820), "white")
    draw = ImageDraw.Draw(image)
    try:
        big = ImageFont.truetype("DejaVuSans-Bold.ttf", 30)
        small = ImageFont.truetype("DejaVuSans.ttf", 18)
    except OSError:
        big = small = ImageFont.load_default()
    title = {"invoice": "СЧЁТ", "act": "АКТ"}.get(doc_type, "ДОКУМЕНТ")
    draw.text((50, 60), f"{title} № {fields['number']}", fill="black", font=big)
    draw.text((50, 110), f"от {fields['date']}", fill="black", font=small)
    draw.text((50, 150), f"Поставщик: {fields.get('seller', '')}", fill="black", font=small)
    for y in range(220, 560, 34):
        draw.line((50, y, 550, y), fill="#999999", width=1)
    draw.text((330, 590), f"Итого: {fields['amount']}", fill="black", font=small)
    buffer = io.BytesIO()
    image.save(buffer, "JPEG", quality=85)
    return buffer.getvalue()


def add_documents(app: DocBatchApp) -> dict[str, int]:
    """One done job, a page per document; returns document ids by number."""
    store = app.store
    job = store.create_job(NewJob("scan_march.pdf", "/in/scan_march.pdf", "d" * 64, 100))
    store.claim(job.id, JobState.PREPARING)
    pages = []
    for n, (doc_type, fields) in enumerate(DOCS, start=1):
        sha = app.blobs.put_bytes(_page_image(fields, doc_type))
        pages.append(Page(job.id, n, 600, 820, image_sha=sha, deliverable=True))
    store.put_pages(pages)
    store.transition(job.id, JobState.BUILDING, pages=len(DOCS))
    docs = [
        Document(job.id, i, doc_type, i + 1, i + 1, fields=dict(fields))
        for i, (doc_type, fields) in enumerate(DOCS)
    ]
    saved = store.replace_documents(job.id, docs)
    store.transition(job.id, JobState.DONE)
    return {d.fields["number"] or "": d.id or 0 for d in saved}
