"""The Russian translation is complete: every string in the code has a translation in
``docbatch_gui/resources/i18n/docbatch_ru.ts``, the committed ``.qm`` holds exactly those, and the
main window built in Russian shows no English string."""

from __future__ import annotations

import asyncio
import importlib.util
import re
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from PySide6.QtCore import QLocale, QModelIndex, QSettings, Qt, QTranslator
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QAbstractButton,
    QApplication,
    QComboBox,
    QDockWidget,
    QGroupBox,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QTableView,
    QTreeView,
    QWidget,
)

from docbatch_gui._qt.i18n import LANGUAGE_KEY, chosen_language
from docbatch_gui.resources import resources_dir

ROOT = Path(__file__).resolve().parents[2]

#: words that stay as they are in Russian: product and protocol names
KEEP = {
    "DocBatch",
    "Claude",
    "OCR",
    "API",
    "MinIO",
    "Redis",
    "MongoDB",
    "Celery",
    "JPEG",
    "HTTPS",
    "URL",
    "English",  # the language's own name in the language list
    "Google Vision",
    "Tesseract",
}
#: what a Russian string may hold in Latin letters besides KEEP: identifiers and
#: variables (ENV_NAME, json_schema), key names and file names
TECHNICAL = re.compile(
    r"\b[A-Z][A-Z0-9_]+\b"  # PROCESSING_MODE, ID
    r"|\b\w+_\w+\b"  # json_schema, google_vision
    r"|\bclaude-[a-z0-9-]+\b"  # model ids, as the API and the price list name them
    r"|\b(?:(?:Ctrl|Shift|Alt)\+)+\w+\b|\b(?:PgUp|PgDown|F\d+)\b"  # keys
    r"|\S+\.(?:pdf|png|jpe?g|tiff?|json|ini|qm|ts)\b"
)
CYRILLIC = re.compile(r"[А-Яа-яЁё]")
LATIN = re.compile(r"[A-Za-z]")


def load_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("i18n_script", ROOT / "scripts" / "i18n.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


SCRIPT = load_script()


def ts_messages(ts: Path) -> list[tuple[str, ET.Element]]:
    """(context, message) for every message of a ``.ts`` (scripts/i18n.py is gettext's
    workflow now; the window's .ts is read here until its strings move to the .po)."""
    root = ET.parse(ts).getroot()
    return [
        (context.findtext("name") or "", message)
        for context in root.iter("context")
        for message in context.iter("message")
    ]


TS = resources_dir() / "i18n" / "docbatch_ru.ts"
QM = resources_dir() / "i18n" / "docbatch_ru.qm"


def english_left(text: str) -> str:
    """What is left of ``text`` in Latin letters once the allowed words are gone;
    "" when it reads as Russian (or holds nothing to translate)."""
    plain = re.sub(r"<[^>]+>", " ", text)  # rich text: the tags are not shown
    if CYRILLIC.search(plain):
        return ""
    plain = TECHNICAL.sub(" ", plain)
    for word in sorted(KEEP, key=len, reverse=True):
        plain = plain.replace(word, " ")
    return plain.strip() if LATIN.search(plain) else ""


# -- the .ts and the .qm -----------------------------------------------------------------


def test_every_string_in_the_code_has_a_russian_translation() -> None:
    """``scripts/i18n.py --check``'s gaps of the catalogue: none."""
    missing = SCRIPT.check("ru")
    assert not missing, (
        f"{len(missing)} string(s) without a Russian translation; run "
        f"scripts/i18n.py and translate them in {TS.name}: {missing}"
    )


def test_translations_keep_placeholders_accelerators_and_markup() -> None:
    entries = ts_messages(TS)
    assert len(entries) > 200
    for context, message in entries:
        source = message.findtext("source") or ""
        translation = message.find("translation")
        assert translation is not None
        forms = [f.text or "" for f in translation.iter("numerusform")] or [translation.text or ""]
        for text in forms:
            where = f"[{context}] {source!r} -> {text!r}"
            assert sorted(re.findall(r"\{[^}]*\}", text)) == sorted(
                re.findall(r"\{[^}]*\}", source)
            ), where
            assert ("%n" in text) == ("%n" in source), where
            assert text.count("&") == source.count("&"), where
            assert sorted(re.findall(r"</?\w+", text)) == sorted(re.findall(r"</?\w+", source)), (
                where
            )
            assert not english_left(text) or text == source, where


def test_the_compiled_qm_matches_the_ts() -> None:
    """The committed .qm answers every entry of the .ts with its translation (it was
    compiled after the last edit)."""
    translator = QTranslator()
    assert translator.load(str(QM))
    stale = []
    for context, message in ts_messages(TS):
        source = message.findtext("source") or ""
        translation = message.find("translation")
        assert translation is not None
        if translation.get("type") == "unfinished":
            continue  # the test above names those
        forms = [f.text for f in translation.iter("numerusform")]
        if forms:
            got = [translator.translate(context, source, None, n) for n in (1, 2, 5)]
            expected: Any = forms
        else:
            got, expected = translator.translate(context, source), translation.text
        if got != expected:
            stale.append((context, source, got, expected))
    assert not stale, f"rebuild the .qm with scripts/i18n.py: {stale[:5]}"


# -- the language at start ---------------------------------------------------------------


def test_start_language_is_the_command_line_then_settings_then_the_system(
    qsettings: QSettings, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(QLocale, "system", lambda: QLocale(QLocale.Language.Russian))
    assert chosen_language(qsettings) == "ru"  # nothing chosen: the system's
    qsettings.setValue(LANGUAGE_KEY, "en")
    assert chosen_language(qsettings) == "en"  # Settings' choice
    assert chosen_language(qsettings, "ru") == "ru"  # --lang wins
    qsettings.setValue(LANGUAGE_KEY, "")  # "System default" in Settings
    assert chosen_language(qsettings) == "ru"
    monkeypatch.setattr(QLocale, "system", lambda: QLocale(QLocale.Language.German))
    assert chosen_language(qsettings) == "en"  # a language without a translation


def test_run_gui_installs_the_chosen_language(monkeypatch: pytest.MonkeyPatch) -> None:
    """main.run_gui reads Settings' choice from QSettings() before building anything."""
    from docbatch_gui._qt import main

    app = QApplication.instance()
    assert isinstance(app, QApplication)
    names = app.organizationName(), app.applicationName()
    app.setOrganizationName("DocBatch")
    app.setApplicationName("DocBatch")
    QSettings().setValue(LANGUAGE_KEY, "ru")  # as the Settings tab saves it
    installed: list[str] = []
    monkeypatch.setattr(
        "docbatch_gui._qt.i18n.install_translator", lambda _app, lang: installed.append(lang)
    )

    def stop(**_: object) -> None:
        raise SystemExit("stop after the language")

    monkeypatch.setattr("docbatch_gui.settings.model.load_settings", stop)
    try:
        with pytest.raises(SystemExit):
            main.run_gui(main.parse_args([]))
    finally:
        app.setOrganizationName(names[0])
        app.setApplicationName(names[1])
    assert installed == ["ru"]


# -- the window --------------------------------------------------------------------------


def strings(window: Any) -> list[tuple[str, str]]:
    """(where, text) of every string the window can show: titles, tabs, menus, labels,
    buttons, group boxes, placeholders, combo items, column headers, tooltips."""
    found: list[tuple[str, str]] = []

    def add(where: str, text: object) -> None:
        if isinstance(text, str) and (LATIN.search(text) or CYRILLIC.search(text)):
            found.append((where, text))

    add("window title", window.windowTitle())
    add("status bar", window.statusBar().currentMessage())
    for i in range(window.tabs.count()):
        add("tab", window.tabs.tabText(i))
    for menu_action in window.menuBar().actions():
        add("menu", menu_action.text())
        menu = menu_action.menu()
        for action in menu.actions() if menu is not None else []:
            add("menu item", action.text())
    for action in window.findChildren(QAction):
        add(f"action {action.objectName()}", action.text())
    for widget in window.findChildren(QWidget):
        name = f"{type(widget).__name__} {widget.objectName()}".strip()
        add(f"{name} tooltip", widget.toolTip())
        if isinstance(widget, QLabel | QAbstractButton):
            add(name, widget.text())
        elif isinstance(widget, QGroupBox):
            add(name, widget.title())
        elif isinstance(widget, QDockWidget):
            add(name, widget.windowTitle())
        elif isinstance(widget, QLineEdit | QPlainTextEdit):
            add(f"{name} placeholder", widget.placeholderText())
        elif isinstance(widget, QComboBox):
            for i in range(widget.count()):
                add(f"{name} item", widget.itemText(i))
        elif isinstance(widget, QTableView | QTreeView) and widget.model() is not None:
            model = widget.model()
            for column in range(model.columnCount(QModelIndex())):
                add(
                    f"{name} header",
                    model.headerData(
                        column, Qt.Orientation.Horizontal, Qt.ItemDataRole.DisplayRole
                    ),
                )
    return found


@pytest.mark.asyncio(loop_factories=["qasync"])
async def test_the_main_window_in_russian_shows_no_english(russian: None, window: Any) -> None:
    from docbatch_gui._qt.tasks import drain

    for index in range(window.tabs.count()):  # each tab fills itself when shown
        window.tabs.setCurrentIndex(index)
        await asyncio.sleep(0)
        await drain()
    window.log_dock.show()
    await asyncio.sleep(0)
    await drain()
    shown = strings(window)
    texts = {text for _, text in shown}
    assert len(texts) > 150, "the walk found too little to be a real window"
    assert {"Очередь", "Проверка", "Пакеты", "Реестр", "Настройки", "&Файл"} <= texts
    english = sorted({(where, text) for where, text in shown if english_left(text)})
    assert not english, "shown in English: " + "; ".join(f"{w}: {t!r}" for w, t in english)
