"""Messages from the core as data: a code and its parameters, worded last.

A job error, a registry warning or a workbook the importer refuses is said to three
readers: a script (which wants something stable to test), the command line and the
window (which speak English or Russian). So the core passes a :class:`Message` (a
code and JSON-friendly parameters) around as it is: errors carry one
(``DocBatchError.message``), stores keep its code and parameters beside its English
wording (``Job.error``, a result's ``warnings``: what people and old readers read),
and the front ends word it again in their own language (``Message.words``).

Each code's English template lives in a per-area table (``texts_jobs``,
``texts_services``, ``texts_operator``, ``texts_registry``, ``texts_setup``,
``texts_pages``, ``texts_data``, ``texts_notices``), marked for the gettext
catalogue; the review reasons keep theirs in ``reasons.TEMPLATES``. Other languages
word the English through :func:`docbatch_gui.i18n.translation` (``ngettext`` for a
message worded by a number).
A message without a code (an old record, a library's own text: ``Message.plain``),
or with a code no table knows (a newer version), is shown as its stored English text:
never an error, never an empty line.

A parameter whose value is itself a message (``{"code", "params"}``) is worded in the
same language, so "3 of 5 requests failed; first: …" reads as one sentence.
"""

from __future__ import annotations

import dataclasses
import re
import string
from collections.abc import Mapping
from decimal import Decimal, InvalidOperation
from typing import Any

from docbatch_gui.domain.state_names import MODE_NAMES, STATE_NAMES, mode_name, state_name
from docbatch_gui.domain.texts_connections import CONNECTION_TEXTS
from docbatch_gui.domain.texts_data import DATA_COUNTED, DATA_TEXTS
from docbatch_gui.domain.texts_jobs import JOB_COUNTED, JOB_TEXTS, KIND_CONTEXT, KIND_TEXTS
from docbatch_gui.domain.texts_notices import NOTICE_TEXTS
from docbatch_gui.domain.texts_operator import OPERATOR_TEXTS
from docbatch_gui.domain.texts_pages import PAGE_TEXTS
from docbatch_gui.domain.texts_registry import REGISTRY_TEXTS, STATUS_CONTEXT, STATUS_TEXTS
from docbatch_gui.domain.texts_services import SERVICE_COUNTED, SERVICE_TEXTS
from docbatch_gui.domain.texts_setup import SETUP_TEXTS
from docbatch_gui.i18n import LANGUAGES as CATALOGUE_LANGUAGES
from docbatch_gui.i18n import Plural, translation

#: the languages messages are worded in: English and each language with a catalogue
LANGUAGES = tuple(CATALOGUE_LANGUAGES)

#: (context, code → English template) of every table of core messages; a code is in
#: exactly one (a test checks), its words in the catalogue under that context
CATALOGUES: tuple[tuple[str | None, Mapping[str, str | Plural]], ...] = (
    (None, JOB_TEXTS),
    (KIND_CONTEXT, KIND_TEXTS),
    (None, SERVICE_TEXTS),
    (None, OPERATOR_TEXTS),
    (None, REGISTRY_TEXTS),
    (STATUS_CONTEXT, STATUS_TEXTS),
    (None, SETUP_TEXTS),
    (None, PAGE_TEXTS),
    (None, NOTICE_TEXTS),
    (None, DATA_TEXTS),
    (None, CONNECTION_TEXTS),
)

#: code → {parameter: its words}: a second number in a message ("3 files, 12 pages")
COUNTED: Mapping[str, Mapping[str, Plural]] = {**JOB_COUNTED, **SERVICE_COUNTED, **DATA_COUNTED}

_STATE_CODE = "state_"
#: a parameter named so holds a job's mode (its stored value): worded by its name in
#: ``domain.state_names`` ("sync" → "синхронный")
_MODE_PARAM = "mode"


def english_template(code: str) -> tuple[str | None, str | Plural] | None:
    """(context, English template) of ``code``, as the tables mark it."""
    for context, table in CATALOGUES:
        found = table.get(code)
        if found is not None:
            return context, found
    return None


def template(
    code: str, language: str = "en", params: Mapping[str, Any] | None = None
) -> str | None:
    """The template of ``code`` in ``language``: the catalogue's words for its English
    (as written when the catalogue has none); for a message worded by a number, the
    form its count in ``params`` asks for. A job state (``state_<value>``) is its name
    in ``domain.state_names``."""
    if code.startswith(_STATE_CODE) and code[len(_STATE_CODE) :] in STATE_NAMES:
        return state_name(code[len(_STATE_CODE) :], language)
    found = english_template(code)
    if found is None:
        return None
    context, english = found
    if isinstance(english, Plural):
        return english.form(params or {}, language)
    words = translation(language)
    return words.pgettext(context, english) if context else words.gettext(english)


def counted(code: str, params: Mapping[str, Any], language: str = "en") -> dict[str, Any]:
    """``params`` with each number ``COUNTED`` words for ``code`` put as its words
    ("12" → "12 pages"); a count that does not fit is left as it is."""
    out = dict(params)
    for name, plural in COUNTED.get(code, {}).items():
        if name in params:
            worded = fill(plural.form(params, language), params, language)
            out[name] = worded if worded is not None else params[name]
    return out


#: code → its parameters that are amounts (dot-decimal, "15500.00"): Russian writes
#: them as its accountants do ("15 500,00"); English and the stored text keep them
AMOUNTS: Mapping[str, tuple[str, ...]] = {"match_amount_differs": ("registry", "document")}


def amount_text(value: Any, language: str) -> Any:
    """``value`` (a dot-decimal amount) as ``language`` writes amounts; anything else
    (an unread "—", an old record) as it is."""
    if language != "ru" or not isinstance(value, str):
        return value
    try:
        number = Decimal(value)
    except InvalidOperation:
        return value
    if not number.is_finite():
        return value
    return f"{number:,}".replace(",", "\u00a0").replace(".", ",")


def with_amounts(code: str, params: Mapping[str, Any], language: str) -> dict[str, Any]:
    """``params`` with the amounts ``AMOUNTS`` names for ``code`` in ``language``."""
    out = dict(params)
    for name in AMOUNTS.get(code, ()):
        if name in out:
            out[name] = amount_text(out[name], language)
    return out


def fill(text: str, params: Mapping[str, Any], language: str = "en") -> str | None:
    """``text`` with ``params`` put in; None when a parameter is missing or does not
    fit its format (an old record): the caller then shows something else."""
    values = {k: _worded(v, language, k) for k, v in params.items()}
    try:
        return text.format(**values)
    except (KeyError, IndexError, ValueError, TypeError, AttributeError):
        return None


#: parameters that may hold a library's or the system's own text (MuPDF's reason, an
#: OSError, an HTTP body): DocBatch cannot word it, so another language quotes it
VERBATIM = frozenset({"detail", "error", "reason", "why", "line"})
_LATIN_WORD = re.compile(r"[A-Za-z]{2,}")


def _worded(value: Any, language: str, name: str = "") -> Any:
    if isinstance(value, Mapping) and "code" in value:
        return Message.from_dict(value).words(language)
    if name == _MODE_PARAM and isinstance(value, str) and value in MODE_NAMES:
        return mode_name(value, language)
    if isinstance(value, list):  # several problems, each a message or a text
        return "; ".join(str(_worded(item, language, name)) for item in value)
    if (
        language != "en"
        and name in VERBATIM
        and isinstance(value, str)
        and _LATIN_WORD.search(value)
        and not value.startswith("«")
    ):
        return f"«{value}»"
    return value


def word(
    code: str | None,
    params: Mapping[str, Any] | None = None,
    language: str = "en",
    fallback: str | None = None,
) -> str:
    """A message in ``language``; ``fallback`` (the stored English text) when the code
    is unknown or its parameters do not fit, else the code and its raw parameters."""
    params = params or {}
    text = template(code, language, params) if code else None
    worded = (
        fill(text, counted(code, with_amounts(code, params, language), language), language)
        if code and text
        else None
    )
    if worded is not None:
        return worded
    if fallback is not None:
        return fallback
    shown = ", ".join(f"{k}={v}" for k, v in params.items())
    return f"{code or '?'}" + (f" ({shown})" if shown else "")


def placeholders(text: str) -> set[str]:
    """The parameter names a template uses (what both languages must agree on)."""
    names = set()
    for _, name, _, _ in string.Formatter().parse(text):
        if name:
            names.add(name.split(".")[0].split("[")[0])
    return names


@dataclasses.dataclass(frozen=True)
class Message:
    """One thing the core says: which message, with which values.

    A message without a code is a text stored before codes existed (or a library's
    own text): its ``params`` hold that ``text``, shown as it is in every language.
    """

    code: str
    params: dict[str, Any] = dataclasses.field(default_factory=dict)

    @classmethod
    def plain(cls, text: str) -> Message:
        """A text with no code: shown as it is, stored with no ``error_code``."""
        return cls("", {"text": text})

    def words(self, language: str = "en") -> str:
        if not self.code:
            return str(self.params.get("text", ""))
        return word(self.code, self.params, language)

    @property
    def english(self) -> str:
        """What is stored beside the code for people and older readers."""
        return self.words("en")

    def __str__(self) -> str:
        return self.english

    def as_dict(self) -> dict[str, Any]:
        return {"code": self.code, "params": dict(self.params)}

    @classmethod
    def from_dict(cls, body: Mapping[str, Any]) -> Message:
        params = body.get("params")
        return cls(str(body.get("code") or ""), dict(params) if isinstance(params, Mapping) else {})

    def columns(self) -> tuple[str, str | None, dict[str, Any] | None]:
        """What a store keeps: the English text, the code and the parameters (no code
        and no parameters for a plain text)."""
        if not self.code:
            return self.english, None, None
        return self.english, self.code, dict(self.params)


def coded(code: str, **params: Any) -> Message:
    """``Message(code, params)``, shorter at the call site. A parameter that is itself a
    message is kept as its ``{"code", "params"}``, so it is worded again in the
    reader's language (and the params stay JSON)."""
    return Message(code, {k: as_param(v) for k, v in params.items()})


def as_param(value: Any) -> Any:
    """``value`` as a message parameter: a message as its dict, a list item by item."""
    if isinstance(value, Message):
        return value.as_dict() if value.code else value.english
    if isinstance(value, list | tuple):
        return [as_param(item) for item in value]
    return value


def as_message(value: Message | str) -> Message:
    """``value`` as a message: a plain text becomes a message without a code."""
    return value if isinstance(value, Message) else Message.plain(value)


def stored(text: str | None, code: str | None, params: Mapping[str, Any] | None) -> Message | None:
    """A message read back from a store's text, code and parameters. A row written
    before codes existed, or a code this version cannot word (a newer version's,
    broken parameters), reads back as its stored English text."""
    if code:
        known = template(code)
        if known is not None and fill(known, params or {}) is not None:
            return Message(code, dict(params or {}))
    return Message.plain(text) if text else None
