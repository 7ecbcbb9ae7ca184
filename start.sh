#!/usr/bin/env bash
# Set everything up (first run only) and start Companion on its bundled default models.
set -euo pipefail
cd "$(dirname "$0")"
scripts/setup.sh
exec .venv/bin/companion "$@"
