#!/usr/bin/env bash
# site-contracts: install and start two real WordPress sites (Debian bookworm packages) on 127.0.0.1,
# for the conformance stages of CI and for local runs against a real server:
#   plain     port 8089, WordPress as it comes (core's REST routes only)
#   calendar  port 8090, its own database and config, plus our must-use plugin calendar/site-contracts-calendar.php
#             (the documented cal/v1 routes on core's WP_REST_Posts_Controller) and a small sample calendar
#   quirky    port 8091, its own database and config: the calendar plugin plus quirky/site-contracts-quirky.php
#             (the legacy cal/events/v1 routes on the plugin's own controllers, cal/v1 answering some cases
#             its own way, as many plugins do) and the same sample calendar
#
#   bash .ci/wordpress/setup.sh                  # as root; ports 8089 and 8090
#   WP_PORT=9000 WP_CAL_PORT=9001 bash .ci/wordpress/setup.sh     # other ports
#   bash .ci/wordpress/stop.sh                   # stop only what this script started
#
# Idempotent: a second run only checks that everything is up (a few seconds). No systemd, no wp-cli,
# only Debian's apt repositories. Everything listens on 127.0.0.1 (MariaDB on its unix socket only).
#
# Environment:
#   WP_PORT             Apache port of the plain site (default 8089)
#   WP_CAL_PORT         Apache port of the calendar site (default 8090)
#   WP_QUIRKY_PORT      Apache port of the quirky calendar site (default 8091)
#   WP_CREDS_FILE       env file of the plain site (default /tmp/site-contracts-wp/creds.env, mode 600)
#   WP_CAL_CREDS_FILE   env file of the calendar site (default /tmp/site-contracts-wp/calendar.env, mode 600)
#   WP_QUIRKY_CREDS_FILE  env file of the quirky site (default /tmp/site-contracts-wp/quirky.env, mode 600)
#   WP_SKIP_APT_UPDATE  1 = the caller has just run apt-get update (used by .ci/run); on a failed
#                       install this script still runs apt-get update and retries once
#   WP_INSTANCE         name of everything this script owns (default site-contracts: /run/site-contracts-wp,
#                       /etc/site-contracts-wp, databases sitecontracts and sitecontracts_calendar...). Only to
#                       try these scripts beside a running instance without touching it.
#
# The creds files hold (shell syntax, double-quoted values; the application passwords contain spaces):
#   plain:    WP_BASE_URL WP_REST_URL WP_USER WP_APP_PASSWORD WP_ADMIN_PASSWORD WP_SAMPLE_PERMALINK WP_SAMPLE_PAGE_PERMALINK
#   calendar: WP_CAL_BASE_URL WP_CAL_REST_URL WP_CAL_USER WP_CAL_APP_PASSWORD WP_CAL_ADMIN_PASSWORD
#   quirky:   WP_QUIRKY_BASE_URL WP_QUIRKY_REST_URL WP_QUIRKY_USER WP_QUIRKY_APP_PASSWORD WP_QUIRKY_ADMIN_PASSWORD
#   and on every site two users with fewer rights, each as "login:application password" (what --low-auth-env
#   reads): WP_CONTRIBUTOR WP_AUTHOR (plain), WP_CAL_CONTRIBUTOR WP_CAL_AUTHOR, WP_QUIRKY_CONTRIBUTOR WP_QUIRKY_AUTHOR
set -euo pipefail

START_TS=$SECONDS
SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
INSTANCE="${WP_INSTANCE:-site-contracts}"
WP_PORT="${WP_PORT:-8089}"
WP_CAL_PORT="${WP_CAL_PORT:-8090}"
WP_QUIRKY_PORT="${WP_QUIRKY_PORT:-8091}"
WP_CREDS_FILE="${WP_CREDS_FILE:-/tmp/${INSTANCE}-wp/creds.env}"
WP_CAL_CREDS_FILE="${WP_CAL_CREDS_FILE:-/tmp/${INSTANCE}-wp/calendar.env}"
WP_QUIRKY_CREDS_FILE="${WP_QUIRKY_CREDS_FILE:-/tmp/${INSTANCE}-wp/quirky.env}"
HOST=127.0.0.1
STATE=/run/${INSTANCE}-wp             # PIDs, "we started it" markers, lock
CONF=/etc/${INSTANCE}-wp              # our Apache configs, persisted secrets and salts
LOGS=/var/log/${INSTANCE}-wp
LIB=/var/lib/${INSTANCE}-wp           # the calendar site's must-use plugin and sample content (copied from the repo)
DB_USER=${INSTANCE//-/}
ADMIN_USER="admin"
ADMIN_EMAIL=admin@example.com
APP_PW_NAME=site-contracts-ci
LOW_ROLES=(contributor author)        # users with fewer rights (login = role), for --low-auth-env
PKGS=(wordpress wordpress-theme-twentytwentythree php php-cli php-mysql php-curl php-xml php-mbstring
      mariadb-server mariadb-client apache2 libapache2-mod-php curl openssl)

log() { printf '[wp-setup] %s\n' "$*"; }
die() { printf '[wp-setup] ERROR: %s\n' "$*" >&2; exit 1; }

[ "$(id -u)" = 0 ] || die "run as root"
[[ "$INSTANCE" =~ ^[a-z][a-z0-9-]{0,30}$ ]] || die "WP_INSTANCE must be lowercase letters, digits and '-', got '$INSTANCE'"
for v in WP_PORT WP_CAL_PORT WP_QUIRKY_PORT; do
  [[ "${!v}" =~ ^[0-9]+$ ]] && [ "${!v}" -ge 1 ] && [ "${!v}" -le 65535 ] || die "$v must be a port number, got '${!v}'"
done
[ "$WP_PORT" != "$WP_CAL_PORT" ] || die "WP_PORT and WP_CAL_PORT must differ (both are $WP_PORT)"
[ "$WP_QUIRKY_PORT" != "$WP_PORT" ] && [ "$WP_QUIRKY_PORT" != "$WP_CAL_PORT" ] \
  || die "WP_QUIRKY_PORT must differ from WP_PORT and WP_CAL_PORT (it is $WP_QUIRKY_PORT)"
case "$WP_CREDS_FILE" in /*) ;; *) WP_CREDS_FILE="$PWD/$WP_CREDS_FILE" ;; esac
case "$WP_CAL_CREDS_FILE" in /*) ;; *) WP_CAL_CREDS_FILE="$PWD/$WP_CAL_CREDS_FILE" ;; esac
case "$WP_QUIRKY_CREDS_FILE" in /*) ;; *) WP_QUIRKY_CREDS_FILE="$PWD/$WP_QUIRKY_CREDS_FILE" ;; esac

# site NAME: the per-site settings (S_*) of "plain" or "calendar". The plain site keeps the names it had
# before the calendar site existed, so an instance set up earlier is recognised as running.
site() {
  S_NAME="$1"
  case "$1" in
    plain)    S_SUFFIX="";          S_PORT="$WP_PORT";     S_CREDS="$WP_CREDS_FILE";     S_VAR=WP_
              S_TITLE="site-contracts CI"; S_CONTENT="" ;;
    calendar) S_SUFFIX="-calendar"; S_PORT="$WP_CAL_PORT"; S_CREDS="$WP_CAL_CREDS_FILE"; S_VAR=WP_CAL_
              S_TITLE="site-contracts calendar CI"; S_CONTENT="$LIB/calendar/content.php" ;;
    quirky)   S_SUFFIX="-quirky";   S_PORT="$WP_QUIRKY_PORT"; S_CREDS="$WP_QUIRKY_CREDS_FILE"; S_VAR=WP_QUIRKY_
              S_TITLE="site-contracts quirky calendar CI"; S_CONTENT="$LIB/quirky/content.php" ;;
  esac
  S_BASE_URL="http://${HOST}:${S_PORT}"
  S_CONFIG_NAME="${INSTANCE}${S_SUFFIX}"                  # -> /etc/wordpress/config-<name>.php
  S_CONFIG_FILE="/etc/wordpress/config-${S_CONFIG_NAME}.php"
  S_DB="${DB_USER}${S_SUFFIX//-/_}"
  S_APACHE_CONF="$CONF/apache2${S_SUFFIX}.conf"
  S_PIDFILE="$STATE/apache2${S_SUFFIX}.pid"
  S_PORTFILE="$STATE/port${S_SUFFIX}"
  S_MUTEX="$STATE${S_SUFFIX:+/mutex${S_SUFFIX}}"          # Apache's lock files, one directory per instance
  S_APP_PW_FILE="$CONF/app-password${S_SUFFIX}"
}
SITES=(plain calendar quirky)

CLEANUP_FILES=()
cleanup() { [ "${#CLEANUP_FILES[@]}" -eq 0 ] || rm -f -- "${CLEANUP_FILES[@]}"; }
trap cleanup EXIT

mkdir -p "$STATE" "$LOGS"
install -d -m 750 "$CONF"
# One setup at a time (CI and a developer may call this concurrently). The daemons started below get
# "9>&-" so they do not inherit this lock and hold it for their lifetime.
exec 9>"$STATE/setup.lock"
flock -w 300 9 || die "another setup.sh is still running (lock $STATE/setup.lock)"

# ---------------------------------------------------------------- port check (before changing anything)
apache_pid() { [ -f "$S_PIDFILE" ] && cat "$S_PIDFILE" 2>/dev/null; }
# A stale pid file (crash, or a container whose /run survived a restart) can name an unrelated process;
# trust it only if that process is apache2 under this same root.
apache_running() {
  local p; p="$(apache_pid)" || return 1
  [ -n "$p" ] && [ "$(cat "/proc/$p/comm" 2>/dev/null)" = apache2 ] && [ "/proc/$p/root" -ef / ]
}
port_busy() { (exec 3<>"/dev/tcp/${HOST}/$1") 2>/dev/null; }
for name in "${SITES[@]}"; do
  site "$name"
  if ! { apache_running && [ "$(cat "$S_PORTFILE" 2>/dev/null)" = "$S_PORT" ]; } && port_busy "$S_PORT"; then
    die "port ${HOST}:${S_PORT} ($S_NAME site) is already in use by another program (not our Apache); set ${S_VAR}PORT to a free port"
  fi
done

# ---------------------------------------------------------------- packages
missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ "${#missing[@]}" -gt 0 ]; then
  log "installing ${#missing[@]} packages: ${missing[*]} (log: $LOGS/apt.log)"
  t0=$SECONDS
  # Keep package postinst scripts from starting services (there is no systemd; we start them below).
  if [ ! -e /usr/sbin/policy-rc.d ]; then
    printf '#!/bin/sh\nexit 101\n' > /usr/sbin/policy-rc.d; chmod +x /usr/sbin/policy-rc.d
    CLEANUP_FILES+=(/usr/sbin/policy-rc.d)
  fi
  export DEBIAN_FRONTEND=noninteractive
  # DPkg::Lock::Timeout: wait (instead of failing) while another apt/dpkg run holds the lock.
  apt_install() { apt-get install -y -q --no-install-recommends -o DPkg::Lock::Timeout=300 \
                    -o Dpkg::Options::=--force-confold "${missing[@]}"; }
  : > "$LOGS/apt.log"
  ok=0
  if [ "${WP_SKIP_APT_UPDATE:-0}" = 1 ]; then
    apt_install >> "$LOGS/apt.log" 2>&1 && ok=1
  fi
  if [ "$ok" = 0 ]; then
    { apt-get update -q -o DPkg::Lock::Timeout=300 && apt_install; } >> "$LOGS/apt.log" 2>&1 && ok=1
  fi
  if [ "$ok" = 0 ]; then
    tail -n 25 "$LOGS/apt.log" >&2; die "package installation failed; see $LOGS/apt.log"
  fi
  # remove our policy-rc.d now rather than at exit, so nothing else sees it longer than needed
  if [ "${#CLEANUP_FILES[@]}" -gt 0 ]; then rm -f /usr/sbin/policy-rc.d; CLEANUP_FILES=(); fi
  log "packages installed in $((SECONDS - t0))s"
fi
WP_VERSION="$(sed -n "s/^\$wp_version = '\(.*\)';/\1/p" /usr/share/wordpress/wp-includes/version.php)"
PHP_MOD="$(ls /usr/lib/apache2/modules/libphp*.so 2>/dev/null | head -1)"
[ -n "$PHP_MOD" ] || die "libapache2-mod-php is installed but no /usr/lib/apache2/modules/libphp*.so found"
log "wordpress $WP_VERSION (package $(dpkg-query -W -f='${Version}' wordpress)), $(php -r 'echo "php ", PHP_VERSION;')"

# ---------------------------------------------------------------- mariadb (socket only)
db_up() { mariadb-admin --protocol=socket ping >/dev/null 2>&1; }
if db_up; then
  if [ -f "$STATE/mariadb.started" ]; then log "mariadb already running (started by setup.sh)"
  else log "mariadb already running (not started by setup.sh; reused, stop.sh will leave it alone)"; fi
else
  log "starting mariadb (unix socket only)"
  install -d -o mysql -g mysql -m 755 /run/mysqld "$STATE/mariadb" "$LOGS/mariadb"
  rm -f "$STATE/mariadb/mariadb.pid" "$STATE/mariadb.started"   # stale: nothing answers on the socket
  if [ ! -d /var/lib/mysql/mysql ]; then
    mariadb-install-db --user=mysql --datadir=/var/lib/mysql >"$LOGS/mariadb/install-db.log" 2>&1 \
      || die "mariadb-install-db failed; see $LOGS/mariadb/install-db.log"
  fi
  # Detached (setsid) with its own PID file so stop.sh stops exactly this process. --skip-networking:
  # WordPress uses the socket (DB_HOST=localhost), and nothing can clash on port 3306.
  setsid /usr/sbin/mariadbd --user=mysql --skip-networking --pid-file="$STATE/mariadb/mariadb.pid" \
      --log-error="$LOGS/mariadb/mariadb.err" </dev/null >/dev/null 2>&1 9>&- &
  for _ in $(seq 1 120); do db_up && break; sleep 0.25; done
  db_up || die "mariadb did not start; see $LOGS/mariadb/mariadb.err"
  touch "$STATE/mariadb.started"
fi

# ---------------------------------------------------------------- secrets (generated once, persisted)
if [ ! -s "$CONF/secrets.env" ]; then
  umask_old=$(umask); umask 077
  { echo "DB_PASSWORD=$(openssl rand -hex 16)"; echo "ADMIN_PASSWORD=$(openssl rand -hex 12)"; } > "$CONF/secrets.env"
  umask "$umask_old"
fi
chmod 600 "$CONF/secrets.env"
# shellcheck disable=SC1091
. "$CONF/secrets.env"

# One database per site, one user for both.
mariadb --protocol=socket <<SQL
CREATE DATABASE IF NOT EXISTS \`${DB_USER}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;
CREATE DATABASE IF NOT EXISTS \`${DB_USER}_calendar\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;
CREATE DATABASE IF NOT EXISTS \`${DB_USER}_quirky\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;
CREATE USER IF NOT EXISTS '${DB_USER}'@'localhost' IDENTIFIED BY '${DB_PASSWORD}';
ALTER USER '${DB_USER}'@'localhost' IDENTIFIED BY '${DB_PASSWORD}';
GRANT ALL PRIVILEGES ON \`${DB_USER}\`.* TO '${DB_USER}'@'localhost';
GRANT ALL PRIVILEGES ON \`${DB_USER}_calendar\`.* TO '${DB_USER}'@'localhost';
GRANT ALL PRIVILEGES ON \`${DB_USER}_quirky\`.* TO '${DB_USER}'@'localhost';
FLUSH PRIVILEGES;
SQL

# ---------------------------------------------------------------- wordpress config
# write_if_changed DEST MODE GROUP < content   -> returns 0 if the file changed
write_if_changed() {
  local dest="$1" mode="$2" group="$3" tmp
  tmp="$(mktemp "${dest}.XXXXXX")"; CLEANUP_FILES+=("$tmp")
  cat > "$tmp"; chmod "$mode" "$tmp"; chgrp "$group" "$tmp"
  if [ -f "$dest" ] && cmp -s "$tmp" "$dest"; then rm -f "$tmp"; return 1; fi
  mv -f "$tmp" "$dest"; return 0
}
salt() { openssl rand -base64 48 | tr -d '\n/+='; }
if [ ! -s "$CONF/salts.php" ]; then
  {
    echo "<?php"
    for k in AUTH_KEY SECURE_AUTH_KEY LOGGED_IN_KEY NONCE_KEY AUTH_SALT SECURE_AUTH_SALT LOGGED_IN_SALT NONCE_SALT; do
      echo "define('$k', '$(salt)');"
    done
  } | write_if_changed "$CONF/salts.php" 640 www-data || true
fi
chgrp www-data "$CONF"; chmod 750 "$CONF"

# The calendar site's must-use plugin and sample content, copied out of the repo (a checkout need not be
# readable by www-data). Only the calendar site's config points WPMU_PLUGIN_DIR here.
for f in site-contracts-calendar.php content.php; do
  [ -r "$SCRIPT_DIR/calendar/$f" ] || die "$SCRIPT_DIR/calendar/$f is missing (setup.sh runs from a checkout of the repo)"
done
install -d -m 755 "$LIB" "$LIB/calendar" "$LIB/calendar/mu-plugins"
write_if_changed "$LIB/calendar/mu-plugins/site-contracts-calendar.php" 644 root < "$SCRIPT_DIR/calendar/site-contracts-calendar.php" || true
write_if_changed "$LIB/calendar/content.php" 644 root < "$SCRIPT_DIR/calendar/content.php" || true
# The quirky site: the same calendar plugin (post types, fields, cal/v1 parameters) and its own plugin beside it.
QUIRKY_FILES=(site-contracts-quirky.php site-contracts-quirky/cal-v1.php site-contracts-quirky/legacy-posts.php
              site-contracts-quirky/legacy-types.php site-contracts-quirky/legacy-terms.php)
for f in "${QUIRKY_FILES[@]}"; do
  [ -r "$SCRIPT_DIR/quirky/$f" ] || die "$SCRIPT_DIR/quirky/$f is missing (setup.sh runs from a checkout of the repo)"
done
install -d -m 755 "$LIB/quirky" "$LIB/quirky/mu-plugins" "$LIB/quirky/mu-plugins/site-contracts-quirky"
write_if_changed "$LIB/quirky/mu-plugins/site-contracts-calendar.php" 644 root < "$SCRIPT_DIR/calendar/site-contracts-calendar.php" || true
for f in "${QUIRKY_FILES[@]}"; do
  write_if_changed "$LIB/quirky/mu-plugins/$f" 644 root < "$SCRIPT_DIR/quirky/$f" || true
done
[ -r "$SCRIPT_DIR/quirky/content.php" ] || die "$SCRIPT_DIR/quirky/content.php is missing"
write_if_changed "$LIB/quirky/content.php" 644 root < "$SCRIPT_DIR/quirky/content.php" || true

wp_config() {
  local mu=""
  [ "$S_NAME" = calendar ] && mu="// The calendar plugin loads on this site only.
define('WPMU_PLUGIN_DIR', '${LIB}/calendar/mu-plugins');
"
  [ "$S_NAME" = quirky ] && mu="// The calendar plugin and the quirky calendar plugin load on this site only.
define('WPMU_PLUGIN_DIR', '${LIB}/quirky/mu-plugins');
"
  write_if_changed "$S_CONFIG_FILE" 640 www-data <<PHP || true
<?php
// Generated by site-contracts .ci/wordpress/setup.sh. Loaded by Debian's /usr/share/wordpress/wp-config.php
// because our Apache sets WORDPRESS_CONFIG=${S_CONFIG_NAME} (and setup.sh does the same for php-cli).
define('DB_NAME', '${S_DB}');
define('DB_USER', '${DB_USER}');
define('DB_PASSWORD', '${DB_PASSWORD}');
define('DB_HOST', 'localhost');
define('DB_CHARSET', 'utf8mb4');
define('WP_HOME', '${S_BASE_URL}');
define('WP_SITEURL', '${S_BASE_URL}');
define('WP_CONTENT_DIR', '/var/lib/wordpress/wp-content');
// 'local' makes Application Passwords available over plain http (wp_is_application_passwords_supported()).
define('WP_ENVIRONMENT_TYPE', 'local');
define('WP_DEBUG', false);
define('WP_DEBUG_DISPLAY', false);
define('DISABLE_WP_CRON', true);
define('AUTOMATIC_UPDATER_DISABLED', true);
define('WP_AUTO_UPDATE_CORE', false);
// No outbound HTTP: only this host is reachable from WP_Http (no update checks, no remote oEmbed discovery).
define('WP_HTTP_BLOCK_EXTERNAL', true);
define('WP_ALLOW_MULTISITE', false);
${mu}require '${CONF}/salts.php';
\$table_prefix = 'wp_';
PHP
}

# ---------------------------------------------------------------- apache (one instance per site, own config)
# apache_config: writes the site's config; returns 0 if it changed. The plain site's is byte for byte what
# it was before the calendar site existed, so a running plain site is not reloaded for nothing.
apache_config() {
  install -d -m 755 "$S_MUTEX"
  write_if_changed "$S_APACHE_CONF" 644 root <<APACHE
# Standalone Apache instance for site-contracts CI (does not use /etc/apache2/sites-*).
ServerRoot /etc/apache2
ServerName ${HOST}
Listen ${HOST}:${S_PORT}
PidFile ${S_PIDFILE}
Mutex file:${S_MUTEX} default
User www-data
Group www-data
Timeout 60
KeepAlive On
KeepAliveTimeout 5
ErrorLog ${LOGS}/apache${S_SUFFIX}-error.log
LogFormat "%h %l %u %t \"%r\" %>s %O %D \"%{User-Agent}i\"" common
CustomLog ${LOGS}/apache${S_SUFFIX}-access.log common
LoadModule mpm_prefork_module /usr/lib/apache2/modules/mod_mpm_prefork.so
LoadModule authz_core_module /usr/lib/apache2/modules/mod_authz_core.so
LoadModule dir_module /usr/lib/apache2/modules/mod_dir.so
LoadModule mime_module /usr/lib/apache2/modules/mod_mime.so
LoadModule alias_module /usr/lib/apache2/modules/mod_alias.so
LoadModule rewrite_module /usr/lib/apache2/modules/mod_rewrite.so
LoadModule env_module /usr/lib/apache2/modules/mod_env.so
LoadModule php_module ${PHP_MOD}
StartServers 4
MinSpareServers 2
MaxSpareServers 8
MaxRequestWorkers 16
TypesConfig /etc/mime.types
ServerTokens Prod
ServerSignature Off
<FilesMatch ".+\.php$">
    SetHandler application/x-httpd-php
</FilesMatch>
DocumentRoot /usr/share/wordpress
DirectoryIndex index.php index.html
SetEnv WORDPRESS_CONFIG ${S_CONFIG_NAME}
Alias /wp-content /var/lib/wordpress/wp-content
<Directory />
    Options FollowSymLinks
    AllowOverride None
    Require all denied
</Directory>
<Directory /usr/share/wordpress>
    Options FollowSymLinks
    AllowOverride None
    Require all granted
    # WordPress's standard .htaccess rules, inline (pretty permalinks: /wp-json/ works).
    RewriteEngine On
    RewriteRule .* - [E=HTTP_AUTHORIZATION:%{HTTP:Authorization}]
    RewriteBase /
    RewriteRule ^index\.php$ - [L]
    RewriteCond %{REQUEST_FILENAME} !-f
    RewriteCond %{REQUEST_FILENAME} !-d
    RewriteRule . /index.php [L]
</Directory>
<Directory /var/lib/wordpress/wp-content>
    Options FollowSymLinks
    AllowOverride None
    Require all granted
</Directory>
<Directory /usr/share/wordpress/wp-content>
    Options FollowSymLinks
    Require all granted
</Directory>
APACHE
}

apache_start() {
  rm -f "$S_PIDFILE"   # stale; "-k start" refuses to run while the PID in it is alive
  if port_busy "$S_PORT"; then
    die "port ${HOST}:${S_PORT} ($S_NAME site) is already in use by another program (not ours); set ${S_VAR}PORT to a free port"
  fi
  log "starting apache ($S_NAME site) on ${HOST}:${S_PORT}"
  /usr/sbin/apache2 -f "$S_APACHE_CONF" -k start 9>&-   # the daemon must not inherit our lock fd
  for _ in $(seq 1 40); do apache_running && break; sleep 0.25; done
  apache_running || die "apache ($S_NAME site) did not start; see $LOGS/apache${S_SUFFIX}-error.log"
  echo "$S_PORT" > "$S_PORTFILE"
}
apache_up() {
  local changed=0 pid
  apache_config && changed=1
  /usr/sbin/apache2 -f "$S_APACHE_CONF" -t >/dev/null 2>&1 || /usr/sbin/apache2 -f "$S_APACHE_CONF" -t
  if apache_running; then
    if [ "$(cat "$S_PORTFILE" 2>/dev/null)" != "$S_PORT" ]; then
      log "apache ($S_NAME site) running on port $(cat "$S_PORTFILE" 2>/dev/null); restarting on ${S_PORT}"
      pid="$(apache_pid)"; kill -TERM "$pid"
      for _ in $(seq 1 80); do kill -0 "$pid" 2>/dev/null || break; sleep 0.25; done
      apache_start
    elif [ "$changed" = 1 ]; then
      log "apache ($S_NAME site) running (pid $(apache_pid)); config changed, graceful reload"
      /usr/sbin/apache2 -f "$S_APACHE_CONF" -k graceful 9>&-
      sleep 1
    else
      log "apache ($S_NAME site) already running (pid $(apache_pid)) on ${HOST}:${S_PORT}"
    fi
  else
    apache_start
  fi
}
for name in "${SITES[@]}"; do site "$name"; wp_config; apache_up; done

# ---------------------------------------------------------------- install wordpress + content (PHP, no wp-cli)
# What both PHP steps below share (they require this file before WordPress loads): the request they stand for, and
# the one application-password rule.
TMPPHP_LIB="$(mktemp --suffix=.php)"; CLEANUP_FILES+=("$TMPPHP_LIB"); chmod 644 "$TMPPHP_LIB"
cat > "$TMPPHP_LIB" <<'PHP'
<?php
// A request to the site on 127.0.0.1:$port with its config, as WordPress reads one (before wp-load.php).
function as_site_request($port, $configName) {
    $_SERVER['HTTP_HOST'] = "127.0.0.1:$port";
    $_SERVER['SERVER_NAME'] = '127.0.0.1';
    $_SERVER['SERVER_PORT'] = $port;
    $_SERVER['REQUEST_URI'] = '/';
    $_SERVER['REQUEST_METHOD'] = 'GET';
    $_SERVER['SERVER_PROTOCOL'] = 'HTTP/1.1';
    $_SERVER['WORDPRESS_CONFIG'] = $configName;
}
// The user's application password named $appName: $existing if it still verifies, else a new one (the old removed).
function app_password($user, $appName, $existing) {
    foreach (WP_Application_Passwords::get_user_application_passwords($user->ID) as $item) {
        if ($existing !== '' && $item['name'] === $appName && wp_check_password(preg_replace('/[^a-z\d]/i', '', $existing), $item['password'], $user->ID)) return $existing;
    }
    foreach (WP_Application_Passwords::get_user_application_passwords($user->ID) as $item) {
        if ($item['name'] === $appName) WP_Application_Passwords::delete_application_password($user->ID, $item['uuid']);
    }
    $res = WP_Application_Passwords::create_new_application_password($user->ID, ['name' => $appName]);
    if (is_wp_error($res)) { fwrite(STDERR, $res->get_error_message() . "\n"); exit(1); }
    fwrite(STDERR, "created application password '$appName' of {$user->user_login}\n");
    return WP_Application_Passwords::chunk_password($res[0]);
}
PHP
TMPPHP="$(mktemp --suffix=.php)"; CLEANUP_FILES+=("$TMPPHP"); chmod 644 "$TMPPHP"
cat > "$TMPPHP" <<'PHP'
<?php
// Usage: php this.php PORT CONFIG_NAME ADMIN_USER ADMIN_PASSWORD ADMIN_EMAIL APP_PW_NAME EXISTING_APP_PW TITLE [CONTENT_PHP]
// Prints RESULT_<KEY>=<value> lines on stdout; everything else goes to stderr.
[$_, $port, $configName, $admin, $adminPass, $email, $appName, $existing, $title, $contentPhp] = array_pad($argv, 10, '');
require getenv('SC_SETUP_LIB');
as_site_request($port, $configName);
define('WP_INSTALLING', true);              // lets wp-load run before the tables exist
function wp_mail() { return true; }         // pluggable: no MTA here, skip install/notification mails
require '/usr/share/wordpress/wp-load.php';
require_once ABSPATH . 'wp-admin/includes/upgrade.php';
function say($k, $v) { echo "RESULT_$k=$v\n"; }

if (!is_blog_installed()) {
    $r = wp_install($title, $admin, $email, true, '', wp_slash($adminPass), 'en_US');
    fwrite(STDERR, "installed WordPress, admin user id {$r['user_id']}\n");
}
$user = get_user_by('login', $admin);
if (!$user) { $id = wp_create_user($admin, $adminPass, $email); $user = get_user_by('id', $id); }
if (!in_array('administrator', (array) $user->roles, true)) $user->set_role('administrator');
if (!wp_check_password($adminPass, $user->user_pass, $user->ID)) wp_set_password($adminPass, $user->ID);
wp_set_current_user($user->ID);

// Pretty permalinks. Rewrite rules for Apache live in our Apache config, so no .htaccess write.
$structure = '/%year%/%monthnum%/%day%/%postname%/';
global $wp_rewrite;
// A site with a plugin gets its rules flushed on every run: its post types' rules may have changed.
if (get_option('permalink_structure') !== $structure || !get_option('rewrite_rules') || $contentPhp !== '') {
    $wp_rewrite->set_permalink_structure($structure);
    $wp_rewrite->flush_rules(false);
    fwrite(STDERR, "permalinks $structure, rewrite rules flushed\n");
}
if (get_option('blogdescription') !== 'Real WordPress for REST conformance') {
    update_option('blogdescription', 'Real WordPress for REST conformance');
}

// Sample content: a few published posts and one page, fixed slugs and dates (stable permalinks).
function ensure_post($type, $slug, $title, $content, $date) {
    $found = get_posts(['name' => $slug, 'post_type' => $type, 'post_status' => 'any', 'numberposts' => 1]);
    if ($found) {
        $p = $found[0];
        if ($p->post_status !== 'publish') wp_update_post(['ID' => $p->ID, 'post_status' => 'publish']);
        return $p->ID;
    }
    $id = wp_insert_post(wp_slash([
        'post_type' => $type, 'post_name' => $slug, 'post_title' => $title, 'post_content' => $content,
        'post_status' => 'publish', 'post_date' => $date, 'post_date_gmt' => $date, 'post_author' => get_current_user_id(),
        'comment_status' => 'closed',
    ]), true);
    if (is_wp_error($id)) { fwrite(STDERR, $id->get_error_message() . "\n"); exit(1); }
    fwrite(STDERR, "created $type $slug (id $id)\n");
    return $id;
}
$first = ensure_post('post', 'hello-from-site-contracts', 'Hello from site-contracts',
    "<!-- wp:paragraph -->\n<p>A published post used by the conformance suites (oEmbed, REST reads).</p>\n<!-- /wp:paragraph -->",
    '2024-01-15 10:00:00');
ensure_post('post', 'gruesse-aus-berlin', 'Grüße aus Berlin',
    "<!-- wp:paragraph -->\n<p>Ein veröffentlichter Beitrag mit Umlauten: äöü ß.</p>\n<!-- /wp:paragraph -->",
    '2024-01-16 10:00:00');
ensure_post('post', 'konnichiwa', 'こんにちは世界',
    "<!-- wp:paragraph -->\n<p>多言語サイトのテスト用の投稿です。</p>\n<!-- /wp:paragraph -->",
    '2024-01-17 10:00:00');
$page = ensure_post('page', 'about-site-contracts', 'About site-contracts',
    "<!-- wp:paragraph -->\n<p>A published page.</p>\n<!-- /wp:paragraph -->",
    '2024-01-15 09:00:00');
say('SAMPLE_PERMALINK', get_permalink($first));
say('SAMPLE_PAGE_PERMALINK', get_permalink($page));
if ($contentPhp !== '') require $contentPhp;    // the site's own sample content (the calendar)

// Application Password: keep the existing one if it still verifies, else replace it with a new one.
if (!wp_is_application_passwords_available_for_user($user)) {
    fwrite(STDERR, "application passwords are not available (WP_ENVIRONMENT_TYPE must be local over http)\n"); exit(1);
}
$existing = app_password($user, $appName, $existing);
say('APP_PASSWORD', $existing);
PHP

# The users with fewer rights than the administrator (a contributor, an author), each with an application password:
# what a run with --low-auth-env is refused or let do on a real WordPress. A script of its own, so that adding them
# to a running site is this step alone (no reinstall, no content, no rewrite flush).
TMPPHP_LOW="$(mktemp --suffix=.php)"; CLEANUP_FILES+=("$TMPPHP_LOW"); chmod 644 "$TMPPHP_LOW"
cat > "$TMPPHP_LOW" <<'PHP'
<?php
// Usage: php this.php PORT CONFIG_NAME APP_PW_NAME ROLE EXISTING_APP_PW [ROLE EXISTING_APP_PW]...
// A user per ROLE (login and role the same, a random login password nobody needs), kept in that role, with an
// application password named APP_PW_NAME: the existing one if it still verifies, else a new one.
// Prints RESULT_LOW_<ROLE>=<application password> lines on stdout; everything else goes to stderr.
$port = $argv[1]; $configName = $argv[2]; $appName = $argv[3];
require getenv('SC_SETUP_LIB');
as_site_request($port, $configName);
function wp_mail() { return true; }         // pluggable: no MTA here, no new-user mails
require '/usr/share/wordpress/wp-load.php';
for ($i = 4; isset($argv[$i]); $i += 2) {
    $role = $argv[$i]; $existing = $argv[$i + 1] ?? '';
    if (!get_role($role)) { fwrite(STDERR, "no role $role on this site\n"); exit(1); }
    $user = get_user_by('login', $role);
    if (!$user) {
        $id = wp_insert_user(['user_login' => $role, 'user_pass' => wp_generate_password(24), 'user_email' => "$role@example.com",
                              'display_name' => ucfirst($role), 'role' => $role]);
        if (is_wp_error($id)) { fwrite(STDERR, $id->get_error_message() . "\n"); exit(1); }
        $user = get_user_by('id', $id);
        fwrite(STDERR, "created user $role (id $id)\n");
    }
    if (array_values((array) $user->roles) !== [$role]) $user->set_role($role);
    $existing = app_password($user, $appName, $existing);
    echo 'RESULT_LOW_' . strtoupper($role) . "=$existing\n";
}
PHP

# low_users: runs the PHP above for the current site; LOW_CREDS gets the creds-file lines (S_VAR<ROLE>="login:password").
low_users() {
  local args=() role out php_rc=0 phperr pw
  for role in "${LOW_ROLES[@]}"; do args+=("$role" "$(cat "$S_APP_PW_FILE-$role" 2>/dev/null || true)"); done
  phperr="$(mktemp)"; CLEANUP_FILES+=("$phperr")
  out="$(runuser -u www-data -- env WORDPRESS_CONFIG="$S_CONFIG_NAME" SC_SETUP_LIB="$TMPPHP_LIB" php "$TMPPHP_LOW" "$S_PORT" "$S_CONFIG_NAME" "$APP_PW_NAME" \
    "${args[@]}" 2>"$phperr")" || php_rc=$?
  sed "s/^/[wp-setup] php ($S_NAME, low users): /" "$phperr" >&2
  [ "$php_rc" = 0 ] || die "the low-rights users of the $S_NAME site could not be set up (exit $php_rc)"
  LOW_CREDS=""
  for role in "${LOW_ROLES[@]}"; do
    pw="$(printf '%s\n' "$out" | sed -n "s/^RESULT_LOW_${role^^}=//p" | tail -1)"
    [ -n "$pw" ] || die "the low-rights step of the $S_NAME site printed no application password for $role: $out"
    ( umask 077; printf '%s\n' "$pw" > "$S_APP_PW_FILE-$role" )
    LOW_CREDS+="${S_VAR}${role^^}=\"${role}:${pw}\""$'\n'
  done
}

# install_site: runs the PHP above for the current site and writes its creds file.
# The Application Password is kept in $S_APP_PW_FILE (root only), so every creds file written (any
# WP_CREDS_FILE) gets the same, still valid password; it is only replaced when it no longer verifies.
install_site() {
  local existing out php_rc=0 phperr tmp creds_dir
  existing="$(cat "$S_APP_PW_FILE" 2>/dev/null || true)"
  phperr="$(mktemp)"; CLEANUP_FILES+=("$phperr")
  out="$(runuser -u www-data -- env WORDPRESS_CONFIG="$S_CONFIG_NAME" SC_SETUP_LIB="$TMPPHP_LIB" php "$TMPPHP" "$S_PORT" "$S_CONFIG_NAME" \
    "$ADMIN_USER" "$ADMIN_PASSWORD" "$ADMIN_EMAIL" "$APP_PW_NAME" "$existing" "$S_TITLE" "$S_CONTENT" 2>"$phperr")" || php_rc=$?
  sed "s/^/[wp-setup] php ($S_NAME): /" "$phperr" >&2
  [ "$php_rc" = 0 ] || die "WordPress install/configure step of the $S_NAME site failed (exit $php_rc)"
  result() { printf '%s\n' "$out" | sed -n "s/^RESULT_$1=//p" | tail -1; }
  APP_PW="$(result APP_PASSWORD)"
  SAMPLE_PERMALINK="$(result SAMPLE_PERMALINK)"
  SAMPLE_PAGE_PERMALINK="$(result SAMPLE_PAGE_PERMALINK)"
  [ -n "$APP_PW" ] && [ -n "$SAMPLE_PERMALINK" ] || die "install step of the $S_NAME site printed no application password / permalink: $out"
  ( umask 077; printf '%s\n' "$APP_PW" > "$S_APP_PW_FILE" )
  low_users

  # creds file (outside the repo, mode 600)
  creds_dir="$(dirname "$S_CREDS")"
  [ -d "$creds_dir" ] || install -d -m 700 "$creds_dir"
  tmp="$(mktemp "${S_CREDS}.XXXXXX")"; CLEANUP_FILES+=("$tmp"); chmod 600 "$tmp"
  {
    echo "# Generated by site-contracts .ci/wordpress/setup.sh ($S_NAME site) — local-only credentials, never commit."
    echo "# Read with:  set -a; . \"$S_CREDS\"; set +a      (or: node --env-file=\"$S_CREDS\" ...)"
    echo "${S_VAR}BASE_URL=\"${S_BASE_URL}\""
    echo "${S_VAR}REST_URL=\"${S_BASE_URL}/wp-json/\""
    echo "${S_VAR}USER=\"${ADMIN_USER}\""
    echo "${S_VAR}APP_PASSWORD=\"${APP_PW}\""
    echo "${S_VAR}ADMIN_PASSWORD=\"${ADMIN_PASSWORD}\""
    printf '%s' "$LOW_CREDS"
    if [ "$S_NAME" = plain ]; then
      echo "WP_SAMPLE_PERMALINK=\"${SAMPLE_PERMALINK}\""
      echo "WP_SAMPLE_PAGE_PERMALINK=\"${SAMPLE_PAGE_PERMALINK}\""
    fi
  } > "$tmp"
  mv -f "$tmp" "$S_CREDS"
}

# ---------------------------------------------------------------- smoke check (retries: Apache may still be forking)
code() { curl -s -o /dev/null --max-time 20 -w '%{http_code}' "$@" || true; }
smoke() {
  local c_root c_q c_me c_oe c_cal c_ev
  for _ in $(seq 1 20); do
    c_root=$(code "${S_BASE_URL}/wp-json/"); [ "$c_root" = 200 ] && break; sleep 0.5
  done
  c_q=$(code "${S_BASE_URL}/?rest_route=/")
  c_me=$(code -u "${ADMIN_USER}:${APP_PW}" "${S_BASE_URL}/wp-json/wp/v2/users/me")
  c_oe=$(code -G --data-urlencode "url=${SAMPLE_PERMALINK}" "${S_BASE_URL}/wp-json/oembed/1.0/embed")
  # The calendar routes exist on the calendar site and nowhere else (the plain site stays plain).
  c_cal=$(code "${S_BASE_URL}/wp-json/cal/v1")
  c_ev=$(code "${S_BASE_URL}/wp-json/cal/v1/events?per_page=1")
  # The legacy routes exist on the quirky site only.
  c_leg=$(code "${S_BASE_URL}/wp-json/cal/events/v1/events?per_page=1")
  log "$S_NAME: GET /wp-json/ $c_root; GET /?rest_route=/ $c_q; GET users/me (app password) $c_me; GET oembed/1.0/embed $c_oe; GET cal/v1 $c_cal; GET cal/v1/events $c_ev; GET cal/events/v1/events $c_leg"
  local want_cal=404 want_leg=404; [ "$S_NAME" != plain ] && want_cal=200; [ "$S_NAME" = quirky ] && want_leg=200
  [ "$c_root" = 200 ] && [ "$c_q" = 200 ] && [ "$c_me" = 200 ] && [ "$c_oe" = 200 ] && [ "$c_cal" = "$want_cal" ] && [ "$c_ev" = "$want_cal" ] \
    && [ "$c_leg" = "$want_leg" ] \
    || die "smoke check of the $S_NAME site failed (cal/v1 should answer $want_cal, cal/events/v1 $want_leg; logs: $LOGS/apache${S_SUFFIX}-error.log)"
}

for name in "${SITES[@]}"; do site "$name"; install_site; smoke; done
log "WordPress $WP_VERSION ready in $((SECONDS - START_TS))s; creds: $WP_CREDS_FILE, $WP_CAL_CREDS_FILE, $WP_QUIRKY_CREDS_FILE; stop: bash $SCRIPT_DIR/stop.sh"
echo "http://${HOST}:${WP_PORT} http://${HOST}:${WP_CAL_PORT} http://${HOST}:${WP_QUIRKY_PORT}"
