#!/usr/bin/env bash
# Quick start, command 1: install DocBatch into .venv and run it on the embedded
# default (SQLite + local blobs + in-process worker; no server, no API key).
# Until the desktop window lands, this processes the bundled samples headless and
# prints the documents found. Extra arguments go to `docbatch process`.
source "$(dirname "$0")/bootstrap.sh"
# Tesseract reads scans offline (Russian and English), no key needed.
ensure_apt tesseract-ocr tesseract-ocr-rus tesseract-ocr-eng
ensure_venv ""
say "processing the bundled samples in resources/samples/"
exec "$VENV/bin/docbatch" process "$ROOT/resources/samples" --wait "$@"
