"""European e-invoices: UN/CEFACT Cross Industry Invoice (the XML inside a Factur-X,
ZUGFeRD or XRechnung PDF, or on its own) and OASIS UBL 2.1 ``Invoice`` /
``CreditNote``, read from the EN 16931 elements.

CII (``rsm:CrossIndustryInvoice``): ``rsm:ExchangedDocument/ram:ID``,
``ram:TypeCode`` (380 invoice, 381 credit note), ``ram:IssueDateTime/udt:DateTimeString``
(format 102, YYYYMMDD); in ``rsm:SupplyChainTradeTransaction``:
``ram:ApplicableHeaderTradeAgreement/ram:SellerTradeParty`` and ``…BuyerTradeParty``
(``ram:Name``, ``ram:SpecifiedTaxRegistration/ram:ID``),
``ram:ApplicableHeaderTradeSettlement`` (``ram:InvoiceCurrencyCode``,
``ram:SpecifiedTradeSettlementHeaderMonetarySummation``: ``ram:GrandTotalAmount``,
``ram:TaxTotalAmount``, ``ram:TaxBasisTotalAmount``), and one
``ram:IncludedSupplyChainTradeLineItem`` per line.

UBL: ``cbc:ID``, ``cbc:IssueDate``, ``cbc:DocumentCurrencyCode``,
``cac:AccountingSupplierParty/cac:Party`` and ``cac:AccountingCustomerParty/cac:Party``,
``cac:TaxTotal/cbc:TaxAmount``, ``cac:LegalMonetaryTotal``, and ``cac:InvoiceLine``
(or ``cac:CreditNoteLine``) per line.
"""

from __future__ import annotations

from typing import Any

from lxml import etree

from docbatch_gui.pipeline.edocs import DataDocument, decimal_text, line
from docbatch_gui.pipeline.edocs.xmlsafe import XmlRefused, local

CII = "urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100"
RAM = "urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100"
UDT = "urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100"
UBL_INVOICE = "urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"
UBL_CREDIT = "urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2"
CBC = "urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2"
CAC = "urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2"
NS = {"rsm": CII, "ram": RAM, "udt": UDT, "cbc": CBC, "cac": CAC}


def is_cii(root: etree._Element) -> bool:
    return etree.QName(root).namespace == CII and local(root.tag) == "CrossIndustryInvoice"


def is_ubl(root: etree._Element) -> bool:
    return etree.QName(root).namespace in (UBL_INVOICE, UBL_CREDIT)


def _text(root: etree._Element, path: str) -> str | None:
    found = root.find(path, NS)
    if found is None or found.text is None:
        return None
    return found.text.strip() or None


def _iso(text: str | None) -> str | None:
    """YYYYMMDD (CII format 102) or YYYY-MM-DD → ISO."""
    if not text:
        return None
    digits = text.replace("-", "")
    if len(digits) != 8 or not digits.isdigit():
        return None
    return f"{digits[:4]}-{digits[4:6]}-{digits[6:]}"


def read_cii(root: etree._Element, name: str, source: str = "CII") -> DataDocument:
    number = _text(root, "rsm:ExchangedDocument/ram:ID")
    date = _iso(_text(root, "rsm:ExchangedDocument/ram:IssueDateTime/udt:DateTimeString"))
    if not number or not date:
        what = "ExchangedDocument/ID" if not number else "ExchangedDocument/IssueDateTime"
        raise XmlRefused.coded("einvoice_missing", {"file": name, "what": what})
    trade = "rsm:SupplyChainTradeTransaction/"
    agreement = trade + "ram:ApplicableHeaderTradeAgreement/"
    settlement = trade + "ram:ApplicableHeaderTradeSettlement/"
    sums = settlement + "ram:SpecifiedTradeSettlementHeaderMonetarySummation/"
    fields: dict[str, str | None] = {
        "number": number,
        "date": date,
        "amount": decimal_text(_text(root, sums + "ram:GrandTotalAmount")),
        "currency": _text(root, settlement + "ram:InvoiceCurrencyCode"),
        "vat_amount": decimal_text(_text(root, sums + "ram:TaxTotalAmount")),
        "net_amount": decimal_text(_text(root, sums + "ram:TaxBasisTotalAmount")),
        "seller": _text(root, agreement + "ram:SellerTradeParty/ram:Name"),
        "buyer": _text(root, agreement + "ram:BuyerTradeParty/ram:Name"),
        "seller_tax_id": _text(
            root, agreement + "ram:SellerTradeParty/ram:SpecifiedTaxRegistration/ram:ID"
        ),
        "buyer_tax_id": _text(
            root, agreement + "ram:BuyerTradeParty/ram:SpecifiedTaxRegistration/ram:ID"
        ),
    }
    items = root.findall(trade + "ram:IncludedSupplyChainTradeLineItem", NS)
    return DataDocument("invoice", fields, [_cii_line(item) for item in items], source)


def _cii_line(item: etree._Element) -> dict[str, Any]:
    quantity = item.find("ram:SpecifiedLineTradeDelivery/ram:BilledQuantity", NS)
    number = _text(item, "ram:AssociatedDocumentLineDocument/ram:LineID")
    return line(
        no=int(number) if number and number.isdigit() else None,
        name=_text(item, "ram:SpecifiedTradeProduct/ram:Name"),
        code=_text(item, "ram:SpecifiedTradeProduct/ram:SellerAssignedID")
        or _text(item, "ram:SpecifiedTradeProduct/ram:GlobalID"),
        okei=quantity.get("unitCode") if quantity is not None else None,
        qty=decimal_text(quantity.text if quantity is not None else None),
        price=decimal_text(
            _text(
                item,
                "ram:SpecifiedLineTradeAgreement/ram:NetPriceProductTradePrice/ram:ChargeAmount",
            )
        ),
        net=decimal_text(
            _text(
                item,
                "ram:SpecifiedLineTradeSettlement/"
                "ram:SpecifiedTradeSettlementLineMonetarySummation/ram:LineTotalAmount",
            )
        ),
        vat_rate=_text(
            item,
            "ram:SpecifiedLineTradeSettlement/ram:ApplicableTradeTax/ram:RateApplicablePercent",
        ),
    )


def read_ubl(root: etree._Element, name: str) -> DataDocument:
    number = _text(root, "cbc:ID")
    date = _iso(_text(root, "cbc:IssueDate"))
    if not number or not date:
        raise XmlRefused.coded(
            "einvoice_missing", {"file": name, "what": "cbc:ID" if not number else "cbc:IssueDate"}
        )
    supplier = "cac:AccountingSupplierParty/cac:Party/"
    customer = "cac:AccountingCustomerParty/cac:Party/"
    totals = "cac:LegalMonetaryTotal/"
    credit = etree.QName(root).namespace == UBL_CREDIT
    fields: dict[str, str | None] = {
        "number": number,
        "date": date,
        "amount": decimal_text(_text(root, totals + "cbc:TaxInclusiveAmount")),
        "currency": _text(root, "cbc:DocumentCurrencyCode"),
        "vat_amount": decimal_text(_text(root, "cac:TaxTotal/cbc:TaxAmount")),
        "net_amount": decimal_text(_text(root, totals + "cbc:TaxExclusiveAmount")),
        "seller": _party_name(root, supplier),
        "buyer": _party_name(root, customer),
        "seller_tax_id": _text(root, supplier + "cac:PartyTaxScheme/cbc:CompanyID"),
        "buyer_tax_id": _text(root, customer + "cac:PartyTaxScheme/cbc:CompanyID"),
    }
    rows = root.findall("cac:CreditNoteLine" if credit else "cac:InvoiceLine", NS)
    return DataDocument("invoice", fields, [_ubl_line(row, credit) for row in rows], "UBL")


def _party_name(root: etree._Element, party: str) -> str | None:
    return _text(root, party + "cac:PartyLegalEntity/cbc:RegistrationName") or _text(
        root, party + "cac:PartyName/cbc:Name"
    )


def _ubl_line(row: etree._Element, credit: bool) -> dict[str, Any]:
    quantity = row.find("cbc:CreditedQuantity" if credit else "cbc:InvoicedQuantity", NS)
    number = _text(row, "cbc:ID")
    return line(
        no=int(number) if number and number.isdigit() else None,
        name=_text(row, "cac:Item/cbc:Name"),
        code=_text(row, "cac:Item/cac:SellersItemIdentification/cbc:ID"),
        okei=quantity.get("unitCode") if quantity is not None else None,
        qty=decimal_text(quantity.text if quantity is not None else None),
        price=decimal_text(_text(row, "cac:Price/cbc:PriceAmount")),
        net=decimal_text(_text(row, "cbc:LineExtensionAmount")),
        vat_rate=_text(row, "cac:Item/cac:ClassifiedTaxCategory/cbc:Percent"),
    )
