#!/usr/bin/env bash
# Set everything up (first run only), lint, and run the whole test suite with the bundled models.
set -euo pipefail
cd "$(dirname "$0")"
scripts/setup.sh
.venv/bin/ruff check .
export QT_QPA_PLATFORM=offscreen
exec .venv/bin/python -m pytest "$@"
