"""The desktop dress in ``resources/``: the icon in every size, the .ico, the Linux
desktop entry and AppStream metainfo (validated by their own tools where installed),
the Windows version resource, and the package's copy of the icon."""

from __future__ import annotations

import argparse
import configparser
import shutil
import subprocess
import sys
import types
from pathlib import Path

import pytest
from PIL import Image

import build_installer
from scripts.make_icons import ICO_SIZES, PACKAGE_SIZES, SIZES

REPO = Path(__file__).resolve().parents[2]
DESKTOP = REPO / "resources"
LINUX = DESKTOP / "linux"
ENTRY = LINUX / "org.docbatch.DocBatch.desktop"
METAINFO = LINUX / "org.docbatch.DocBatch.metainfo.xml"
PACKAGE_ICONS = REPO / "docbatch_gui" / "resources" / "icons"


@pytest.mark.parametrize("size", SIZES)
def test_each_png_size_is_square_and_drawn(size: int) -> None:
    with Image.open(DESKTOP / "icons" / f"docbatch-{size}.png") as image:
        assert image.size == (size, size) and image.mode == "RGBA"
        alpha = image.getchannel("A")
        assert alpha.getpixel((size // 2, size // 2)) == 255  # the tile, not transparency
        assert alpha.getpixel((0, 0)) < 255  # rounded corners


def test_the_ico_holds_every_size_to_256() -> None:
    with Image.open(DESKTOP / "docbatch.ico") as ico:
        assert sorted(ico.info["sizes"]) == [(s, s) for s in ICO_SIZES]


def test_the_package_ships_the_same_icon() -> None:
    """scripts/make_icons.py writes both; a changed SVG without a rerun fails here."""
    assert (PACKAGE_ICONS / "docbatch.svg").read_bytes() == (DESKTOP / "docbatch.svg").read_bytes()
    for size in PACKAGE_SIZES:
        name = f"docbatch-{size}.png"
        assert (PACKAGE_ICONS / name).read_bytes() == (DESKTOP / "icons" / name).read_bytes()


def test_the_desktop_entry_starts_the_window_for_pdfs_and_images() -> None:
    entry = configparser.ConfigParser(interpolation=None)
    entry.optionxform = str  # type: ignore[assignment,method-assign]
    entry.read(ENTRY, encoding="utf-8")
    group = entry["Desktop Entry"]
    assert group["Exec"].split()[0] == "docbatch-gui" and group["Type"] == "Application"
    assert group["Icon"] == ENTRY.stem  # the icon installed under the entry's id
    assert "Office" in group["Categories"].split(";")
    kinds = set(group["MimeType"].rstrip(";").split(";"))
    assert {"application/pdf", "image/tiff", "image/jpeg", "image/png"} <= kinds


@pytest.mark.skipif(not shutil.which("desktop-file-validate"), reason="desktop-file-utils")
def test_desktop_file_validate_accepts_the_entry() -> None:
    result = subprocess.run(["desktop-file-validate", str(ENTRY)], capture_output=True, text=True)
    assert result.returncode == 0 and not result.stdout.strip(), result.stdout + result.stderr


@pytest.mark.skipif(not shutil.which("appstreamcli"), reason="appstream")
def test_appstreamcli_accepts_the_metainfo() -> None:
    result = subprocess.run(
        ["appstreamcli", "validate", "--no-net", str(METAINFO)], capture_output=True, text=True
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_version_resource_is_what_pyinstaller_reads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Filled in with pyproject's version, parsed by PyInstaller's own loader and
    serialised to the binary resource (``pefile`` and ``win32api``, which only
    writing into an .exe needs, are Windows-only: stand-ins let the module import)."""
    monkeypatch.setitem(
        sys.modules, "pefile", sys.modules.get("pefile", types.ModuleType("pefile"))
    )
    import PyInstaller.compat

    monkeypatch.setattr(PyInstaller.compat, "win32api", None, raising=False)
    from PyInstaller.utils.win32 import versioninfo

    info = versioninfo.load_version_info_from_text_file(
        str(build_installer.write_version_file(tmp_path))
    )
    raw = info.toRaw()
    assert build_installer.version().encode("utf-16-le") in raw
    major, minor, *_ = (int(part) for part in build_installer.version().split("."))
    assert info.ffi.fileVersionMS == (major << 16) | minor


def test_the_windows_build_gets_the_ico_and_the_version_resource(tmp_path: Path) -> None:
    args = argparse.Namespace(
        dist=tmp_path / "dist", log_level="WARN", windowed=True, icon=None, clean=False
    )
    windows = build_installer.pyinstaller_args(args, tmp_path, "win32")
    assert windows[windows.index("--icon") + 1] == str(DESKTOP / "docbatch.ico")
    assert Path(windows[windows.index("--version-file") + 1]).is_file()
    linux = build_installer.pyinstaller_args(args, tmp_path, "linux")
    assert "--icon" not in linux and "--version-file" not in linux
    assert any("docbatch-256.png" in a for a in linux)  # the window's icon is package data


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a Linux desktop's menu")
def test_install_desktop_puts_the_entry_and_icons_in_the_users_menu(tmp_path: Path) -> None:
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "XDG_DATA_HOME": str(tmp_path / "d")}
    script = REPO / "scripts" / "install-desktop.sh"
    program = tmp_path / "bin" / "docbatch-gui"
    run = [
        "bash", str(script), "--exec", str(program),
    ]  # fmt: skip
    subprocess.run(run, env=env, check=True, capture_output=True, timeout=60)
    data = tmp_path / "d"
    installed = data / "applications" / ENTRY.name
    text = installed.read_text(encoding="utf-8")
    assert f"Exec={program} %F" in text and f"TryExec={program}" in text
    assert (data / "icons/hicolor/512x512/apps/org.docbatch.DocBatch.png").is_file()
    assert (data / "icons/hicolor/16x16/apps/org.docbatch.DocBatch.png").is_file()
    assert (data / "icons/hicolor/scalable/apps/org.docbatch.DocBatch.svg").is_file()
    assert (data / "metainfo" / METAINFO.name).is_file()
    if shutil.which("desktop-file-validate"):
        check = subprocess.run(["desktop-file-validate", str(installed)], capture_output=True)
        assert check.returncode == 0, check.stdout
    subprocess.run([*run, "--uninstall"], env=env, check=True, capture_output=True, timeout=60)
    assert not installed.exists()
    assert not any((data / "icons").rglob("org.docbatch.DocBatch.*"))


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a Linux desktop's menu")
def test_a_path_with_a_space_is_refused_in_one_sentence(tmp_path: Path) -> None:
    script = REPO / "scripts" / "install-desktop.sh"
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "XDG_DATA_HOME": str(tmp_path)}
    result = subprocess.run(
        ["bash", str(script), "--exec", "/opt/Doc Batch/docbatch-gui"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2 and "must not hold spaces" in result.stderr
    assert not (tmp_path / "applications" / ENTRY.name).exists()


def test_the_window_takes_the_files_the_desktop_opens_it_with() -> None:
    from docbatch_gui._qt.main import parse_args

    assert parse_args(["--lang", "ru", "a.pdf", "scans"]).files == ["a.pdf", "scans"]
    assert parse_args([]).files == []
