"""The translator's workflow over the gettext catalogue: ``.venv/bin/python scripts/i18n.py``.

Commands (``docs/translating.md``):

- ``extract``: ``pybabel extract`` over ``docbatch_gui/`` with DocBatch's keywords
  (:data:`KEYWORDS`) into ``build/i18n/docbatch.pot``.
- ``update``: extract, then merge into each language's ``.po``: new strings come in
  untranslated, a changed string keeps its old translation marked fuzzy, strings no
  longer in the code are dropped.
- ``compile``: each ``.po`` into the ``.mo`` the program loads (a build compiles them
  too, and a checkout at first use).
- ``stats``: translated, fuzzy and untranslated entries per language.

Without a command: ``update``, ``compile`` and ``stats``. ``--check`` changes nothing:
it exits 1 when the code has a string a ``.po`` lacks, or a ``.po`` has untranslated,
fuzzy or obsolete entries.
"""

from __future__ import annotations

import argparse
import dataclasses
import subprocess
import sys
import tempfile
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = "docbatch_gui"
LOCALE = ROOT / PACKAGE / "resources" / "locale"
DOMAIN = "docbatch"
POT = ROOT / "build" / "i18n" / f"{DOMAIN}.pot"
#: gettext's own names are Babel's defaults; these are DocBatch's markers
#: (``docbatch_gui.i18n``): N_ a template, NN_ one worded by a number, NP_ one under a context
KEYWORDS = ("N_", "NN_:1,2", "NP_:1c,2")


def pybabel(*args: str) -> None:
    """Run one ``pybabel`` command (Babel's own command line) from the checkout's root,
    so the locations it writes are relative to it."""
    command = [sys.executable, "-m", "babel.messages.frontend", "-q", *args]
    result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
    if result.returncode:
        raise SystemExit(f"pybabel {args[0]} failed: {result.stderr.strip()}")


def languages() -> list[str]:
    """Every language with a ``.po`` (English, the source language, has none)."""
    return sorted(p.parent.parent.name for p in LOCALE.glob(f"*/LC_MESSAGES/{DOMAIN}.po"))


def po_path(language: str) -> Path:
    return LOCALE / language / "LC_MESSAGES" / f"{DOMAIN}.po"


def extract(pot: Path = POT) -> Path:
    """The strings of the code, into ``pot``."""
    pot.parent.mkdir(parents=True, exist_ok=True)
    keywords = [arg for keyword in KEYWORDS for arg in ("-k", keyword)]
    pybabel(
        "extract", "-F", str(ROOT / "babel.cfg"), *keywords,
        # file names without line numbers: a string moving in its file changes nothing
        "--add-location=file", "--sort-by-file", "--project=DocBatch",
        # Babel skips folders starting with "_" by default: that would skip _qt
        "--ignore-dirs", ".* __pycache__",
        "-o", str(pot), "--input-dirs", PACKAGE,
    )  # fmt: skip
    return pot


def _drop_percent_flags(po: Path) -> None:
    """DocBatch words with ``str.format`` (named braces); a ``%`` in its text is a percent
    sign. Babel flags such a text ``python-format`` whenever it writes the file, and
    ``msgfmt -c`` then refuses a translation whose ``%`` is not a %-directive
    ("{sure}% и выше"): the flag goes, after Babel wrote the file."""
    lines = []
    for line in po.read_text(encoding="utf-8").splitlines():
        if line.startswith("#,"):
            flags = [f.strip() for f in line[2:].split(",") if f.strip() != "python-format"]
            if not flags:
                continue
            line = "#, " + ", ".join(flags)
        lines.append(line)
    po.write_text("\n".join(lines) + "\n", encoding="utf-8")


def update(pot: Path) -> None:
    """Merge ``pot`` into every ``.po`` (fuzzy matching on, obsolete entries dropped)."""
    if not len(read(pot)):  # a broken extraction must not empty the translations
        raise SystemExit(f"{pot} holds no string: nothing merged")
    for language in languages():
        pybabel(
            "update", "-i", str(pot), "-o", str(po_path(language)), "-l", language,
            "-D", DOMAIN, "--ignore-obsolete", "--ignore-pot-creation-date",
        )  # fmt: skip
        _drop_percent_flags(po_path(language))


def compile_all() -> None:
    """Each ``.po`` into its ``.mo`` (``--use-fuzzy`` off: a fuzzy entry stays English)."""
    pybabel("compile", "-d", str(LOCALE), "-D", DOMAIN, "--statistics")


def read(path: Path, language: str | None = None) -> Catalog:
    with path.open("rb") as source:
        return read_po(source, locale=language)


def _key(message_id: str | tuple[str, ...], context: str | None) -> tuple[str | None, str]:
    return context, message_id if isinstance(message_id, str) else message_id[0]


@dataclasses.dataclass
class Gaps:
    """What one language's ``.po`` lacks against the code (``(context, msgid)`` each)."""

    language: str
    translated: int = 0
    missing: list[tuple[str | None, str]] = dataclasses.field(default_factory=list)
    untranslated: list[tuple[str | None, str]] = dataclasses.field(default_factory=list)
    fuzzy: list[tuple[str | None, str]] = dataclasses.field(default_factory=list)
    obsolete: list[tuple[str | None, str]] = dataclasses.field(default_factory=list)

    @property
    def all(self) -> list[tuple[str, tuple[str | None, str]]]:
        kinds = ("missing", "untranslated", "fuzzy", "obsolete")
        return [(kind, entry) for kind in kinds for entry in getattr(self, kind)]


def gaps(language: str, template: Catalog | None) -> Gaps:
    """The state of ``language``'s ``.po``; against ``template`` (the extracted strings)
    when given, so strings the ``.po`` lacks or no longer needs count too."""
    catalog = read(po_path(language), language)
    found = Gaps(language)
    entries = {_key(m.id, m.context): m for m in catalog if m.id}
    for key, message in entries.items():
        texts = message.string if isinstance(message.string, tuple | list) else (message.string,)
        if not all(texts):
            found.untranslated.append(key)
        elif message.fuzzy:
            found.fuzzy.append(key)
        else:
            found.translated += 1
    found.obsolete = [_key(m.id, m.context) for m in catalog.obsolete.values()]
    if template is not None:
        wanted = {_key(m.id, m.context) for m in template if m.id}
        found.missing = sorted(wanted - set(entries), key=str)
        found.obsolete += sorted(set(entries) - wanted, key=str)
    return found


def check(language: str) -> list[tuple[str, tuple[str | None, str]]]:
    """What is wrong with ``language``'s ``.po`` against the code, changing nothing."""
    with tempfile.TemporaryDirectory() as tmp:
        template = read(extract(Path(tmp) / f"{DOMAIN}.pot"))
    return gaps(language, template).all


def report(found: Gaps) -> None:
    print(
        f"{po_path(found.language).relative_to(ROOT)}: {found.translated} translated, "
        f"{len(found.fuzzy)} fuzzy, {len(found.untranslated)} untranslated"
        + (f", {len(found.missing)} missing" if found.missing else "")
        + (f", {len(found.obsolete)} obsolete" if found.obsolete else "")
    )
    for kind, (context, message_id) in found.all:
        print(f"  {kind}: " + (f"[{context}] " if context else "") + repr(message_id))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "command", nargs="?", choices=["extract", "update", "compile", "stats"],
        help="one step (default: update, compile and stats)",
    )  # fmt: skip
    parser.add_argument("--check", action="store_true", help="change nothing; exit 1 on gaps")
    args = parser.parse_args(argv)
    if args.check:
        status = 0
        with tempfile.TemporaryDirectory() as tmp:
            template = read(extract(Path(tmp) / f"{DOMAIN}.pot"))
        for language in languages():
            found = gaps(language, template)
            report(found)
            status = status or (1 if found.all else 0)
        return status
    if args.command == "extract":
        print(f"{extract().relative_to(ROOT)}: {len(read(POT))} strings")
        return 0
    if args.command in (None, "update"):
        update(extract())
    if args.command in (None, "compile"):
        compile_all()
    if args.command in (None, "update", "stats"):
        for language in languages():
            report(gaps(language, None))
    return 0


if __name__ == "__main__":
    sys.exit(main())
