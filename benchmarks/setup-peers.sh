#!/usr/bin/env bash
# Make benchmarks/.venv-peers: a separate virtual environment with the peer libraries the
# benchmarks compare against. They are never dependencies of pdn.
#
#   py-draughts (import name `draughts`) is installed into the venv itself;
#   pydraughts  (ALSO import name `draughts`) goes to .venv-peers/pydraughts, a separate
#   --target folder, so the two never overwrite each other: put that folder first on
#   sys.path (PYTHONPATH) to import pydraughts instead of py-draughts.
#
# The venv ignores itself (a '*' .gitignore inside it), so nothing here is ever committed.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
venv="$here/.venv-peers"
python3 -m venv "$venv"
printf '*\n' > "$venv/.gitignore"
"$venv/bin/python" -m pip install -q --upgrade pip
"$venv/bin/python" -m pip install -q py-draughts
"$venv/bin/python" -m pip install -q --target "$venv/pydraughts" pydraughts
# pdn itself, so one interpreter can time both in one run
"$venv/bin/python" -m pip install -q -e "$here/.."
"$venv/bin/python" - <<'PY'
import importlib.metadata as md
for name in ("py-draughts", "pdn"):
    print(f"{name} {md.version(name)}")
PY
echo "pydraughts $(ls "$venv/pydraughts" | sed -n 's/^pydraughts-\(.*\)\.dist-info$/\1/p')"
