"""The ``.mo`` is compiled at first use when a checkout or an install lacks it, or
holds one older than its ``.po``; into the user's cache when the package folder
cannot take it."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from docbatch_gui.i18n import catalogue

PLURALS = ("{count} job", "{count} jobs")


@pytest.fixture
def locale(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A locale folder holding a copy of the Russian ``.po`` and no ``.mo``."""
    folder = tmp_path / "locale"
    po = folder / "ru" / "LC_MESSAGES" / "docbatch.po"
    po.parent.mkdir(parents=True)
    shutil.copy(catalogue.source_of("ru"), po)
    monkeypatch.setattr(catalogue, "locale_dir", lambda: folder)
    cache = tmp_path / "cache"
    monkeypatch.setattr(catalogue.platformdirs, "user_cache_dir", lambda *a, **k: str(cache))
    catalogue.translation.cache_clear()
    yield po
    catalogue.translation.cache_clear()


def test_a_missing_mo_is_compiled_at_first_use(locale: Path) -> None:
    assert not locale.with_suffix(".mo").exists()
    words = catalogue.translation("ru")
    assert locale.with_suffix(".mo").is_file()
    assert [words.ngettext(*PLURALS, n) for n in (1, 2, 5)] == [
        "{count} задание",
        "{count} задания",
        "{count} заданий",
    ]


def test_an_mo_older_than_its_po_is_compiled_again(locale: Path) -> None:
    catalogue.translation("ru")
    mo = locale.with_suffix(".mo")
    text = locale.read_text(encoding="utf-8").replace('"{count} заданий"', '"{count} штук"')
    locale.write_text(text, encoding="utf-8")
    past = mo.stat().st_mtime - 60
    os.utime(mo, (past, past))
    catalogue.translation.cache_clear()
    assert catalogue.translation("ru").ngettext(*PLURALS, 5) == "{count} штук"


def test_a_package_folder_that_cannot_take_the_mo_compiles_it_into_the_cache(
    locale: Path, tmp_path: Path
) -> None:
    mo = locale.with_suffix(".mo")
    mo.mkdir()  # in the way of the file, whatever the user's rights (tests may run as root)
    past = locale.stat().st_mtime - 60
    os.utime(mo, (past, past))
    words = catalogue.translation("ru")
    assert words.ngettext(*PLURALS, 2) == "{count} задания"
    assert (tmp_path / "cache" / "locale" / "ru" / "LC_MESSAGES" / "docbatch.mo").is_file()


def test_english_and_an_unknown_language_word_as_written() -> None:
    for language in ("en", "xx"):
        assert catalogue.translation(language).ngettext(*PLURALS, 5) == "{count} jobs"
