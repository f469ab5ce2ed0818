#!/usr/bin/env bash
# Refresh requirements/dev.lock: the exact versions of the [dev] extra (so of the core,
# [gui], [vision] and [team] too) that scripts/test.sh, CI and scripts/run.sh install.
# Keeps every pin that still satisfies pyproject.toml. Arguments go to pip-compile:
#   bash scripts/lock.sh                         # after changing pyproject.toml
#   bash scripts/lock.sh --upgrade               # every package to its newest release
#   bash scripts/lock.sh --upgrade-package NAME  # one package
# Then run bash scripts/test.sh and commit the lock with the change it was tested with.
source "$(dirname "$0")/bootstrap.sh"
make_venv
"$VENV/bin/python" -m pip install -q --disable-pip-version-check "pip-tools>=7.4"
say "resolving the [dev] extra into ${LOCK#"$ROOT"/}"
# --strip-extras: a constraints file may not name extras; --allow-unsafe: pin setuptools,
# the build backend the wheel test builds with.
CUSTOM_COMPILE_COMMAND="bash scripts/lock.sh" "$VENV/bin/pip-compile" --quiet \
    --extra dev --strip-extras --allow-unsafe --no-emit-index-url --no-emit-find-links \
    --output-file "$LOCK" "$@" pyproject.toml
# [dev] names docbatch-gui[gui,vision,team]: pip-compile writes the checkout itself as a
# pinned file:// requirement, which would tie the lock to this folder; drop it.
sed -i '/^docbatch-gui @ /,/^[^ ]/{/^docbatch-gui @ /d;/^    #/d}' "$LOCK"
say "$(grep -c '==' "$LOCK") pins in ${LOCK#"$ROOT"/}"
