#!/usr/bin/env bash
# Checks the MCP server with the official MCP Inspector CLI (Node 22, fetched by npx):
#   1. tools/list with a bearer token succeeds and lists whoami,
#   2. tools/call whoami with the token succeeds,
#   3. without the header, the Inspector reports that authorization is required.
# Starts its own instance (scripts/test-instance.ts: the real app, a test token
# issuer serving its JWKS, a PGlite database, embedded S3) and stops it.
# Usage: bash apps/mcp-server/scripts/inspector-check.sh   (CI: .ci/run calls it)
set -euo pipefail
cd "$(dirname "$0")/.."

INSPECTOR="@modelcontextprotocol/inspector@1.0.3"
NODE22="node@22"
work=$(mktemp -d)
pid=""
cleanup() {
  if [ -n "$pid" ]; then kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

node --conditions=source --import tsx scripts/test-instance.ts >"$work/instance.json" 2>"$work/instance.log" &
pid=$!
for _ in $(seq 1 100); do
  [ -s "$work/instance.json" ] && break
  kill -0 "$pid" 2>/dev/null || { cat "$work/instance.log" >&2; echo "inspector-check: the test instance died" >&2; exit 1; }
  sleep 0.2
done
[ -s "$work/instance.json" ] || { echo "inspector-check: the test instance did not start" >&2; exit 1; }
url=$(node -p "JSON.parse(require('fs').readFileSync('$work/instance.json','utf8')).mcpUrl")
token=$(node -p "JSON.parse(require('fs').readFileSync('$work/instance.json','utf8')).token")

inspector() {
  npx -y -p "$NODE22" -p "$INSPECTOR" -c "mcp-inspector --cli $*"
}

fail() { echo "inspector-check: FAIL: $1" >&2; [ -f "$2" ] && sed 's/^/  | /' "$2" >&2; exit 1; }

echo "inspector-check: tools/list with a bearer token"
inspector "'$url' --transport http --header 'Authorization: Bearer $token' --method tools/list" >"$work/list.out" 2>&1 || fail "tools/list failed" "$work/list.out"
grep -q '"name": "whoami"' "$work/list.out" || fail "tools/list did not list whoami" "$work/list.out"
grep -q '"name": "upload_component"' "$work/list.out" || fail "tools/list did not list upload_component" "$work/list.out"

echo "inspector-check: tools/call whoami with a bearer token"
inspector "'$url' --transport http --header 'Authorization: Bearer $token' --method tools/call --tool-name whoami" >"$work/call.out" 2>&1 || fail "tools/call whoami failed" "$work/call.out"
grep -q 'inspector@example.com' "$work/call.out" || fail "whoami did not return the user" "$work/call.out"

echo "inspector-check: without the header, authorization is required"
if inspector "'$url' --transport http --method tools/list" >"$work/anon.out" 2>&1; then
  fail "tools/list without a token succeeded" "$work/anon.out"
fi
grep -qiE 'unauthorized|401|authoriz' "$work/anon.out" || fail "the Inspector did not report that authorization is required" "$work/anon.out"

grep -iE "unauthorized|401|authoriz" "$work/anon.out" | head -2 | sed "s/^/  reported: /"
echo "inspector-check: 3 passed, 0 failed"
