"""``--lang ru`` words every line of the command line in Russian: the tables, their
counts, the doctor's findings and the errors an operator reads. Names, settings,
commands in backticks and the values read from the documents stay as they are
(``tests.english_words``); ``--json`` stays English."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from docbatch_gui.cli import main
from docbatch_gui.i18n import current_language
from tests.conftest import SAMPLES
from tests.english_words import english_words

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
def no_keys_or_hooks(monkeypatch: pytest.MonkeyPatch) -> None:
    for variable in ("ANTHROPIC_API_KEY", "WEBHOOK_URL", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setenv("COLUMNS", "400")  # a file name is not folded over two lines


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
