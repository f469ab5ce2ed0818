"""The log file is plain English whatever language the operator reads: support greps
it and searches the web with its lines, so DocBatch's own words in it are never
Russian, even when the window and the command line speak Russian.

Two checks: no logging call in the package writes a Russian literal, and a real run
in Russian (a good file, a damaged one and a locked one) leaves no Cyrillic in
``logs/docbatch.log`` while it names each job, its file and why it failed.
"""

from __future__ import annotations

import ast
import asyncio
import logging
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from docbatch_gui.app.facade import DocBatchApp
from docbatch_gui.app.log_file import log_path, log_to_file
from docbatch_gui.cli.output import Language
from docbatch_gui.domain.messages import Message
from docbatch_gui.domain.states import JobState
from docbatch_gui.i18n import current_language, set_language
from tests import builders

PACKAGE = Path(__file__).resolve().parents[2] / "docbatch_gui"
CYRILLIC = re.compile(r"[А-Яа-яЁё]")
LEVELS = {"debug", "info", "warning", "error", "exception", "critical", "log"}


def russian_log_literals(source: str) -> list[int]:
    """Line numbers of ``log.info("…")``-style calls with Cyrillic in a string. A
    source with no Cyrillic letter and no escape that could spell one (``\\u``,
    ``\\N{``) is not parsed: most modules, and the scan stays fast."""
    if not (CYRILLIC.search(source) or "\\u" in source or "\\N{" in source):
        return []
    found = []
    for node in ast.walk(ast.parse(source)):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
            continue
        owner = node.func.value
        name = owner.id if isinstance(owner, ast.Name) else getattr(owner, "attr", "")
        if node.func.attr not in LEVELS or name.lstrip("_").lower() not in {"log", "logger"}:
            continue
        texts = [n.value for n in ast.walk(node) if isinstance(n, ast.Constant)]
        if any(isinstance(t, str) and CYRILLIC.search(t) for t in texts):
            found.append(node.lineno)
    return found


def test_the_scan_finds_a_russian_line_and_spares_an_english_one() -> None:
    source = (
        "log.info('job %s done', 7)\n"
        "_log.warning('задание %s', 7)\n"
        "self.logger.error('%s: %s', f, 'ошибка')\n"
        "print('привет')\n"
    )
    assert russian_log_literals(source) == [2, 3]
    assert russian_log_literals("log.info('\\u0437\\u0430\\u0434\\u0430\\u0447\\u0430')\n") == [1]


def test_no_log_call_in_the_package_writes_russian() -> None:
    found = [
        f"{path.relative_to(PACKAGE.parent)}:{line}"
        for path in sorted(PACKAGE.rglob("*.py"))
        for line in russian_log_literals(path.read_text(encoding="utf-8"))
    ]
    assert not found, "log lines are English: " + ", ".join(found)


@pytest.fixture
def in_russian(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The core's and the command line's language set to Russian for the test."""
    before = current_language()
    monkeypatch.setattr(Language, "current", "ru")
    set_language("ru")
    try:
        yield
    finally:
        set_language(before)


@pytest.fixture
def log_file(app: DocBatchApp) -> Iterator[Path]:
    handler = log_to_file(app.settings, logging.INFO)
    assert handler is not None
    try:
        yield log_path(app.settings)
    finally:
        logging.getLogger().removeHandler(handler)
        handler.close()


@pytest.mark.slow
def test_a_russian_run_leaves_an_english_log_file(
    in_russian: None, app: DocBatchApp, log_file: Path, tmp_path: Path
) -> None:
    files = [
        builders.text_pdf(tmp_path / "invoice.pdf"),
        builders.corrupt_pdf(tmp_path / "garbage.pdf"),
        builders.encrypted_pdf(tmp_path / "locked.pdf"),
    ]
    jobs = asyncio.run(app.run([j.id for j in app.add(files).jobs]))
    failed = {j.file_name: j for j in jobs if j.state is JobState.FAILED}
    assert set(failed) == {"garbage.pdf", "locked.pdf"}, [(j.file_name, j.state) for j in jobs]
    # the jobs' errors are worded in Russian for the reader, so the run really is Russian
    locked = failed["locked.pdf"]
    assert CYRILLIC.search(Message(locked.error_code or "", locked.error_params).words("ru"))
    text = log_file.read_text(encoding="utf-8")
    assert f"job {locked.id} (locked.pdf) failed [unsupported]" in text, text
    assert "password" in text
    assert not CYRILLIC.findall(text), [line for line in text.splitlines() if CYRILLIC.search(line)]
