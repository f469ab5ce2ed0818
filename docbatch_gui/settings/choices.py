"""The fixed values some settings are limited to, and the rule the model, effort,
thinking and output settings keep together: what validation, the error messages and
the Settings tab's lists share. Nothing here reads a file of the operator's (the model
catalogue is bundled data)."""

from __future__ import annotations

import shutil

from docbatch_gui.domain.errors import ConfigError
from docbatch_gui.domain.messages import Message, coded
from docbatch_gui.llm.catalogue import load_catalogue
from docbatch_gui.llm.requests import OutputMode
from docbatch_gui.llm.thinking import choose, forced_tool_refusal

OCR_ENGINES = ("google_vision", "tesseract", "none")
EFFORTS = ("auto", "low", "medium", "high", "xhigh", "max")
THINKING = ("auto", "off", "on")
#: what happens to a watched folder's file after intake
WATCH_AFTER = ("keep", "move")
#: how the mailbox is reached (plain only when set so), and what a taken message gets
MAIL_SECURITY = ("tls", "starttls", "plain")
MAIL_AFTER = ("flag", "move", "keep")
#: the languages messages are worded in ("" = the system's)
MESSAGE_LANGUAGES = ("", "en", "ru")

#: the str settings limited to a fixed list (``anthropic_model`` too: the catalogue's)
_FIXED = {
    "ocr_engine": OCR_ENGINES,
    "claude_effort": EFFORTS,
    "claude_thinking": THINKING,
    "watch_after": WATCH_AFTER,
    "language": MESSAGE_LANGUAGES,
    "mail_security": MAIL_SECURITY,
    "mail_after": MAIL_AFTER,
}
CHOICE_FIELDS = ("anthropic_model", *_FIXED)


def default_ocr_engine() -> str:
    """Tesseract when it is installed (works offline, no key), else none."""
    return "tesseract" if shutil.which("tesseract") else "none"


def default_model() -> str:
    return load_catalogue().default_model


def known_models() -> tuple[str, ...]:
    return tuple(load_catalogue().models)


def fixed_choices(field_name: str) -> tuple[str, ...]:
    """The values a str setting is limited to (validation, messages, the GUI's lists)."""
    return known_models() if field_name == "anthropic_model" else _FIXED[field_name]


def is_choice(field_name: str, value: str) -> bool:
    """Whether ``value`` is one the field allows (a model: any id or dated alias the
    catalogue lists)."""
    if field_name == "anthropic_model" and load_catalogue().get(value) is not None:
        return True
    return value in fixed_choices(field_name)


def combination_problem(
    model: str, effort: str, thinking: str, output: OutputMode | str, max_tokens: int
) -> Message | None:
    """Why the model would refuse every request with these settings, or None."""
    try:
        info = load_catalogue().model(model)
        choice = choose(info, effort, thinking)
    except ConfigError as exc:
        return exc.message
    if OutputMode(output) is OutputMode.TOOL:
        refusal = forced_tool_refusal(info, choice)
        if refusal:
            return coded("setting_tool_output_refused", refusal=refusal)
    if max_tokens > info.max_output_tokens:
        return coded(
            "setting_max_tokens_too_many",
            tokens=max_tokens,
            model=info.name,
            most=info.max_output_tokens,
        )
    return None
