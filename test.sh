#!/usr/bin/env bash
# Set everything up (first run only), lint, type-check, and run the whole test suite with the bundled models.
set -euo pipefail
cd "$(dirname "$0")"
scripts/setup.sh
.venv/bin/ruff check .
.venv/bin/mypy  # app, memory, models: [tool.mypy] in pyproject.toml
export QT_QPA_PLATFORM=offscreen
# One worker per core (at most 4: each holds its own copy of the models); `./test.sh -n 0` runs in this process.
exec .venv/bin/python -m pytest -n auto --maxprocesses=4 "$@"
