"""The mapping page's first guess from the header names: an accountant's "№" column
(the row counter) beside "№ документа" was taken for the document number, so no row
matched its document."""

from __future__ import annotations

from docbatch_gui._qt.registry.pages_setup import guess_columns


def test_a_bare_running_number_is_never_the_document_number() -> None:
    headers = [
        "№",
        "Поставщик",
        "ИНН поставщика",
        "№ документа",
        "Дата документа",
        "Сумма с НДС, руб.",
        "Сумма в т.ч. НДС, руб.",
    ]
    assert guess_columns(headers) == {
        "number": 3,
        "date": 4,
        "amount": 5,
        "counterparty": 1,
        "tax_id": 2,
    }
    assert guess_columns(["№ п/п", "Номер счёта", "Дата"])["number"] == 1
    assert guess_columns(["#", "No. of invoice"])["number"] == 1
    assert guess_columns(["№ счёта", "Дата"])["number"] == 0  # "№" with a word is a number
