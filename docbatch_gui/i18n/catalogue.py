"""Loading the catalogue: ``.mo`` files compiled from the ``.po`` sources.

A wheel or a bundle carries the ``.mo`` compiled at build time. A checkout (or an
install whose ``.mo`` is older than its ``.po``) compiles it at first use with
Babel, into the package when it is writable, else into the user's cache folder; so
a translator's edit shows on the next start without a build step.
"""

from __future__ import annotations

import dataclasses
import functools
import gettext as _gettext
import logging
import os
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import platformdirs

from docbatch_gui.resources import resources_dir

log = logging.getLogger(__name__)

DOMAIN = "docbatch"
#: English (the source language, no file) and every language with a ``.po``
LANGUAGES: dict[str, str] = {"en": "English", "ru": "Русский"}

_state = {"language": "en"}


def N_(message: str) -> str:
    """Mark ``message`` for extraction; it is translated where it is shown."""
    return message


def NP_(context: str, message: str) -> str:
    """Mark ``message`` under ``context`` for extraction (keyword ``NP_:1c,2``); it is
    worded where it is shown with ``pgettext(context, message)``."""
    return message


@dataclasses.dataclass(frozen=True)
class Plural:
    """A message worded by a number: its English singular and plural (the catalogue's
    ``msgid`` and ``msgid_plural``) and the parameter whose value picks the form."""

    singular: str
    plural: str
    count: str = "count"

    def form(self, params: Mapping[str, Any], language: str | None = None) -> str:
        """The form ``params[count]`` asks for in ``language`` (the current one when
        None); the plural when the count is missing or not a number."""
        value = params.get(self.count)
        try:
            number = int(value) if value is not None else 2
        except (TypeError, ValueError):
            number = 2
        words = translation(language or _state["language"])
        return words.ngettext(self.singular, self.plural, number)


def NN_(singular: str, plural: str, count: str = "count") -> Plural:
    """Mark a message worded by the parameter ``count`` for extraction (keyword
    ``NN_:1,2``); it is worded where it is shown with :meth:`Plural.form`."""
    return Plural(singular, plural, count)


def locale_dir() -> Path:
    return resources_dir() / "locale"


def source_of(language: str) -> Path:
    """The ``.po`` of ``language``."""
    return locale_dir() / language / "LC_MESSAGES" / f"{DOMAIN}.po"


def _compiled(language: str) -> Path | None:
    """The ``.mo`` of ``language``, compiled now when missing or older than its ``.po``."""
    po = source_of(language)
    mo = po.with_suffix(".mo")
    if not po.exists():
        return mo if mo.exists() else None
    if mo.exists() and mo.stat().st_mtime >= po.stat().st_mtime:
        return mo
    cached = Path(platformdirs.user_cache_dir("DocBatch", appauthor=False)) / "locale"
    for target in (mo, cached / language / "LC_MESSAGES" / f"{DOMAIN}.mo"):
        if target != mo and target.exists() and target.stat().st_mtime >= po.stat().st_mtime:
            return target
        try:
            compile_po(po, target)
        except OSError:
            continue
        return target
    log.warning("The %s catalogue could not be compiled; the window speaks English", language)
    return None


def compile_po(po: Path, mo: Path) -> None:
    """Compile ``po`` into ``mo`` (written whole, then renamed into place)."""
    # deferred: Babel (0.05 s), only to compile a missing .mo
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with po.open("rb") as source:
        catalog = read_po(source, locale=po.parent.parent.name, domain=DOMAIN)
    mo.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=mo.parent, suffix=".mo.part")
    try:
        with os.fdopen(handle, "wb") as out:
            write_mo(out, catalog)
        os.replace(temporary, mo)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


@functools.cache
def translation(language: str) -> _gettext.NullTranslations:
    """The catalogue of ``language``; English (and an unknown language) words as written."""
    if language == "en" or language not in LANGUAGES:
        return _gettext.NullTranslations()
    mo = _compiled(language)
    if mo is None:
        return _gettext.NullTranslations()
    with mo.open("rb") as source:
        return _gettext.GNUTranslations(source)


def set_language(language: str) -> str:
    """Word everything from now on in ``language`` (English when it is not one of
    :data:`LANGUAGES`); return the language chosen."""
    _state["language"] = language if language in LANGUAGES else "en"
    return _state["language"]


def current_language() -> str:
    return _state["language"]


def gettext(message: str) -> str:
    return translation(_state["language"]).gettext(message)


def ngettext(singular: str, plural: str, count: int) -> str:
    return translation(_state["language"]).ngettext(singular, plural, count)


def pgettext(context: str, message: str) -> str:
    return translation(_state["language"]).pgettext(context, message)


def npgettext(context: str, singular: str, plural: str, count: int) -> str:
    return translation(_state["language"]).npgettext(context, singular, plural, count)
