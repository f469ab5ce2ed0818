"""What ``docbatch doctor`` finds, as words it can say in either language.

A check's sentence is kept as its English template and its values (a
:class:`Phrase`), not as finished text: ``doctor --json`` gives the English (a
contract for scripts), the terminal words the same finding in the run's language
from the one catalogue. A value that is itself a phrase or a core message is worded
in that language too; a library's or the system's own text (an ``error``, a
``reason``) is quoted as it is.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from docbatch_gui.domain.messages import Message, fill
from docbatch_gui.i18n import NP_, Plural, translation

#: the catalogue's context of a check's name ("store" is not a shop)
NAME_CONTEXT = "doctor check"
#: a live step's check is named "live: <step>"
LIVE_PREFIX = "live: "


class Status(StrEnum):
    OK = "ok"
    INFO = "info"
    WARN = "warn"
    FAIL = "fail"


#: how the terminal marks each status (``doctor --json`` gives the value itself)
STATUS_MARKS = {
    Status.OK: NP_("doctor status", "ok"),
    Status.INFO: NP_("doctor status", "info"),
    Status.WARN: NP_("doctor status", "warn"),
    Status.FAIL: NP_("doctor status", "FAIL"),
}


@dataclass(frozen=True)
class Phrase:
    """An English template (marked for the catalogue where it is written) and its
    values; ``context`` when the catalogue keeps it under one."""

    template: str | Plural
    params: Mapping[str, Any] = field(default_factory=dict)
    context: str | None = None

    def words(self, language: str = "en") -> str:
        """The phrase in ``language``; the English one when a translation does not fit
        its values (a translator's slip never hides the finding)."""
        said = self._filled(language)
        if said is None and language != "en":
            said = self._filled("en")
        return said if said is not None else str(self.template)

    @property
    def english(self) -> str:
        return self.words("en")

    def __str__(self) -> str:
        return self.english

    def _filled(self, language: str) -> str | None:
        if isinstance(self.template, Plural):
            text = self.template.form(self.params, language)
        elif self.context is not None:
            text = translation(language).pgettext(self.context, self.template)
        else:
            text = translation(language).gettext(self.template)
        values = {name: worded(value, language) for name, value in self.params.items()}
        return fill(text, values, language)


def phrase(template: str | Plural, /, **params: Any) -> Phrase:
    return Phrase(template, params)


def joined(*parts: Phrase | str) -> Phrase:
    """Phrases said one after another ("…; a legacy model: …"), each worded alone."""
    names = [f"part{i}" for i in range(len(parts))]
    return Phrase("".join("{" + n + "}" for n in names), dict(zip(names, parts, strict=True)))


def worded(value: Any, language: str) -> Any:
    """A phrase or a core message in ``language``; any other value as it is."""
    if isinstance(value, Phrase | Message):
        return value.words(language)
    return value


@dataclass(frozen=True)
class Check:
    """One finding: ``name`` and ``detail`` in English (``as_dict``, the tests, the
    log); :meth:`name_in` and :meth:`detail_in` word them for the terminal."""

    name: str
    status: Status
    detail: str
    cost_usd: float | None = None  # what a live check step paid
    said: Phrase | None = field(default=None, compare=False, repr=False)

    @classmethod
    def of(
        cls, name: str, status: Status, said: Phrase | Message | str, cost_usd: float | None = None
    ) -> Check:
        """A check whose detail is ``said``: a phrase, a core message, or a text no
        catalogue words (a library's own)."""
        if isinstance(said, str):
            said = Phrase("{text}", {"text": said})
        elif isinstance(said, Message):
            said = Phrase("{message}", {"message": said})
        return cls(name, status, said.english, cost_usd, said)

    def as_dict(self) -> dict[str, object]:
        shown: dict[str, object] = {
            "name": self.name,
            "status": str(self.status),
            "detail": self.detail,
        }
        if self.cost_usd is not None:
            shown["cost_usd"] = self.cost_usd
        return shown

    def name_in(self, language: str) -> str:
        words = translation(language)
        if self.name.startswith(LIVE_PREFIX):
            step = words.pgettext(NAME_CONTEXT, self.name[len(LIVE_PREFIX) :])
            return words.pgettext("doctor check", "live: {step}").format(step=step)
        return words.pgettext(NAME_CONTEXT, self.name)

    def detail_in(self, language: str) -> str:
        return self.said.words(language) if self.said is not None else self.detail

    def mark_in(self, language: str) -> str:
        return translation(language).pgettext("doctor status", STATUS_MARKS[self.status])
