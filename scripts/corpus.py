"""Collect a real-world corpus from other projects' public test resources.

PDF and OCR libraries ship their test files in their source distributions on the
package registry: rotated and skewed scans, odd encryption, damaged files, unusual
images. Generated samples are tidy; these are not. This script downloads pinned
source distributions with ``pip download --no-binary``, copies their test files into
``DEST`` (default ``.corpus/``, which git ignores) and writes ``DEST/manifest.json``:
for each file its origin (project, version, path in the archive), its sha256, and
what a careful reader should get:

- ``opens``: whether qpdf (pikepdf) or MuPDF opens it (PDFs), or Pillow (images);
- ``pages``: how many pages a reader finds;
- ``text_pages``: pages whose own text layer holds text (PDFs);
- ``rotation``: the clockwise turn that makes each page upright, where it is known
  (checked by eye; see ``KNOWN_ROTATION`` and ``CHECKED_UPRIGHT``); ``null`` where
  nobody checked.

Run: ``.venv/bin/python scripts/corpus.py [--dest DIR]``; then ``bench/corpus.py``.
Each project's files keep their own licences (see each sdist's REUSE.toml/LICENSE);
the corpus is downloaded, never committed.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_DEST = ROOT / ".corpus"
#: project → (version, folders inside the sdist holding test files)
SOURCES: dict[str, tuple[str, tuple[str, ...]]] = {
    "ocrmypdf": ("17.13.0", ("tests/resources",)),
    "pikepdf": ("10.18.0", ("tests/resources",)),
    "pypdf": ("7.1.1", ("resources",)),
    "img2pdf": ("0.6.3", ("src/tests",)),
}
SUFFIXES = {".pdf", ".png", ".jpg", ".jpeg", ".tif", ".tiff"}
MAX_BYTES = 40 * 2**20  # leave out anything larger (a corpus to run, not to archive)
#: "project/path" → clockwise rotation per page that makes the page upright, checked
#: by eye on a render (DocBatch's ``Page.rotation`` means the same)
KNOWN_ROTATION: dict[str, list[int]] = {
    "ocrmypdf/cardinal.pdf": [0, 270, 180, 90],  # linn.png baked in four directions
    "ocrmypdf/rotated_skew.pdf": [0],  # /Rotate 90 on a sideways scan: upright as shown
    "ocrmypdf/skew.pdf": [0],
    "ocrmypdf/linn.pdf": [0],
    "ocrmypdf/linn.png": [0],
    "ocrmypdf/typewriter.png": [0],
    "ocrmypdf/2400dpi.pdf": [0],
    "ocrmypdf/c03-29.pdf": [0],
    "ocrmypdf/ccitt.pdf": [0],
    "ocrmypdf/jbig2.pdf": [0],
    "ocrmypdf/poster.pdf": [0],
    "ocrmypdf/francais.pdf": [0],
    "ocrmypdf/crom.png": [0],
    "ocrmypdf/baiona.png": [0],
    "ocrmypdf/baiona_gray.png": [0],
    "ocrmypdf/baiona_color.jpg": [0],
    "pikepdf/congress.pdf": [0],
    "pikepdf/congress-gray.pdf": [0],
    "pikepdf/sandwich.pdf": [0],
    "pikepdf/pdfa/c03-29.pdf": [0],
    # OSD on the ~110 dpi page image wanted these upright pages turned over
    "ocrmypdf/lichtenstein.pdf": [0],  # a painting of a castle
    "pikepdf/pdfa/lichtenstein.pdf": [0],
    "ocrmypdf/masks.pdf": [0],  # a printed Wikipedia page as image masks
    "pypdf/encrypted_doc_no_id.pdf": [0, 0, 0],
}
#: files whose every page is upright (or has nothing to turn: a blank, a gradient),
#: checked by eye on a contact sheet of every page without a text layer
CHECKED_UPRIGHT: tuple[str, ...] = (
    "img2pdf/input/CMYK.jpg",
    "img2pdf/input/CMYK.tif",
    "img2pdf/input/gray.png",
    "img2pdf/input/mono.png",
    "img2pdf/input/mono.tif",
    "img2pdf/input/normal.jpg",
    "img2pdf/input/normal.png",
    "img2pdf/output/CMYK.jpg.pdf",
    "img2pdf/output/CMYK.tif.pdf",
    "img2pdf/output/animation.gif.pdf",
    "img2pdf/output/gray.png.pdf",
    "img2pdf/output/mono.jb2.pdf",
    "img2pdf/output/mono.png.pdf",
    "img2pdf/output/mono.tif.pdf",
    "img2pdf/output/normal.jpg.pdf",
    "img2pdf/output/normal.png.pdf",
    "ocrmypdf/3small.pdf",
    "ocrmypdf/acroform.pdf",
    "ocrmypdf/aspect.pdf",
    "ocrmypdf/baiona_alpha.png",
    "ocrmypdf/baiona_cmyk.jpg",
    "ocrmypdf/baiona_colormapped.png",
    "ocrmypdf/blank.pdf",
    "ocrmypdf/docinfo_latin1_key.pdf",
    "ocrmypdf/enormous.pdf",
    "ocrmypdf/epson.pdf",
    "ocrmypdf/graph.pdf",
    "ocrmypdf/hugemono.pdf",
    "ocrmypdf/jbig2_baddevicen.pdf",
    "ocrmypdf/kcs.pdf",
    "ocrmypdf/livecycle.pdf",
    "ocrmypdf/meta.pdf",
    "ocrmypdf/multipage.pdf",
    "ocrmypdf/no_contents.pdf",
    "ocrmypdf/palette.pdf",
    "ocrmypdf/toc.pdf",
    "ocrmypdf/trivial.pdf",
    "ocrmypdf/vector.pdf",
    "pikepdf/1biticc.pdf",
    "pikepdf/aquamarine-cie.pdf",
    "pikepdf/aquamarine-cie.png",
    "pikepdf/ccitt-endofline-true.pdf",
    "pikepdf/cmyk-jpeg.pdf",
    "pikepdf/ctm_cm.pdf",
    "pikepdf/cyclic-toc.pdf",
    "pikepdf/form.pdf",
    "pikepdf/fuzz/378014596.pdf",
    "pikepdf/graph.pdf",
    "pikepdf/image-mono-inline.pdf",
    "pikepdf/invalid_creationdate.pdf",
    "pikepdf/jbig2.pdf",
    "pikepdf/multiline_diffmap_font.pdf",
    "pikepdf/pal-1bit-rgb.pdf",
    "pikepdf/pal-1bit-trivial.pdf",
    "pikepdf/pal.pdf",
    "pikepdf/pdfa/acroform.pdf",
    "pikepdf/pdfa/blank.pdf",
    "pikepdf/pdfa/ccitt.pdf",
    "pikepdf/pdfa/francais.pdf",
    "pikepdf/pdfa/jbig2.pdf",
    "pikepdf/pdfa/livecycle.pdf",
    "pikepdf/pdfa/multipage.pdf",
    "pikepdf/pdfa/palette.pdf",
    "pikepdf/pdfa/toc.pdf",
    "pikepdf/pdfa/vector.pdf",
    "pikepdf/pike-flate-jp2.pdf",
    "pikepdf/pike-jp2.pdf",
    "pikepdf/pink-palette-icc.pdf",
    "pikepdf/pink-palette-icc.png",
    "pikepdf/rle.pdf",
    "pikepdf/veraPDF test suite 6-2-3-3-t01-fail-c.pdf",
    "pypdf/box.pdf",
    "pypdf/encryption/r5-user-password.pdf",
    "pypdf/encryption/r6-user-password.pdf",
    "pypdf/git.pdf",
    "pypdf/imagemagick-ASCII85Decode.pdf",
    "pypdf/imagemagick-CCITTFaxDecode.pdf",
    "pypdf/imagemagick-images.pdf",
    "pypdf/imagemagick-lzw.pdf",
    "pypdf/issue-3850-1bit-indexed-flate.pdf",
    "pypdf/test_watermarking_reportlab_rendering.png",
)


def known_rotation(key: str, pages: int) -> list[int] | None:
    """The checked clockwise rotation of each page of ``key``; None if unchecked."""
    if key in KNOWN_ROTATION:
        return KNOWN_ROTATION[key]
    return [0] * pages if key in CHECKED_UPRIGHT and pages else None


def download(project: str, version: str, into: Path) -> Path:
    """The sdist, fetched by pip from the package registry (no build, no install)."""
    command = [
        sys.executable, "-m", "pip", "download", "--quiet", "--no-deps",
        "--no-binary", project, f"{project}=={version}", "--dest", str(into),
    ]  # fmt: skip
    subprocess.run(command, check=True)
    found = sorted(into.glob(f"{project}-{version}.tar.gz"))
    if not found:
        raise SystemExit(f"pip did not leave {project}-{version}.tar.gz in {into}")
    return found[0]


def extract(archive: Path, project: str, folders: tuple[str, ...], dest: Path) -> list[dict]:
    entries = []
    with tarfile.open(archive) as tar:
        prefix = tar.getmembers()[0].name.split("/")[0]
        for member in tar.getmembers():
            inner = member.name.removeprefix(prefix + "/")
            if not member.isfile() or Path(inner).suffix.lower() not in SUFFIXES:
                continue
            if not any(inner.startswith(folder + "/") for folder in folders):
                continue
            if member.size > MAX_BYTES:
                continue
            relative = next(inner.removeprefix(f + "/") for f in folders if inner.startswith(f))
            target = dest / project / relative
            target.parent.mkdir(parents=True, exist_ok=True)
            source = tar.extractfile(member)
            assert source is not None
            target.write_bytes(source.read())
            entries.append({"project": project, "archive_path": inner, "file": relative})
    return entries


def describe(path: Path) -> dict[str, Any]:
    """What a careful reader gets from the file, by two independent readers."""
    if path.suffix.lower() == ".pdf":
        return _describe_pdf(path)
    from PIL import Image

    try:
        with Image.open(path) as image:
            frames = getattr(image, "n_frames", 1)
        return {"opens": True, "pages": frames, "text_pages": []}
    except Exception as exc:
        return {"opens": False, "pages": 0, "text_pages": [], "why": str(exc)[:120]}


def _describe_pdf(path: Path) -> dict[str, Any]:
    import pikepdf
    import pymupdf

    qpdf_pages = mupdf_pages = None
    try:
        with pikepdf.open(path) as pdf:
            qpdf_pages = len(pdf.pages)
    except pikepdf.PasswordError:
        return {"opens": False, "pages": 0, "text_pages": [], "why": "needs a password"}
    except Exception:
        pass
    text_pages: list[int] = []
    try:
        with pymupdf.open(path) as document:
            if not document.needs_pass:
                mupdf_pages = document.page_count
                text_pages = [
                    n for n, page in enumerate(document, start=1) if page.get_text().strip()
                ]
    except Exception:
        pass
    pages = max(qpdf_pages or 0, mupdf_pages or 0)
    return {"opens": pages > 0, "pages": pages, "text_pages": text_pages}


def ensure(dest: Path = DEFAULT_DEST) -> Path:
    """The corpus in ``dest``, collected unless its manifest is already there and
    records the current known orientations (what the tests call)."""
    manifest = dest / "manifest.json"
    if manifest.is_file():
        files = json.loads(manifest.read_text(encoding="utf-8"))["files"]
        if all(f["rotation"] == known_rotation(f"{f['project']}/{f['file']}", f["pages"])
               for f in files):  # fmt: skip
            return dest
    collect(dest)
    return dest


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dest", type=Path, default=DEFAULT_DEST)
    collect(parser.parse_args().dest)


def collect(dest: Path) -> None:
    dest.mkdir(parents=True, exist_ok=True)
    files = []
    with tempfile.TemporaryDirectory() as tmp:
        for project, (version, folders) in SOURCES.items():
            archive = download(project, version, Path(tmp))
            for entry in extract(archive, project, folders, dest):
                path = dest / project / entry["file"]
                key = f"{project}/{entry['file']}"
                files.append(
                    {
                        **entry,
                        "version": version,
                        "sha256": hashlib.sha256(path.read_bytes()).hexdigest(),
                        "bytes": path.stat().st_size,
                        **describe(path),
                    }
                )
                files[-1]["rotation"] = known_rotation(key, files[-1]["pages"])
            print(f"{project} {version}: {sum(f['project'] == project for f in files)} files")
    manifest = {"sources": {p: v for p, (v, _) in SOURCES.items()}, "files": files}
    (dest / "manifest.json").write_text(json.dumps(manifest, indent=1), encoding="utf-8")
    known = sum(len(f["rotation"] or []) for f in files)
    print(f"{len(files)} files, {known} pages of known orientation; manifest in {dest}")


if __name__ == "__main__":
    main()
