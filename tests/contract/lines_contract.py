"""What every ``Store`` keeps of a document's lines (``domain.lines``): every column,
the profile's own columns, the order, the box, the printed count; SQLite and MongoDB
alike."""

from __future__ import annotations

from dataclasses import replace

from docbatch_gui.domain.lines import Line
from docbatch_gui.domain.models import Document
from docbatch_gui.storage.store import Store
from tests.contract.store_contract import new_job


def _lines(count: int) -> list[Line]:
    return [
        Line(
            no=str(n),
            name=f"Товар {n}",
            code=f"A-{n}",
            unit="шт",
            qty="2",
            price="10.50",
            net="21.00",
            vat_rate="20",
            vat="4.20",
            gross="25.20",
            page=1 + n // 40,
            box=[0.05, 0.1 + n / 1000, 0.95, 0.11 + n / 1000],
            extra={"country": "RU" if n % 2 else None},
        )
        for n in range(1, count + 1)
    ]


class LinesContract:
    def test_lines_come_back_whole_and_in_order(self, store: Store) -> None:
        job = store.create_job(new_job())
        lines = _lines(120)
        document = Document(job.id, 0, "waybill", 1, 4, lines=lines, printed_rows=120)
        (saved,) = store.replace_documents(job.id, [document])
        (back,) = store.list_documents(job.id)
        assert back.lines == lines == saved.lines
        assert [line.no for line in back.lines] == [str(n) for n in range(1, 121)]
        assert back.lines[0].extra == {"country": "RU"}
        assert back.printed_rows == 120 and back.table_open is False

    def test_an_edit_of_the_lines_is_kept(self, store: Store) -> None:
        job = store.create_job(new_job())
        (doc,) = store.replace_documents(job.id, [Document(job.id, 0, "invoice", 1, 1)])
        assert doc.lines == []
        edited = replace(doc, lines=[Line(name="Freight", net="5.00")], table_open=True)
        store.update_document(edited)
        (back,) = store.list_documents(job.id)
        assert back.lines == [Line(name="Freight", net="5.00")]
        assert back.table_open is True

    def test_a_body_without_lines_reads_as_no_lines(self) -> None:
        """A document stored before lines existed (no ``lines`` key) has none."""
        body = Document(1, 0, "invoice", 1, 1).as_dict()
        for key in ("lines", "printed_rows", "table_open"):
            body.pop(key)
        old = Document.from_body(body)
        assert old.lines == [] and old.printed_rows is None and old.table_open is False
        assert Document.from_body({**body, "lines": None}).lines == []
