#!/usr/bin/env bash
# site-contracts: stop only what .ci/wordpress/setup.sh started (PIDs/markers under /run/site-contracts-wp).
# Run as root. Keeps data (databases, configs, creds files) so the next setup.sh is fast.
#
#   bash .ci/wordpress/stop.sh            # every site's Apache, and MariaDB if setup.sh started it
#   bash .ci/wordpress/stop.sh calendar   # only the calendar site's Apache (plain, quirky: only that one's)
#   bash .ci/wordpress/stop.sh plain quirky
#
# A MariaDB that was already running before setup.sh (not started by it) is left alone, and so is MariaDB
# whenever not all sites are stopped (the others still use it). WP_INSTANCE as for setup.sh.
set -uo pipefail
INSTANCE="${WP_INSTANCE:-site-contracts}"
STATE=/run/${INSTANCE}-wp
log() { printf '[wp-stop] %s\n' "$*"; }
[ "$(id -u)" = 0 ] || { echo "run as root" >&2; exit 1; }
[[ "$INSTANCE" =~ ^[a-z][a-z0-9-]{0,30}$ ]] || { echo "WP_INSTANCE must be lowercase letters, digits and '-', got '$INSTANCE'" >&2; exit 2; }
sites=("$@")
ALL_SITES=(plain calendar quirky)
[ "${#sites[@]}" -gt 0 ] || sites=("${ALL_SITES[@]}")
for s in "${sites[@]}"; do
  case "$s" in plain|calendar|quirky) ;; *) echo "usage: stop.sh [plain|calendar|quirky]... (got '$s')" >&2; exit 2 ;; esac
done

wait_gone() { for _ in $(seq 1 120); do kill -0 "$1" 2>/dev/null || return 0; sleep 0.25; done; return 1; }
# A pid file can be stale (crash, or a container whose /run survived a restart) and its PID reused:
# signal only a process with the expected name that runs under this same root.
ours() { [ -n "$1" ] && [ "$(cat "/proc/$1/comm" 2>/dev/null)" = "$2" ] && [ "/proc/$1/root" -ef / ]; }
rc=0

for s in "${sites[@]}"; do
  suffix=""; [ "$s" != plain ] && suffix="-$s"
  pidfile="$STATE/apache2${suffix}.pid"
  if [ -f "$pidfile" ]; then
    pid="$(cat "$pidfile" 2>/dev/null)"
    if ours "$pid" apache2; then
      log "stopping apache of the $s site (pid $pid)"
      kill -TERM "$pid"                        # the parent stops its own children
      wait_gone "$pid" || { log "apache pid $pid still alive"; rc=1; }
    else
      log "apache ($s site): pid file is stale (pid ${pid:-none} is not our apache2), nothing to stop"
    fi
    rm -f "$pidfile" "$STATE/port${suffix}"
  else
    log "apache ($s site): not running (no pid file)"
  fi
done

left=()
for a in "${ALL_SITES[@]}"; do [[ " ${sites[*]} " == *" $a "* ]] || left+=("$a"); done
if [ "${#left[@]}" -gt 0 ]; then
  log "mariadb: left running (the ${left[*]} site(s) were not stopped)"
elif [ -f "$STATE/mariadb.started" ]; then
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
log "done (kept: databases, /etc/${INSTANCE}-wp, creds files)"
exit "$rc"
