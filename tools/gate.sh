#!/usr/bin/env bash
# The README's test command: `bash tools/gate.sh` runs the whole gate (`nox`) from a fresh clone.
#
# On Debian or Ubuntu it first installs what is missing with apt-get (as root, or through sudo):
# python3-venv when `python3 -m venv` cannot work, Chromium for the browser tests, and Node.js with
# npm for the e2e session (MCP Inspector needs Node.js >= 20; an older one is refused with a
# message). Elsewhere, install Python 3.10+, Chromium (or Chrome, or set $CHROMIUM) and Node.js 20+
# with npm yourself; the script then only checks. Then it makes .venv, installs nox there and runs
# `nox` with this script's arguments (`bash tools/gate.sh -s docs` runs one session).
# `.ci/run` calls this script, so CI and a newcomer run the same set-up.
set -euo pipefail
cd "$(dirname "$0")/.."

say() { echo "tools/gate.sh: $*" >&2; }

# Offer every installed CPython to nox (pyenv keeps them off PATH), so tests-3.10 runs too.
for dir in "$HOME"/.pyenv/versions/3.*/bin; do
  [ -d "$dir" ] && PATH="$PATH:$dir"
done
export PATH

if ! python3 -c 'import sys; sys.exit(sys.version_info < (3, 10))' 2>/dev/null; then
  say "needs Python 3.10 or newer as python3 (found: $(python3 --version 2>&1 || echo none))"
  exit 1
fi

missing=()
# Debian and Ubuntu ship venv's pip bootstrap separately (python3-venv): try making one.
probe="$(mktemp -d)"
python3 -m venv "$probe/venv" >/dev/null 2>&1 || missing+=(python3-venv)
rm -rf "$probe"
if ! command -v chromium >/dev/null && ! command -v chromium-browser >/dev/null \
  && ! command -v google-chrome >/dev/null && ! command -v google-chrome-stable >/dev/null \
  && [ -z "${CHROMIUM:-}" ]; then
  missing+=(chromium)
fi
# Agents run sealed by bubblewrap (run --agent-sandbox bwrap, the default; docs/sealed-runs.md).
if ! command -v bwrap >/dev/null; then
  missing+=(bubblewrap)
fi
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  missing+=(nodejs npm)
fi

if [ "${#missing[@]}" -gt 0 ]; then
  if ! command -v apt-get >/dev/null; then
    say "missing: ${missing[*]}, and there is no apt-get to install them; install them first"
    say "(needs Python 3.10+ with venv, Chromium or Chrome, bubblewrap, Node.js >= 20 with npm)"
    exit 1
  fi
  SUDO=()
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || { say "missing: ${missing[*]}; run as root or install sudo"; exit 1; }
    SUDO=(sudo)
  fi
  say "installing with apt-get: ${missing[*]}"
  "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq
  "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

node_major="$(node -p 'process.versions.node.split(".")[0]')"
if [ "$node_major" -lt 20 ]; then
  say "Node.js $(node --version) is too old: the e2e session's MCP Inspector needs Node.js >= 20"
  exit 1
fi

python3 -m venv .venv
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet "nox>=2024.4"
exec .venv/bin/nox "$@"
