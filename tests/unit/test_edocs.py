"""Documents that arrive as data, read by the pure readers (fast): every field and
line of an УПД (5.01, 5.03, windows-1251), CII, UBL, an ЭДО package; hostile and
damaged XML refused in one line without being parsed whole."""

from __future__ import annotations

import pytest

from docbatch_gui.pipeline.edocs import LINE_KEYS
from docbatch_gui.pipeline.edocs.read import read_package, read_xml
from docbatch_gui.pipeline.edocs.xmlsafe import MAX_DEPTH, XmlRefused
from tests.edoc_files import (
    BUYER_INN,
    BUYER_KPP,
    SELLER_INN,
    SELLER_KPP,
    cii_xml,
    edo_package,
    ubl_xml,
    upd_name,
    upd_xml,
)


def test_an_upd_503_in_windows_1251_is_read_exactly_with_every_line() -> None:
    data = upd_xml()
    assert b'encoding="windows-1251"' in data and "Ромашка".encode("cp1251") in data
    document = read_xml(data, upd_name())
    assert document.doc_type == "invoice" and document.source == "УПД 5.03 (СЧФДОП)"
    assert document.fields == {
        "number": "УТ-1042",
        "date": "2026-11-28",
        "amount": "6590.00",
        "currency": "RUB",
        "vat_amount": "1090.00",
        "net_amount": "5500.00",
        "seller": "ООО «Ромашка»",
        "buyer": 'АО "Василёк"',
        "seller_tax_id": SELLER_INN,
        "buyer_tax_id": BUYER_INN,
        "seller_kpp": SELLER_KPP,
        "buyer_kpp": BUYER_KPP,
    }
    assert [tuple(line) for line in document.lines] == [LINE_KEYS] * 3
    first, second, third = document.lines
    assert first == {
        "no": 1, "name": "Бумага офисная А4, пачка", "code": "A4-500", "unit": "шт",
        "okei": "796", "qty": "10", "price": "350.00", "net": "3500.00", "vat_rate": "22",
        "vat": "770.00", "gross": "4270.00", "page": None, "box": None,
    }  # fmt: skip
    assert (second["okei"], second["unit"], second["code"]) == ("362", "усл. ед", None)
    assert (third["name"], third["vat_rate"], third["vat"]) == (
        "Книга «Учёт и НДС»",
        "10",
        "100.00",
    )


def test_the_type_comes_from_the_function_and_501_names_its_own_attributes() -> None:
    sf = read_xml(upd_xml(version="5.01", function="СЧФ", seller_ip=True), "a.xml")
    assert sf.doc_type == "invoice" and sf.source == "УПД 5.01 (СЧФ)"
    assert sf.fields["number"] == "УТ-1042" and sf.fields["date"] == "2026-11-28"
    assert sf.fields["seller"] == "ИП Иванов Иван Иванович"
    assert sf.fields["seller_tax_id"] == "500100732259" and sf.fields["seller_kpp"] is None
    assert sf.lines[0]["unit"] == "шт"  # ДопСведТов/@НаимЕдИзм in 5.01
    assert read_xml(upd_xml(function="ДОП"), "b.xml").doc_type == "waybill"


def test_a_line_without_vat_says_so() -> None:
    from tests.edoc_files import Row

    row = Row("Консультация", "356", "ч", "2", "1500.00", "3000.00", "без НДС", None, "3000.00")
    (line,) = read_xml(upd_xml(rows=[row]), "c.xml").lines
    assert (line["vat_rate"], line["vat"], line["gross"]) == ("без НДС", "0", "3000.00")


def test_cii_and_ubl_are_read_with_their_lines() -> None:
    cii = read_xml(cii_xml(), "factur-x.xml")
    assert cii.fields["number"] == "FX-2026-017" and cii.fields["date"] == "2026-11-15"
    assert (cii.fields["amount"], cii.fields["vat_amount"], cii.fields["currency"]) == (
        "297.50", "47.50", "EUR",
    )  # fmt: skip
    assert [(r["code"], r["qty"], r["okei"], r["net"]) for r in cii.lines] == [
        ("BOLT-8", "200", "H87", "100.00"), (None, "2.5", "HUR", "150.00"),
    ]  # fmt: skip
    ubl = read_xml(ubl_xml(), "u.xml")
    assert (ubl.fields["seller"], ubl.fields["buyer"], ubl.fields["amount"]) == (
        "Tulip BV", "Windmill NV", "121.00",
    )  # fmt: skip
    assert ubl.lines[0]["price"] == "25.00" and ubl.lines[0]["vat_rate"] == "21"


def test_an_edo_package_is_its_documents_and_keeps_its_signatures() -> None:
    buyer_title = upd_name("b").replace("ON_NSCHFDOPPR", "ON_NSCHFDOPPOK")
    package = edo_package(
        (upd_name("a"), upd_xml(number="A-1")),
        (upd_name("a") + ".sig", b"\x30\x82signature"),
        (upd_name("c"), upd_xml(number="A-2")),
        (buyer_title, "<Файл/>".encode()),
        ("meta.txt", b"ignored"),
    )
    reading = read_package(package, "edo.zip")
    assert [d.fields["number"] for d in reading.documents] == ["A-1", "A-2"]
    assert [d.member for d in reading.documents] == [upd_name("a"), upd_name("c")]
    assert [name for name, _ in reading.kept] == [upd_name("a") + ".sig", buyer_title]


BOMB = """<?xml version="1.0"?>
<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
<!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]><Файл>&lol3;</Файл>""".encode()


@pytest.mark.parametrize(
    ("data", "says"),
    [
        (BOMB, "declares a document type or entities"),
        (b'<?xml version="1.0"?><!DOCTYPE x SYSTEM "http://127.0.0.1:9/x.dtd"><x/>', "<!DOCTYPE>"),
        (b"<a>" * (MAX_DEPTH + 5) + b"</a>" * (MAX_DEPTH + 5), f"deeper than {MAX_DEPTH} levels"),
        (upd_xml()[:-40], "not well-formed XML (line"),
        (b"<note><to>x</to></note>", "an XML DocBatch does not read (root element note)"),
        (upd_xml().replace("НомерДок".encode("cp1251"), b"X"), "has no СвСчФакт/@НомерДок"),
        (upd_xml(version="4.02"), "УПД format 4.02 is not read"),
        (upd_xml(function="КСЧФ"), "Функция is КСЧФ"),
    ],
    ids=["billion laughs", "external dtd", "depth", "cut", "unknown", "no number", "version",
         "function"],
)  # fmt: skip
def test_a_hostile_or_damaged_xml_is_refused_in_one_line(data: bytes, says: str) -> None:
    with pytest.raises(XmlRefused) as refused:
        read_xml(data, "ON_NSCHFDOPPR_x.xml")
    text = refused.value.text
    assert says in text and text.startswith("ON_NSCHFDOPPR_x.xml: ") and "\n" not in text


def test_a_buyers_title_alone_is_refused_naming_the_sellers_file() -> None:
    data = upd_xml().replace(b'\xca\xcd\xc4="1115131"', b'\xca\xcd\xc4="1115132"')  # КНД
    with pytest.raises(XmlRefused, match="ON_NSCHFDOPPR"):
        read_xml(data, "ON_NSCHFDOPPOK_x.xml")
