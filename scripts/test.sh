#!/usr/bin/env bash
# Quick start, command 2: install everything the tests need and run the whole suite.
# .ci/run calls exactly this. Extra arguments go to pytest.
source "$(dirname "$0")/bootstrap.sh"
ensure_venv "dev"
say "running the test suite"
exec "$VENV/bin/python" -m pytest "$@"
