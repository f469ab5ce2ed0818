"""Documents with tables of goods, laid out the way accounting programs print them.

Four layouts: the УПД (2021+ form, landscape, its many numbered columns), ТОРГ-12,
a счёт на оплату and an English invoice; ruled or not; long names wrapped in their
cell, an amount wrapped over two lines ("1" / "944,30"), the column header repeated
on every page, a row cut by a page break, "итого по листу" / "перенос" lines, the
totals and the printed row count under the table, and a printed total that
disagrees with the rows. Each builder returns the rows it printed: the ground truth.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

import pymupdf

CENT = Decimal("0.01")
FONT = pymupdf.Font("helv")
BOLD = pymupdf.Font("hebo")

_GOODS = [
    "Бумага офисная А4 80 г/м2",
    "Картридж лазерный HP CF259X",
    "Ручка шариковая синяя",
    "Папка-регистратор 75 мм",
    "Степлер №24/6 металлический",
    "Кабель сетевой UTP cat.5e, 305 м, в коробке, серый, для внутренней прокладки",
    'Монитор 27" IPS 2560x1440',
    "Клавиатура проводная USB",
]
_GOODS_EN = [
    "Consulting services, March",
    "Laptop stand, aluminium",
    "Freight and handling",
    "USB-C docking station with 100 W power delivery and dual display output",
    "Annual software licence",
]


@dataclass(frozen=True)
class Row:
    no: str
    name: str
    code: str
    unit: str
    qty: str
    price: str
    net: str
    vat_rate: str
    vat: str
    gross: str


def goods(count: int, *, english: bool = False, rate: int = 20, seed: int = 0) -> list[Row]:
    """``count`` rows of goods with consistent arithmetic (qty × price = net, net ×
    rate = VAT, net + VAT = gross); every seventh name is long enough to wrap."""
    names = _GOODS_EN if english else _GOODS
    rows = []
    for n in range(1, count + 1):
        k = n + seed
        qty = Decimal(1 + (k * 7) % 23)
        price = (Decimal(37 + (k * 131) % 1900) + Decimal((k * 17) % 100) / 100).quantize(CENT)
        net = (qty * price).quantize(CENT, ROUND_HALF_UP)
        vat = (net * rate / 100).quantize(CENT, ROUND_HALF_UP)
        name = names[k % len(names)] + ("" if english else f", арт. {k}")
        rows.append(
            Row(
                no=str(n),
                name=name,
                code=f"{'SKU' if english else 'А'}-{1000 + k}",
                unit="pcs" if english else "шт",
                qty=str(qty),
                price=str(price),
                net=str(net),
                vat_rate=str(rate),
                vat=str(vat),
                gross=str(net + vat),
            )
        )
    return rows


def ru_amount(value: str | Decimal, space: str = "\u00a0") -> str:
    """1944.3 → "1 944,30" (a no-break space by default, as 1C prints it)."""
    whole, _, cents = f"{Decimal(value):.2f}".partition(".")
    groups = []
    while whole:
        groups.insert(0, whole[-3:])
        whole = whole[:-3]
    return space.join(groups) + "," + cents


def en_amount(value: str | Decimal) -> str:
    return f"{Decimal(value):,.2f}"


@dataclass(frozen=True)
class Column:
    key: str | None  # a Row attribute, or None for a column the document leaves empty
    header: str  # lines of the header cell, parted by "\n"
    width: float
    number: bool = False


UPD_COLUMNS = (
    Column("no", "№\nп/п", 22),
    Column("code", "Код товара/\nработ, услуг", 48),
    Column("name", "Наименование товара\n(описание выполненных\nработ, оказанных услуг)", 150),
    Column(None, "Код\nвида\nтовара", 30),
    Column("unit", "Единица\nизмерения", 40),
    Column("qty", "Количество\n(объем)", 46, True),
    Column("price", "Цена (тариф)\nза единицу\nизмерения", 56, True),
    Column("net", "Стоимость товаров\nбез налога —\nвсего", 64, True),
    Column(None, "В том\nчисле\nакциз", 32),
    Column("vat_rate", "Налоговая\nставка", 42),
    Column("vat", "Сумма налога,\nпредъявляемая\nпокупателю", 58, True),
    Column("gross", "Стоимость товаров\nс налогом —\nвсего", 64, True),
    Column(None, "Страна\nпроисхождения", 52),
    Column(None, "Регистрационный\nномер декларации", 62),
)
TORG12_COLUMNS = (
    Column("no", "Номер\nпо по-\nрядку", 26),
    Column("name", "Товар\nнаименование, характеристика", 150),
    Column("code", "Код", 40),
    Column("unit", "Ед. изм.", 32),
    Column("qty", "Количество\n(масса нетто)", 52, True),
    Column("price", "Цена,\nруб. коп.", 52, True),
    Column("net", "Сумма без\nучета НДС,\nруб. коп.", 60, True),
    Column("vat_rate", "Ставка\nНДС, %", 34),
    Column("vat", "Сумма НДС,\nруб. коп.", 52, True),
    Column("gross", "Сумма с\nучетом НДС,\nруб. коп.", 60, True),
)
SCHET_COLUMNS = (
    Column("no", "№", 22),
    Column("name", "Товары (работы, услуги)", 230),
    Column("qty", "Кол-во", 46, True),
    Column("unit", "Ед.", 30),
    Column("price", "Цена", 70, True),
    Column("net", "Сумма", 80, True),
)
EN_COLUMNS = (
    Column("no", "#", 20),
    Column("name", "Description", 240),
    Column("qty", "Qty", 40, True),
    Column("price", "Unit price", 70, True),
    Column("net", "Amount", 80, True),
)


@dataclass
class Layout:
    """What a document prints besides its rows, and how."""

    title: list[str]
    columns: tuple[Column, ...]
    landscape: bool = False
    english: bool = False
    font_size: float = 7.0
    header_lines_after: list[str] = field(default_factory=list)


def _layouts(kind: str, number: str, day: str) -> Layout:
    party = [
        "Продавец: ООО «Ромашка»   ИНН/КПП продавца: 7707083893/773601001",
        "Покупатель: ООО «Василёк»   ИНН/КПП покупателя: 7736207543/770401001",
        "Валюта: наименование, код Российский рубль, 643",
    ]
    if kind == "upd":
        return Layout(
            [
                "Универсальный передаточный документ",
                f"Счет-фактура № {number} от {day}   Статус: 1",
                *party,
            ],
            UPD_COLUMNS,
            landscape=True,
        )
    if kind == "torg12":
        return Layout(
            [
                f"ТОВАРНАЯ НАКЛАДНАЯ № {number} от {day}",
                "Унифицированная форма № ТОРГ-12",
                "Грузоотправитель: ООО «Ромашка», ИНН 7707083893",
                "Поставщик: ООО «Ромашка», ИНН 7707083893",
                "Плательщик: ООО «Василёк», ИНН 7736207543",
            ],
            TORG12_COLUMNS,
        )
    if kind == "schet":
        return Layout(
            [
                f"Счет на оплату № {number} от {day}",
                "Поставщик: ООО «Ромашка», ИНН 7707083893",
                "Покупатель: ООО «Василёк», ИНН 7736207543",
            ],
            SCHET_COLUMNS,
            font_size=8.0,
        )
    return Layout(
        [
            f"INVOICE No. {number}",
            f"Date: {day}",
            "Seller: Acme Trading Ltd, VAT No. GB123456789",
            "Bill to: Globex Corporation",
        ],
        EN_COLUMNS,
        english=True,
        font_size=8.0,
    )


@dataclass
class _Writer:
    document: pymupdf.Document
    landscape: bool
    size: float
    page: pymupdf.Page | None = None
    y: float = 0.0
    pages: int = 0

    @property
    def height(self) -> float:
        return 595 if self.landscape else 842

    @property
    def width(self) -> float:
        return 842 if self.landscape else 595

    def new_page(self) -> None:
        self.page = self.document.new_page(width=self.width, height=self.height)
        self.pages += 1
        self.y = 36.0

    def text(self, x: float, y: float, text: str, *, bold: bool = False, size: float = 0) -> None:
        assert self.page is not None
        writer = pymupdf.TextWriter(self.page.rect)
        writer.append((x, y), text, font=BOLD if bold else FONT, fontsize=size or self.size)
        writer.write_text(self.page)

    def text_width(self, text: str, size: float = 0) -> float:
        return FONT.text_length(text, fontsize=size or self.size)

    def line(self, x0: float, y0: float, x1: float, y1: float) -> None:
        assert self.page is not None
        self.page.draw_line((x0, y0), (x1, y1), width=0.5)


def _wrap(text: str, width: float, writer: _Writer) -> list[str]:
    words, lines, current = text.split(), [], ""
    for word in words:
        trial = f"{current} {word}".strip()
        if current and writer.text_width(trial) > width - 6:
            lines.append(current)
            current = word
        else:
            current = trial
    return [*lines, current] if current else lines


@dataclass(frozen=True)
class Printed:
    """A built file and what it prints: its rows (the ground truth) and totals."""

    path: Path
    rows: list[Row]
    pages: int
    net: Decimal
    vat: Decimal
    gross: Decimal
    printed_gross: Decimal


def table_pdf(
    path: Path,
    kind: str,
    rows: list[Row],
    *,
    number: str = "15",
    day: str = "12.03.2024",
    rows_per_page: int = 30,
    ruled: bool = True,
    repeat_header: bool = True,
    wrapped_amounts: bool = True,
    cut_row: int | None = None,
    carried_forward: bool = False,
    total_delta: Decimal = Decimal(0),
    printed_count: bool = True,
) -> Printed:
    """Print ``rows`` as a ``kind`` document ("upd", "torg12", "schet", "en").

    ``cut_row``: the row whose name the page break cuts (its first line on one page,
    the rest after the next page's header). ``total_delta`` is added to the printed
    total (a total that disagrees with its rows). ``wrapped_amounts``: every tenth
    row prints its sum over two lines ("1" / "944,30").
    """
    layout = _layouts(kind, number, day)
    english = layout.english
    fmt = en_amount if english else ru_amount
    document = pymupdf.open()
    w = _Writer(document, layout.landscape, layout.font_size)
    line_height = layout.font_size + 3
    left = 30.0
    right = left + sum(c.width for c in layout.columns)

    def draw_header() -> None:
        depth = max(len(c.header.split("\n")) for c in layout.columns)
        top = w.y
        x = left
        for column in layout.columns:
            for i, part in enumerate(column.header.split("\n")):
                w.text(x + 3, top + line_height * (i + 1) - 2, part, bold=True, size=w.size - 1)
            x += column.width
        bottom = top + depth * line_height + 3
        if ruled:
            _rules(top, bottom)
        w.y = bottom

    def _rules(top: float, bottom: float) -> None:
        w.line(left, top, right, top)
        w.line(left, bottom, right, bottom)
        x = left
        for column in layout.columns:
            w.line(x, top, x, bottom)
            x += column.width
        w.line(right, top, right, bottom)

    def cell_lines(row: Row, index: int) -> dict[int, list[str]]:
        cells: dict[int, list[str]] = {}
        for c, column in enumerate(layout.columns):
            if column.key is None:
                cells[c] = []
                continue
            value = getattr(row, column.key)
            if column.key == "vat_rate":
                value = f"{value}%"
            elif column.number and column.key != "qty":
                value = fmt(value)
            if column.key == "name":
                cells[c] = _wrap(value, column.width, w)
            elif (
                wrapped_amounts
                and column.key == "net"
                and index % 10 == 9
                and Decimal(row.net) >= 1000
            ):
                head, _, tail = value.partition("\u00a0" if not english else ",")
                cells[c] = [head, tail]
                if english:
                    cells[c] = [head + ",", tail]
            else:
                cells[c] = [value]
        return cells

    def draw_row(cells: dict[int, list[str]], first: int = 0, last: int | None = None) -> None:
        depth = max((len(v) for v in cells.values()), default=1)
        last = depth if last is None else last
        top = w.y
        x = left
        for c, column in enumerate(layout.columns):
            for i, part in enumerate(cells.get(c, [])[first:last]):
                if column.number:
                    width = w.text_width(part)
                    w.text(x + column.width - 3 - width, top + line_height * (i + 1) - 2, part)
                else:
                    w.text(x + 3, top + line_height * (i + 1) - 2, part)
            x += column.width
        bottom = top + (last - first) * line_height + 2
        if ruled:
            _rules(top, bottom)
        w.y = bottom

    def start_page() -> None:
        w.new_page()
        if w.pages == 1:
            for i, text in enumerate(layout.title):
                w.text(left, w.y + 12, text, bold=i == 0, size=11 if i == 0 else 8)
                w.y += 14
            w.y += 6
        else:
            label = f"Page {w.pages}" if english else f"Лист {w.pages}"
            w.text(right - 60, w.y, label, size=7)
            w.y += 8
        if w.pages == 1 or repeat_header:
            draw_header()

    start_page()
    page_net = Decimal(0)
    on_page = 0
    for index, row in enumerate(rows):
        cells = cell_lines(row, index)
        if on_page == rows_per_page:
            if carried_forward:
                label = "Carried forward" if english else "Итого по листу"
                w.text(left + 3, w.y + line_height, f"{label}: {fmt(page_net)}")
                w.y += line_height + 2
            w.text(left, w.height - 20, f"Page {w.pages}" if english else f"Страница {w.pages}")
            start_page()
            if carried_forward:
                label = "Brought forward" if english else "Перенос с предыдущей страницы"
                w.text(left + 3, w.y + line_height, f"{label}: {fmt(page_net)}")
                w.y += line_height + 2
            on_page = 0
        if cut_row is not None and index + 1 == cut_row and on_page == rows_per_page - 1:
            name = next(c for c, col in enumerate(layout.columns) if col.key == "name")
            if len(cells[name]) < 2:
                cells = {**cells, name: [*cells[name], "(продолжение)"]}
            draw_row(cells, 0, 1)
            w.text(left, w.height - 20, f"Страница {w.pages}")
            start_page()
            draw_row({c: v[1:] for c, v in cells.items()})
            on_page = 0
        else:
            draw_row(cells)
        page_net += Decimal(row.net)
        on_page += 1

    net = sum((Decimal(r.net) for r in rows), Decimal(0))
    vat = sum((Decimal(r.vat) for r in rows), Decimal(0))
    gross = net + vat
    printed = gross + total_delta
    w.y += 4
    if english:
        totals = [
            f"Subtotal: {fmt(net)}",
            f"VAT 20%: {fmt(vat)}",
            f"Total due: {fmt(printed)} USD",
            f"Number of items: {len(rows)}" if printed_count else "",
        ]
    else:
        totals = [
            f"Итого: {fmt(printed)}  в т.ч. НДС: {fmt(vat)}",
            f"Всего к оплате: {fmt(printed)} руб.",
            f"Всего наименований {len(rows)}, на сумму {fmt(printed)} руб."
            if printed_count
            else "",
        ]
    for text in totals:
        if text:
            if w.y > w.height - 40:
                start_page()
            w.text(left, w.y + line_height, text)
            w.y += line_height + 2
    document.save(path)
    pages = w.pages
    document.close()
    return Printed(path, rows, pages, net, vat, gross, printed)
