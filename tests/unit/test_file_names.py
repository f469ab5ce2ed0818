"""File names Windows cannot hold: made portable where DocBatch names a file itself
(intake from Yandex.Disk, saved layouts), refused with the reason where an operator
chose an export's name on Windows."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from docbatch_gui.domain.errors import ConfigError
from docbatch_gui.sources.yadisk import safe_name
from docbatch_gui.storage.atomic import atomic_output
from docbatch_gui.system.names import MAX_NAME, check_writable_name, name_problem, portable_name


@pytest.mark.parametrize(
    ("name", "portable"),
    [
        ("CON", "_CON"),
        ("con.pdf", "_con.pdf"),
        ("Com1.tiff", "_Com1.tiff"),
        ("LPT9", "_LPT9"),
        ("nul .txt", "_nul .txt"),
        ("a:b.pdf", "a_b.pdf"),
        ('in<voice>|"1"?*.pdf', "in_voice___1___.pdf"),
        ("report.", "report"),
        ("report. . ", "report"),
        ("  scan.pdf  ", "scan.pdf"),
        ("folder\\sub/scan.pdf", "scan.pdf"),
        ("tab\there.pdf", "tabhere.pdf"),
        ("...", "file"),
        ("", "file"),
        ("CONSOLE.pdf", "CONSOLE.pdf"),  # only the exact device names are reserved
        ("Счёт №12 от 01.02.2024.pdf", "Счёт №12 от 01.02.2024.pdf"),
    ],
)
def test_a_portable_name_is_one_windows_takes(name: str, portable: str) -> None:
    assert portable_name(name) == portable
    assert name_problem(portable) is None


def test_a_long_name_keeps_its_extension() -> None:
    name = portable_name("x" * 300 + ".pdf")
    assert len(name) == MAX_NAME and name.endswith("x.pdf")


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("CON", "the device name CON"),
        ("aux.xlsx", "the device name AUX"),
        ("a:b.pdf", "the characters ':'"),
        ("report.", "a dot or space at the end"),
        ("report ", "a dot or space at the end"),
        ("", "an empty name"),
    ],
)
def test_what_windows_refuses_is_said(name: str, words: str) -> None:
    assert name_problem(name) == words


def test_intake_from_yandex_disk_stores_windows_names() -> None:
    assert safe_name("CON.pdf") == "_CON.pdf"
    assert safe_name("счёт 12:2024.pdf") == "счёт 12_2024.pdf"
    assert safe_name("акт.pdf. ") == "акт.pdf"
    assert safe_name("../../.hidden.pdf") == "hidden.pdf"


def test_on_windows_an_export_to_a_name_it_cannot_hold_is_refused(tmp_path: Path) -> None:
    for bad in ("a:b.xlsx", "CON.xlsx", "report."):
        with pytest.raises(OSError) as refused:
            check_writable_name(tmp_path / bad, platform="win32")
        assert str(tmp_path / bad) in str(refused.value)
        assert "Windows cannot name a file with" in str(refused.value)
    check_writable_name(tmp_path / "report.xlsx", platform="win32")


@pytest.mark.skipif(sys.platform == "win32", reason="a name Windows cannot hold")
def test_elsewhere_the_name_is_written_as_given(tmp_path: Path) -> None:
    check_writable_name(tmp_path / "a:b.xlsx", platform="linux")
    with atomic_output(tmp_path / "a:b.csv") as partial:
        partial.write_text("x", encoding="utf-8")
    assert (tmp_path / "a:b.csv").read_text(encoding="utf-8") == "x"


def test_the_export_checks_the_name_before_writing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What a Windows machine does, here: nothing is written, not even the .part."""
    import docbatch_gui.system.names as names

    monkeypatch.setattr(names.sys, "platform", "win32")
    with pytest.raises(OSError, match="the characters ':'"), atomic_output(tmp_path / "a:b.csv"):
        raise AssertionError("not reached")
    assert list(tmp_path.iterdir()) == []


def test_a_layout_named_as_a_device_is_refused(tmp_path: Path) -> None:
    from docbatch_gui.config.profile import load_profile
    from docbatch_gui.outbound.layouts import Column, Layout, save_layout
    from docbatch_gui.resources import resources_dir

    profile = load_profile(resources_dir() / "profiles" / "default.json")
    layout = Layout(name="CON", columns=(Column("file_name"),))
    with pytest.raises(ConfigError, match="Windows keeps for a device"):
        save_layout(layout, tmp_path, profile)
    assert not (tmp_path / "CON.json").exists()
