"""Make the application icon's PNG sizes and .ico from resources/docbatch.svg.

    .venv/bin/python scripts/make_icons.py

Writes ``resources/icons/docbatch-<size>.png`` (16 to 512), ``resources/docbatch.ico``
(16 to 256, for Windows and PyInstaller) and the package's copy in
``docbatch_gui/resources/icons/`` (the SVG and the PNGs up to 256), which the window
loads and the wheel and the bundle carry. Qt renders the SVG; Pillow writes the .ico.
Run it after changing the SVG, and commit what it wrote
(``tests/unit/test_desktop_resources.py`` checks the copies agree).
"""

from __future__ import annotations

import io
import os
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SVG = ROOT / "resources" / "docbatch.svg"
PNG_DIR = ROOT / "resources" / "icons"
ICO = ROOT / "resources" / "docbatch.ico"
PACKAGE_ICONS = ROOT / "docbatch_gui" / "resources" / "icons"
SIZES = (16, 24, 32, 48, 64, 128, 256, 512)
ICO_SIZES = (16, 24, 32, 48, 64, 128, 256)
PACKAGE_SIZES = (16, 24, 32, 48, 64, 128, 256)


def render(size: int) -> bytes:
    """The SVG as a ``size`` × ``size`` PNG, antialiased, on a transparent ground."""
    from PySide6.QtCore import QBuffer, QByteArray, QIODevice
    from PySide6.QtGui import QGuiApplication, QImage, QPainter
    from PySide6.QtSvg import QSvgRenderer

    _app = QGuiApplication.instance() or QGuiApplication([])
    image = QImage(size, size, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(0)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    QSvgRenderer(str(SVG)).render(painter)
    painter.end()
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    image.save(buffer, "PNG")
    return bytes(data.data())


def main() -> int:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PIL import Image

    PNG_DIR.mkdir(parents=True, exist_ok=True)
    PACKAGE_ICONS.mkdir(parents=True, exist_ok=True)
    images = {}
    for size in SIZES:
        png = render(size)
        (PNG_DIR / f"docbatch-{size}.png").write_bytes(png)
        images[size] = Image.open(io.BytesIO(png)).convert("RGBA")
        if size in PACKAGE_SIZES:
            (PACKAGE_ICONS / f"docbatch-{size}.png").write_bytes(png)
    largest = images[max(ICO_SIZES)]
    largest.save(
        ICO,
        format="ICO",
        sizes=[(s, s) for s in ICO_SIZES],
        append_images=[images[s] for s in ICO_SIZES if s != max(ICO_SIZES)],
    )
    shutil.copyfile(SVG, PACKAGE_ICONS / "docbatch.svg")
    print(f"wrote {len(SIZES)} PNGs, {ICO.name} ({len(ICO_SIZES)} sizes), {PACKAGE_ICONS}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
