"""Why the settings were refused, as one coded message: which variable, its (masked)
value, where it came from and what is allowed, in words a front end gives in its
language. The start stops with it; the Settings tab shows ``describe_allowed``.
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping
from enum import StrEnum
from typing import Any

from pydantic import ValidationError
from pydantic_settings import BaseSettings

from docbatch_gui.domain.errors import ConfigError, NotFound
from docbatch_gui.domain.messages import Message, coded
from docbatch_gui.settings.choices import CHOICE_FIELDS, fixed_choices
from docbatch_gui.settings.file import environment_overrides, settings_path, variable_of
from docbatch_gui.settings.secrets import redact
from docbatch_gui.settings.sections import FIELDS

_KINDS = {"int": "allowed_whole_number", "float": "allowed_number", "bool": "allowed_true_false"}


def describe_allowed(field_name: str) -> Message:
    """What a field accepts, in words (error messages and the GUI's tooltips)."""
    info = FIELDS[field_name]
    lower = upper = None
    for item in info.metadata:
        lower = getattr(item, "ge", lower)
        upper = getattr(item, "le", upper)
    annotation = info.annotation
    if isinstance(annotation, type) and issubclass(annotation, StrEnum):
        return coded("allowed_one_of", values=", ".join(m.value for m in annotation))
    if field_name in CHOICE_FIELDS:
        choices = fixed_choices(field_name)
        values = ", ".join(c for c in choices if c)
        if "" in choices:  # the empty choice: the system's own (a language)
            return coded("allowed_one_of_or_empty", values=values)
        return coded("allowed_one_of", values=values)
    kind = getattr(annotation, "__name__", str(annotation))
    if kind in ("int", "float") and lower is not None and upper is not None:
        ranged = "allowed_whole_number_range" if kind == "int" else "allowed_number_range"
        return coded(ranged, lower=lower, upper=upper)
    return coded(_KINDS[kind]) if kind in _KINDS else Message.plain(kind)


def given_variables(overrides: Mapping[str, Any], model: type[BaseSettings]) -> set[str]:
    """The variables of the settings given as overrides (options, the tab's form)."""
    given = set()
    for key in overrides:
        with contextlib.suppress(NotFound):  # not a setting: pydantic names it
            given.add(variable_of(key, model))
    return given


def wrong_value(
    variable: str, value: Any, problem: Message, given: set[str], model: type[BaseSettings]
) -> Message:
    """One setting's value refused for ``problem`` (a coded message), naming the
    variable, its masked value and, when it came from there, the settings file."""
    shown = redact(variable, value)
    in_file = variable not in given and variable not in environment_overrides(model)
    where = {"path": str(settings_path())} if in_file else {}
    code = "setting_wrong_in_file" if in_file else "setting_wrong"
    return coded(code, variable=variable, shown=shown, problem=problem, **where)


def invalid_settings(
    exc: ValidationError, overrides: Mapping[str, Any], model: type[BaseSettings]
) -> ConfigError:
    """The refusal of ``model`` (the settings) on ``exc``: one line per variable."""
    given = given_variables(overrides, model)
    from_env = environment_overrides(model)
    problems: list[Message] = []
    for error in exc.errors():
        if not error["loc"]:  # a combination of settings (the model's rules)
            problems.append(_rule_broken(error))
            continue
        name = str(error["loc"][0])
        field_name = next((f for f, i in FIELDS.items() if i.alias == name or f == name), None)
        variable = FIELDS[field_name].alias if field_name else name
        shown = redact(variable or name, error.get("input"))
        in_file = variable not in given and variable not in from_env
        where = {"path": str(settings_path())} if in_file else {}
        # a value check of the model's (an address, a folder) says what is wrong itself
        problem = _coded(error)
        if problem is not None:
            problems.append(
                wrong_value(variable or name, error.get("input"), problem, given, model)
            )
            continue
        allowed = describe_allowed(field_name) if field_name else Message.plain(str(error["msg"]))
        said = {"variable": variable, "shown": shown, "allowed": allowed}
        code = "setting_invalid_in_file" if in_file else "setting_invalid"
        problems.append(coded(code, **said, **where))
    return ConfigError.coded("settings_invalid", {"problems": problems})


def _coded(error: Mapping[str, Any]) -> Message | None:
    """The coded message a validator of the model raised (``ValueError(message)``)."""
    raised = (error.get("ctx") or {}).get("error")
    said = raised.args[0] if isinstance(raised, ValueError) and raised.args else None
    return said if isinstance(said, Message) and said.code else None


def _rule_broken(error: Mapping[str, Any]) -> Message:
    """A rule of the model's (a combination of settings): its coded message when the
    validator raised one, else pydantic's text."""
    return _coded(error) or Message.plain(str(error["msg"]).removeprefix("Value error, "))
