"""Every command, asked for something that does not exist or is in the wrong state,
ends with one sentence on stderr and its documented exit code, never a traceback.

The commands are read from the parser: a new command fails ``test_every_command_is_
covered`` until a case below says how it fails. Commands run in-process (``main``)
for speed; one subprocess proves that nothing reaches a real terminal.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from docbatch_gui.cli import build_parser, main
from docbatch_gui.domain.errors import DocBatchError, ExitCode
from docbatch_gui.domain.models import Document, NewJob
from docbatch_gui.domain.states import JobState
from docbatch_gui.storage.sqlite import SQLiteStore
from tests.conftest import REPO, RESOURCES, SAMPLES
from tests.helpers import cli

MISSING = "999999"
#: an id no database can hold (SQLite and MongoDB stop at 2**63 - 1): still "not found"
HUGE = "99999999999999999999999999"
REGISTRY_SAMPLE = RESOURCES / "registry_sample"


@dataclass(frozen=True)
class Data:
    ok: Path  # a queued job, a done job a person confirmed, two registries
    damaged: Path  # a database overwritten with garbage
    empty: Path  # a folder with no supported file
    queued: int
    done: int
    imported: int  # a registry fully imported
    half: int  # a registry whose import never finished


@pytest.fixture(scope="module")
def data(tmp_path_factory: pytest.TempPathFactory) -> Data:
    root = tmp_path_factory.mktemp("cli-errors")
    ok = root / "ok"
    ok.mkdir()
    store = SQLiteStore(ok / "docbatch.sqlite3")
    queued = store.create_job(NewJob("queued.pdf", "/in/queued.pdf", "a" * 64, 1)).id
    done = store.create_job(NewJob("done.pdf", "/in/done.pdf", "b" * 64, 1)).id
    for state in (JobState.PREPARING, JobState.BUILDING, JobState.DONE):
        store.transition(done, state)
    store.replace_documents(done, [Document(done, 0, "invoice", 1, 1, confirmed_by="anna")])
    half = store.create_registry("half", "/in/half.xlsx", {}).id
    store.close()
    from docbatch_gui.app.facade import DocBatchApp
    from docbatch_gui.settings.loading import load_settings

    app = DocBatchApp(load_settings(data_dir=ok))
    try:
        summary = app.registry.import_registry(
            REGISTRY_SAMPLE / "registry.xlsx", REGISTRY_SAMPLE / "config.json"
        )
    finally:
        app.close()
    damaged = root / "damaged"
    damaged.mkdir()
    (damaged / "docbatch.sqlite3").write_bytes(b"this is no database " * 200)
    empty = root / "empty"
    empty.mkdir()  # a file in it would add a "skipped" line before the sentence
    return Data(ok, damaged, empty, queued, done, summary.registry_id, half)


@dataclass(frozen=True)
class Case:
    """``argv`` after ``--data-dir``; ``{queued}`` and the like are filled from Data."""

    argv: tuple[str, ...]
    code: int
    says: tuple[str, ...]
    where: str = "ok"  # which data folder of Data
    #: doctor reports on stdout, one line per check; everything else on stderr
    stderr_lines: int = 1
    env: dict[str, str] = field(default_factory=dict)

    @property
    def command(self) -> tuple[str, ...]:
        return self.argv[:2] if self.argv[0] == "registry" else self.argv[:1]


NOT_FOUND, WRONG_STATE = ExitCode.NOT_FOUND, ExitCode.WRONG_STATE
CASES = [
    Case(("process", "--mode", "sync", str(SAMPLES)), ExitCode.CONFIG, ("ANTHROPIC_API_KEY",)),
    Case(("process", "{empty}"), ExitCode.UNSUPPORTED, ("No supported files found",)),
    Case(("process", str(SAMPLES)), ExitCode.STORAGE, ("is damaged",), where="damaged"),
    Case(("jobs",), ExitCode.STORAGE, ("is damaged", "restore it from a backup"), "damaged"),
    Case(("documents", "--job", MISSING), NOT_FOUND, ("No job 999999", "`docbatch jobs`")),
    Case(("pages", "--job", MISSING), NOT_FOUND, ("No job 999999", "`docbatch jobs`")),
    Case(("doctor",), ExitCode.FAILED, (), where="damaged", stderr_lines=0),
    Case(("worker", "--once"), ExitCode.STORAGE, ("is damaged",), where="damaged"),
    Case(("celery-worker",), ExitCode.CONFIG, ("CELERY_BROKER_URL",)),
    Case(
        ("import-yadisk", "https://disk.yandex.ru/d/abc"),
        ExitCode.BUSY,
        ("Yandex.Disk cannot be reached", "check the network"),
        env={"YADISK_API_URL": "http://127.0.0.1:9"},  # nothing listens there
    ),
    Case(("mail",), ExitCode.CONFIG, ("No mailbox is set", "MAIL_HOST")),
    Case(
        ("mail",),
        ExitCode.BUSY,
        ("127.0.0.1:9: the mail server cannot be reached", "MAIL_SECURITY"),
        env={"MAIL_HOST": "127.0.0.1", "MAIL_PORT": "9", "MAIL_USER": "u", "MAIL_PASSWORD": "p"},
    ),
    Case(("batches",), ExitCode.STORAGE, ("is damaged",), where="damaged"),
    Case(("pause",), ExitCode.STORAGE, ("is damaged",), where="damaged"),
    Case(("resume",), ExitCode.STORAGE, ("is damaged",), where="damaged"),
    Case(("retry", MISSING), NOT_FOUND, ("No job 999999", "`docbatch jobs`")),
    Case(("retry", "{queued}"), WRONG_STATE, ("queued.pdf", "already waiting")),
    Case(("retry", "{done}"), WRONG_STATE, ("corrected or confirmed by a person", "--force")),
    Case(("cancel", MISSING), NOT_FOUND, ("No job 999999", "`docbatch jobs`")),
    Case(("cancel", "{done}"), WRONG_STATE, ("done.pdf", "is Done already")),
    Case(
        ("registry", "import", "/nowhere/ledger.xlsx", "--config", "{config}"),
        NOT_FOUND,
        ("/nowhere/ledger.xlsx", "check the path"),
    ),
    Case(
        ("registry", "import", "{workbook}", "--config", "{workbook}"),
        ExitCode.CONFIG,
        ("not UTF-8 JSON text",),
    ),
    Case(("registry", "search", MISSING), NOT_FOUND, ("No registry 999999", "registry list")),
    Case(("registry", "results", MISSING), NOT_FOUND, ("No registry 999999",)),
    Case(("registry", "unmatched", MISSING), NOT_FOUND, ("No registry 999999",)),
    Case(("registry", "assign", MISSING, "5", "1"), NOT_FOUND, ("No registry 999999",)),
    Case(("registry", "assign", "{imported}", "5", MISSING), NOT_FOUND, ("No document 999999",)),
    Case(("registry", "unassign", MISSING, "5"), NOT_FOUND, ("No registry 999999",)),
    Case(("registry", "unassign", "{imported}", MISSING), NOT_FOUND, ("has no row 999999",)),
    Case(("registry", "export", MISSING, "{tmp}/out.xlsx"), NOT_FOUND, ("No registry 999999",)),
    Case(("registry", "export", "{half}", "{tmp}/out.xlsx"), WRONG_STATE, ("not fully imported",)),
    Case(
        ("registry", "export", "{imported}", "/nowhere/out.xlsx"),
        NOT_FOUND,
        ("/nowhere/out.xlsx", "check the path"),
    ),
    Case(("registry", "export", "{imported}", "{tmp}"), ExitCode.UNSUPPORTED, ("is a folder",)),
    Case(("registry", "list"), ExitCode.STORAGE, ("is damaged",), where="damaged"),
    Case(("watch", "{tmp}"), ExitCode.STORAGE, ("is damaged",), where="damaged"),
    Case(("webhooks", "--resend", "x"), ExitCode.CONFIG, ("WEBHOOK_URL is not set",)),
    Case(
        ("webhooks", "--resend", "x"),
        NOT_FOUND,
        ("No failed delivery x",),
        env={"WEBHOOK_URL": "http://127.0.0.1:9/hook"},
    ),
    Case(("export", "{tmp}/out.xlsx", "--job", MISSING), NOT_FOUND, ("No job 999999",)),
    Case(("export", "/nowhere/out.xlsx"), NOT_FOUND, ("/nowhere/out.xlsx", "check the path")),
    Case(("export", "{tmp}/out.pdf"), ExitCode.CONFIG, ("export to .xlsx, .csv or .json",)),
    Case(
        ("export", "{tmp}/o.csv", "--layout", "nope"),
        NOT_FOUND,
        ("No export layout 'nope' (known: all, 1c)",),
    ),
    Case(("retry", HUGE), NOT_FOUND, (f"No job {HUGE}",)),
    Case(("cancel", HUGE), NOT_FOUND, (f"No job {HUGE}",)),
    Case(("documents", "--job", HUGE), NOT_FOUND, (f"No job {HUGE}",)),
    Case(("pages", "--job", HUGE), NOT_FOUND, (f"No job {HUGE}",)),
    Case(("registry", "search", HUGE), NOT_FOUND, (f"No registry {HUGE}",)),
    Case(("export", "{tmp}/o.csv", "--job", HUGE), NOT_FOUND, (f"No job {HUGE}",)),
    Case(
        ("export", "{tmp}/o.csv", "--layout", "1c", "--columns", "number"),
        ExitCode.USAGE,
        ("--layout or --columns, not both",),
    ),
    Case(
        ("counterparties", "--forget", ""),
        ExitCode.USAGE,
        ("--forget option needs the seller's INN",),
    ),
    Case(("budget",), ExitCode.STORAGE, ("is damaged",), where="damaged"),
    Case(("budget", "--run-anyway"), WRONG_STATE, ("No run is held by the budget",)),
    Case(
        ("counterparties", "--forget", "7701234560"),
        NOT_FOUND,
        ("No counterparty with INN 7701234560", "`docbatch counterparties`"),
    ),
]


def leaf_commands(parser: argparse.ArgumentParser, prefix: tuple[str, ...] = ()) -> Iterator:
    """``("jobs",)``, ``("registry", "export")``…: every command a user can type."""
    subparsers = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    if not subparsers:
        yield prefix
        return
    for name, child in subparsers[0].choices.items():
        yield from leaf_commands(child, (*prefix, name))


def test_every_command_is_covered() -> None:
    commands = set(leaf_commands(build_parser()))
    assert len(commands) > 15
    assert {c.command for c in CASES} == commands


def filled(case: Case, data: Data, tmp: Path) -> list[str]:
    values = {
        "queued": data.queued,
        "done": data.done,
        "imported": data.imported,
        "half": data.half,
        "empty": data.empty,
        "tmp": tmp,
        "config": REGISTRY_SAMPLE / "config.json",
        "workbook": REGISTRY_SAMPLE / "registry.xlsx",
    }
    folder = {"ok": data.ok, "damaged": data.damaged}[case.where]
    return ["--data-dir", str(folder), *(a.format(**values) for a in case.argv)]


def lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.strip()]


#: doctor starts a render child (its check of the renderer): that case is slow
@pytest.mark.parametrize(
    "case",
    [pytest.param(c, marks=pytest.mark.slow) if c.argv == ("doctor",) else c for c in CASES],
    ids=lambda c: " ".join(c.argv),
)
def test_a_wrong_request_is_one_sentence_and_its_exit_code(
    case: Case,
    data: Data,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for name, value in case.env.items():
        monkeypatch.setenv(name, value)
    code = main(filled(case, data, tmp_path))
    captured = capsys.readouterr()
    assert code == case.code, captured.err
    assert "Traceback" not in captured.err + captured.out
    shown = lines(captured.err)
    assert len(shown) == case.stderr_lines, captured.err
    for line in shown:
        first = line.split(" ", 1)[0]  # a capital, or a path or option shown as it is
        assert not (first.isalpha() and first.islower()), line
        assert line.endswith("."), line
    for words in case.says:
        assert words in captured.err, captured.err


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (("jobs", "--state", "bogus"), "invalid choice: 'bogus'"),
        (("export", "x.csv", "--delimiter", "ab"), "one character, not 'ab'"),
        (("export", "x.csv", "--delimiter", '"'), "cannot be a CSV delimiter"),
        (("export", "x.csv", "--delimiter", "\n"), "cannot be a CSV delimiter"),
        (("export", "x.csv", "--delimiter", "\r"), "cannot be a CSV delimiter"),
    ],
)
def test_a_wrong_choice_is_a_usage_error(
    argv: tuple[str, ...], says: str, data: Data, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as ended:
        main(["--data-dir", str(data.ok), *argv])
    captured = capsys.readouterr()
    assert ended.value.code == ExitCode.USAGE
    assert says in captured.err and "Traceback" not in captured.err


def test_several_ids_each_get_their_line_and_the_others_are_done(
    data: Data, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["--data-dir", str(data.ok), "cancel", MISSING, str(data.done), MISSING])
    captured = capsys.readouterr()
    assert code == ExitCode.NOT_FOUND  # the first refusal's
    assert [line.split(":")[0].split(" in ")[0] for line in lines(captured.err)] == [
        "No job 999999",
        f"Job {data.done} (done.pdf) is Done already",
        "No job 999999",
    ]


def test_an_unexpected_error_is_one_line_naming_the_log_which_has_the_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from docbatch_gui.app.facade import DocBatchApp

    def broken(self: DocBatchApp, *args: object) -> None:
        raise ValueError("a bug nobody foresaw")

    monkeypatch.setattr(DocBatchApp, "jobs", broken)
    data = tmp_path / "data"
    assert main(["--data-dir", str(data), "jobs"]) == ExitCode.FAILED
    (line,) = lines(capsys.readouterr().err)
    log = data / "logs" / "docbatch.log"
    assert line == (
        "docbatch jobs failed unexpectedly (ValueError: a bug nobody foresaw); the details "
        f"are in {log}; --debug shows them here."
    )
    logged = log.read_text(encoding="utf-8")
    assert "docbatch jobs failed unexpectedly" in logged and "Traceback" in logged
    assert 'raise ValueError("a bug nobody foresaw")' in logged

    assert main(["--data-dir", str(data), "--debug", "jobs"]) == ExitCode.FAILED
    shown = capsys.readouterr().err
    assert "Traceback" in shown and shown.rstrip().endswith("the traceback is above.")
    monkeypatch.setenv("DOCBATCH_DEBUG", "1")
    assert main(["--data-dir", str(data), "documents", "--job", MISSING]) == NOT_FOUND
    assert "Traceback" in capsys.readouterr().err  # a known error shows its path too


def test_ctrl_c_is_exit_130_without_a_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from docbatch_gui.app.facade import DocBatchApp

    def interrupted(self: DocBatchApp, *args: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(DocBatchApp, "batches", interrupted)
    assert main(["--data-dir", str(tmp_path / "data"), "batches"]) == ExitCode.INTERRUPTED
    (line,) = lines(capsys.readouterr().err)
    assert line.startswith("Interrupted:")


@pytest.mark.slow  # two CLI processes (test_extras starts one in the fast loop)
def test_in_a_real_terminal_process_nothing_but_the_sentence_shows(data: Data) -> None:
    result = cli(data.ok, "retry", MISSING)
    assert result.returncode == ExitCode.NOT_FOUND
    assert result.stdout == ""
    assert lines(result.stderr) == [
        f"No job 999999 in the data folder {data.ok}: `docbatch jobs` lists the jobs "
        "(--data-dir picks another data folder)."
    ]
    gone = subprocess.Popen(
        [sys.executable, "-m", "docbatch_gui.cli", "--data-dir", str(data.ok), "jobs", "--json"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=REPO,
    )
    assert gone.stdout is not None
    gone.stdout.close()  # the reader went away, as `| head` does
    _, stderr = gone.communicate(timeout=120)
    assert gone.returncode == ExitCode.BROKEN_PIPE, stderr
    assert b"Traceback" not in stderr


def documented_codes() -> dict[int, str]:
    text = (REPO / "docs" / "cli.md").read_text(encoding="utf-8")
    return {int(m[1]): m[2] for m in re.finditer(r"^\| (\d+) \| `(\w+)` \|", text, re.M)}


def test_the_exit_codes_are_documented_and_every_error_has_one() -> None:
    assert documented_codes() == {c.value: c.name for c in ExitCode}
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    for code in ExitCode:
        assert re.search(rf"^\| {code.value} \|", readme, re.M), code

    def subclasses(cls: type) -> Iterator[type]:
        for sub in cls.__subclasses__():
            yield sub
            yield from subclasses(sub)

    import docbatch_gui.registry.service  # noqa: F401  (errors defined there)

    errors = list(subclasses(DocBatchError))
    assert len(errors) > 15
    for error in errors:
        assert isinstance(error.exit_code, ExitCode), error


def every_error_class() -> list[type[DocBatchError]]:
    """Every DocBatchError subclass of the package (its Qt-free modules imported, so
    a class defined anywhere is seen; a module needing a missing extra is skipped)."""
    import importlib
    import pkgutil

    import docbatch_gui

    for module in pkgutil.walk_packages(docbatch_gui.__path__, "docbatch_gui."):
        platform_only = module.name.startswith("docbatch_gui.system._")
        if "._qt" in module.name or module.name.endswith("__main__") or platform_only:
            continue
        try:
            importlib.import_module(module.name)
        except ImportError:
            continue

    def subclasses(cls: type[DocBatchError]) -> Iterator[type[DocBatchError]]:
        for sub in cls.__subclasses__():
            yield sub
            yield from subclasses(sub)

    return [DocBatchError, *subclasses(DocBatchError)]


@pytest.mark.slow  # imports every module of the package
def test_the_error_table_names_every_error_class_with_its_code() -> None:
    text = (REPO / "docs" / "cli.md").read_text(encoding="utf-8")
    table = text[text.index("| error | exit code |") :].split("\n\n", 1)[0]
    code_of: dict[str, int] = {}
    for row in re.finditer(r"^\| (.+) \| (\d+) \|$", table, re.M):
        for name in re.findall(r"^`(\w+)`|, `(\w+)`", row[1]):
            code_of["".join(name)] = int(row[2])
    missing = {
        error.__name__: int(error.exit_code)
        for error in every_error_class()
        if code_of.get(error.__name__) != int(error.exit_code)
    }
    assert not missing, f"docs/cli.md 'Where the codes come from' lacks or misstates {missing}"


def test_the_cli_returns_exit_codes_by_name_only() -> None:
    """A bare number would be a code the table cannot list."""
    bare = [
        f"{path.name}:{n}"
        for path in sorted((REPO / "docbatch_gui" / "cli").glob("*.py"))
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if re.search(r"\b(return|exit\(|SystemExit\()\s*\d+\b", line)
    ]
    assert not bare, bare
