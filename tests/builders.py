"""Test inputs made on the fly: good files and every kind of bad one."""

from __future__ import annotations

import io
from pathlib import Path

import pymupdf
from PIL import Image


def text_pdf(path: Path, pages: int = 1, text: str = "Invoice No. {n}\nTotal: 100.00 USD") -> Path:
    document = pymupdf.open()
    for n in range(1, pages + 1):
        document.new_page().insert_text((72, 72), text.format(n=n), fontsize=12)
    document.save(path)
    return path


def encrypted_pdf(path: Path) -> Path:
    document = pymupdf.open()
    document.new_page().insert_text((72, 72), "secret")
    document.save(
        path,
        encryption=pymupdf.PDF_ENCRYPT_AES_256,
        owner_pw="owner",
        user_pw="user",
    )
    return path


def zero_page_pdf(path: Path) -> Path:
    """A well-formed PDF whose page tree is empty (MuPDF refuses to save one)."""
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [] /Count 0 >>",
    ]
    body = bytearray(b"%PDF-1.7\n")
    offsets = []
    for number, obj in enumerate(objects, start=1):
        offsets.append(len(body))
        body += b"%d 0 obj\n" % number + obj + b"\nendobj\n"
    xref = len(body)
    body += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    for offset in offsets:
        body += b"%010d 00000 n \n" % offset
    body += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1,
        xref,
    )
    path.write_bytes(bytes(body))
    return path


def corrupt_pdf(path: Path) -> Path:
    """A PDF header followed by garbage: nothing MuPDF's repair can recover."""
    path.write_bytes(b"%PDF-1.7\n" + bytes(range(256)) * 40 + b"\n%%EOF")
    return path


def padded_pdf(path: Path, source: Path, padding: int = 20_000) -> Path:
    """A whole PDF followed by NUL bytes, as some scanners and transfers leave it."""
    path.write_bytes(source.read_bytes() + b"\0" * padding)
    return path


def page_tree_without_count_pdf(path: Path) -> Path:
    """A page tree whose /Pages node lacks /Count: MuPDF finds no page, qpdf rebuilds
    the tree (the shape of a real file in pikepdf's test resources)."""
    objects = [
        b"<< /Pages 2 0 R /Type /Catalog >>",
        b"<< /Kids [ 3 0 R ] /Type /Pages >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [ 0 0 595 842 ] /Contents 4 0 R "
        b"/Resources << /Font << /F1 5 0 R >> >> >>",
        None,  # the content stream, below
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    content = b"BT /F1 14 Tf 72 770 Td (Invoice No 42 of 12.03.2024) Tj ET"
    objects[3] = b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream"
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj " % number + body + b" endobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer << /Root 1 0 R /Size %d >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1,
        xref,
    )
    path.write_bytes(bytes(out))
    return path


def truncated_pdf(path: Path, source: Path) -> Path:
    data = source.read_bytes()
    path.write_bytes(data[: len(data) // 3])
    return path


def renamed_non_pdf(path: Path) -> Path:
    path.write_text("This is a text file someone renamed to .pdf\n")
    return path


def bomb_png(path: Path, side: int = 15_000) -> Path:
    """A tiny file that decodes to ``side``² pixels (225 Mpx by default)."""
    Image.new("1", (side, side), 1).save(path, optimize=True)
    return path


def png(path: Path, size: tuple[int, int] = (800, 1100)) -> Path:
    image = Image.new("L", size, 255)
    image.paste(0, (100, 100, 700, 140))
    image.save(path)
    return path


def multipage_tiff(path: Path, pages: int = 2) -> Path:
    frames = [Image.new("L", (1240, 1754), 255) for _ in range(pages)]
    frames[0].save(path, save_all=True, append_images=frames[1:], compression="tiff_lzw")
    return path


def text_bomb_pdf(path: Path, repeats: int = 200_000) -> Path:
    """A one-page PDF of a few kilobytes whose text layer holds millions of characters:
    the same line repeated in a compressed content stream."""
    import zlib

    line = b"BT /F1 1 Tf 10 10 Td (INVOICE 123456789 TOTAL 100.00 ) Tj ET\n"
    stream = zlib.compress(line * repeats, 9)
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R "
        b"/Resources << /Font << /F1 5 0 R >> >> >>",
        b"<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(stream) + stream
        + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]  # fmt: skip
    return _raw_pdf(path, objects)


def jpx_bomb_pdf(path: Path, side: int = 60_000) -> Path:
    """A PDF of a few hundred bytes holding a JPEG 2000 image that declares ``side`` ×
    ``side`` pixels, in its dictionary and in its codestream (a 64 px image whose size
    marker was rewritten): what a decoder would allocate, not what the file holds."""
    import struct

    buffer = io.BytesIO()
    Image.new("L", (64, 64), 128).save(buffer, "JPEG2000", no_jp2=True)
    codestream = bytearray(buffer.getvalue())
    siz = codestream.index(b"\xff\x51")  # SIZ: Lsiz Rsiz Xsiz Ysiz XOsiz YOsiz XTsiz YTsiz
    struct.pack_into(">II", codestream, siz + 6, side, side)
    struct.pack_into(">II", codestream, siz + 22, side, side)
    content = b"q 595 0 0 842 0 0 cm /Im0 Do Q"
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 5 0 R "
        b"/Resources << /XObject << /Im0 4 0 R >> >> >>",
        b"<< /Type /XObject /Subtype /Image /Width %d /Height %d /ColorSpace /DeviceGray "
        b"/BitsPerComponent 8 /Filter /JPXDecode /Length %d >>\nstream\n"
        % (side, side, len(codestream)) + bytes(codestream) + b"\nendstream",
        b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream",
    ]  # fmt: skip
    return _raw_pdf(path, objects)


def _raw_pdf(path: Path, objects: list[bytes]) -> Path:
    """A PDF of these objects (numbered from 1, the catalog first), with its xref."""
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % o for o in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1, xref)  # fmt: skip
    path.write_bytes(bytes(out))
    return path


def invoice_pdf(
    path: Path,
    *,
    number: str = "123",
    day: str = "12.03.2024",
    seller: str = "ПАО Сбербанк",
    seller_inn: str = "7707083893",
    buyer: str = "ООО «Яндекс»",
    buyer_inn: str = "7736207543",
    total: str = "118 000,00",
    vat: str = "19 666,67",
    rate: int = 20,
) -> Path:
    """A clean one-page born-digital Russian invoice, as accounting programs print one."""
    html = f"""
    <table><tr><td>ПАО СБЕРБАНК г. Москва<br>Банк получателя</td><td>БИК<br>Сч. №</td>
    <td>044525225<br>30101810400000000225</td></tr>
    <tr><td>ИНН {seller_inn} КПП 773601001<br>{seller}<br>Получатель</td><td>Сч. №</td>
    <td>40702810938000012345</td></tr></table>
    <h1>Счет на оплату № {number} от {day}</h1>
    <p>Поставщик (Исполнитель): <b>{seller}, ИНН {seller_inn}, КПП 773601001,
    117997, г. Москва, ул. Вавилова, д. 19</b></p>
    <p>Покупатель (Заказчик): <b>{buyer}, ИНН {buyer_inn}, КПП 770401001,
    119021, г. Москва, ул. Льва Толстого, д. 16</b></p>
    <table><tr><th>№</th><th>Товары (работы, услуги)</th><th>Кол-во</th><th>Сумма</th></tr>
    <tr><td>1</td><td>Услуги по договору</td><td>1</td><td>{total}</td></tr></table>
    <p>Итого: {total}</p>
    <p>В том числе НДС {rate}%: {vat}</p>
    <p><b>Итого к оплате: {total} руб.</b></p>
    <p>Руководитель ____________ Бухгалтер ____________</p>
    """
    document = pymupdf.open()
    page = document.new_page(width=595, height=842)
    page.insert_htmlbox(pymupdf.Rect(45, 40, 550, 800), html, css="* {font-size: 9.5pt;}")
    document.save(path)
    return path


_XLSX_PARTS = {
    "[Content_Types].xml": '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://'
    'schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" '
    'ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default '
    'Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" '
    'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>'
    '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.'
    'openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>',
    "_rels/.rels": '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://'
    'schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="'
    'http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" '
    'Target="xl/workbook.xml"/></Relationships>',
    "xl/workbook.xml": '<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://'
    'schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.'
    'openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="S" '
    'sheetId="1" r:id="rId1"/></sheets></workbook>',
    "xl/_rels/workbook.xml.rels": '<?xml version="1.0" encoding="UTF-8"?><Relationships '
    'xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship '
    'Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/'
    'worksheet" Target="worksheets/sheet1.xml"/></Relationships>',
}


def xlsx_cell(ref: str, text: str) -> str:
    """One inline-string cell of hand-made sheet XML."""
    return f'<c r="{ref}" t="inlineStr"><is><t>{text}</t></is></c>'


def xlsx_row(number: int, cells: list[str]) -> str:
    return f'<row r="{number}">{"".join(cells)}</row>'


def raw_xlsx(path: Path, rows_xml: str, *, dimension: str = "A1") -> Path:
    """A one-sheet workbook ("S") of hand-made sheet XML: what a writer may declare
    (``<dimension>``, row numbers, far columns) without openpyxl's writer checking it."""
    import zipfile

    sheet = (
        '<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.'
        'openxmlformats.org/spreadsheetml/2006/main">'
        f'<dimension ref="{dimension}"/><sheetData>{rows_xml}</sheetData></worksheet>'
    )
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, text in _XLSX_PARTS.items():
            archive.writestr(name, text)
        archive.writestr("xl/worksheets/sheet1.xml", sheet)
    return path


def scanned_pdf(path: Path, source: Path, dpi: int = 150) -> Path:
    """``source``'s pages as a scanner makes them: one grayscale picture per page and
    no text layer, so only OCR or the image can read them."""
    out = pymupdf.open()
    with pymupdf.open(source) as document:
        for page in document:
            pixmap = page.get_pixmap(dpi=dpi, colorspace=pymupdf.csGRAY)
            scan = out.new_page(width=page.rect.width, height=page.rect.height)
            scan.insert_image(scan.rect, stream=pixmap.tobytes("png"))
    out.save(path)
    return path
