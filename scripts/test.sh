#!/usr/bin/env bash
# Quick start, command 2: install everything the tests need and run the whole suite.
# .ci/run calls exactly this. Extra arguments go to pytest.
source "$(dirname "$0")/bootstrap.sh"
# Tesseract reads scans offline (Russian and English), no key needed.
ensure_apt tesseract-ocr tesseract-ocr-rus tesseract-ocr-eng
# The team tests start their own throwaway Redis (workload manager, Celery broker, leader lock).
ensure_apt redis-server
ensure_venv "dev"
say "running the test suite"
exec "$VENV/bin/python" -m pytest "$@"
