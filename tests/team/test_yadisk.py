"""Yandex.Disk import against a fake speaking the documented JSON."""

from __future__ import annotations

from pathlib import Path

import pytest

from docbatch_gui.app.facade import DocBatchApp
from docbatch_gui.domain.progress import Canceled, CancelToken
from docbatch_gui.domain.states import JobState
from docbatch_gui.settings.loading import load_settings
from docbatch_gui.sources.yadisk import safe_name
from tests import builders
from tests.fakes.yadisk_server import PUBLIC_KEY, TOKEN, FakeYandexDisk
from tests.helpers import cli


@pytest.fixture
def tree(tmp_path: Path) -> dict[str, bytes]:
    def pdf(n: int) -> bytes:
        path = builders.text_pdf(tmp_path / f"{n}.pdf", text=f"Invoice No. {n}")
        return path.read_bytes()

    files = {f"/Scans/inv{n}.pdf": pdf(n) for n in range(105)}  # more than one page of 100
    files["/Scans/sub/deep.pdf"] = pdf(500)
    files["/Scans/sub/copy.pdf"] = files["/Scans/inv1.pdf"]  # same content: a duplicate
    files["/Scans/..\\..\\evil.pdf"] = pdf(501)
    files["/Scans/notes.txt"] = b"not a document"
    return files


def test_safe_names_never_leave_the_folder() -> None:
    assert safe_name("../../etc/passwd") == "passwd"
    assert safe_name("..\\..\\evil.pdf") == "evil.pdf"
    assert safe_name("..") == "file"
    assert safe_name("a\x00b.pdf") == "ab.pdf"


@pytest.mark.slow
@pytest.mark.parametrize("links", [True, False])
def test_public_folder_is_imported_with_paging_and_dedup(
    tmp_path: Path, tree: dict[str, bytes], links: bool
) -> None:
    with FakeYandexDisk(tree, links=links) as fake:
        settings = load_settings(data_dir=tmp_path / "data", YADISK_API_URL=fake.url)
        docapp = DocBatchApp(settings)
        seen: list[tuple[int, int]] = []
        try:
            report = docapp.import_yadisk(
                PUBLIC_KEY, mode="offline", progress=lambda p: seen.append((p.done, p.total))
            )
        finally:
            docapp.close()
    names = sorted(r.job.file_name for r in report.results)
    assert len(names) == 108 and "evil.pdf" in names and "notes.txt" not in names
    duplicates = [r for r in report.results if r.is_duplicate]
    assert len(duplicates) == 1 and duplicates[0].job.state is JobState.DUPLICATE
    assert any("offset=100" in r for r in fake.requests)  # the second page was read
    assert max(seen) == (108, 108)
    assert not list((tmp_path / "data").rglob("evil.pdf*"))  # nothing written outside


@pytest.mark.slow
def test_oauth_folder_and_cli(tmp_path: Path, tree: dict[str, bytes]) -> None:
    small = {k: v for k, v in tree.items() if "sub/" in k}
    with FakeYandexDisk(small, links=False) as fake:
        env = {"YADISK_API_URL": fake.url, "YADISK_TOKEN": TOKEN}
        command = ("import-yadisk", "disk:/Scans", "--mode", "offline")
        result = cli(tmp_path / "data", *command, env=env)
        refused = cli(tmp_path / "d2", *command, env={**env, "YADISK_TOKEN": "bad"})
    assert result.returncode == 0, result.stderr
    assert "2 files queued from Yandex.Disk" in result.stdout
    assert refused.returncode == 8 and "401" in refused.stderr  # the account: its token


def test_cancel_stops_the_import(tmp_path: Path, tree: dict[str, bytes]) -> None:
    cancel = CancelToken()
    with FakeYandexDisk(tree) as fake:
        settings = load_settings(data_dir=tmp_path / "data", YADISK_API_URL=fake.url)
        docapp = DocBatchApp(settings)
        try:
            with pytest.raises(Canceled):
                docapp.import_yadisk(
                    PUBLIC_KEY, mode="offline", progress=lambda p: cancel.cancel(), cancel=cancel
                )
            assert docapp.jobs() == []
        finally:
            docapp.close()
