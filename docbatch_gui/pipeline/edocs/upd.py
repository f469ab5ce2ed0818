"""The tax service's УПД and счёт-фактура XML, formats 5.01 and 5.03 (the seller's
file ``ON_NSCHFDOPPR_…``), read from the format's own elements and attributes.

The structure is that of the published XSD (приказы ФНС ММВ-7-15/155@ for 5.01 and
ЕД-7-26/970@ for 5.03):

``Файл/@ВерсФорм`` the format; ``Файл/Документ/@Функция`` СЧФ (счёт-фактура), ДОП
(передаточный документ) or СЧФДОП (both: the УПД);
``Документ/СвСчФакт`` the header: ``@НомерСчФ``/``@ДатаСчФ``/``@КодОКВ`` (5.01) or
``@НомерДок``/``@ДатаДок`` and ``ДенИзм/@КодОКВ`` (5.03), the date as DD.MM.YYYY;
``СвПрод`` and ``СвПокуп`` → ``ИдСв/СвЮЛУч`` (``@НаимОрг``, ``@ИННЮЛ``, ``@КПП``) or
``ИдСв/СвИП`` (``@ИННФЛ``, ``ФИО``);
``Документ/ТаблСчФакт/СведТов`` one per line (``@НомСтр``, ``@НаимТов``,
``@ОКЕИ_Тов``, ``@НаимЕдИзм`` or ``ДопСведТов/@НаимЕдИзм``, ``@КолТов``,
``@ЦенаТов``, ``@СтТовБезНДС``, ``@НалСт``, ``@СтТовУчНал``, ``СумНал/СумНал`` or
``СумНал/БезНДС``, ``ДопСведТов/@КодТов``); ``ТаблСчФакт/ВсегоОпл`` the totals
(``@СтТовБезНДСВсего``, ``@СтТовУчНалВсего``, ``СумНалВсего/СумНал``).

The buyer's file (``ON_NSCHFDOPPOK_…``, КНД 1115132) holds the buyer's signature
title, not the invoice: it is recognised and refused alone (kept beside the job
inside an ЭДО package).
"""

from __future__ import annotations

from typing import Any

from lxml import etree

from docbatch_gui.pipeline.edocs import DataDocument, decimal_text, line
from docbatch_gui.pipeline.edocs.xmlsafe import XmlRefused

#: Функция → the profile's document type
FUNCTION_TYPES = {"СЧФ": "invoice", "СЧФДОП": "invoice", "ДОП": "waybill"}
#: ОКВ (ISO 4217 numeric) codes seen on Russian invoices; others via ``iso4217``
CURRENCIES = {"643": "RUB", "840": "USD", "978": "EUR", "156": "CNY", "398": "KZT", "933": "BYN"}
SELLER_KND = "1115131"
BUYER_KND = "1115132"


def is_upd(root: etree._Element) -> bool:
    return root.tag == "Файл" and root.find("Документ") is not None


def read_upd(root: etree._Element, name: str) -> DataDocument:
    """The document of one УПД file; raises XmlRefused naming what is missing."""
    version = root.get("ВерсФорм", "")
    document = root.find("Документ")
    assert document is not None
    if document.get("КНД") == BUYER_KND or root.get("ИдФайл", "").startswith("ON_NSCHFDOPPOK"):
        raise XmlRefused.coded("upd_buyer_title", {"file": name})
    if not version.startswith(("5.01", "5.02", "5.03")):
        raise XmlRefused.coded("upd_version", {"file": name, "version": version or "?"})
    function = document.get("Функция", "")
    if function not in FUNCTION_TYPES:
        raise XmlRefused.coded("upd_function", {"file": name, "function": function or "?"})
    header = document.find("СвСчФакт")
    if header is None:
        raise XmlRefused.coded("upd_missing", {"file": name, "what": "Документ/СвСчФакт"})
    number = header.get("НомерДок") or header.get("НомерСчФ")
    date = _date(header.get("ДатаДок") or header.get("ДатаСчФ"))
    if not number or date is None:
        what = "СвСчФакт/@НомерДок" if not number else "СвСчФакт/@ДатаДок (DD.MM.YYYY)"
        raise XmlRefused.coded("upd_missing", {"file": name, "what": what})
    seller, buyer = _party(header.find("СвПрод")), _party(header.find("СвПокуп"))
    table = document.find("ТаблСчФакт")
    totals = table.find("ВсегоОпл") if table is not None else None
    fields: dict[str, str | None] = {
        "number": number.strip(),
        "date": date,
        "amount": _amount(totals, "СтТовУчНалВсего"),
        "currency": _currency(header),
        "vat_amount": _tax(totals.find("СумНалВсего") if totals is not None else None),
        "net_amount": _amount(totals, "СтТовБезНДСВсего"),
        "seller": seller["name"],
        "buyer": buyer["name"],
        "seller_tax_id": seller["inn"],
        "buyer_tax_id": buyer["inn"],
        "seller_kpp": seller["kpp"],
        "buyer_kpp": buyer["kpp"],
    }
    rows = table.findall("СведТов") if table is not None else []
    return DataDocument(
        doc_type=FUNCTION_TYPES[function],
        fields=fields,
        lines=[_line(row) for row in rows],
        source=f"УПД {version} ({function})",
    )


def _date(text: str | None) -> str | None:
    """DD.MM.YYYY → ISO; None for anything else (null over wrong)."""
    if not text:
        return None
    parts = text.strip().split(".")
    if len(parts) != 3 or not all(p.isdigit() for p in parts) or len(parts[2]) != 4:
        return None
    day, month, year = (int(p) for p in parts)
    if not (1 <= month <= 12 and 1 <= day <= 31):
        return None
    return f"{year:04d}-{month:02d}-{day:02d}"


def _amount(element: etree._Element | None, attribute: str) -> str | None:
    return decimal_text(element.get(attribute)) if element is not None else None


def _tax(element: etree._Element | None) -> str | None:
    """``СумНал``'s value: its ``СумНал`` child, "0" for ``БезНДС`` (no VAT)."""
    if element is None:
        return None
    amount = element.find("СумНал")
    if amount is not None:
        return decimal_text(amount.text)
    return "0" if element.find("БезНДС") is not None else None


def _currency(header: etree._Element) -> str | None:
    money = header.find("ДенИзм")
    code = (money.get("КодОКВ") if money is not None else None) or header.get("КодОКВ")
    if not code:
        return None
    if code in CURRENCIES:
        return CURRENCIES[code]
    # deferred: iso4217, 0.06 s to import
    import iso4217

    found = [c for c in iso4217.Currency if str(c.number).zfill(3) == code.zfill(3)]
    return found[0].code if found else None


def _party(element: etree._Element | None) -> dict[str, str | None]:
    empty: dict[str, str | None] = {"name": None, "inn": None, "kpp": None}
    if element is None:
        return empty
    ids = element.find("ИдСв")
    if ids is None:
        return empty
    company = ids.find("СвЮЛУч")
    if company is not None:
        return {
            "name": company.get("НаимОрг"),
            "inn": company.get("ИННЮЛ"),
            "kpp": company.get("КПП"),
        }
    person = ids.find("СвИП")
    if person is not None:
        fio = person.find("ФИО")
        words = [fio.get(k, "") for k in ("Фамилия", "Имя", "Отчество")] if fio is not None else []
        name = " ".join(w for w in words if w)
        return {"name": f"ИП {name}" if name else None, "inn": person.get("ИННФЛ"), "kpp": None}
    foreign = ids.find("СвИнНеУч")
    if foreign is not None:
        return {"name": foreign.get("НаимОрг"), "inn": foreign.get("ИдСтр"), "kpp": None}
    return empty


def _rate(text: str | None) -> str | None:
    """``НалСт``: "20%" → "20"; "20/120" and "без НДС" as the file writes them."""
    if not text:
        return None
    value = text.strip()
    return value[:-1] if value.endswith("%") and value[:-1].isdigit() else value


def _line(row: etree._Element) -> dict[str, Any]:
    extra = row.find("ДопСведТов")
    unit = row.get("НаимЕдИзм") or (extra.get("НаимЕдИзм") if extra is not None else None)
    code = extra.get("КодТов") if extra is not None else None
    number = row.get("НомСтр")
    return line(
        no=int(number) if number and number.isdigit() else None,
        name=row.get("НаимТов"),
        code=code,
        unit=unit,
        okei=row.get("ОКЕИ_Тов"),
        qty=decimal_text(row.get("КолТов")),
        price=decimal_text(row.get("ЦенаТов")),
        net=decimal_text(row.get("СтТовБезНДС")),
        vat_rate=_rate(row.get("НалСт")),
        vat=_tax(row.find("СумНал")),
        gross=decimal_text(row.get("СтТовУчНал")),
    )
