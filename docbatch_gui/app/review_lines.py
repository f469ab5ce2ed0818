"""A person's edits of a document's lines, in the audit trail like any field edit.

The Review grid hands over the whole list of lines as the person left it; what
changed is worked out here, row by row and cell by cell, so the trail says
"line 3, quantity: 2 → 3", "line 7 added", "line 4 deleted" or "line 5 split"
and not just "the lines changed". Typed numbers are stored as the readers store
them (dot-decimal strings: "1 944,30" is "1944.30"); one that is not a number is
refused with a sentence naming the cell.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from docbatch_gui.config.profile import Profile
from docbatch_gui.domain.errors import DocBatchError, ErrorKind, ExitCode
from docbatch_gui.domain.lines import Line
from docbatch_gui.domain.text import clean_value
from docbatch_gui.pipeline.tables import line_number, line_rate


class LineValueError(DocBatchError):
    """A typed cell of a line that cannot be stored as given."""

    kind = ErrorKind.UNSUPPORTED
    exit_code = ExitCode.UNSUPPORTED


def normalized_lines(lines: Sequence[Line], profile: Profile) -> list[Line]:
    """The lines with their typed values stored as the readers store them."""
    out = []
    for index, line in enumerate(lines, start=1):
        for spec in profile.line_fields:
            raw = line.value(spec.key)
            if raw is None or not str(raw).strip():
                line = line.with_value(spec.key, None)
                continue
            text = clean_value(str(raw)).strip()
            if spec.kind == "number":
                value = line_number(text)
                if value is None:
                    raise LineValueError.coded(
                        "review_line_not_a_number",
                        {"row": index, "column": spec.labels.get("en", spec.key), "value": text},
                    )
            elif spec.kind == "rate":
                value = line_rate(text) or text
            else:
                value = text
            line = line.with_value(spec.key, value)
        out.append(line)
    return out


def lines_audit(
    old: Sequence[Line], new: Sequence[Line], profile: Profile, at: str, who: str
) -> list[dict[str, Any]]:
    """Audit entries for what changed between ``old`` and ``new`` lines.

    Rows are matched by position; a row added or deleted at the end, or in the
    middle (the rows after it then also differ), is said as such: the grid marks a
    split row ``split_from`` so its origin is kept."""
    entries: list[dict[str, Any]] = []

    def entry(action: str, field: str | None, old_value: Any, new_value: Any) -> None:
        entries.append(
            {"at": at, "who": who, "action": action, "field": field, "old": old_value,
             "new": new_value}
        )  # fmt: skip

    keys = profile.line_keys
    common = min(len(old), len(new))
    for index in range(common):
        for key in keys:
            before, after = old[index].value(key), new[index].value(key)
            if before != after:
                entry("line_edit", f"line {index + 1}: {key}", before, after)
    for index in range(common, len(new)):
        entry("line_add", f"line {index + 1}", None, _summary(new[index]))
    for index in range(common, len(old)):
        entry("line_delete", f"line {index + 1}", _summary(old[index]), None)
    return entries


def _summary(line: Line) -> str:
    """A row as the trail shows it: its name and sum."""
    return " · ".join(v for v in (line.no, line.name, line.qty, line.net) if v)
