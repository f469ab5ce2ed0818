"""Update the translation sources and compile them: ``.venv/bin/python scripts/i18n.py``.

1. ``pyside6-lupdate`` reads every ``tr()`` / ``QCoreApplication.translate()`` in
   ``docbatch_gui/_qt/**/*.py`` into ``docbatch_gui/resources/i18n/docbatch_<lang>.ts``. Existing
   translations are kept; new strings come in as ``unfinished``, strings no longer in
   the code are dropped.
2. The untranslated entries are listed (translate them in the ``.ts``, by hand or
   with ``pyside6-linguist``, then run this again).
3. ``pyside6-lrelease`` compiles each ``.ts`` into the ``.qm`` the application loads.

Commit both files. ``--check`` changes nothing: it exits 1 if the code has strings
the ``.ts`` lacks or the ``.ts`` has untranslated entries.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SOURCES = ROOT / "docbatch_gui" / "_qt"
I18N = ROOT / "docbatch_gui" / "resources" / "i18n"
#: every language but English, the source language
LANGUAGES = ("ru",)


def tool(name: str) -> str:
    """``pyside6-<name>`` from this interpreter's environment, else from PATH."""
    found = shutil.which(f"pyside6-{name}", path=str(Path(sys.executable).parent))
    found = found or shutil.which(f"pyside6-{name}")
    if found is None:
        raise SystemExit(f"pyside6-{name} not found: install PySide6-Essentials")
    return found


def ts_path(language: str) -> Path:
    return I18N / f"docbatch_{language}.ts"


def qm_path(language: str) -> Path:
    return I18N / f"docbatch_{language}.qm"


def sources() -> list[Path]:
    return sorted(SOURCES.rglob("*.py"))


def update(ts: Path, language: str) -> None:
    """Bring ``ts`` up to date with the code (created if missing)."""
    ts.parent.mkdir(parents=True, exist_ok=True)
    subprocess.run(
        [
            tool("lupdate"),
            *(str(p) for p in sources()),
            "-target-language",
            language,
            "-no-obsolete",
            # no line numbers: a string moving in its file does not change the .ts
            "-locations",
            "none",
            "-silent",
            "-ts",
            str(ts),
        ],
        check=True,
    )
    # lupdate takes the code's "#:" attribute docs for translator comments; they are not.
    text = ts.read_text(encoding="utf-8")
    ts.write_text(
        re.sub(r"\n *<extracomment>.*?</extracomment>", "", text, flags=re.DOTALL), encoding="utf-8"
    )


def release(ts: Path, qm: Path) -> None:
    subprocess.run([tool("lrelease"), "-silent", str(ts), "-qm", str(qm)], check=True)


def messages(ts: Path) -> list[tuple[str, ET.Element]]:
    """(context, message) for every message of a ``.ts``."""
    root = ET.parse(ts).getroot()
    return [
        (context.findtext("name") or "", message)
        for context in root.iter("context")
        for message in context.iter("message")
    ]


def untranslated(ts: Path) -> list[tuple[str, str]]:
    """(context, source) of each entry without a finished translation."""
    missing = []
    for context, message in messages(ts):
        translation = message.find("translation")
        forms = [] if translation is None else list(translation.iter("numerusform"))
        texts = (
            [f.text for f in forms]
            if forms
            else [None if translation is None else translation.text]
        )
        kind = "" if translation is None else translation.get("type", "")
        if kind in ("vanished", "obsolete"):
            continue
        if kind == "unfinished" or not all(texts):
            missing.append((context, message.findtext("source") or ""))
    return missing


def check(language: str) -> list[tuple[str, str]]:
    """What the committed ``.ts`` lacks: run lupdate on a copy and list the gaps."""
    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / ts_path(language).name
        if ts_path(language).exists():
            shutil.copy(ts_path(language), copy)
        update(copy, language)
        return untranslated(copy)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="change nothing; exit 1 on gaps")
    args = parser.parse_args(argv)
    status = 0
    for language in LANGUAGES:
        ts = ts_path(language)
        if args.check:
            missing = check(language)
        else:
            update(ts, language)
            missing = untranslated(ts)
            release(ts, qm_path(language))
        total = len(messages(ts)) if ts.exists() else 0
        print(f"{ts.relative_to(ROOT)}: {total} entries, {len(missing)} untranslated")
        for context, source in missing:
            print(f"  [{context}] {source!r}")
        status = status or (1 if missing and args.check else 0)
    return status


if __name__ == "__main__":
    sys.exit(main())
