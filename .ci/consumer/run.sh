#!/usr/bin/env bash
# The package as a frontend or QA team gets it: `npm pack` in the repository, the tarball installed into a fresh
# project outside it (this folder's files, copied), and there each of the steps below. `.ci/run` runs each step as a
# stage of its own; by hand:
#
#   bash .ci/consumer/run.sh all                # every step, each timed, in a new temporary directory
#   CONSUMER_DIR=/tmp/x bash .ci/consumer/run.sh pack    # one step; the steps share CONSUMER_DIR
#
# Steps: pack, install, esm, tsc-node16, tsc-cjs, tsc-bundler, msw, typed-fetch, browser, cli, mock-page, require.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
PROJECT() { printf '%s/project' "$CONSUMER_DIR"; }
say() { printf '[consumer] %s\n' "$*"; }
export npm_config_fund=false npm_config_audit=false npm_config_update_notifier=false

# The tarball: built afresh by `npm pack` (prepack runs `npm run build` after removing dist/), under 2 MB, with
# nothing but what a user runs.
step_pack() {
  rm -f "$CONSUMER_DIR"/site-contracts-*.tgz
  (cd "$ROOT" && npm pack --json --pack-destination "$CONSUMER_DIR" > "$CONSUMER_DIR/pack.json")
  node - "$CONSUMER_DIR/pack.json" "$ROOT/package.json" <<'JS'
const fs = require('node:fs');
const [info] = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const pkg = JSON.parse(fs.readFileSync(process.argv[3], 'utf8'));
const files = info.files.map((f) => f.path);
const problems = [];
const notShipped = /(^|\/)(test|tests|testing|bench|scripts|examples)\/|\.test\.|\.cases\.|\.browser\.page\.|^\.ci\/|^mock\/src\/|^suites\/src\/|^contracts\/(lib|wordpress|spec)\/|^fixtures\/(lib|model)\//;
// Documentation ships wherever it sits (the README links to it); code from those folders does not.
for (const f of files.filter((f) => !f.endsWith('.md') && notShipped.test(f))) problems.push(`ships ${f}: a test, bench, script or source file`);
if (info.size >= 2 * 1024 * 1024) problems.push(`the tarball is ${info.size} bytes, not under 2 MB`);
for (const [key, entry] of Object.entries(pkg.exports)) {
  for (const target of typeof entry === 'string' ? [entry] : Object.values(entry)) {
    if (!files.includes(target.replace(/^\.\//, ''))) problems.push(`export ${key}: ${target} is not in the tarball`);
  }
}
for (const bin of Object.values(pkg.bin)) if (!files.includes(bin)) problems.push(`bin ${bin} is not in the tarball`);
const kb = (n) => `${(n / 1024).toFixed(1)} KiB`;
console.log(`tarball: ${info.filename}, ${kb(info.size)} packed, ${kb(info.unpackedSize)} unpacked, ${files.length} files`);
const dirs = {};
for (const f of files) { const d = f.startsWith('dist/') ? f.split('/').slice(0, 3).join('/') : f; dirs[d] = (dirs[d] ?? 0) + 1; }
console.log(Object.entries(dirs).map(([d, n]) => `  ${String(n).padStart(4)}  ${d}`).join('\n'));
if (problems.length) { console.error(problems.join('\n')); process.exit(1); }
JS
  # Every relative link of every Markdown file in the tarball resolves inside it; the MIT licence is in it.
  (cd "$ROOT" && npx --no-install tsx .ci/packaging/check-tarball.ts "$(ls "$CONSUMER_DIR"/site-contracts-*.tgz)")
}

# A fresh project outside the repository (so nothing resolves to the repository's node_modules), its own
# devDependencies (typescript, vitest, msw, fast-check, esbuild, playwright-core), then the tarball.
step_install() {
  local tgz
  tgz="$(ls "$CONSUMER_DIR"/site-contracts-*.tgz)"
  rm -rf "$(PROJECT)"
  mkdir -p "$(PROJECT)"
  cp -r "$HERE"/. "$(PROJECT)/"
  rm -f "$(PROJECT)/run.sh"
  case "$(PROJECT)" in "$ROOT"/*) say "the consumer project must be outside the repository"; exit 1 ;; esac
  cd "$(PROJECT)"
  npm install --no-audit --no-fund --prefer-offline 2>&1 | grep -v '^npm warn' | tail -n 2
  npm install --no-audit --no-fund --prefer-offline "$tgz" 2>&1 | grep -v '^npm warn' | tail -n 2
  node -e "const p=require('./node_modules/site-contracts/package.json'); console.log('installed', p.name, p.version, 'with', Object.keys(p.dependencies).join(', '))"
  [ ! -e node_modules/@stoplight/prism-cli ] || { say "Prism was installed: it must stay an optional peer"; exit 1; }
}

step_esm() { cd "$(PROJECT)" && node esm-smoke.mjs; }
# npm's default project (`npm init -y`: "type": "commonjs"), strict node16: `import type` of the contract's types
# from a CommonJS file (TS1541 before the types became a .d.cts).
step_tsc_cjs() { cd "$(PROJECT)/cjs" && npx --no-install tsc -p tsconfig.json --listFiles | grep -c 'node_modules/site-contracts/' | sed 's/$/ declaration files of site-contracts checked (a "type": "commonjs" project, node16, strict)/'; }
step_tsc_node16() { cd "$(PROJECT)" && npx --no-install tsc -p tsconfig.node16.json --listFiles | grep -c 'node_modules/site-contracts/' | sed 's/$/ declaration files of site-contracts checked (node16, strict, no skipLibCheck)/'; }
# Bundler resolution twice: the whole API with Node's types, and a browser app's imports with no Node types at all.
step_tsc_bundler() {
  cd "$(PROJECT)"
  npx --no-install tsc -p tsconfig.bundler.json --listFiles | grep -c 'node_modules/site-contracts/' | sed 's/$/ declaration files of site-contracts checked (bundler, strict, no skipLibCheck)/'
  npx --no-install tsc -p tsconfig.browser.json --listFiles | grep -c 'node_modules/site-contracts/' | sed 's/$/ declaration files of site-contracts checked (bundler, browser only: DOM, no Node types)/'
}
step_msw() { cd "$(PROJECT)" && npx --no-install vitest run msw.test.ts; }
# openapi-fetch typed by site-contracts/types against the mock over HTTP, as the README shows it.
step_typed_fetch() { cd "$(PROJECT)" && npx --no-install vitest run typed-fetch.test.ts; }
step_browser() { cd "$(PROJECT)" && node browser.mjs; }
step_require() { cd "$(PROJECT)" && node require.cjs; }
# The mock as a person runs it: its first line, a log line per request, and its page (GET /__mock/) in Chromium.
step_mock_page() { cd "$(PROJECT)" && node mock-page.mjs; }

# `npx site-contracts mock --auth`, then `npx site-contracts test` against it with the credentials it prints; and
# `proxy` without Prism says how to add it (exit 2).
step_cli() {
  cd "$(PROJECT)"
  local out="$CONSUMER_DIR/mock.out" pid url auth rc i
  npx --no-install site-contracts --help | grep -q '^  mock ' || { say "--help does not list mock"; exit 1; }
  # Its own session, so that the whole group (npm exec, sh, node) is stopped at the end.
  setsid npx --no-install site-contracts mock --auth --port 0 > "$out" 2>&1 &
  pid=$!
  trap 'kill -TERM -- -'"$pid"' 2>/dev/null || true' EXIT
  for i in $(seq 1 120); do
    grep -q '/__mock/reset' "$out" && break
    kill -0 "$pid" 2>/dev/null || { cat "$out"; say "the mock exited before listening"; exit 1; }
    sleep 0.5
  done
  grep -q '/__mock/reset' "$out" || { cat "$out"; say "the mock did not start within 60 s"; exit 1; }
  sed -E 's/password "[^"]*"/password "…"/; s/-u '"'"'[^'"'"']*'"'"'/-u '"'"'…'"'"'/' "$out"
  url="$(grep -o 'listening on http://[0-9.:]*' "$out" | head -n 1 | cut -d' ' -f3)"
  auth="$(sed -n 's/.*user "\([^"]*\)" password "\([^"]*\)".*/\1:\2/p' "$out" | head -n 1)"
  [ -n "$url" ] && [ -n "$auth" ] || { cat "$out"; say "no URL or credentials in the mock's banner"; exit 1; }
  rc=0
  SITE_CONTRACTS_AUTH="$auth" npx --no-install site-contracts test --base-url "$url" --seed 20261122 --report-dir "$CONSUMER_DIR/reports" > "$CONSUMER_DIR/test.out" 2>&1 || rc=$?
  tail -n 8 "$CONSUMER_DIR/test.out"
  [ "$rc" = 0 ] || { say "site-contracts test exited $rc against the installed mock"; exit 1; }
  # A passing run's reports stay small enough to open and keep (issue 20): passed cases are written short, JUnit's
  # passes one testcase per check and operation (--format json-full has every case whole). 19,207 cases against the
  # mock: JSON 0.99 MB, HTML 1.30 MB, JUnit 1.09 MB.
  local f size limit=2097152
  for f in "$CONSUMER_DIR"/reports/site-contracts.{json,html,junit.xml}; do
    size=$(stat -c %s "$f")
    printf '%s: %s bytes (limit %s)\n' "${f##*/}" "$size" "$limit"
    [ "$size" -lt "$limit" ] || { say "${f##*/} of a passing run is $size bytes, not under 2 MB"; exit 1; }
  done
  rc=0
  npx --no-install site-contracts proxy --upstream "$url" > "$CONSUMER_DIR/proxy.out" 2>&1 || rc=$?
  cat "$CONSUMER_DIR/proxy.out"
  [ "$rc" = 2 ] && grep -q 'npm i -D @stoplight/prism-cli' "$CONSUMER_DIR/proxy.out" || { say "proxy without Prism exited $rc"; exit 1; }
  # Stopping what was started stops the mock: SIGTERM to npm exec alone, as `kill $!` sends it (its shell and the
  # mock are not signalled), and the port closes within a bounded number of polls.
  kill -TERM "$pid"
  local port="${url##*:}" open=1
  for i in $(seq 1 80); do
    node -e "require('node:net').connect($port, '127.0.0.1').on('connect', () => process.exit(0)).on('error', () => process.exit(1))" || { open=0; break; }
    sleep 0.25
  done
  [ "$open" = 0 ] || { say "the mock still answers on $url after npm exec was stopped"; exit 1; }
  say "SIGTERM to npm exec alone: the mock's port closed after $i polls"
}

STEPS=(pack install esm tsc-node16 tsc-cjs tsc-bundler msw typed-fetch browser cli mock-page require)
run_step() {
  case "$1" in
    pack | install | esm | msw | browser | cli | require) "step_$1" ;;
    tsc-node16) step_tsc_node16 ;;
    tsc-cjs) step_tsc_cjs ;;
    typed-fetch) step_typed_fetch ;;
    mock-page) step_mock_page ;;
    tsc-bundler) step_tsc_bundler ;;
    *) say "unknown step '$1': expected one of ${STEPS[*]} or all"; exit 2 ;;
  esac
}

[ $# = 1 ] || { say "usage: run.sh STEP|all (steps: ${STEPS[*]})"; exit 2; }
if [ "$1" = all ]; then
  export CONSUMER_DIR="${CONSUMER_DIR:-$(mktemp -d /tmp/site-contracts-consumer.XXXXXX)}"
  say "in $CONSUMER_DIR"
  for s in "${STEPS[@]}"; do
    t0=$SECONDS
    say "----- $s"
    (run_step "$s")
    say "$s: ok in $((SECONDS - t0))s"
  done
else
  : "${CONSUMER_DIR:?set CONSUMER_DIR to the directory the steps share (or run: run.sh all)}"
  run_step "$1"
fi
