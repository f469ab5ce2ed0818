"""The Russian translation of the window is complete: every word marked in
``docbatch_gui/_qt`` has a translation in the gettext catalogue
(``docbatch_gui/resources/locale/ru/LC_MESSAGES/docbatch.po``), with the plural
forms for a count, no Qt ``tr()`` is left for DocBatch's words, and the main window
built in Russian shows no English string."""

from __future__ import annotations

import ast
import asyncio
import re
from pathlib import Path
from typing import Any

import pytest
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po
from PySide6.QtCore import QCoreApplication, QLocale, QModelIndex, QSettings, Qt
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
    QProgressBar,
    QTableView,
    QTreeView,
    QWidget,
)

from docbatch_gui._qt.i18n import (
    LANGUAGE_KEY,
    CatalogueTranslator,
    chosen_language,
    install_translator,
)
from docbatch_gui._qt.language import interface_language
from docbatch_gui._qt.queue.held_bar import HeldBar
from docbatch_gui.i18n import current_language
from docbatch_gui.i18n.catalogue import source_of
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
    "Google Cloud Vision",
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


QT_CODE = ROOT / "docbatch_gui" / "_qt"
#: the marking functions, as ``pybabel extract`` is told of them (``babel.cfg``)
KEYWORDS: dict[str, Any] = {
    "_": None,
    "N_": None,
    "ngettext": (1, 2),
    "pgettext": ((1, "c"), 2),
    "npgettext": ((1, "c"), 2, 3),
    "NP_": ((1, "c"), 2),
}


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


# -- the catalogue ----------------------------------------------------------------------


def window_messages() -> list[tuple[str | None, str | tuple[str, ...], int]]:
    """(context, message, line) of every word marked in the window's code, as
    ``pybabel extract`` finds it (``message`` a (singular, plural) pair for a count)."""
    return [
        (context, message, lineno)
        for _file, lineno, message, _comments, context in extract_from_dir(
            str(QT_CODE), method_map=[("**.py", "python")], keywords=KEYWORDS
        )
    ]


def russian_catalogue() -> Catalog:
    with source_of("ru").open("rb") as source:
        return read_po(source, locale="ru", domain="docbatch")


def test_every_window_word_has_a_russian_translation() -> None:
    catalogue = russian_catalogue()
    found = window_messages()
    assert len(found) > 600, "the extraction found too little to be the window's words"
    missing = []
    for context, message, lineno in found:
        msgid = message if isinstance(message, str) else message[0]
        entry = catalogue.get(msgid, context)
        forms = [] if entry is None else entry.string
        forms = [forms] if isinstance(forms, str) else list(forms)
        plural = not isinstance(message, str)
        if (
            entry is None
            or entry.fuzzy
            or not all(forms)
            or (plural and (entry.id != message or len(forms) != catalogue.num_plurals))
        ):
            missing.append((context, msgid, lineno))
    assert not missing, (
        f"{len(missing)} word(s) of the window without a Russian translation in "
        f"{source_of('ru').name}: {missing}"
    )


def test_translations_keep_placeholders_accelerators_and_markup() -> None:
    catalogue = russian_catalogue()
    checked = 0
    for context, message, _line in window_messages():
        msgid = message if isinstance(message, str) else message[0]
        entry = catalogue.get(msgid, context)
        if entry is None:
            continue  # the test above names it
        sources = [message] if isinstance(message, str) else list(message)
        forms = [entry.string] if isinstance(entry.string, str) else list(entry.string)
        for text in forms:
            where = f"[{context}] {msgid!r} -> {text!r}"
            source = sources[-1]  # a plural form keeps the plural's placeholders
            assert sorted(set(re.findall(r"\{[^}]*\}", text))) == sorted(
                set(re.findall(r"\{[^}]*\}", source))
            ), where
            assert text.count("&") == source.count("&"), where
            assert sorted(re.findall(r"</?\w+", text)) == sorted(re.findall(r"</?\w+", source)), (
                where
            )
            assert not english_left(text) or text == source, where
            checked += 1
    assert checked > 600


def test_a_count_in_the_window_takes_the_russian_plural_forms() -> None:
    """Each plural entry the window uses has the language's three forms, each with the
    count in it."""
    catalogue = russian_catalogue()
    plurals = [m for _c, m, _l in window_messages() if not isinstance(m, str)]
    assert len(plurals) >= 20
    for message in plurals:
        entry = next(e for e in catalogue if e.id == message)
        assert len(entry.string) == 3 and len(set(entry.string)) >= 2, entry.id
        assert all("{count}" in form for form in entry.string), entry.id


def test_no_qt_translation_call_is_left_for_docbatchs_words() -> None:
    """The window words itself through the catalogue: no ``tr()`` or
    ``QCoreApplication.translate()`` call in ``_qt``; the one ``translate`` there is
    the method of the translator that answers Qt's own strings from the catalogue."""
    found = []
    for path in sorted(QT_CODE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call):
                name = node.func.attr if isinstance(node.func, ast.Attribute) else None
                name = node.func.id if isinstance(node.func, ast.Name) else name
                if name in {"tr", "translate"}:
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert found == []
    assert not list((resources_dir()).rglob("*.ts")) and not list(resources_dir().rglob("*.qm"))


def test_qt_strings_missing_from_qts_catalogue_are_answered_from_ours() -> None:
    translator = CatalogueTranslator("ru")
    assert translator.translate("QFileDialog", "&Look in:") == "&Папка:"
    assert translator.translate("QFileSystemModel", "%1 bytes") == "%1 байт"
    # the rest is left to Qt's catalogue: a null answer (None) lets the next one speak
    assert translator.translate("QFileDialog", "Detail View") is None
    assert translator.translate("job state", "Queued") is None
    assert CatalogueTranslator("en").translate("QFileDialog", "&Look in:") is None


def test_a_qt_string_neither_catalogue_has_is_left_as_it_is(russian: None) -> None:
    """An empty answer was taken as the translation: every progress bar of the Russian
    window (the registry wizard's run, exports, the wait on quitting) showed no text,
    its "%p%" blanked."""
    bar = QProgressBar()
    bar.setRange(0, 4)
    bar.setValue(1)
    assert bar.format() == "%p%" and bar.text() == "25%"
    assert QCoreApplication.translate("QFileDialog", "Detail View") == "Подробный вид"
    assert QCoreApplication.translate("NoSuchContext", "Left alone") == "Left alone"


# -- the language at start ---------------------------------------------------------------


def test_switching_the_language_rewords_what_is_built_next() -> None:
    """Installing a language at run time sets the catalogue's language: the widgets
    built after it, and the job state names kept between calls, are worded in it."""
    from docbatch_gui._qt.queue.jobs_model import state_label
    from docbatch_gui.domain.states import JobState

    app = QApplication.instance()
    assert isinstance(app, QApplication)
    try:
        install_translator(app, "ru")
        assert current_language() == "ru" and interface_language() == "ru"
        assert HeldBar().add_key_button.text() == "Добавить ключ…"
        assert state_label(JobState.NEEDS_REVIEW) == "Требует проверки"
    finally:
        install_translator(app, "en")
    assert current_language() == "en"
    assert HeldBar().add_key_button.text() == "Add a key…"
    assert state_label(JobState.NEEDS_REVIEW) == "Needs review"


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

    monkeypatch.setattr("docbatch_gui.settings.loading.load_settings", stop)
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
