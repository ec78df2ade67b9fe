#!/usr/bin/env bash
# Runs every project's tests on another Node, e.g. the Node 24 the production image runs, while the
# dependencies stay as `npm ci` installed them (native packages here are Node-API builds, so they load on
# any Node). Typecheck and lint do not depend on the Node and are left to `npm test`.
#   usage: test-on-node.sh <version>    (npm run test:node24)
set -euo pipefail
cd "$(dirname "$0")/../.."

BIN_DIR=$(bash tools/engines/install-node.sh "$1")
export PATH="$BIN_DIR:$PATH"
printf 'test-on-node: %s (%s)\n' "$(node -v)" "$(command -v node)"
node node_modules/.bin/nx run-many -t test --parallel=1 --outputStyle=stream --skip-nx-cache
