"""The command line words every count with ``ngettext`` in the run's language:
"1 job", "2 jobs"; "1 задание", "2 задания", "5 заданий", "21 задание"; and names job
states from ``domain.state_names``."""

from __future__ import annotations

from collections.abc import Iterator
from io import StringIO
from pathlib import Path

import pytest
from rich.console import Console

from docbatch_gui.app.budget import BudgetStatus
from docbatch_gui.cli.budget import forecast_line, print_budget
from docbatch_gui.cli.counterparties import print_counterparties
from docbatch_gui.cli.output import (
    Language,
    _state_shown,
    print_batches,
    print_jobs,
    print_pages,
    summary_line,
)
from docbatch_gui.diagnostics.doctor import _data_dir, _leftovers, _privacy, _store
from docbatch_gui.domain.counterparty import Counterparty
from docbatch_gui.domain.models import BatchRecord, Job, Page
from docbatch_gui.domain.states import JobState
from docbatch_gui.engine.budget import Forecast
from docbatch_gui.i18n import current_language, gettext, set_language
from docbatch_gui.settings.loading import load_settings
from docbatch_gui.system.privacy import privacy_fix
from tests.english_words import english_words


@pytest.fixture
def language() -> Iterator[type[Language]]:
    before = Language.current
    yield Language
    Language.current = before


def job(job_id: int, state: JobState = JobState.DONE) -> Job:
    return Job(
        id=job_id,
        file_name=f"f{job_id}.pdf",
        source_path=f"/in/f{job_id}.pdf",
        sha256=f"{job_id:064x}",
        size=1,
        mode="offline",
        state=state,
        phase=None,
    )


@pytest.mark.parametrize(
    ("count", "english", "russian"),
    [
        (1, "1 job: 1 Done", "1 задание: 1 Готово"),
        (2, "2 jobs: 2 Done", "2 задания: 2 Готово"),
        (5, "5 jobs: 5 Done", "5 заданий: 5 Готово"),
        (21, "21 jobs: 21 Done", "21 задание: 21 Готово"),
    ],
)
def test_the_summary_line_counts_jobs_in_both_languages(
    language: type[Language], count: int, english: str, russian: str
) -> None:
    jobs = [job(i) for i in range(count)]
    language.current = "en"
    assert summary_line(jobs).plain == english
    language.current = "ru"
    assert summary_line(jobs).plain == russian


@pytest.mark.parametrize(
    ("pages", "files", "requests", "english", "russian"),
    [
        (1, 1, 1, "for 1 page of 1 file in 1 request", "за 1 страницу из 1 файла в 1 запросе"),
        (2, 2, 2, "for 2 pages of 2 files in 2 requests", "за 2 страницы из 2 файлов в 2 запросах"),
        (5, 5, 5, "for 5 pages of 5 files in 5 requests", "за 5 страниц из 5 файлов в 5 запросах"),
        (21, 21, 21, "for 21 pages of 21 files", "за 21 страницу из 21 файла в 21 запросе"),
    ],
)
def test_the_forecast_words_each_count_in_its_case(
    language: type[Language], pages: int, files: int, requests: int, english: str, russian: str
) -> None:
    forecast = Forecast(
        0.5, 0.4, 0.6, pages=pages, jobs=files, requests=requests, model="m",
        rendered_pages=pages, modes=["sync"],
    )  # fmt: skip
    language.current = "en"
    assert english in forecast_line(forecast)
    assert "(s)" not in forecast_line(forecast)
    language.current = "ru"
    assert russian in forecast_line(forecast)


def test_the_forecast_names_the_mode_in_the_run_language(language: type[Language]) -> None:
    """The Russian line said "(режим sync)", the setting's value inside a sentence."""
    forecast = Forecast(0.5, 0.4, 0.6, pages=1, jobs=1, requests=1, model="m",
                        rendered_pages=1, modes=["sync", "batch"])  # fmt: skip
    language.current = "en"
    assert "(sync, batch mode)" in forecast_line(forecast)
    language.current = "ru"
    said = forecast_line(forecast)
    assert "(режим: синхронный, пакетный)" in said and "sync" not in said


def test_the_forecast_counts_the_pages_not_rendered_yet(language: type[Language]) -> None:
    forecast = Forecast(0.5, 0.4, 0.6, pages=7, jobs=1, requests=1, model="m", rendered_pages=2)
    language.current = "en"
    assert "; 5 pages counted from the files, not rendered yet." in forecast_line(forecast)
    language.current = "ru"
    assert "; 5 страниц подсчитано по файлам, ещё не отрисовано." in forecast_line(forecast)


def test_the_state_column_names_the_state_in_the_run_language(language: type[Language]) -> None:
    language.current = "ru"
    assert _state_shown(job(1, JobState.PROCESSING), None)[0] == "В пакете"
    language.current = "en"
    assert _state_shown(job(1, JobState.NEEDS_REVIEW), None)[0] == "Needs review"


def test_the_jobs_and_batches_tables_are_russian(language: type[Language]) -> None:
    """The headings of ``jobs`` and ``batches`` come from the catalogue, not English."""
    language.current = "ru"
    console = Console(file=StringIO(), width=200)
    print_jobs(console, [job(1)], as_json=False)
    print_batches(console, [BatchRecord(["r1"], [1], "2026-01-01T00:00:00", "ended", "msgbatch_1")])
    print_batches(console, [])
    text = console.file.getvalue()  # type: ignore[attr-defined]
    for english in (
        "Jobs",
        "file",
        "state",
        "pages",
        "docs",
        "note",
        "Batches",
        "status",
        "requests",
        "created",
        "model",
        "No batches",
    ):
        assert english not in text, english
    assert "Задания" in text and "Пакеты" in text


def test_the_pages_counterparties_and_budget_views_are_russian(
    language: type[Language], capsys: pytest.CaptureFixture[str]
) -> None:
    """The other tables and lines an operator reads: no English word of DocBatch's own."""
    language.current = "ru"
    console = Console(file=StringIO(), width=200)
    page = Page(1, 1, 800, 1100, text="Счёт", rotation=90, rotation_confidence=0.9,
                orientation_uncertain=True)  # fmt: skip
    print_pages(console, [page, Page(1, 2, 800, 1100, ocr_engine="tesseract", ocr_cached=True)])
    print_counterparties(console, [Counterparty("7701234560", "ООО «Ромашка»", confirmed=2)])
    print_counterparties(console, [])
    print_budget(BudgetStatus("2026-12", 1.5, 20.0, None))
    text = console.file.getvalue() + capsys.readouterr().out  # type: ignore[attr-defined]
    assert not english_words(text), text
    assert "Страницы" in text and "Контрагенты" in text and "Осталось на месяц:" in text


def test_the_doctor_words_its_findings_in_russian_and_keeps_english_json(
    language: type[Language], tmp_path: Path
) -> None:
    settings = load_settings(data_dir=tmp_path / "data")
    for check in (_data_dir(settings), _privacy(settings), _leftovers(settings), _store(settings)):
        russian = f"{check.mark_in('ru')} {check.name_in('ru')}: {check.detail_in('ru')}"
        # the fix is a shell command, shown as it is
        assert not english_words(russian, [privacy_fix(settings.data_dir), str(tmp_path)]), russian
        assert check.as_dict()["detail"] == check.detail  # the JSON keeps the English
    assert _store(settings).detail.endswith(", 0 jobs")
    assert _store(settings).detail_in("ru").endswith(", 0 заданий")


def test_choosing_the_language_sets_the_catalogue_for_the_run(language: type[Language]) -> None:
    """A plain ``_()`` reached from the command line speaks the run's language."""
    before = current_language()
    try:
        language.choose("ru", "", {})
        assert gettext("No documents.") == "Документов нет."
        language.choose(None, "", {"LANG": "C"})
        assert gettext("No documents.") == "No documents."
    finally:
        set_language(before)
