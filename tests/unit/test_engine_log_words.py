"""The engine's log lines read in Russian in a Russian Log panel: each carries its
message, and its Russian words hold no English word outside file names, numbers,
identifiers and proper names (the words a job's state or an escalation's reasons
bring in are worded too, not pasted in English).

No Qt here: the check is the GUI test's idea (``tests/gui/test_russian_window.py``)
applied to the messages the records carry.
"""

from __future__ import annotations

import logging
import re
from pathlib import Path

import pytest

from docbatch_gui.app.facade import DocBatchApp
from docbatch_gui.domain.messages import Message, fill, placeholders
from docbatch_gui.domain.said import worded_line
from docbatch_gui.domain.states import JobState
from docbatch_gui.domain.texts_log_engine import LOG_ENGINE_TEXTS
from docbatch_gui.engine.escalation import reasons_words
from docbatch_gui.engine.recovery import recover_interrupted
from docbatch_gui.engine.render_step import capped_text
from docbatch_gui.engine.routing import REASONS
from tests import builders

#: names of products and services the Russian text keeps as they are
PROPER = {"Claude", "Anthropic", "Tesseract", "Haiku", "Sonnet", "MinIO", "Redis", "Celery"}
#: data and names, not words: «quoted» values, paths, file names, identifiers
#: (MAX_PAGE_TEXT_CHARS, max_tokens), model ids, numbers, prices
NOT_WORDS = re.compile(r"«[^»]*»|\S*[/\\_.@]\S*|\S*\d\S*|\$\S+")


def english_words(text: str) -> list[str]:
    words = [w.strip("-") for w in re.findall(r"[A-Za-z][A-Za-z-]+", NOT_WORDS.sub(" ", text))]
    return [w for w in words if w not in PROPER and not w.isupper()]


def test_the_check_finds_english_and_spares_names_and_data() -> None:
    assert english_words("задание 7: job listener failed") == ["job", "listener", "failed"]
    spared = "задание 7 (scan_march.pdf): OCR, MAX_PAGE_TEXT_CHARS, claude-haiku-5-5, $0.5"
    assert english_words(spared) == []


def _messages(caplog: pytest.LogCaptureFixture) -> list[Message]:
    found = [worded_line(r) for r in caplog.records]
    assert all(found), [r.getMessage() for r in caplog.records]
    return [m for m in found if m is not None]


def test_recovered_jobs_are_logged_in_russian_with_their_state_worded(
    tmp_path: Path, app: DocBatchApp, caplog: pytest.LogCaptureFixture
) -> None:
    requeued, failing, leased = app.add(
        [builders.text_pdf(tmp_path / f"{name}.pdf") for name in ("a", "b", "c")]
    ).jobs
    for job in (requeued, failing, leased):
        app.store.claim(job.id, JobState.PREPARING)  # a worker took them, then "crashed"
    app.store.update_job(failing.id, attempts=5)
    with caplog.at_level(logging.INFO, logger="docbatch_gui.engine.recovery"):
        recover_interrupted(app.store, max_attempts=5, leased=lambda i: i == leased.id)
    english = sorted(r.getMessage() for r in caplog.records)
    assert english == sorted(
        [
            f"recovered job {requeued.id} (a.pdf) → Queued",
            f"recovered job {failing.id} (b.pdf) → Failed",
            f"job {leased.id} (c.pdf) is running on a worker; left to it",
        ]
    )
    russian = sorted(m.words("ru") for m in _messages(caplog))
    assert russian == sorted(
        [
            f"задание {requeued.id} (a.pdf) восстановлено → В очереди",
            f"задание {failing.id} (b.pdf) восстановлено → Ошибка",
            f"задание {leased.id} (c.pdf) выполняется другим обработчиком; оставлено ему",
        ]
    )
    assert not [w for line in russian for w in english_words(line)]


def test_a_capped_page_text_is_logged_with_its_numbers_in_russian(
    tmp_path: Path, app: DocBatchApp, caplog: pytest.LogCaptureFixture
) -> None:
    (job,) = app.add([builders.text_pdf(tmp_path / "bomb.pdf")]).jobs
    with caplog.at_level(logging.WARNING, logger="docbatch_gui.engine.render_step"):
        assert capped_text(job, 2, "x" * 50, limit=20) == "x" * 20
    (message,) = _messages(caplog)
    assert caplog.records[0].getMessage() == (
        f"job {job.id} (bomb.pdf): page 2 has 50 characters of text; the first 20 are kept "
        "(MAX_PAGE_TEXT_CHARS)"
    )
    russian = message.words("ru")
    assert "странице 2" in russian and "50" in russian and "первые 20" in russian
    assert english_words(russian) == []


def test_escalation_reasons_are_worded_one_by_one() -> None:
    listed = Message.from_dict(reasons_words(list(REASONS)).as_dict())
    assert listed.words("en") == ", ".join(REASONS)
    assert listed.words("ru") == (
        "нет ключевого поля, неуверенно, поле не прошло проверку, расходится со страницей"
    )
    assert reasons_words([]) == "?"


@pytest.mark.parametrize("code", sorted(LOG_ENGINE_TEXTS))
def test_every_engine_line_reads_in_russian(code: str) -> None:
    """Filled with numbers, no Russian template leaves an English word behind."""
    russian = LOG_ENGINE_TEXTS[code]["ru"]
    filled = fill(russian, {name: 7 for name in placeholders(russian)}, "ru")
    assert filled is not None and english_words(filled) == [], filled
