"""Generate the bundled sample files in ``docbatch_gui/resources/samples/``.

The samples are the fixtures of the offline extractor tests and the files a new
operator tries first, so they are generated from code: the expected values in the
tests and in docbatch_gui/resources/SAMPLES.md stay traceable to one place, and the
output is identical on every run (no timestamps, seeded noise).

Run: ``python scripts/make_samples.py [output_dir]``.
"""

from __future__ import annotations

import io
import random
import sys
from pathlib import Path

import pymupdf
from PIL import Image, ImageFilter

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_OUT = ROOT / "docbatch_gui" / "resources" / "samples"
A4 = pymupdf.paper_rect("a4")
BODY = pymupdf.Rect(45, 40, A4.width - 45, A4.height - 40)

CSS = """
* { font-family: sans-serif; font-size: 9.5pt; }
h1 { font-size: 15pt; margin: 6pt 0 4pt 0; }
h2 { font-size: 13pt; margin: 4pt 0 4pt 0; text-align: center; }
h4 { font-size: 10pt; margin: 6pt 0 2pt 0; }
p { margin: 2pt 0; }
table { border-collapse: collapse; width: 100%; }
td, th { border: 0.6pt solid #000; padding: 2pt 4pt; vertical-align: top; }
th { background-color: #eeeeee; font-weight: bold; }
td.n { text-align: right; }
.plain td { border: none; padding: 1pt 0; }
.small { font-size: 7.5pt; }
.right { text-align: right; }
"""

SELLER = "ООО «Ромашка»"
SELLER_INN = "7701234560"
BUYER = "АО «Вектор»"
BUYER_INN = "5003123458"
SUPPLIER = "ООО «Альфа-Снаб»"
SUPPLIER_INN = "7810987652"


def _items_table(header: list[str], rows: list[list[str]]) -> str:
    head = "".join(f"<th>{cell}</th>" for cell in header)
    body = "".join(
        "<tr>"
        + "".join(
            f'<td class="n">{cell}</td>' if i in (0, 2, 4, 5) else f"<td>{cell}</td>"
            for i, cell in enumerate(row)
        )
        + "</tr>"
        for row in rows
    )
    return f"<table><tr>{head}</tr>{body}</table>"


INVOICE_HTML = f"""
<p class="small">Внимание! Оплата данного счета означает согласие с условиями поставки товара.</p>
<table>
<tr><td>ПАО СБЕРБАНК г. Москва<br>Банк получателя</td><td>БИК<br>Сч. №</td>
<td>044525225<br>30101810400000000225</td></tr>
<tr><td>ИНН {SELLER_INN} КПП 770101001<br>{SELLER}<br>Получатель</td><td>Сч. №</td>
<td>40702810938000012345</td></tr>
</table>
<h1>Счет на оплату № 123 от 12 марта 2024 г.</h1>
<hr>
<p>Поставщик (Исполнитель): <b>{SELLER}, ИНН {SELLER_INN}, КПП 770101001, 123456,
г. Москва, ул. Ленина, д. 1</b></p>
<p>Покупатель (Заказчик): <b>{BUYER}, ИНН {BUYER_INN}, КПП 500301001, 142000,
Московская обл., г. Домодедово, ул. Советская, д. 5</b></p>
<p>Основание: Договор поставки № 7-П от 01.02.2024</p>
<br>
{
    _items_table(
        ["№", "Товары (работы, услуги)", "Кол-во", "Ед.", "Цена", "Сумма"],
        [
            ["1", "Бумага офисная А4, 500 л.", "200", "пач", "350,00", "70 000,00"],
            ["2", "Картридж лазерный HP 59A", "8", "шт", "6 000,00", "48 000,00"],
        ],
    )
}
<p class="right">Итого: 118 000,00</p>
<p class="right">В том числе НДС 20%: 19 666,67</p>
<p class="right"><b>Итого к оплате: 118 000,00 руб.</b></p>
<p>Всего наименований 2, на сумму 118 000,00 руб.</p>
<p><b>Сто восемнадцать тысяч рублей 00 копеек</b></p>
<hr>
<p>Руководитель ____________ Иванов И.И. &nbsp;&nbsp;&nbsp; Бухгалтер ____________ Петрова А.А.</p>
"""

ACT_HTML = f"""
<h2>Акт № 45 выполненных работ (оказанных услуг) от 15.03.2024</h2>
<hr>
<p>Исполнитель: <b>{SELLER}, ИНН {SELLER_INN}, КПП 770101001, г. Москва, ул. Ленина, д. 1</b></p>
<p>Заказчик: <b>{BUYER}, ИНН {BUYER_INN}, КПП 500301001, г. Домодедово</b></p>
<p>Основание: Договор поставки № 7-П от 01.02.2024</p>
<br>
{
    _items_table(
        ["№", "Наименование работ, услуг", "Кол-во", "Ед.", "Цена", "Сумма"],
        [
            ["1", "Доставка товара по счету № 123", "1", "усл", "12 000,00", "12 000,00"],
            ["2", "Погрузочно-разгрузочные работы", "3", "час", "1 000,00", "3 000,00"],
        ],
    )
}
<p class="right">Итого: 15 000,00</p>
<p class="right">В том числе НДС 20%: 2 500,00</p>
<p>Всего оказано услуг 2, на сумму 15 000,00 руб.</p>
<p><b>Пятнадцать тысяч рублей 00 копеек</b></p>
<p>Вышеперечисленные услуги выполнены полностью и в срок. Заказчик претензий по объему,
качеству и срокам оказания услуг не имеет.</p>
<br>
<p>Исполнитель ____________ / Иванов И.И. / &nbsp;&nbsp;&nbsp;
Заказчик ____________ / Сидоров П.П. /</p>
"""

CONTRACT_PAGE1_HTML = """
<h2>ДОГОВОР ПОСТАВКИ № 7-П</h2>
<table class="plain"><tr><td>г. Москва</td><td class="right">«01» февраля 2024 г.</td></tr></table>
<p>Общество с ограниченной ответственностью «Альфа-Снаб», именуемое в дальнейшем
«Поставщик», в лице генерального директора Смирнова А.В., действующего на основании
Устава, с одной стороны, и Общество с ограниченной ответственностью «Ромашка»,
именуемое в дальнейшем «Покупатель», в лице генерального директора Иванова И.И.,
действующего на основании Устава, с другой стороны, заключили настоящий договор
о нижеследующем:</p>
<h4>1. Предмет договора</h4>
<p>1.1. Поставщик обязуется передать в собственность Покупателя товар (канцелярские
товары и расходные материалы), а Покупатель обязуется принять и оплатить товар.</p>
<p>1.2. Наименование, количество и цена товара указываются в счетах, товарных накладных
(ТОРГ-12) или УПД, являющихся неотъемлемой частью настоящего Договора.</p>
<h4>2. Цена и порядок расчетов</h4>
<p>2.1. Общая сумма Договора составляет 500 000,00 (пятьсот тысяч) рублей 00 копеек,
в том числе НДС 20% 83 333,33 рубля.</p>
<p>2.2. Оплата производится на основании счета Поставщика в течение 5 (пяти) банковских
дней с даты его получения.</p>
<h4>3. Порядок поставки</h4>
<p>3.1. Поставка осуществляется транспортом Поставщика по адресу Покупателя.</p>
<p>3.2. Датой поставки считается дата подписания Покупателем товарной накладной.</p>
"""

CONTRACT_PAGE2_HTML = f"""
<h4>4. Ответственность сторон</h4>
<p>4.1. За просрочку оплаты Покупатель уплачивает пени в размере 0,1% от неоплаченной
суммы за каждый день просрочки.</p>
<h4>5. Срок действия договора</h4>
<p>5.1. Договор вступает в силу с момента подписания и действует до 31.12.2024.</p>
<h4>6. Реквизиты и подписи сторон</h4>
<p>Поставщик: <b>{SUPPLIER}</b></p>
<p>ИНН {SUPPLIER_INN}, КПП 781001001, 190000, г. Санкт-Петербург, Невский пр., д. 10</p>
<p>р/с 40702810555000001234 в ПАО «Банк Санкт-Петербург»</p>
<p>Покупатель: <b>{SELLER}</b></p>
<p>ИНН {SELLER_INN}, КПП 770101001, 123456, г. Москва, ул. Ленина, д. 1</p>
<p>р/с 40702810938000012345 в ПАО СБЕРБАНК</p>
<br>
<p>От Поставщика ____________ / Смирнов А.В. / &nbsp;&nbsp;&nbsp;
От Покупателя ____________ / Иванов И.И. /</p>
"""

EN_INVOICE_HTML = """
<h1>INVOICE</h1>
<p>From:</p>
<p><b>Acme Widgets LLC</b><br>1200 Market Street, Suite 400<br>San Francisco, CA 94103</p>
<p>Tax ID: 12-3456789</p>
<br>
<p>Invoice No.: INV-2024-0042</p>
<p>Invoice Date: March 5, 2024</p>
<p>Due Date: April 4, 2024</p>
<br>
<p>Bill To:</p>
<p><b>Globex Corporation</b><br>500 Oak Avenue<br>Springfield, IL 62701</p>
<br>
<table>
<tr><th>Description</th><th>Qty</th><th>Unit Price</th><th>Amount</th></tr>
<tr><td>Consulting services (February 2024)</td><td class="n">8</td>
<td class="n">$120.00</td><td class="n">$960.00</td></tr>
<tr><td>Software license, annual</td><td class="n">1</td>
<td class="n">$274.56</td><td class="n">$274.56</td></tr>
</table>
<p class="right">Subtotal: $1,234.56</p>
<p class="right">Sales Tax (0%): $0.00</p>
<p class="right"><b>Total Due: $1,234.56 USD</b></p>
<br>
<p>Payment terms: Net 30. Please reference the invoice number with your payment.</p>
"""

WAYBILL_PAGE1_HTML = f"""
<p class="right small">Унифицированная форма № ТОРГ-12</p>
<p>Грузоотправитель: {SUPPLIER}, ИНН {SUPPLIER_INN}, г. Санкт-Петербург</p>
<p>Грузополучатель: {SELLER}, г. Москва, ул. Ленина, д. 1</p>
<p>Поставщик: {SUPPLIER}, ИНН {SUPPLIER_INN}, КПП 781001001</p>
<p>Плательщик: {SELLER}, ИНН {SELLER_INN}, КПП 770101001</p>
<p>Основание: Договор поставки № 7-П от 01.02.2024</p>
<h2>ТОВАРНАЯ НАКЛАДНАЯ № 318 от 20.03.2024</h2>
{
    _items_table(
        ["№", "Товар", "Кол-во", "Ед.", "Цена", "Сумма"],
        [
            [str(i), f"Бумага офисная А4, партия {i}", "10", "пач", "350,00", "3 500,00"]
            for i in range(1, 16)
        ],
    )
}
<p class="right">Страница 1 из 2</p>
"""

WAYBILL_PAGE2_HTML = f"""
{
    _items_table(
        ["№", "Товар", "Кол-во", "Ед.", "Цена", "Сумма"],
        [
            [str(i), f"Бумага офисная А4, партия {i}", "10", "пач", "350,00", "3 500,00"]
            for i in range(16, 21)
        ],
    )
}
<p class="right">Итого: 70 000,00</p>
<p class="right">В том числе НДС 20%: 11 666,67</p>
<p class="right"><b>Всего по накладной: 70 000,00 руб.</b></p>
<p>Отпуск груза разрешил ____________ Смирнов А.В.</p>
<p>Груз получил грузополучатель ____________ Иванов И.И.</p>
<p class="right">Страница 2 из 2</p>
"""


def _pdf(pages: list[str]) -> pymupdf.Document:
    doc = pymupdf.open()
    for html in pages:
        page = doc.new_page(width=A4.width, height=A4.height)
        spare, _scale = page.insert_htmlbox(BODY, html, css=CSS)
        if spare < 0:
            raise RuntimeError("sample page content does not fit on one page")
    # Fixed metadata keeps the output byte-identical between runs.
    doc.set_metadata({"producer": "DocBatch make_samples", "creator": "DocBatch"})
    doc.subset_fonts()
    return doc


def _save_pdf(doc: pymupdf.Document, path: Path) -> None:
    data = doc.tobytes(garbage=4, deflate=True, no_new_id=True)
    path.write_bytes(data)


def _scan_page(doc: pymupdf.Document, page_no: int, rng: random.Random) -> Image.Image:
    """Make a page look scanned: gray, slightly rotated, with paper speckles."""
    pix = doc[page_no].get_pixmap(dpi=150, colorspace=pymupdf.csGRAY)
    image = Image.frombytes("L", (pix.width, pix.height), pix.samples)
    image = image.rotate(rng.uniform(-0.8, 0.8), resample=Image.BICUBIC, fillcolor=255)
    image = image.filter(ImageFilter.GaussianBlur(0.4))
    pixels = image.load()
    for _ in range(image.width * image.height // 2500):
        x, y = rng.randrange(image.width), rng.randrange(image.height)
        pixels[x, y] = rng.randrange(90, 200)
    # Few gray levels: keeps the look of a scan while LZW keeps the file small.
    return image.point(lambda v: min(255, (v // 48) * 48 + 24) if v < 232 else 255)


def make_samples(out: Path) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    ru_path = out / "ru_three_documents.pdf"
    _save_pdf(_pdf([INVOICE_HTML, ACT_HTML, CONTRACT_PAGE1_HTML, CONTRACT_PAGE2_HTML]), ru_path)
    en_path = out / "en_invoice_INV-2024-0042.pdf"
    _save_pdf(_pdf([EN_INVOICE_HTML]), en_path)

    rng = random.Random(20240320)
    waybill = _pdf([WAYBILL_PAGE1_HTML, WAYBILL_PAGE2_HTML])
    first, *rest = [_scan_page(waybill, i, rng) for i in range(waybill.page_count)]
    buffer = io.BytesIO()
    first.save(
        buffer,
        format="TIFF",
        save_all=True,
        append_images=rest,
        compression="tiff_lzw",
        dpi=(150, 150),
    )
    tiff_path = out / "scan_two_pages.tiff"
    tiff_path.write_bytes(buffer.getvalue())

    # A phone-style photo of the invoice, taken sideways: image only, turned 90°
    # clockwise, so OCR must find both the text and the rotation.
    photo = _scan_page(_pdf([INVOICE_HTML]), 0, rng).rotate(-90, expand=True)
    photo_path = out / "photo_invoice_sideways.jpg"
    photo.save(photo_path, "JPEG", quality=70)
    return [ru_path, en_path, tiff_path, photo_path]


def main(argv: list[str]) -> int:
    out = Path(argv[1]) if len(argv) > 1 else DEFAULT_OUT
    for path in make_samples(out):
        print(
            f"{path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}: "
            f"{path.stat().st_size // 1024} KB"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
