"""Messages from the core as data: a code and its parameters, worded last.

A job error, a registry warning or a workbook the importer refuses is said to three
readers: a script (which wants something stable to test), the command line and the
window (which speak English or Russian). So the core keeps a :class:`Message` (a
code and JSON-friendly parameters) and words it in English where a text is stored
for people and old readers (``Job.error``, a result's ``warnings``); the front ends
word the code again in their own language.

The templates live in per-area catalogues (``texts_jobs``, ``texts_services``,
``texts_operator``, ``texts_registry``, ``texts_pages``, ``texts_notices``…); the
review reasons keep theirs in ``reasons.TEMPLATES``. A message without a code, or
with a code no catalogue knows (an old record, a newer version), is shown as its
stored English text: never an error, never an empty line.

A parameter whose value is itself a stored message (``{"code", "params"}``) is worded
in the same language, so "3 of 5 requests failed; first: …" reads as one sentence.
"""

from __future__ import annotations

import dataclasses
import re
import string
from collections.abc import Mapping, Sequence
from typing import Any

from docbatch_gui.domain.texts_data import DATA_TEXTS
from docbatch_gui.domain.texts_jobs import JOB_TEXTS
from docbatch_gui.domain.texts_notices import NOTICE_TEXTS
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
    NOTICE_TEXTS,
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
    """One thing the core says: which message, with which values."""

    code: str
    params: dict[str, Any] = dataclasses.field(default_factory=dict)

    def words(self, language: str = "en") -> str:
        return word(self.code, self.params, language)

    @property
    def english(self) -> str:
        """What is stored beside the code for people and older readers."""
        return self.words("en")

    def as_dict(self) -> dict[str, Any]:
        return {"code": self.code, "params": dict(self.params)}

    @classmethod
    def from_dict(cls, body: Mapping[str, Any]) -> Message:
        params = body.get("params")
        return cls(str(body.get("code") or ""), dict(params) if isinstance(params, Mapping) else {})


def coded(code: str, **params: Any) -> Message:
    """``Message(code, params)``, shorter at the call site."""
    return Message(code, params)


class Worded(str):
    """A message's English text that still knows its code and parameters.

    Errors keep their text in ``message`` and stores write it to ``Job.error``; a
    ``Worded`` goes through every such path as the plain string it is, and the store
    takes the code off it on the way in (``storage.store.scrubbed``). So a failure
    gains its code where it is raised, and the dozens of places that pass its text on
    need no change.
    """

    message: Message

    def __new__(cls, message: Message) -> Worded:
        text = super().__new__(cls, message.english)
        text.message = message
        return text

    def __reduce__(self) -> tuple[Any, ...]:
        # pickled into child processes and Celery results with its code
        return (Worded, (self.message,))


def english(code: str, **params: Any) -> Worded:
    """The English text of a message, carrying its code (see :class:`Worded`). A
    parameter that is itself a ``Worded`` is kept as its message, so it is worded again
    in the reader's language."""
    plain = {k: _kept(v) for k, v in params.items()}
    return Worded(Message(code, plain))


def _kept(value: Any) -> Any:
    if isinstance(value, Worded):
        return value.message.as_dict()
    if isinstance(value, list | tuple):
        return [_kept(item) for item in value]
    return value


def message_of(text: object) -> Message | None:
    """The message a text words, when it is a :class:`Worded`."""
    return text.message if isinstance(text, Worded) else None


def words_of(text: str, language: str) -> str:
    """``text`` in ``language`` when it words a message (a :class:`Worded`), else as
    it is: what a front end does with a line the core hands it."""
    found = message_of(text)
    return found.words(language) if found else str(text)


def wire(text: object) -> dict[str, Any]:
    """What a child process sends with an error's text: its code, when it has one."""
    message = message_of(text)
    return {"code": message.code, "params": message.params} if message else {}


def from_wire(body: Mapping[str, Any]) -> str:
    """An error's text as a child process sent it, with its code again when it had one."""
    if body.get("code"):
        return Worded(Message(str(body["code"]), dict(body.get("params") or {})))
    return str(body.get("message", ""))


def said_of(fields: Mapping[str, object]) -> dict[str, dict[str, Any]]:
    """The codes of those ``fields`` (name → text) that word a message: what a child
    process sends, or a store keeps, beside their English texts."""
    return {name: wire(text) for name, text in fields.items() if message_of(text)}


def with_said(fields: Mapping[str, Any], said: Mapping[str, Any] | None) -> dict[str, Any]:
    """``fields`` with each text ``said`` (from :func:`said_of`) has a code for made a
    :class:`Worded` again. A code this version cannot word (a newer version's, broken
    parameters) leaves the text as it was sent or stored."""
    out = dict(fields)
    for name, body in (said or {}).items():
        if name not in out or not isinstance(body, Mapping) or not body.get("code"):
            continue
        message = Message.from_dict(body)
        text = template(message.code)
        if text is not None and fill(text, message.params) is not None:
            out[name] = Worded(message)
    return out


def worded_list(
    texts: Sequence[str], codes: Sequence[Mapping[str, Any]] | None, language: str = "en"
) -> list[str]:
    """Stored English texts worded again from their codes when both lists agree (a
    record written before codes existed has none: its texts are shown as they are)."""
    if not codes or len(codes) != len(texts):
        return list(texts)
    return [
        word(str(c.get("code") or ""), c.get("params") or {}, language, fallback=t)
        for c, t in zip(codes, texts, strict=True)
    ]
