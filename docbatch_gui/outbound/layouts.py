"""Export layouts: which columns, in what order, under what header.

A layout is a list of columns. A column is a key (``job``, ``file``, ``pages``,
``type``, ``field:<profile field>``, ``confidence``, ``review``, ``reasons``,
``confirmed_by``, ``confirmed_at``, ``document``, ``folder``) and, optionally, the
header to write instead of the default one in the export's language. ``all`` (every
column, every field of the profile) is built from the profile; the others are JSON
files: bundled ones in the package (``1c``: 1C:Бухгалтерия's load from a tabular
document) and the operator's own in ``DATA_DIR/export_layouts``, saved from the CLI
(``docbatch export --columns … --save-layout NAME``) or the window.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from docbatch_gui.config.profile import Profile
from docbatch_gui.domain.errors import ConfigError, NotFound
from docbatch_gui.i18n import NP_, translation
from docbatch_gui.outbound.lines import LineColumn, known_keys
from docbatch_gui.storage.health import private_folder, write_private
from docbatch_gui.system.names import name_problem

ALL = "all"
_NAME_RE = re.compile(r"^[\w\-]{1,64}$")

#: the catalogue's context of a column's default header
HEADER_CONTEXT = "export column"
#: the default header of each column that is not a field, in English (worded in the
#: export's language from the catalogue)
BUILT_IN_HEADERS: dict[str, str] = {
    "job": NP_("export column", "Job"),
    "document": NP_("export column", "Document id"),
    "file": NP_("export column", "File"),
    "folder": NP_("export column", "Folder"),
    "pages": NP_("export column", "Pages"),
    "type": NP_("export column", "Type"),
    "confidence": NP_("export column", "Confidence"),
    "review": NP_("export column", "Review"),
    "reasons": NP_("export column", "Review reasons"),
    "confirmed_by": NP_("export column", "Confirmed by"),
    "confirmed_at": NP_("export column", "Confirmed at"),
}
#: the built-in columns of ``all`` before and after the fields
_LEADING = ("job", "file", "pages", "type")
_TRAILING = ("confidence", "review", "reasons", "confirmed_by", "confirmed_at")


@dataclass(frozen=True)
class Column:
    key: str
    header: str | None = None  # None: the default header in the export's language

    def title(self, profile: Profile, language: str) -> str:
        if self.header:
            return self.header
        if self.key.startswith("field:"):
            return profile.field_label(self.key.removeprefix("field:"), language)
        english = BUILT_IN_HEADERS.get(self.key)
        return translation(language).pgettext(HEADER_CONTEXT, english) if english else self.key


@dataclass(frozen=True)
class Layout:
    name: str
    columns: tuple[Column, ...]
    description: str = ""
    #: the columns of the sheet of lines (``outbound.lines``); empty: every line column
    lines: tuple[LineColumn, ...] = ()

    def as_json(self) -> dict[str, Any]:
        body: dict[str, Any] = {"name": self.name, "description": self.description}
        body["columns"] = _entries(self.columns)
        if self.lines:
            body["lines"] = _entries(self.lines)
        return body


def _entries(columns: tuple[Column | LineColumn, ...]) -> list[dict[str, str]]:
    """Columns as a layout file keeps them: the key, and the header when one is given."""
    return [{"key": c.key, **({"header": c.header} if c.header else {})} for c in columns]


def all_columns(profile: Profile) -> Layout:
    keys = [*_LEADING, *(f"field:{k}" for k in profile.field_keys), *_TRAILING]
    return Layout(ALL, tuple(Column(k) for k in keys), "every column and field")


def parse_columns(text: str, profile: Profile) -> tuple[Column, ...]:
    """``job,file,number=Номер вх.,amount``: a field may be named without ``field:``,
    and ``=`` gives a header of one's own."""
    columns = []
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        key, _, header = part.partition("=")
        key = key.strip()
        if key in profile.field_keys:
            key = f"field:{key}"
        columns.append(Column(key, header.strip() or None))
    layout = Layout("columns", tuple(columns))
    check_layout(layout, profile)
    return layout.columns


def check_layout(layout: Layout, profile: Profile) -> None:
    """A layout naming a column this version or profile does not have is refused
    whole: a silently missing column is what breaks an import on the other side."""
    if not layout.columns:
        raise ConfigError(f"export layout {layout.name!r} has no columns")
    unknown = [
        c.key
        for c in layout.columns
        if not (c.key in BUILT_IN_HEADERS or c.key.removeprefix("field:") in profile.field_keys)
    ]
    if unknown:
        known = ", ".join([*BUILT_IN_HEADERS, *profile.field_keys])
        raise ConfigError(
            f"export layout {layout.name!r}: unknown "
            f"{'column' if len(unknown) == 1 else 'columns'} {', '.join(unknown)}; known: {known}"
        )
    line_keys = known_keys(profile)
    unknown = [c.key for c in layout.lines if c.key not in line_keys]
    if unknown:
        raise ConfigError(
            f"export layout {layout.name!r}: unknown line "
            f"{'column' if len(unknown) == 1 else 'columns'} {', '.join(unknown)}; "
            f"known: {', '.join(sorted(line_keys))}"
        )


def _from_json(body: Any, origin: str) -> Layout:
    try:
        return Layout(
            str(body.get("name") or origin),
            tuple(Column(*_entry(c)) for c in body["columns"]),
            str(body.get("description", "")),
            tuple(LineColumn(*_entry(c)) for c in body.get("lines") or []),
        )
    except (KeyError, TypeError, AttributeError) as exc:
        raise ConfigError(f"export layout {origin} is not a valid layout: {exc}") from exc


def _entry(column: Any) -> tuple[str, str | None]:
    return str(column["key"]), str(column["header"]) if column.get("header") else None


def bundled_layouts() -> dict[str, Layout]:
    folder = resources.files("docbatch_gui.resources") / "export_layouts"
    found = {}
    for item in folder.iterdir():
        if item.name.endswith(".json"):
            layout = _from_json(json.loads(item.read_text(encoding="utf-8")), item.name)
            found[layout.name] = layout
    return found


def saved_layouts(folder: Path) -> dict[str, Layout]:
    found = {}
    for path in sorted(folder.glob("*.json")) if folder.is_dir() else []:
        try:
            body = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise ConfigError(f"export layout {path} cannot be read: {exc}") from exc
        layout = _from_json(body, path.name)
        found[layout.name] = layout
    return found


def layouts(folder: Path, profile: Profile) -> dict[str, Layout]:
    """Every layout by name: ``all``, the bundled ones, then the operator's own (which
    may replace a bundled one of the same name)."""
    return {ALL: all_columns(profile), **bundled_layouts(), **saved_layouts(folder)}


def find_layout(name: str, folder: Path, profile: Profile) -> Layout:
    known = layouts(folder, profile)
    if name not in known:
        raise NotFound(
            "export layout", name, f"no export layout {name!r} (known: {', '.join(known)})"
        )
    layout = known[name]
    check_layout(layout, profile)
    return layout


def save_layout(layout: Layout, folder: Path, profile: Profile) -> Path:
    if not _NAME_RE.match(layout.name) or layout.name == ALL or name_problem(layout.name):
        raise ConfigError(
            f"layout name {layout.name!r}: use letters, digits, - and _ (not {ALL!r},"
            " nor a name Windows keeps for a device: CON, PRN, AUX, NUL, COM1, LPT1…)"
        )
    check_layout(layout, profile)
    private_folder(folder)  # in the data folder: owner-only, as the rest of it
    path = folder / f"{layout.name}.json"
    write_private(path, json.dumps(layout.as_json(), ensure_ascii=False, indent=2))
    return path
