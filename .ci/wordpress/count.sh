#!/usr/bin/env bash
# site-contracts: count what a CI WordPress site holds, straight from its database (as root, through MariaDB's
# socket), so that a conformance run can be checked for what it leaves behind, whatever the REST API hides
# (trash, revisions, auto-drafts, terms of any taxonomy).
#
#   bash .ci/wordpress/count.sh quirky                 # posts=N terms=M max_post=P max_term=T, then a breakdown
#   bash .ci/wordpress/count.sh quirky --after P T     # the posts and terms whose IDs are above P and T
#
# Posts are every row of wp_posts: all post types (revisions, nav items, templates...) and all statuses (trash,
# auto-draft, inherit...). Terms are every row of wp_terms (every taxonomy). WP_INSTANCE as for setup.sh.
set -euo pipefail
INSTANCE="${WP_INSTANCE:-site-contracts}"
DB_USER=${INSTANCE//-/}
die() { printf '[wp-count] %s\n' "$*" >&2; exit 2; }
[ "$(id -u)" = 0 ] || die "run as root (reads the site's database through MariaDB's socket)"
case "${1:-}" in
  plain) DB="$DB_USER" ;;
  calendar|quirky) DB="${DB_USER}_$1" ;;
  *) die "usage: count.sh plain|calendar|quirky [--after MAX_POST_ID MAX_TERM_ID] (got '${1:-}')" ;;
esac
sql() { mariadb --protocol=socket --batch --skip-column-names "$DB" -e "$1"; }

if [ "${2:-}" = --after ]; then
  [[ "${3:-}" =~ ^[0-9]+$ && "${4:-}" =~ ^[0-9]+$ ]] || die "--after needs two IDs (a max_post and a max_term of an earlier count)"
  sql "SELECT CONCAT('  post ', ID, ' ', post_type, '/', post_status, ' parent ', post_parent, ': ', LEFT(post_title, 60))
       FROM wp_posts WHERE ID > $3 ORDER BY ID"
  sql "SELECT CONCAT('  term ', t.term_id, ' ', tt.taxonomy, ': ', LEFT(t.name, 60))
       FROM wp_terms t LEFT JOIN wp_term_taxonomy tt ON tt.term_id = t.term_id WHERE t.term_id > $4 ORDER BY t.term_id"
  exit 0
fi
[ -z "${2:-}" ] || die "unknown argument '$2'"

sql "SELECT CONCAT('posts=', (SELECT COUNT(*) FROM wp_posts), ' terms=', (SELECT COUNT(*) FROM wp_terms),
                   ' max_post=', (SELECT COALESCE(MAX(ID), 0) FROM wp_posts),
                   ' max_term=', (SELECT COALESCE(MAX(term_id), 0) FROM wp_terms))"
sql "SELECT CONCAT('  ', post_type, '/', post_status, ' ', COUNT(*)) FROM wp_posts GROUP BY post_type, post_status ORDER BY post_type, post_status"
sql "SELECT CONCAT('  term ', COALESCE(tt.taxonomy, '(none)'), ' ', COUNT(*)) FROM wp_terms t
     LEFT JOIN wp_term_taxonomy tt ON tt.term_id = t.term_id GROUP BY tt.taxonomy ORDER BY tt.taxonomy"
