"""Russian invoices as a scanner and a tired office make them, from known values.

There is no public set of Russian invoices with known answers, so this builds one.
Each document is the born-digital Russian invoice of ``tests/builders.invoice_pdf``
filled with values drawn from a seeded generator (number, date in one of the written
forms, seller and buyer with valid INNs, total and VAT at 20 %), then turned into a
scan: rendered at 150 dpi in gray, a round blue-gray stamp pressed over the
signatures, turned by a small skew (±2.5°), with seeded noise and a little blur,
and saved as a PDF holding only the picture (no text layer: only OCR reads it).

``build(folder, count, seed)`` writes ``ru_scan_NN.pdf`` files and returns, for each,
the answers a reader must find: ``{"number", "date", "amount", "vat", "currency",
"doc_type"}``. The same seed gives the same files.
"""

from __future__ import annotations

import io
import random
import sys
from pathlib import Path
from typing import Any

import pymupdf
from PIL import Image, ImageDraw, ImageFilter

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests import builders  # noqa: E402

MONTHS = [
    "января",
    "февраля",
    "марта",
    "апреля",
    "мая",
    "июня",
    "июля",
    "августа",
    "сентября",
    "октября",
    "ноября",
    "декабря",
]
#: (name, INN with a valid check digit) of real, public companies
PARTIES = (
    ("ПАО Сбербанк", "7707083893"),
    ("ООО «Яндекс»", "7736207543"),
    ("ПАО «Ростелеком»", "7707049388"),
    ("ПАО «МТС»", "7740000076"),
    ("ПАО «Магнит»", "2309085638"),
)


def _money(value: float) -> str:
    """118000.5 → '118 000,50', as Russian accounting programs print it."""
    whole, cents = f"{value:.2f}".split(".")
    groups = f"{int(whole):,}".replace(",", " ")
    return f"{groups},{cents}"


def _values(rng: random.Random, n: int) -> dict[str, Any]:
    day, month, year = rng.randint(1, 28), rng.randint(1, 12), rng.choice((2023, 2024, 2025))
    written = rng.random() < 0.5
    date_text = (
        f"{day} {MONTHS[month - 1]} {year} г." if written else f"{day:02d}.{month:02d}.{year}"
    )
    total = round(rng.uniform(1_000, 900_000), 2)
    vat = round(total * 20 / 120, 2)
    seller, buyer = rng.sample(PARTIES, 2)
    return {
        "number": str(rng.choice((rng.randint(1, 999), rng.randint(1000, 99999))))
        + (f"-{rng.randint(1, 9)}" if n % 3 == 0 else ""),
        "date_text": date_text,
        "date": f"{year}-{month:02d}-{day:02d}",
        "amount": total,
        "vat": vat,
        "seller": seller,
        "buyer": buyer,
    }


def _stamp(image: Image.Image, rng: random.Random) -> None:
    """A round company stamp over the signature lines, in a mid gray as a blue stamp
    scans in gray, its ring text unreadable to OCR like a real one."""
    draw = ImageDraw.Draw(image)
    w, h = image.size
    cx, cy = int(w * rng.uniform(0.2, 0.4)), int(h * rng.uniform(0.36, 0.41))
    r = int(w * 0.09)
    for width, radius in ((5, r), (3, int(r * 0.72))):
        draw.ellipse((cx - radius, cy - radius, cx + radius, cy + radius), outline=120, width=width)
    draw.text((cx - r // 2, cy - 6), "ДЛЯ ДОКУМЕНТОВ", fill=110)


def _scan(source: Path, target: Path, rng: random.Random) -> None:
    with pymupdf.open(source) as document:
        page = document[0]
        pixmap = page.get_pixmap(dpi=150, colorspace=pymupdf.csGRAY)
        width, height = page.rect.width, page.rect.height
    image = Image.frombytes("L", (pixmap.width, pixmap.height), pixmap.samples)
    _stamp(image, rng)
    image = image.rotate(
        rng.uniform(-2.5, 2.5), resample=Image.BICUBIC, expand=False, fillcolor=255
    )
    # noise from the seeded generator (PIL's own effect_noise is not seeded)
    noise = Image.frombytes("L", image.size, rng.randbytes(image.size[0] * image.size[1]))
    image = Image.blend(image, noise, 0.12).filter(ImageFilter.GaussianBlur(0.6))
    buffer = io.BytesIO()
    image.save(buffer, format="JPEG", quality=70)
    out = pymupdf.open()
    scan = out.new_page(width=width, height=height)
    scan.insert_image(scan.rect, stream=buffer.getvalue())
    out.save(target)
    out.close()


def build(folder: Path, count: int, seed: int = 30) -> dict[str, dict[str, Any]]:
    """``count`` scanned Russian invoices in ``folder``, and the answers for each."""
    folder.mkdir(parents=True, exist_ok=True)
    rng = random.Random(seed)
    answers: dict[str, dict[str, Any]] = {}
    for n in range(1, count + 1):
        v = _values(rng, n)
        clean = folder / f"ru_clean_{n:02d}.pdf"
        builders.invoice_pdf(
            clean,
            number=v["number"],
            day=v["date_text"],
            seller=v["seller"][0],
            seller_inn=v["seller"][1],
            buyer=v["buyer"][0],
            buyer_inn=v["buyer"][1],
            total=_money(v["amount"]),
            vat=_money(v["vat"]),
        )
        name = f"ru_scan_{n:02d}.pdf"
        _scan(clean, folder / name, rng)
        clean.unlink()
        answers[name] = {
            "number": v["number"],
            "date": v["date"],
            "amount": v["amount"],
            "vat": v["vat"],
            "currency": "RUB",
            "doc_type": "invoice",
            "language": "ru",
        }
    return answers
