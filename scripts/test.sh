#!/usr/bin/env bash
# Quick start, command 2: install everything the tests need and run the whole suite.
# .ci/run calls exactly this. Extra arguments go to pytest.
source "$(dirname "$0")/bootstrap.sh"
# Tesseract reads scans offline (Russian and English), no key needed.
ensure_apt tesseract-ocr tesseract-ocr-rus tesseract-ocr-eng
ensure_venv "dev"
say "running the test suite"
exec "$VENV/bin/python" -m pytest "$@"
