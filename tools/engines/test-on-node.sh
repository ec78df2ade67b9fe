#!/usr/bin/env bash
# Runs every project's tests on another Node, e.g. the Node 24 the production image runs, while the
# dependencies stay as `npm ci` installed them (native packages here are Node-API builds, so they load on
# any Node). Typecheck and lint do not depend on the Node and are left to `npm test`, and so are the suites that
# test the engines themselves (FILESHIFT_ENGINE_SUITES=skip: see vitest.shared.ts): CI runs the heaviest suites once.
#   usage: test-on-node.sh <version>    (npm run test:node24)
set -euo pipefail
cd "$(dirname "$0")/../.."

BIN_DIR=$(bash tools/engines/install-node.sh "$1")
export PATH="$BIN_DIR:$PATH"
printf 'test-on-node: %s (%s)\n' "$(node -v)" "$(command -v node)"
FILESHIFT_ENGINE_SUITES=skip node node_modules/.bin/nx run-many -t test --parallel=1 --outputStyle=stream --skip-nx-cache
