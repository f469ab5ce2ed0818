"""The build step setuptools cannot declare in ``pyproject.toml``: each translation
source (``.po``) is compiled into the ``.mo`` the program loads, inside the wheel.

Everything else about the package is in ``pyproject.toml``. A checkout without a
build compiles the ``.mo`` at first use (``docbatch_gui.i18n.catalogue``).
"""

from __future__ import annotations

from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from setuptools import setup
from setuptools.command.build_py import build_py

LOCALE = Path("docbatch_gui", "resources", "locale")


class BuildWithCatalogues(build_py):
    """``build_py`` that also writes ``<lang>/LC_MESSAGES/docbatch.mo`` beside each ``.po``."""

    def run(self) -> None:
        super().run()
        for po in sorted(Path(self.build_lib, LOCALE).glob("*/LC_MESSAGES/*.po")):
            with po.open("rb") as source:
                catalog = read_po(source, locale=po.parent.parent.name)
            with po.with_suffix(".mo").open("wb") as out:
                write_mo(out, catalog)  # fuzzy entries left out, as msgfmt does


setup(cmdclass={"build_py": BuildWithCatalogues})
