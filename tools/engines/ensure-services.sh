#!/usr/bin/env bash
# Starts the PostgreSQL cluster (127.0.0.1:5432) and the Redis server (127.0.0.1:6379) the tests use when
# they are not running, so `npm test` works on a fresh Debian machine. Silent when both already answer.
set -euo pipefail

log() { printf 'ensure-services: %s\n' "$*" >&2; }

wait_until() {
  for _ in $(seq 1 30); do "$@" >/dev/null 2>&1 && return 0; sleep 1; done
  "$@"
}

if ! pg_isready -h 127.0.0.1 -p 5432 -q 2>/dev/null; then
  log "starting PostgreSQL"
  pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -n1)" main start
  wait_until pg_isready -h 127.0.0.1 -p 5432 -q
fi

if ! redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1; then
  log "starting Redis"
  redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no >/dev/null
  wait_until redis-cli -h 127.0.0.1 -p 6379 ping
fi
