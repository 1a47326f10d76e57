# The official Python MCP SDK (`mcp` 2.3.0 and every package it needs, pinned with
# hashes in tests/python/requirements.txt) in a virtual environment of the repository,
# tests/python/.venv (git-ignored), for the Python SDK tests (tests/python/harness.rs).
# Needs CPython 3.10+ with the venv module (3.11 on the CI machines). An existing venv
# is reused when it was made from the same requirements file and still imports mcp.
# Sourced by .ci/run: exports MCPDESC_PYTHON, the venv's interpreter.
mcpdesc_venv="$PWD/tests/python/.venv"
mcpdesc_requirements="$PWD/tests/python/requirements.txt"
mcpdesc_stamp="$mcpdesc_venv/mcpdesc-requirements.sha256"
mcpdesc_wanted="$(sha256sum "$mcpdesc_requirements" | cut -d' ' -f1)"
if [ -x "$mcpdesc_venv/bin/python" ] \
  && [ "$(cat "$mcpdesc_stamp" 2>/dev/null)" = "$mcpdesc_wanted" ] \
  && "$mcpdesc_venv/bin/python" -c "import mcp" 2>/dev/null; then
  echo "setup.d/25-python-sdk: reusing $mcpdesc_venv"
else
  mcpdesc_python="$(command -v python3.11 || command -v python3 || true)"
  if [ -z "$mcpdesc_python" ]; then
    echo "setup.d/25-python-sdk: no python3 on PATH (the Python SDK tests need CPython 3.10+ with venv)" >&2
    exit 1
  fi
  rm -rf "$mcpdesc_venv"
  "$mcpdesc_python" -m venv "$mcpdesc_venv"
  # --no-deps: the file lists every package; --require-hashes: each is the file pinned.
  "$mcpdesc_venv/bin/python" -m pip install --quiet --disable-pip-version-check \
    --require-hashes --no-deps -r "$mcpdesc_requirements"
  echo "$mcpdesc_wanted" > "$mcpdesc_stamp"
  unset mcpdesc_python
fi
export MCPDESC_PYTHON="$mcpdesc_venv/bin/python"
"$MCPDESC_PYTHON" -c "import importlib.metadata as m; print('mcp', m.version('mcp'))"
unset mcpdesc_venv mcpdesc_requirements mcpdesc_stamp mcpdesc_wanted
