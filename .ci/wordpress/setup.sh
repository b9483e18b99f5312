#!/usr/bin/env bash
# site-contracts: install and start a real WordPress (Debian bookworm packages) on 127.0.0.1,
# for the conformance stage of CI and for local runs against a real server.
#
#   bash .ci/wordpress/setup.sh                  # as root; port 8089
#   WP_PORT=9000 bash .ci/wordpress/setup.sh     # another port
#   bash .ci/wordpress/stop.sh                   # stop only what this script started
#
# Idempotent: a second run only checks that everything is up (a few seconds). No systemd, no wp-cli,
# only Debian's apt repositories. Everything listens on 127.0.0.1 (MariaDB on its unix socket only).
#
# Environment:
#   WP_PORT             Apache port (default 8089)
#   WP_CREDS_FILE       env file written at the end (default /tmp/site-contracts-wp/creds.env, mode 600)
#   WP_SKIP_APT_UPDATE  1 = the caller has just run apt-get update (used by .ci/run); on a failed
#                       install this script still runs apt-get update and retries once
#
# The creds file holds (shell syntax, double-quoted values; WP_APP_PASSWORD contains spaces):
#   WP_BASE_URL WP_REST_URL WP_USER WP_APP_PASSWORD WP_ADMIN_PASSWORD WP_SAMPLE_PERMALINK WP_SAMPLE_PAGE_PERMALINK
set -euo pipefail

START_TS=$SECONDS
WP_PORT="${WP_PORT:-8089}"
WP_CREDS_FILE="${WP_CREDS_FILE:-/tmp/site-contracts-wp/creds.env}"
HOST=127.0.0.1
BASE_URL="http://${HOST}:${WP_PORT}"
STATE=/run/site-contracts-wp          # PIDs, "we started it" markers, lock
CONF=/etc/site-contracts-wp           # our Apache config, persisted secrets and salts
LOGS=/var/log/site-contracts-wp
WP_CONFIG_NAME=site-contracts         # -> /etc/wordpress/config-site-contracts.php
WP_CONFIG_FILE=/etc/wordpress/config-${WP_CONFIG_NAME}.php
DB_NAME=sitecontracts
DB_USER=sitecontracts
ADMIN_USER="admin"
ADMIN_EMAIL=admin@example.com
APP_PW_NAME=site-contracts-ci
PKGS=(wordpress wordpress-theme-twentytwentythree php php-cli php-mysql php-curl php-xml php-mbstring
      mariadb-server mariadb-client apache2 libapache2-mod-php curl openssl)

log() { printf '[wp-setup] %s\n' "$*"; }
die() { printf '[wp-setup] ERROR: %s\n' "$*" >&2; exit 1; }

[ "$(id -u)" = 0 ] || die "run as root"
[[ "$WP_PORT" =~ ^[0-9]+$ ]] && [ "$WP_PORT" -ge 1 ] && [ "$WP_PORT" -le 65535 ] || die "WP_PORT must be a port number, got '$WP_PORT'"
case "$WP_CREDS_FILE" in /*) ;; *) WP_CREDS_FILE="$PWD/$WP_CREDS_FILE" ;; esac

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
apache_pid() { [ -f "$STATE/apache2.pid" ] && cat "$STATE/apache2.pid" 2>/dev/null; }
# A stale pid file (crash, or a container whose /run survived a restart) can name an unrelated process;
# trust it only if that process is apache2 under this same root.
apache_running() {
  local p; p="$(apache_pid)" || return 1
  [ -n "$p" ] && [ "$(cat "/proc/$p/comm" 2>/dev/null)" = apache2 ] && [ "/proc/$p/root" -ef / ]
}
port_busy() { (exec 3<>"/dev/tcp/${HOST}/$1") 2>/dev/null; }
if ! { apache_running && [ "$(cat "$STATE/port" 2>/dev/null)" = "$WP_PORT" ]; } && port_busy "$WP_PORT"; then
  die "port ${HOST}:${WP_PORT} is already in use by another program (not our Apache); set WP_PORT to a free port"
fi

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

mariadb --protocol=socket <<SQL
CREATE DATABASE IF NOT EXISTS \`${DB_NAME}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;
CREATE USER IF NOT EXISTS '${DB_USER}'@'localhost' IDENTIFIED BY '${DB_PASSWORD}';
ALTER USER '${DB_USER}'@'localhost' IDENTIFIED BY '${DB_PASSWORD}';
GRANT ALL PRIVILEGES ON \`${DB_NAME}\`.* TO '${DB_USER}'@'localhost';
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

write_if_changed "$WP_CONFIG_FILE" 640 www-data <<PHP || true
<?php
// Generated by site-contracts .ci/wordpress/setup.sh. Loaded by Debian's /usr/share/wordpress/wp-config.php
// because our Apache sets WORDPRESS_CONFIG=${WP_CONFIG_NAME} (and setup.sh does the same for php-cli).
define('DB_NAME', '${DB_NAME}');
define('DB_USER', '${DB_USER}');
define('DB_PASSWORD', '${DB_PASSWORD}');
define('DB_HOST', 'localhost');
define('DB_CHARSET', 'utf8mb4');
define('WP_HOME', '${BASE_URL}');
define('WP_SITEURL', '${BASE_URL}');
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
require '${CONF}/salts.php';
\$table_prefix = 'wp_';
PHP

# ---------------------------------------------------------------- apache (own instance, own config)
apache_conf_changed=0
write_if_changed "$CONF/apache2.conf" 644 root <<APACHE && apache_conf_changed=1 || true
# Standalone Apache instance for site-contracts CI (does not use /etc/apache2/sites-*).
ServerRoot /etc/apache2
ServerName ${HOST}
Listen ${HOST}:${WP_PORT}
PidFile ${STATE}/apache2.pid
Mutex file:${STATE} default
User www-data
Group www-data
Timeout 60
KeepAlive On
KeepAliveTimeout 5
ErrorLog ${LOGS}/apache-error.log
LogFormat "%h %l %u %t \"%r\" %>s %O %D \"%{User-Agent}i\"" common
CustomLog ${LOGS}/apache-access.log common
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
SetEnv WORDPRESS_CONFIG ${WP_CONFIG_NAME}
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

apache_start() {
  rm -f "$STATE/apache2.pid"   # stale; "-k start" refuses to run while the PID in it is alive
  if port_busy "$WP_PORT"; then
    die "port ${HOST}:${WP_PORT} is already in use by another program (not ours); set WP_PORT to a free port"
  fi
  log "starting apache on ${HOST}:${WP_PORT}"
  /usr/sbin/apache2 -f "$CONF/apache2.conf" -k start 9>&-   # the daemon must not inherit our lock fd
  for _ in $(seq 1 40); do apache_running && break; sleep 0.25; done
  apache_running || die "apache did not start; see $LOGS/apache-error.log"
  echo "$WP_PORT" > "$STATE/port"
}
/usr/sbin/apache2 -f "$CONF/apache2.conf" -t >/dev/null 2>&1 || /usr/sbin/apache2 -f "$CONF/apache2.conf" -t
if apache_running; then
  if [ "$(cat "$STATE/port" 2>/dev/null)" != "$WP_PORT" ]; then
    log "apache running on port $(cat "$STATE/port" 2>/dev/null); restarting on ${WP_PORT}"
    pid="$(apache_pid)"; kill -TERM "$pid"
    for _ in $(seq 1 80); do kill -0 "$pid" 2>/dev/null || break; sleep 0.25; done
    apache_start
  elif [ "$apache_conf_changed" = 1 ]; then
    log "apache running (pid $(apache_pid)); config changed, graceful reload"
    /usr/sbin/apache2 -f "$CONF/apache2.conf" -k graceful 9>&-
    sleep 1
  else
    log "apache already running (pid $(apache_pid)) on ${HOST}:${WP_PORT}"
  fi
else
  apache_start
fi

# ---------------------------------------------------------------- install wordpress + content (PHP, no wp-cli)
TMPPHP="$(mktemp --suffix=.php)"; CLEANUP_FILES+=("$TMPPHP"); chmod 644 "$TMPPHP"
cat > "$TMPPHP" <<'PHP'
<?php
// Usage: php this.php PORT CONFIG_NAME ADMIN_USER ADMIN_PASSWORD ADMIN_EMAIL APP_PW_NAME EXISTING_APP_PW
// Prints RESULT_<KEY>=<value> lines on stdout; everything else goes to stderr.
[$_, $port, $configName, $admin, $adminPass, $email, $appName, $existing] = array_pad($argv, 8, '');
$_SERVER['HTTP_HOST'] = "127.0.0.1:$port";
$_SERVER['SERVER_NAME'] = '127.0.0.1';
$_SERVER['SERVER_PORT'] = $port;
$_SERVER['REQUEST_URI'] = '/';
$_SERVER['REQUEST_METHOD'] = 'GET';
$_SERVER['SERVER_PROTOCOL'] = 'HTTP/1.1';
$_SERVER['WORDPRESS_CONFIG'] = $configName;
define('WP_INSTALLING', true);              // lets wp-load run before the tables exist
function wp_mail() { return true; }         // pluggable: no MTA here, skip install/notification mails
require '/usr/share/wordpress/wp-load.php';
require_once ABSPATH . 'wp-admin/includes/upgrade.php';
function say($k, $v) { echo "RESULT_$k=$v\n"; }

if (!is_blog_installed()) {
    $r = wp_install('site-contracts CI', $admin, $email, true, '', wp_slash($adminPass), 'en_US');
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
if (get_option('permalink_structure') !== $structure || !get_option('rewrite_rules')) {
    $wp_rewrite->set_permalink_structure($structure);
    $wp_rewrite->flush_rules(false);
    fwrite(STDERR, "permalinks set to $structure\n");
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

// Application Password: keep the existing one if it still verifies, else replace it with a new one.
if (!wp_is_application_passwords_available_for_user($user)) {
    fwrite(STDERR, "application passwords are not available (WP_ENVIRONMENT_TYPE must be local over http)\n"); exit(1);
}
$ok = false;
if ($existing !== '') {
    foreach (WP_Application_Passwords::get_user_application_passwords($user->ID) as $item) {
        if ($item['name'] === $appName && wp_check_password(preg_replace('/[^a-z\d]/i', '', $existing), $item['password'], $user->ID)) { $ok = true; }
    }
}
if (!$ok) {
    foreach (WP_Application_Passwords::get_user_application_passwords($user->ID) as $item) {
        if ($item['name'] === $appName) WP_Application_Passwords::delete_application_password($user->ID, $item['uuid']);
    }
    $res = WP_Application_Passwords::create_new_application_password($user->ID, ['name' => $appName]);
    if (is_wp_error($res)) { fwrite(STDERR, $res->get_error_message() . "\n"); exit(1); }
    $existing = WP_Application_Passwords::chunk_password($res[0]);
    fwrite(STDERR, "created application password '$appName'\n");
}
say('APP_PASSWORD', $existing);
PHP

# The Application Password is kept in $CONF/app-password (root only), so every creds file written (any
# WP_CREDS_FILE) gets the same, still valid password; it is only replaced when it no longer verifies.
EXISTING_APP_PW="$(cat "$CONF/app-password" 2>/dev/null || true)"
PHPERR="$(mktemp)"; CLEANUP_FILES+=("$PHPERR")
php_rc=0
PHP_OUT="$(runuser -u www-data -- env WORDPRESS_CONFIG="$WP_CONFIG_NAME" php "$TMPPHP" "$WP_PORT" "$WP_CONFIG_NAME" \
  "$ADMIN_USER" "$ADMIN_PASSWORD" "$ADMIN_EMAIL" "$APP_PW_NAME" "$EXISTING_APP_PW" 2>"$PHPERR")" || php_rc=$?
sed 's/^/[wp-setup] php: /' "$PHPERR" >&2
[ "$php_rc" = 0 ] || die "WordPress install/configure step failed (exit $php_rc)"
result() { printf '%s\n' "$PHP_OUT" | sed -n "s/^RESULT_$1=//p" | tail -1; }
APP_PW="$(result APP_PASSWORD)"
SAMPLE_PERMALINK="$(result SAMPLE_PERMALINK)"
SAMPLE_PAGE_PERMALINK="$(result SAMPLE_PAGE_PERMALINK)"
[ -n "$APP_PW" ] && [ -n "$SAMPLE_PERMALINK" ] || die "install step printed no application password / permalink: $PHP_OUT"
( umask 077; printf '%s\n' "$APP_PW" > "$CONF/app-password" )

# ---------------------------------------------------------------- creds file (outside the repo, mode 600)
CREDS_DIR="$(dirname "$WP_CREDS_FILE")"
[ -d "$CREDS_DIR" ] || install -d -m 700 "$CREDS_DIR"
tmp="$(mktemp "${WP_CREDS_FILE}.XXXXXX")"; CLEANUP_FILES+=("$tmp"); chmod 600 "$tmp"
cat > "$tmp" <<ENV
# Generated by site-contracts .ci/wordpress/setup.sh — local-only credentials, never commit.
# Read with:  set -a; . "\$WP_CREDS_FILE"; set +a      (or: node --env-file="\$WP_CREDS_FILE" ...)
WP_BASE_URL="${BASE_URL}"
WP_REST_URL="${BASE_URL}/wp-json/"
WP_USER="${ADMIN_USER}"
WP_APP_PASSWORD="${APP_PW}"
WP_ADMIN_PASSWORD="${ADMIN_PASSWORD}"
WP_SAMPLE_PERMALINK="${SAMPLE_PERMALINK}"
WP_SAMPLE_PAGE_PERMALINK="${SAMPLE_PAGE_PERMALINK}"
ENV
mv -f "$tmp" "$WP_CREDS_FILE"

# ---------------------------------------------------------------- smoke check (retries: Apache may still be forking)
code() { curl -s -o /dev/null --max-time 20 -w '%{http_code}' "$@" || true; }
for _ in $(seq 1 20); do
  c_root=$(code "${BASE_URL}/wp-json/"); [ "$c_root" = 200 ] && break; sleep 0.5
done
c_q=$(code "${BASE_URL}/?rest_route=/")
c_me=$(code -u "${ADMIN_USER}:${APP_PW}" "${BASE_URL}/wp-json/wp/v2/users/me")
c_oe=$(code -G --data-urlencode "url=${SAMPLE_PERMALINK}" "${BASE_URL}/wp-json/oembed/1.0/embed")
log "GET /wp-json/ $c_root; GET /?rest_route=/ $c_q; GET users/me (app password) $c_me; GET oembed/1.0/embed $c_oe"
[ "$c_root" = 200 ] && [ "$c_q" = 200 ] && [ "$c_me" = 200 ] && [ "$c_oe" = 200 ] \
  || die "smoke check failed (logs: $LOGS/apache-error.log)"
log "WordPress $WP_VERSION ready in $((SECONDS - START_TS))s; creds: $WP_CREDS_FILE; stop: bash $(dirname "${BASH_SOURCE[0]}")/stop.sh"
echo "$BASE_URL"
