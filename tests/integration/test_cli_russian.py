"""``--lang ru`` words every line of the command line in Russian: the tables, their
counts, the doctor's findings and the errors an operator reads. Names, settings,
commands in backticks and the values read from the documents stay as they are
(``tests.english_words``); ``--json`` stays English."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from docbatch_gui.cli import main
from docbatch_gui.cli.output import out
from docbatch_gui.diagnostics.live import SAMPLE
from docbatch_gui.i18n import current_language
from docbatch_gui.system.privacy import privacy_fix
from tests.conftest import SAMPLES
from tests.english_words import english_words
from tests.fakes.anthropic_server import FakeAnthropic

pytestmark = pytest.mark.slow  # processes the samples, whose pages render in a child

#: what the samples hold and the run shows as read: names, numbers, file names
SAMPLE_DATA = (
    "Acme Widgets LLC", "Globex Corporation", "INV-2024-0042", "Invoice", "invoice",
    "doc_type", "number", "Total", "Inv",
)  # fmt: skip


@pytest.fixture(scope="module")
def processed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A data folder where the samples were processed offline, in Russian."""
    data = tmp_path_factory.mktemp("data")
    samples = tmp_path_factory.mktemp("samples")
    for sample in SAMPLES.iterdir():
        if sample.is_file():
            shutil.copy(sample, samples / sample.name)
    code = main(["--data-dir", str(data), "--lang", "ru", "process", str(samples), "--wait"])
    assert code == 0
    return data


@pytest.fixture(autouse=True)
def no_keys_or_hooks(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    for variable in ("ANTHROPIC_API_KEY", "WEBHOOK_URL", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(variable, raising=False)
    width = out._width  # the console read COLUMNS when it was made: set it here
    out.width = 400  # a file name is not folded over two lines
    yield
    out._width = width


def said(capsys: pytest.CaptureFixture[str], data: Path, *args: str) -> str:
    main(["--data-dir", str(data), "--lang", "ru", *args])
    captured = capsys.readouterr()
    return captured.out + captured.err


@pytest.mark.parametrize(
    "command",
    [
        ("jobs",),
        ("documents",),
        ("pages", "--job", "4"),
        ("batches",),
        ("budget",),
        ("counterparties",),
        ("webhooks",),
        ("registry", "list"),
        ("pause",),
        ("resume",),
        ("retry", "99"),
        ("cancel", "3"),
        ("export", "--layout", "all", "--columns", "number"),
        ("doctor",),
    ],
    ids=" ".join,
)
def test_each_command_speaks_russian(
    processed: Path, capsys: pytest.CaptureFixture[str], command: tuple[str, ...]
) -> None:
    text = said(capsys, processed, *command)
    assert text.strip()
    names = [p.name for p in SAMPLES.iterdir()]
    found = english_words(text, [str(processed), *names, *SAMPLE_DATA])
    assert not found, f"English in `docbatch --lang ru {' '.join(command)}`: {found}\n{text}"


def test_process_wait_counts_the_documents_in_russian(
    processed: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = said(capsys, processed, "documents", "--job", "3")
    assert "3 документа" in text and "Documents" not in text


def test_the_json_stays_english_and_the_language_is_put_back(
    processed: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = current_language()
    checks = json.loads(said(capsys, processed, "doctor", "--json"))
    names = {c["name"]: c for c in checks}
    assert names["data directory"]["detail"].endswith("GiB free)")
    assert names["store"]["detail"].endswith(", 4 jobs")
    assert current_language() == before


def test_doctor_live_speaks_russian(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    fake_anthropic: FakeAnthropic,
) -> None:
    """The live check's steps too (the key accepted, the tokens, the answer, the batch)."""
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-test-RU-1234567890")
    monkeypatch.setenv("ANTHROPIC_BASE_URL", fake_anthropic.url)
    text = said(capsys, tmp_path / "data", "doctor", "--live", "--batch")
    assert "ответ разобран: 1 документ" in text and "живая проверка стоила всего" in text
    # what the server and the sample said, and the shell command that fixes the rights
    shown = [fake_anthropic.url, SAMPLE, "INV-2024-0042", "invoice", "canceling"]
    fix = privacy_fix(tmp_path / "data")
    found = english_words(text, [fix, str(tmp_path), *shown])
    assert not found, f"{found}\n{text}"
