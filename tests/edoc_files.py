# ruff: noqa: E501  (the XML is written as the formats lay it out, one element a line)
"""Documents that arrive as data, built for the tests from the formats' structure.

- УПД / счёт-фактура: the seller's file of formats 5.01 and 5.03 as the tax
  service's XSD lays it out (``Файл/Документ/СвСчФакт``, ``ТаблСчФакт/СведТов``,
  ``ВсегоОпл``), written in windows-1251 with its XML declaration, as ЭДО operators
  send it. The names follow ``ON_NSCHFDOPPR_<buyer>_<seller>_<date>_<GUID>.xml``.
- CII: the EN 16931 profile of a Cross Industry Invoice; a Factur-X PDF is a sample
  PDF with that XML embedded by the ``factur-x`` library (``generate_from_binary``).
- UBL: an OASIS UBL 2.1 Invoice.

No sample from one sender is copied: each value sits where the published schema puts
it, so a reader that passes here reads the format, not one file.
"""

from __future__ import annotations

import io
import zipfile
from dataclasses import dataclass

SELLER_INN, SELLER_KPP = "7707083893", "773601001"
BUYER_INN, BUYER_KPP = "7736207543", "770401001"


@dataclass(frozen=True)
class Row:
    name: str
    okei: str
    unit: str
    qty: str
    price: str
    net: str
    rate: str  # "20%", "10%", "без НДС"
    vat: str | None  # None: БезНДС
    gross: str
    code: str | None = None


#: 22 % is the general rate from 2026 (10 % for books): the VAT check agrees
ROWS = [
    Row("Бумага офисная А4, пачка", "796", "шт", "10", "350.00", "3500.00", "22%", "770.00",
        "4270.00", "A4-500"),
    Row("Доставка по Москве", "362", "усл. ед", "1", "1000.00", "1000.00", "22%", "220.00",
        "1220.00"),
    Row("Книга «Учёт и НДС»", "796", "шт", "2", "500.00", "1000.00", "10%", "100.00", "1100.00"),
]  # fmt: skip


def upd_xml(
    *,
    version: str = "5.03",
    function: str = "СЧФДОП",
    number: str = "УТ-1042",
    date: str = "28.11.2026",
    rows: list[Row] = ROWS,
    seller_ip: bool = False,
) -> bytes:
    """The seller's УПД file, in windows-1251."""
    lines = []
    for no, row in enumerate(rows, start=1):
        tax = f"<СумНал>{row.vat}</СумНал>" if row.vat is not None else "<БезНДС>без НДС</БезНДС>"
        code = f' КодТов="{row.code}"' if row.code else ""
        unit_503 = f' НаимЕдИзм="{row.unit}"' if version == "5.03" else ""
        unit_501 = f' НаимЕдИзм="{row.unit}"' if version != "5.03" else ""
        lines.append(
            f'<СведТов НомСтр="{no}" НаимТов="{_esc(row.name)}" ОКЕИ_Тов="{row.okei}"{unit_503} '
            f'КолТов="{row.qty}" ЦенаТов="{row.price}" СтТовБезНДС="{row.net}" '
            f'НалСт="{row.rate}" СтТовУчНал="{row.gross}">'
            f"<Акциз><БезАкциз>без акциза</БезАкциз></Акциз><СумНал>{tax}</СумНал>"
            f"<ДопСведТов{unit_501}{code}/></СведТов>"
        )
    net = sum(float(r.net) for r in rows)
    vat = sum(float(r.vat or 0) for r in rows)
    gross = sum(float(r.gross) for r in rows)
    if seller_ip:
        seller = (
            '<СвИП ИННФЛ="500100732259"><ФИО Фамилия="Иванов" Имя="Иван" Отчество="Иванович"/>'
            "</СвИП>"
        )
    else:
        seller = f'<СвЮЛУч НаимОрг="ООО «Ромашка»" ИННЮЛ="{SELLER_INN}" КПП="{SELLER_KPP}"/>'
    buyer = f'<СвЮЛУч НаимОрг="АО &quot;Василёк&quot;" ИННЮЛ="{BUYER_INN}" КПП="{BUYER_KPP}"/>'
    if version == "5.03":
        header = f'<СвСчФакт НомерДок="{number}" ДатаДок="{date}">'
        money = '<ДенИзм КодОКВ="643" НаимОКВ="Российский рубль"/>'
    else:
        header = f'<СвСчФакт НомерСчФ="{number}" ДатаСчФ="{date}" КодОКВ="643">'
        money = ""
    file_id = f"ON_NSCHFDOPPR_2BM-{BUYER_INN}_2BM-{SELLER_INN}_20261128_0f1e2d3c"
    text = (
        '<?xml version="1.0" encoding="windows-1251"?>\n'
        f'<Файл ИдФайл="{file_id}" ВерсФорм="{version}" ВерсПрог="Test 1.0">'
        '<СвУчДокОбор ИдОтпр="2BM-1" ИдПол="2BM-2"/>'
        f'<Документ КНД="1115131" Функция="{function}" ДатаИнфПр="28.11.2026" '
        'ВремИнфПр="10.00.00" НаимЭконСубСост="ООО «Ромашка»">'
        f"{header}"
        f'<СвПрод><ИдСв>{seller}</ИдСв><Адрес><АдрРФ КодРегион="77"/></Адрес></СвПрод>'
        f"<СвПокуп><ИдСв>{buyer}</ИдСв></СвПокуп>"
        f"{money}</СвСчФакт>"
        f"<ТаблСчФакт>{''.join(lines)}"
        f'<ВсегоОпл СтТовБезНДСВсего="{net:.2f}" СтТовУчНалВсего="{gross:.2f}">'
        f"<СумНалВсего><СумНал>{vat:.2f}</СумНал></СумНалВсего></ВсегоОпл></ТаблСчФакт>"
        "</Документ></Файл>"
    )
    return text.encode("windows-1251")


def upd_name(number: str = "0f1e2d3c") -> str:
    return f"ON_NSCHFDOPPR_2BM-{BUYER_INN}_2BM-{SELLER_INN}_20261128_{number}.xml"


def _esc(text: str) -> str:
    return text.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;")


def edo_package(*members: tuple[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in members:
            archive.writestr(name, data)
    return buffer.getvalue()


def cii_xml(number: str = "FX-2026-017") -> bytes:
    """An EN 16931 Cross Industry Invoice: two lines at 19 %."""
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<rsm:CrossIndustryInvoice xmlns:rsm="urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100"
 xmlns:ram="urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100"
 xmlns:udt="urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100"
 xmlns:qdt="urn:un:unece:uncefact:data:standard:QualifiedDataType:100">
 <rsm:ExchangedDocumentContext><ram:GuidelineSpecifiedDocumentContextParameter>
  <ram:ID>urn:cen.eu:en16931:2017</ram:ID></ram:GuidelineSpecifiedDocumentContextParameter>
 </rsm:ExchangedDocumentContext>
 <rsm:ExchangedDocument><ram:ID>{number}</ram:ID><ram:TypeCode>380</ram:TypeCode>
  <ram:IssueDateTime><udt:DateTimeString format="102">20261115</udt:DateTimeString></ram:IssueDateTime>
 </rsm:ExchangedDocument>
 <rsm:SupplyChainTradeTransaction>
  <ram:IncludedSupplyChainTradeLineItem>
   <ram:AssociatedDocumentLineDocument><ram:LineID>1</ram:LineID></ram:AssociatedDocumentLineDocument>
   <ram:SpecifiedTradeProduct><ram:SellerAssignedID>BOLT-8</ram:SellerAssignedID><ram:Name>Bolts M8</ram:Name></ram:SpecifiedTradeProduct>
   <ram:SpecifiedLineTradeAgreement><ram:NetPriceProductTradePrice><ram:ChargeAmount>0.50</ram:ChargeAmount></ram:NetPriceProductTradePrice></ram:SpecifiedLineTradeAgreement>
   <ram:SpecifiedLineTradeDelivery><ram:BilledQuantity unitCode="H87">200</ram:BilledQuantity></ram:SpecifiedLineTradeDelivery>
   <ram:SpecifiedLineTradeSettlement><ram:ApplicableTradeTax><ram:TypeCode>VAT</ram:TypeCode><ram:CategoryCode>S</ram:CategoryCode><ram:RateApplicablePercent>19</ram:RateApplicablePercent></ram:ApplicableTradeTax>
    <ram:SpecifiedTradeSettlementLineMonetarySummation><ram:LineTotalAmount>100.00</ram:LineTotalAmount></ram:SpecifiedTradeSettlementLineMonetarySummation></ram:SpecifiedLineTradeSettlement>
  </ram:IncludedSupplyChainTradeLineItem>
  <ram:IncludedSupplyChainTradeLineItem>
   <ram:AssociatedDocumentLineDocument><ram:LineID>2</ram:LineID></ram:AssociatedDocumentLineDocument>
   <ram:SpecifiedTradeProduct><ram:Name>Installation</ram:Name></ram:SpecifiedTradeProduct>
   <ram:SpecifiedLineTradeAgreement><ram:NetPriceProductTradePrice><ram:ChargeAmount>60.00</ram:ChargeAmount></ram:NetPriceProductTradePrice></ram:SpecifiedLineTradeAgreement>
   <ram:SpecifiedLineTradeDelivery><ram:BilledQuantity unitCode="HUR">2.5</ram:BilledQuantity></ram:SpecifiedLineTradeDelivery>
   <ram:SpecifiedLineTradeSettlement><ram:ApplicableTradeTax><ram:TypeCode>VAT</ram:TypeCode><ram:CategoryCode>S</ram:CategoryCode><ram:RateApplicablePercent>19</ram:RateApplicablePercent></ram:ApplicableTradeTax>
    <ram:SpecifiedTradeSettlementLineMonetarySummation><ram:LineTotalAmount>150.00</ram:LineTotalAmount></ram:SpecifiedTradeSettlementLineMonetarySummation></ram:SpecifiedLineTradeSettlement>
  </ram:IncludedSupplyChainTradeLineItem>
  <ram:ApplicableHeaderTradeAgreement>
   <ram:SellerTradeParty><ram:Name>Schrauben GmbH</ram:Name><ram:PostalTradeAddress><ram:CountryID>DE</ram:CountryID></ram:PostalTradeAddress>
    <ram:SpecifiedTaxRegistration><ram:ID schemeID="VA">DE123456789</ram:ID></ram:SpecifiedTaxRegistration></ram:SellerTradeParty>
   <ram:BuyerTradeParty><ram:Name>Bau AG</ram:Name>
    <ram:SpecifiedTaxRegistration><ram:ID schemeID="VA">DE987654321</ram:ID></ram:SpecifiedTaxRegistration></ram:BuyerTradeParty>
  </ram:ApplicableHeaderTradeAgreement>
  <ram:ApplicableHeaderTradeDelivery/>
  <ram:ApplicableHeaderTradeSettlement>
   <ram:InvoiceCurrencyCode>EUR</ram:InvoiceCurrencyCode>
   <ram:ApplicableTradeTax><ram:CalculatedAmount>47.50</ram:CalculatedAmount><ram:TypeCode>VAT</ram:TypeCode><ram:BasisAmount>250.00</ram:BasisAmount><ram:CategoryCode>S</ram:CategoryCode><ram:RateApplicablePercent>19</ram:RateApplicablePercent></ram:ApplicableTradeTax>
   <ram:SpecifiedTradeSettlementHeaderMonetarySummation>
    <ram:LineTotalAmount>250.00</ram:LineTotalAmount><ram:TaxBasisTotalAmount>250.00</ram:TaxBasisTotalAmount>
    <ram:TaxTotalAmount currencyID="EUR">47.50</ram:TaxTotalAmount><ram:GrandTotalAmount>297.50</ram:GrandTotalAmount>
    <ram:DuePayableAmount>297.50</ram:DuePayableAmount>
   </ram:SpecifiedTradeSettlementHeaderMonetarySummation>
  </ram:ApplicableHeaderTradeSettlement>
 </rsm:SupplyChainTradeTransaction>
</rsm:CrossIndustryInvoice>
""".encode()


def invoice_page(number: str = "FX-2026-017") -> bytes:
    """A one-page PDF showing the CII invoice's values, as its sender's PDF would."""
    import pymupdf

    document = pymupdf.open()
    page = document.new_page()
    text = (
        f"<h2>INVOICE {number}</h2><p>Date: 2026-11-15</p>"
        "<p>Seller: Schrauben GmbH, VAT ID DE123456789</p>"
        "<p>Buyer: Bau AG, VAT ID DE987654321</p>"
        "<p>Bolts M8, 200 x 0.50 = 100.00</p><p>Installation, 2.5 h x 60.00 = 150.00</p>"
        "<p>Net 250.00 EUR, VAT 19% 47.50 EUR</p><p>Total 297.50 EUR</p>"
    )
    page.insert_htmlbox(pymupdf.Rect(50, 50, 550, 800), text)
    return bytes(document.tobytes())


def facturx_pdf(pdf: bytes, number: str = "FX-2026-017") -> bytes:
    """``pdf`` with the CII invoice embedded as factur-x.xml (PDF/A-3 attachment)."""
    from facturx import generate_from_binary

    return bytes(generate_from_binary(pdf, cii_xml(number), check_xsd=False))


def ubl_xml() -> bytes:
    return b"""<?xml version="1.0" encoding="UTF-8"?>
<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"
 xmlns:cac="urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2"
 xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2">
 <cbc:ID>UBL-77</cbc:ID><cbc:IssueDate>2026-10-01</cbc:IssueDate>
 <cbc:DocumentCurrencyCode>EUR</cbc:DocumentCurrencyCode>
 <cac:AccountingSupplierParty><cac:Party><cac:PartyTaxScheme><cbc:CompanyID>NL001</cbc:CompanyID></cac:PartyTaxScheme>
  <cac:PartyLegalEntity><cbc:RegistrationName>Tulip BV</cbc:RegistrationName></cac:PartyLegalEntity></cac:Party></cac:AccountingSupplierParty>
 <cac:AccountingCustomerParty><cac:Party><cac:PartyName><cbc:Name>Windmill NV</cbc:Name></cac:PartyName></cac:Party></cac:AccountingCustomerParty>
 <cac:TaxTotal><cbc:TaxAmount currencyID="EUR">21.00</cbc:TaxAmount></cac:TaxTotal>
 <cac:LegalMonetaryTotal><cbc:TaxExclusiveAmount currencyID="EUR">100.00</cbc:TaxExclusiveAmount>
  <cbc:TaxInclusiveAmount currencyID="EUR">121.00</cbc:TaxInclusiveAmount></cac:LegalMonetaryTotal>
 <cac:InvoiceLine><cbc:ID>1</cbc:ID><cbc:InvoicedQuantity unitCode="C62">4</cbc:InvoicedQuantity>
  <cbc:LineExtensionAmount currencyID="EUR">100.00</cbc:LineExtensionAmount>
  <cac:Item><cbc:Name>Tulip bulbs</cbc:Name><cac:ClassifiedTaxCategory><cbc:Percent>21</cbc:Percent></cac:ClassifiedTaxCategory></cac:Item>
  <cac:Price><cbc:PriceAmount currencyID="EUR">25.00</cbc:PriceAmount></cac:Price></cac:InvoiceLine>
</Invoice>
"""
