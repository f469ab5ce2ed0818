"""Messages from the core as data: a code and its parameters, worded last.

A job error, a registry warning or a workbook the importer refuses is said to three
readers: a script (which wants something stable to test), the command line and the
window (which speak English or Russian). So the core passes a :class:`Message` (a
code and JSON-friendly parameters) around as it is: errors carry one
(``DocBatchError.message``), stores keep its code and parameters beside its English
wording (``Job.error``, a result's ``warnings``: what people and old readers read),
and the front ends word it again in their own language (``Message.words``).

The templates live in per-area catalogues (``texts_jobs``, ``texts_services``,
``texts_operator``, ``texts_registry``, ``texts_pages``, and ``texts_log_*`` for log lines); the
review reasons keep theirs in ``reasons.TEMPLATES``. A message without a code (an old
record, a library's own text: ``Message.plain``), or with a code no catalogue knows (a
newer version), is shown as its stored English text: never an error, never an empty
line.

A parameter whose value is itself a message (``{"code", "params"}``) is worded in the
same language, so "3 of 5 requests failed; first: …" reads as one sentence.
"""

from __future__ import annotations

import dataclasses
import re
import string
from collections.abc import Mapping
from typing import Any

from docbatch_gui.domain.texts_data import DATA_TEXTS
from docbatch_gui.domain.texts_jobs import JOB_TEXTS
from docbatch_gui.domain.texts_log_app import LOG_APP_TEXTS
from docbatch_gui.domain.texts_log_engine import LOG_ENGINE_TEXTS
from docbatch_gui.domain.texts_log_services import LOG_SERVICE_TEXTS
from docbatch_gui.domain.texts_operator import OPERATOR_TEXTS
from docbatch_gui.domain.texts_pages import PAGE_TEXTS
from docbatch_gui.domain.texts_registry import REGISTRY_TEXTS
from docbatch_gui.domain.texts_services import SERVICE_TEXTS
from docbatch_gui.domain.texts_setup import SETUP_TEXTS

LANGUAGES = ("en", "ru")

#: every catalogue of core messages; a code is defined in exactly one (a test checks)
CATALOGUES: tuple[Mapping[str, Mapping[str, str]], ...] = (
    JOB_TEXTS,
    SERVICE_TEXTS,
    OPERATOR_TEXTS,
    REGISTRY_TEXTS,
    SETUP_TEXTS,
    PAGE_TEXTS,
    LOG_APP_TEXTS,
    LOG_ENGINE_TEXTS,
    LOG_SERVICE_TEXTS,
    DATA_TEXTS,
)


def template(code: str, language: str = "en") -> str | None:
    """The template of ``code`` in ``language`` (English when that one is missing)."""
    for catalogue in CATALOGUES:
        texts = catalogue.get(code)
        if texts is not None:
            return texts.get(language) or texts.get("en")
    return None


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
    text = template(code, language) if code else None
    worded = fill(text, params, language) if text is not None else None
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
