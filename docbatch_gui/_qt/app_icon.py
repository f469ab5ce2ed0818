"""The application's icon and desktop identity, set once on the QApplication.

``setWindowIcon`` at application level gives the icon to the main window and to every
dialog and message box that does not set one of its own. The PNG sizes and the SVG
ship inside the package (``docbatch_gui/resources/icons``, made from the top-level
``resources/docbatch.svg`` by ``scripts/make_icons.py``), so an installed wheel and
the PyInstaller bundle find them where the other data is. The desktop file name ties
the window to the installed ``.desktop`` entry (``scripts/install-desktop.sh``), which
is how Wayland compositors pick the icon of a running window.
"""

from __future__ import annotations

from PySide6.QtCore import QSize
from PySide6.QtGui import QGuiApplication, QIcon

from docbatch_gui.resources import resources_dir

#: the desktop entry's id, ``resources/linux/org.docbatch.DocBatch.desktop``
DESKTOP_ID = "org.docbatch.DocBatch"
SIZES = (16, 24, 32, 48, 64, 128, 256)


def application_icon() -> QIcon:
    """The icon in every shipped size; an empty icon when the files are missing (a test
    pointing ``DOCBATCH_RESOURCES`` at a copy without them): Qt's default then."""
    folder = resources_dir() / "icons"
    icon = QIcon()
    for size in SIZES:
        path = folder / f"docbatch-{size}.png"
        if path.is_file():
            icon.addFile(str(path), QSize(size, size))
    return icon


def dress(app: QGuiApplication) -> QIcon:
    """Give ``app`` its icon and desktop identity; the icon set."""
    icon = application_icon()
    if not icon.isNull():
        app.setWindowIcon(icon)
    app.setDesktopFileName(DESKTOP_ID)
    return icon
