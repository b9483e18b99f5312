#!/usr/bin/env bash
# site-contracts: stop only what .ci/wordpress/setup.sh started (PIDs/markers under /run/site-contracts-wp).
# Run as root. Keeps data (database, config, creds file) so the next setup.sh is fast.
# A MariaDB that was already running before setup.sh (not started by it) is left alone.
set -uo pipefail
STATE=/run/site-contracts-wp
log() { printf '[wp-stop] %s\n' "$*"; }
[ "$(id -u)" = 0 ] || { echo "run as root" >&2; exit 1; }

wait_gone() { for _ in $(seq 1 120); do kill -0 "$1" 2>/dev/null || return 0; sleep 0.25; done; return 1; }
# A pid file can be stale (crash, or a container whose /run survived a restart) and its PID reused:
# signal only a process with the expected name that runs under this same root.
ours() { [ -n "$1" ] && [ "$(cat "/proc/$1/comm" 2>/dev/null)" = "$2" ] && [ "/proc/$1/root" -ef / ]; }
rc=0

if [ -f "$STATE/apache2.pid" ]; then
  pid="$(cat "$STATE/apache2.pid" 2>/dev/null)"
  if ours "$pid" apache2; then
    log "stopping apache (pid $pid)"
    kill -TERM "$pid"                        # the parent stops its own children
    wait_gone "$pid" || { log "apache pid $pid still alive"; rc=1; }
  else
    log "apache: pid file is stale (pid ${pid:-none} is not our apache2), nothing to stop"
  fi
  rm -f "$STATE/apache2.pid" "$STATE/port"
else
  log "apache: not running (no pid file)"
fi

if [ -f "$STATE/mariadb.started" ]; then
  pid="$(cat "$STATE/mariadb/mariadb.pid" 2>/dev/null)"
  if ours "$pid" mariadbd; then
    log "stopping mariadb (pid $pid)"
    kill -TERM "$pid"
    wait_gone "$pid" || { log "mariadb pid $pid still alive"; rc=1; }
  else
    log "mariadb: pid file is stale (pid ${pid:-none} is not our mariadbd), nothing to stop"
  fi
  rm -f "$STATE/mariadb.started" "$STATE/mariadb/mariadb.pid"
else
  log "mariadb: not started by setup.sh, left alone"
fi
log "done (kept: database 'sitecontracts', /etc/site-contracts-wp, creds file)"
exit "$rc"
