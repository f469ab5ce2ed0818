"""The gettext catalogue of the core's words: every code has its English template in
the code and its Russian in the ``.po``, which ``msgfmt -c`` accepts whole (nothing
untranslated or fuzzy, the plural forms of Russian); placeholders agree in every
form; counts are worded with ``ngettext``."""

from __future__ import annotations

import functools
import importlib.util
import os
import re
import shutil
import string
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import read_po, write_po

from docbatch_gui.domain.messages import (
    CATALOGUES,
    COUNTED,
    english_template,
    fill,
    placeholders,
    template,
    word,
)
from docbatch_gui.domain.reasons import TEMPLATES, ReviewCode
from docbatch_gui.i18n import Plural
from docbatch_gui.i18n.catalogue import source_of
from tests.conftest import REPO

PO = source_of("ru")
#: the counts the issue names, and the three Russian forms: 1 задание, 2 задания, 5 заданий
COUNTS = (1, 2, 5, 21)


def catalog() -> Catalog:
    """The committed ``.po``, read afresh: a test may change its copy."""
    with PO.open("rb") as source:
        return read_po(source, locale="ru")


@functools.cache
def committed() -> Catalog:
    """The committed ``.po``, read once per process for the tests that only look at it
    (reading it takes babel about 0.1 s; some six hundred cases look up one entry)."""
    return catalog()


def messages() -> Iterator[Message]:
    return (m for m in committed() if m.id)


def _names(text: str) -> set[str]:
    return {
        name.split(".")[0].split("[")[0] for _, name, _, _ in string.Formatter().parse(text) if name
    }


# -- the .po itself ---------------------------------------------------------------------


@pytest.mark.skipif(
    sys.platform == "win32" and shutil.which("msgfmt") is None,
    reason="GNU gettext's msgfmt (scripts/test.sh installs it on Linux)",
)
def test_msgfmt_accepts_the_po_with_nothing_untranslated_or_fuzzy() -> None:
    result = subprocess.run(
        ["msgfmt", "-c", "--statistics", "-o", os.devnull, str(PO)], capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    assert "untranslated" not in result.stderr and "fuzzy" not in result.stderr, result.stderr
    assert " translated messages" in result.stderr, result.stderr


def test_the_po_has_russian_plural_forms_and_every_entry_translated() -> None:
    book = committed()
    assert book.num_plurals == 3
    assert "n%10==1 && n%100!=11" in (book.plural_forms or "")
    left = [m.id for m in book if m.id and (m.fuzzy or not all(_forms(m)))]
    assert not left, f"untranslated or fuzzy: {left}"
    assert not book.obsolete


def _forms(message: Message) -> tuple[str, ...]:
    return tuple(message.string) if isinstance(message.string, tuple | list) else (message.string,)


@pytest.mark.parametrize("message", list(messages()), ids=lambda m: str(m.id)[:60])
def test_every_translation_keeps_the_placeholders_of_its_msgid(message: Message) -> None:
    ids = message.id if isinstance(message.id, tuple | list) else (message.id,)
    wanted = set().union(*(_names(i) for i in ids))
    for form in _forms(message):
        assert _names(form) == wanted, (message.id, form)


# -- every code of the core is in it ----------------------------------------------------


def _codes() -> list[tuple[str | None, str, str | Plural]]:
    coded = [(context, code, text) for context, table in CATALOGUES for code, text in table.items()]
    coded += [(None, code, text) for code, text in TEMPLATES.items()]
    coded += [
        (None, f"{code}.{name}", text) for code, by in COUNTED.items() for name, text in by.items()
    ]
    return coded


def test_a_code_is_defined_once_and_not_as_a_review_reason() -> None:
    seen: set[str] = set()
    for _, table in CATALOGUES:
        twice = seen & set(table)
        assert not twice, f"defined twice: {sorted(twice)}"
        seen |= set(table)
    assert not seen & set(TEMPLATES), "a message code shadows a review reason"
    assert set(COUNTED) <= seen


@pytest.mark.parametrize(("context", "code", "english"), _codes(), ids=lambda v: str(v)[:40])
def test_every_code_has_its_template_translated_in_the_po(
    context: str | None, code: str, english: str | Plural
) -> None:
    book = committed()
    msgid = english.singular if isinstance(english, Plural) else english
    entry = book.get(msgid, context=context)
    assert entry is not None, f"{code}: {msgid!r} is not in {PO.name}"
    if isinstance(english, Plural):
        assert entry.id == (english.singular, english.plural), code
        assert _names(english.singular) | _names(english.plural) >= {english.count}, code
    assert all(_forms(entry)), code


def _sample(name: str) -> object:
    return 1.5 if name in {"size_mb", "max_mb", "best", "threshold", "score", "ratio"} else 7


@pytest.mark.parametrize("code", [c for _, t in CATALOGUES for c in t])
def test_every_template_formats_with_numbers_in_both_languages(code: str) -> None:
    found = english_template(code)
    assert found is not None
    english = found[1]
    names = (
        placeholders(english.singular) | placeholders(english.plural)
        if isinstance(english, Plural)
        else placeholders(english)
    )
    params = {name: _sample(name) for name in names}
    for language in ("en", "ru"):
        text = template(code, language, params)
        assert text is not None and fill(text, params, language) is not None, (code, language)
        assert word(code, params, language) != code, (code, language)


# -- counts ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("count", "english", "russian"),
    [
        (1, "1 job held", "1 задание задержано"),
        (2, "2 jobs held", "2 задания задержаны"),
        (5, "5 jobs held", "5 заданий задержаны"),
        (21, "21 jobs held", "21 задание задержано"),
    ],
)
def test_a_count_is_worded_in_the_plural_form_of_each_language(
    count: int, english: str, russian: str
) -> None:
    params = {"count": count, "reason": "x"}
    assert word("held_wait_ended", params, "en").startswith(english)
    assert word("held_wait_ended", params, "ru").startswith(russian)
    assert "(s)" not in word("held_wait_ended", params, "en")


@pytest.mark.parametrize(
    ("files", "pages", "english", "russian"),
    [
        (1, 1, "1 file, 1 page, held", "1 файл, 1 страница, задержан"),
        (2, 2, "2 files, 2 pages, held", "2 файла, 2 страницы, задержаны"),
        (5, 5, "5 files, 5 pages, held", "5 файлов, 5 страниц, задержаны"),
        (21, 21, "21 files, 21 pages, held", "21 файл, 21 страница, задержан"),
    ],
)
def test_two_counts_in_one_message_are_each_worded(
    files: int, pages: int, english: str, russian: str
) -> None:
    params = {"files": files, "pages": pages, "usd": 2, "low": 1, "high": 3, "cap": 1}
    assert word("budget_run_cap", params, "en").startswith(english)
    assert word("budget_run_cap", params, "ru").startswith(russian)
    assert params["pages"] == pages, "the stored parameters stay numbers"


def test_no_template_words_a_count_with_parentheses() -> None:
    """No "file(s)" or "файл(ов)", and no count put after its noun to dodge the
    plural ("заданий: {count}"): a message with a ``{count}`` is a plural entry."""
    for _, _, english in _codes():
        texts = (english.singular, english.plural) if isinstance(english, Plural) else (english,)
        for text in texts:
            assert "(s)" not in text, text
    for message in messages():
        assert "{count" not in str(message.id) or isinstance(message.id, tuple | list), message.id
        for form in _forms(message):
            assert not re.search(r"\((ов|а|ы)\)", form), form


def test_a_count_that_is_not_a_number_still_words_the_message() -> None:
    assert word("held_wait_ended", {"count": "many", "reason": "x"}, "ru").startswith("many")
    assert word("held_wait_ended", {"reason": "x"}, "en", fallback="stored") == "stored"


# -- contexts and the state names ---------------------------------------------------------


def test_one_english_word_worded_two_ways_under_two_contexts() -> None:
    """ "error" is a registry's status and "Failed" a job's state: each has its own context."""
    assert template("registry_status_error", "ru") == "ошибка"
    assert template("kind_timeout", "ru") == "время вышло"
    assert template("state_timed_out", "ru") == "Время истекло"
    assert template("state_processing", "en") == "In batch"


def test_a_message_naming_a_state_words_it_from_the_state_names() -> None:
    params = {"job": 4, "file": "a.pdf", "state": {"code": "state_processing", "params": {}}}
    assert word("job_not_retryable", params, "ru").startswith(
        "задание 4 (a.pdf) в состоянии «В пакете»"
    )
    assert word("job_not_retryable", params, "en").startswith("job 4 (a.pdf) is In batch")


def test_review_reasons_are_worded_from_the_catalogue() -> None:
    code = ReviewCode("pages_no_text", None, {"pages": "pages 1-3, 5"})
    assert code.words("ru") == "нет текстового слоя на стр. 1-3, 5 (скан): нужно распознавание"
    assert code.words("en") == "no text layer on pages 1-3, 5 (scan): OCR needed"


# -- the translator's workflow -----------------------------------------------------------


@pytest.mark.slow
def test_the_workflow_check_passes_on_the_committed_catalogue() -> None:
    """``scripts/i18n.py --check``: every string the code marks is in the ``.po``,
    translated, not fuzzy, and the ``.po`` holds nothing the code no longer has."""
    result = subprocess.run(
        [sys.executable, str(REPO / "scripts" / "i18n.py"), "--check"],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 fuzzy, 0 untranslated" in result.stdout, result.stdout


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("i18n_workflow", REPO / "scripts" / "i18n.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_the_check_names_each_gap_of_a_po(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """What ``--check`` fails on: a string of the code the ``.po`` lacks, and an
    untranslated, a fuzzy and an obsolete entry."""
    script = _script()
    book = catalog()
    template = Catalog(locale="ru")
    for message in book:
        if message.id:
            template.add(message.id, context=message.context)
    template.add("a string only the code has")
    entries = [m for m in book if m.id and isinstance(m.id, str)]
    entries[0].string = ""
    entries[1].flags.add("fuzzy")
    book.add("a string the code no longer has", "строка, которой в коде уже нет")
    po = tmp_path / "ru" / "LC_MESSAGES" / "docbatch.po"
    po.parent.mkdir(parents=True)
    with po.open("wb") as out:
        write_po(out, book)
    monkeypatch.setattr(script, "LOCALE", tmp_path)
    found = script.gaps("ru", template)
    assert found.missing == [(None, "a string only the code has")]
    assert found.untranslated == [(entries[0].context, entries[0].id)]
    assert found.fuzzy == [(entries[1].context, entries[1].id)]
    assert found.obsolete == [(None, "a string the code no longer has")]
    assert len(found.all) == 4
    monkeypatch.setattr(script, "LOCALE", PO.parents[2])
    assert not script.gaps("ru", None).all  # the committed one, against itself
