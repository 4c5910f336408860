#!/usr/bin/env bash
# Image smoke: builds every image target of docker/Dockerfile with Debian's dockerd, runs
# the containers on host networking against PostgreSQL, Redis and a Ceph RADOS Gateway,
# and drives one whole round trip through them (docker/README.md, "Image smoke").
#
#   bash docker/smoke.sh          (root on Debian bookworm; CI: a step of .ci/run)
#
# Settings (environment, all optional):
#   CP_SMOKE_CACHE     what reruns reuse: the daemon's data root (the base image, BuildKit's
#                      layer and pnpm caches) and the base image's root file system
#                      (default: $XDG_CACHE_HOME or ~/.cache, then cp-docker-smoke)
#   CP_BUILD_CA_FILE   an extra CA bundle for the build's downloads, handed to BuildKit as
#                      the secret `extra_ca` (default: $NODE_EXTRA_CA_CERTS when set, else the
#                      host's own trust store, so a build trusts what the host trusts)
#   PG_URL_BASE        PostgreSQL, trust auth (default postgresql://postgres@127.0.0.1:5432)
#   REDIS_URL          Redis (default redis://127.0.0.1:6379)
#   DEBIAN_MIRROR      for debootstrap (default http://deb.debian.org/debian)
# Everything it starts (dockerd, containers, the gateway, Caddy, the database) is stopped
# or dropped on exit, failed or not; only the cache folder stays.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD

NODE_VERSION=$(sed -n 's/^ARG NODE_IMAGE=node:\([0-9.]*\)-bookworm-slim$/\1/p' docker/Dockerfile)
NPM_VERSION=10.9.9
[ -n "$NODE_VERSION" ] || { echo "smoke: no node:<version>-bookworm-slim NODE_IMAGE in docker/Dockerfile" >&2; exit 1; }
BASE_IMAGE=cp-smoke/node:$NODE_VERSION-bookworm-minbase
# Debian's CLI (docker.io): BuildKit built in. Newer CLIs refuse BuildKit builds without
# the buildx plugin, which Debian 12 does not package.
DOCKER=/usr/bin/docker
cache=${CP_SMOKE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/cp-docker-smoke}
pg_url_base=${PG_URL_BASE:-postgresql://postgres@127.0.0.1:5432}
redis_url=${REDIS_URL:-redis://127.0.0.1:6379}
host_trust=/etc/ssl/certs/ca-certificates.crt
[ -r "$host_trust" ] || host_trust=''
ca_file=${CP_BUILD_CA_FILE:-${NODE_EXTRA_CA_CERTS:-$host_trust}}

# --- reporting ------------------------------------------------------------------------
phase_name='' phase_started=$SECONDS timings=()
phase() {
  phase_end
  phase_name=$1 phase_started=$SECONDS
  printf '\n== smoke: %s\n' "$phase_name"
}
phase_end() {
  [ -z "$phase_name" ] && return
  timings+=("$(printf '%-44s %4d s' "$phase_name" $((SECONDS - phase_started)))")
  printf -- '-- smoke: %s: %d s\n' "$phase_name" $((SECONDS - phase_started))
  phase_name=''
}
fail() {
  printf '\nsmoke: FAILED in "%s": %s\n' "${phase_name:-cleanup}" "$*" >&2
  exit 1
}

# --- state for the cleanup ------------------------------------------------------------
work=$(mktemp -d "${TMPDIR:-/tmp}/cp-smoke.XXXXXX")
chmod 700 "$work"
run_id=$(basename "$work" | tr 'A-Z.' 'a-z-')
dockerd_pid='' caddy_pid='' database='' rgw_started=0 containers=() images=()

cleanup() {
  local status=$?
  trap - EXIT INT TERM
  phase_end
  printf '\n== smoke: cleanup\n'
  if [ -n "$caddy_pid" ]; then kill "$caddy_pid" 2>/dev/null || true; wait "$caddy_pid" 2>/dev/null || true; fi
  if [ -n "$dockerd_pid" ] && kill -0 "$dockerd_pid" 2>/dev/null; then
    if [ "${#containers[@]}" -gt 0 ]; then
      if [ "$status" != 0 ]; then
        for name in "${containers[@]}"; do
          printf -- '--- logs of %s (last lines)\n' "$name" >&2
          "$DOCKER" logs --tail 30 "$name" 2>&1 | cut -c1-400 >&2 || true
        done
      fi
      "$DOCKER" rm -f "${containers[@]}" >/dev/null 2>&1 || true
    fi
    # The images go; the base image and BuildKit's cache stay for the next run.
    if [ "${#images[@]}" -gt 0 ]; then "$DOCKER" rmi -f "${images[@]}" >/dev/null 2>&1 || true; fi
    "$DOCKER" builder prune -f --keep-storage 8gb >/dev/null 2>&1 || true
    kill "$dockerd_pid" 2>/dev/null || true
    local deadline=$((SECONDS + 30))
    while kill -0 "$dockerd_pid" 2>/dev/null && [ "$SECONDS" -lt "$deadline" ]; do sleep 0.2; done
    kill -0 "$dockerd_pid" 2>/dev/null && kill -KILL "$dockerd_pid" 2>/dev/null || true
  fi
  if [ "$rgw_started" = 1 ]; then RGW_DIR=$work/rgw packages/storage/scripts/rgw.sh stop || true; fi
  # dockerd leaves its network namespace mounted under the exec root.
  grep -o " $work/[^ ]*" /proc/mounts | sort -r | xargs -r umount 2>/dev/null || true
  if [ -n "$database" ]; then psql "$pg_url_base/postgres" -qc "DROP DATABASE IF EXISTS $database WITH (FORCE)" >/dev/null 2>&1 || true; fi
  rm -rf "$work"
  printf '\n== smoke: phase times\n'
  printf '%s\n' "${timings[@]}"
  if [ "$status" = 0 ]; then echo "smoke: passed in $SECONDS s"; else echo "smoke: FAILED (exit $status) after $SECONDS s" >&2; fi
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

free_ports() {
  node -e '
    const net = require("node:net");
    const servers = Array.from({ length: Number(process.argv[1]) }, () => net.createServer());
    Promise.all(servers.map((s) => new Promise((ok) => s.listen(0, "127.0.0.1", () => ok(s.address().port)))))
      .then((ports) => { console.log(ports.join(" ")); servers.forEach((s) => s.close()); });' "$1"
}

# Waits until GET url answers 200, or the container exits, or 90 s pass.
wait_ready() {
  local name=$1 url=$2 deadline=$((SECONDS + 90))
  until [ "$(curl -s -o /dev/null -w '%{http_code}' --max-time 2 "$url" || true)" = 200 ]; do
    [ "$("$DOCKER" inspect -f '{{.State.Running}}' "$name" 2>/dev/null)" = true ] || fail "container $name exited before $url answered 200"
    [ "$SECONDS" -lt "$deadline" ] || fail "$url did not answer 200 within 90 s"
    sleep 0.3
  done
}

# ======================================================================================
phase "tools (apt-get when missing)"
missing=()
command -v dockerd >/dev/null && [ -x "$DOCKER" ] || missing+=(docker.io)
command -v debootstrap >/dev/null || missing+=(debootstrap)
command -v caddy >/dev/null || missing+=(caddy)
command -v curl >/dev/null || missing+=(curl)
command -v psql >/dev/null || missing+=(postgresql-client)
for tool in ceph-mon ceph-osd radosgw ceph; do command -v "$tool" >/dev/null || { missing+=(ceph-mon ceph-osd radosgw ceph-common); break; }; done
if [ "${#missing[@]}" -gt 0 ]; then
  [ "$(id -u)" = 0 ] || fail "missing ${missing[*]}; run: sudo apt-get update && sudo apt-get install -y ${missing[*]}"
  echo "installing ${missing[*]}"
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"; } >"$work/apt.log" 2>&1 ||
    { tail -n 20 "$work/apt.log" >&2; fail "apt-get install ${missing[*]} failed"; }
fi
[ -d node_modules/.pnpm ] || fail "run pnpm install first (the round trip runs apps/stack/scripts/images-check.ts)"

# ======================================================================================
phase "dockerd (own socket, data root, pid file)"
mkdir -p "$cache"
# One smoke at a time per cache: two daemons must not share a data root.
exec 8>"$cache/.lock"
flock -w 600 8 || fail "another smoke holds $cache/.lock"
export DOCKER_HOST=unix://$work/docker.sock DOCKER_BUILDKIT=1
# Host networking only: no bridge, no iptables rules, nothing changed on the machine.
dockerd --host "$DOCKER_HOST" --data-root "$cache/data-root" --exec-root "$work/exec" \
  --pidfile "$work/dockerd.pid" --bridge none --iptables=false --ip6tables=false \
  >"$work/dockerd.log" 2>&1 &
dockerd_pid=$!
deadline=$((SECONDS + 60))
until "$DOCKER" version >/dev/null 2>&1; do
  kill -0 "$dockerd_pid" 2>/dev/null || { tail -n 20 "$work/dockerd.log" >&2; fail "dockerd exited"; }
  [ "$SECONDS" -lt "$deadline" ] || { tail -n 20 "$work/dockerd.log" >&2; fail "dockerd did not answer within 60 s"; }
  sleep 0.2
done
echo "dockerd $("$DOCKER" version --format '{{.Server.Version}}') (pid $dockerd_pid)"
# What a killed earlier run left in the data root (it is ours alone, under the lock):
# containers, and every image but the base.
leftovers=$("$DOCKER" ps -aq)
if [ -n "$leftovers" ]; then "$DOCKER" rm -f $leftovers >/dev/null; fi
leftovers=$("$DOCKER" images --format '{{.Repository}}:{{.Tag}}' | grep -vxF "$BASE_IMAGE" | grep -v '<none>' || true)
if [ -n "$leftovers" ]; then "$DOCKER" rmi -f $leftovers >/dev/null; fi

# ======================================================================================
phase "base image ($BASE_IMAGE)"
CACHE_DIR=$cache DOCKER=$DOCKER docker/smoke/base-image.sh "$BASE_IMAGE" "$NODE_VERSION" "$NPM_VERSION" ||
  fail "building the base image failed"

# ======================================================================================
targets=$(sed -n 's/^FROM .* AS \([a-z0-9-]*\)$/\1/p' docker/Dockerfile | grep -vxE 'build|deploy|runtime')
phase "images: $(echo $targets)"
secret=()
if [ -n "$ca_file" ]; then
  [ -r "$ca_file" ] || fail "CP_BUILD_CA_FILE names $ca_file, which cannot be read"
  secret=(--secret "id=extra_ca,src=$ca_file")
  echo "extra CA bundle for the build: $ca_file (a BuildKit secret, not in any image)"
fi
for target in $targets; do
  image=cp-smoke/$target:$run_id
  started=$SECONDS
  "$DOCKER" build -f docker/Dockerfile --target "$target" --network host --progress plain \
    --build-arg "NODE_IMAGE=$BASE_IMAGE" "${secret[@]}" -t "$image" . >"$work/build-$target.log" 2>&1 ||
    { grep -E '^#[0-9]+ (ERROR|[0-9.]+ .*(ERR|rror))' "$work/build-$target.log" | tail -n 20 >&2; tail -n 30 "$work/build-$target.log" >&2; fail "docker build --target $target failed"; }
  images+=("$image")
  echo "built $image in $((SECONDS - started)) s"
done
# The extra CA must not have reached an image.
for image in "${images[@]}"; do
  if "$DOCKER" run --rm --network none --entrypoint /bin/sh "$image" -c 'test -e /run/secrets/extra_ca' 2>/dev/null; then
    fail "$image holds /run/secrets/extra_ca"
  fi
done
printf '%-16s %s\n' image 'size (uncompressed)'
for target in $targets; do
  printf '%-16s %s MB\n' "$target" "$(("$("$DOCKER" image inspect -f '{{.Size}}' "cp-smoke/$target:$run_id")" / 1000000))"
done
printf '%-16s %s MB\n' "(base)" "$(("$("$DOCKER" image inspect -f '{{.Size}}' "$BASE_IMAGE")" / 1000000))"

# ======================================================================================
phase "PostgreSQL database, RADOS Gateway"
database="cp_smoke_$(date +%s)_$$"
psql "$pg_url_base/postgres" -qc "CREATE DATABASE $database" || fail "cannot create a database on $pg_url_base (is PostgreSQL running?)"
database_url=$pg_url_base/$database
rgw_settings=$(RGW_DIR=$work/rgw packages/storage/scripts/rgw.sh start) || fail "the RADOS Gateway did not start"
rgw_started=1
eval "$rgw_settings"

# ======================================================================================
phase "migrate container"
container_opts=(--network host --init --read-only --tmpfs /tmp --cap-drop ALL --security-opt no-new-privileges:true)
name=cp-smoke-migrate-$run_id
containers+=("$name")
"$DOCKER" run --name "$name" "${container_opts[@]}" -e "DATABASE_URL=$database_url" "cp-smoke/migrate:$run_id" ||
  fail "the migrate container exited non-zero"
tables=$(psql "$database_url" -tAc "SELECT count(*) FROM information_schema.tables WHERE table_schema = 'public'")
[ "$tables" -gt 5 ] || fail "the migrate container exited 0 but the database has $tables tables"
echo "migrations applied: $tables tables"

# ======================================================================================
phase "service containers"
read -r auth_port mcp_port delivery_port dashboard_port worker_port \
  auth_site mcp_site api_site dashboard_site s3_site https_port http_port <<<"$(free_ports 12)"
# The public URLs are Caddy's https sites (below), one loopback port each, as production
# puts them behind it; the services trust its X-Forwarded-* (one hop).
auth_url=https://127.0.0.1:$auth_site mcp_url=https://127.0.0.1:$mcp_site/mcp
delivery_url=https://127.0.0.1:$api_site dashboard_url=https://127.0.0.1:$dashboard_site
# Fresh keys, as an operator makes them; the env files stay in the private work folder.
node docker/generate-secrets.mjs | sed "s/^\([A-Z_0-9]*\)='\(.*\)'$/\1=\2/" >"$work/secrets.env"
grep -E '^(AUTH_SIGNING_KEYS|AUTH_COOKIE_KEYS|DASHBOARD_CLIENT_SECRET|DASHBOARD_SESSION_KEYS)=' "$work/secrets.env" >"$work/common.env"
cat >>"$work/common.env" <<EOF
DATABASE_URL=$database_url
REDIS_URL=$redis_url
S3_ENDPOINT=$S3_ENDPOINT
S3_ACCESS_KEY=$S3_ACCESS_KEY
S3_SECRET_KEY=$S3_SECRET_KEY
S3_BUCKET=$S3_BUCKET
S3_REGION=$S3_REGION
S3_PUBLIC_ENDPOINT=https://127.0.0.1:$s3_site
AUTH_ISSUER=$auth_url
AUTH_JWKS_URL=http://127.0.0.1:$auth_port/jwks
AUTH_TRUST_PROXY=1
MCP_TRUST_PROXY=1
DELIVERY_TRUST_PROXY=1
DASHBOARD_TRUST_PROXY=1
MCP_PUBLIC_URL=$mcp_url
DASHBOARD_URL=$dashboard_url
DASHBOARD_CLIENT_ID=dashboard
DELIVERY_PUBLIC_URL=$delivery_url
DELIVERY_API_URL=$delivery_url
SHUTDOWN_GRACE_SECONDS=2
LOG_LEVEL=warn
AUTH_SIGNUP_IP_ATTEMPTS=1000
EOF
# Each service on loopback only, on its free port (the image's HEALTHCHECK follows it).
start_service() {
  local service=$1 prefix=$2 port=$3
  local name=cp-smoke-$service-$run_id
  containers+=("$name")
  "$DOCKER" run -d --name "$name" "${container_opts[@]}" --env-file "$work/common.env" \
    -e "${prefix}_PORT=$port" -e "${prefix}_HOST=127.0.0.1" -e "HEALTHCHECK_PORT=$port" \
    "cp-smoke/$service:$run_id" >/dev/null || fail "docker run $service failed"
  echo "$service: port $port"
}
start_service auth-server AUTH "$auth_port"
start_service mcp-server MCP "$mcp_port"
start_service delivery-api DELIVERY "$delivery_port"
start_service dashboard DASHBOARD "$dashboard_port"
start_service worker WORKER "$worker_port"
wait_ready "cp-smoke-auth-server-$run_id" "http://127.0.0.1:$auth_port/ready"
wait_ready "cp-smoke-mcp-server-$run_id" "http://127.0.0.1:$mcp_port/ready"
wait_ready "cp-smoke-delivery-api-$run_id" "http://127.0.0.1:$delivery_port/ready"
wait_ready "cp-smoke-dashboard-$run_id" "http://127.0.0.1:$dashboard_port/ready"
wait_ready "cp-smoke-worker-$run_id" "http://127.0.0.1:$worker_port/ready"
# The images' own probe, run as Docker runs it.
for service in auth-server mcp-server delivery-api dashboard worker; do
  "$DOCKER" exec "cp-smoke-$service-$run_id" node /healthcheck.mjs || fail "the $service image's healthcheck failed"
done
echo "every service answers /ready; every image's healthcheck passes"

# ======================================================================================
phase "Caddy: validate docker/Caddyfile, run it on loopback"
export ACME_EMAIL=ops@example.com S3_BUCKET MAX_UPLOAD_BYTES=${MAX_UPLOAD_BYTES:-5242880} \
  XDG_DATA_HOME=$work/caddy/data XDG_CONFIG_HOME=$work/caddy/config
AUTH_DOMAIN=auth.example.com MCP_DOMAIN=mcp.example.com API_DOMAIN=api.example.com S3_DOMAIN=s3.example.com \
  DASHBOARD_DOMAIN=dashboard.example.com CADDY_GLOBAL_OPTIONS='' \
  caddy validate --adapter caddyfile --config docker/Caddyfile >"$work/caddy-validate.log" 2>&1 ||
  { cat "$work/caddy-validate.log" >&2; fail "caddy validate refused docker/Caddyfile (ACME settings)"; }
echo "caddy validate: docker/Caddyfile as production runs it (public names, ACME)"
# Each site on its own loopback port, certificates from Caddy's own CA (the system's trust
# store left alone).
export AUTH_DOMAIN=127.0.0.1:$auth_site MCP_DOMAIN=127.0.0.1:$mcp_site API_DOMAIN=127.0.0.1:$api_site \
  S3_DOMAIN=127.0.0.1:$s3_site DASHBOARD_DOMAIN=127.0.0.1:$dashboard_site
export CADDY_GLOBAL_OPTIONS="local_certs
	skip_install_trust
	admin off
	http_port $http_port
	https_port $https_port
	default_bind 127.0.0.1"
caddy validate --adapter caddyfile --config docker/Caddyfile >"$work/caddy-validate.log" 2>&1 ||
  { cat "$work/caddy-validate.log" >&2; fail "caddy validate refused docker/Caddyfile (local_certs)"; }
# Host networking has no Docker DNS: only the upstream addresses change, to the
# containers' loopback ports (`dynamic a` then resolves localhost).
s3_hostport=${S3_ENDPOINT#http://}
sed -e "s/reverse_proxy auth-server:4000/reverse_proxy 127.0.0.1:$auth_port/" \
  -e "s/reverse_proxy mcp-server:4100/reverse_proxy 127.0.0.1:$mcp_port/" \
  -e "s/reverse_proxy dashboard:4300/reverse_proxy 127.0.0.1:$dashboard_port/" \
  -e "s/reverse_proxy minio:9000/reverse_proxy $s3_hostport/" \
  -e "s/name delivery-api$/name localhost/" -e "s/port 4200$/port $delivery_port/" \
  docker/Caddyfile >"$work/Caddyfile"
[ "$(diff docker/Caddyfile "$work/Caddyfile" | grep -c '^>')" = 6 ] ||
  fail "rewriting the Caddyfile's upstreams changed $(diff docker/Caddyfile "$work/Caddyfile" | grep -c '^>') lines, not 6: update docker/smoke.sh"
caddy run --adapter caddyfile --config "$work/Caddyfile" >"$work/caddy.log" 2>&1 &
caddy_pid=$!
root_cert=$XDG_DATA_HOME/caddy/pki/authorities/local/root.crt
deadline=$((SECONDS + 30))
until [ -s "$root_cert" ] && curl -sf -o /dev/null --cacert "$root_cert" "$delivery_url/"; do
  kill -0 "$caddy_pid" 2>/dev/null || { tail -n 20 "$work/caddy.log" >&2; fail "caddy exited"; }
  [ "$SECONDS" -lt "$deadline" ] || { tail -n 20 "$work/caddy.log" >&2; fail "caddy did not answer https within 30 s"; }
  sleep 0.2
done
echo "caddy $(caddy version | cut -d' ' -f1): auth $auth_url, mcp $mcp_url, api $delivery_url, s3 https://$S3_DOMAIN, dashboard $dashboard_url"
curl -sf -o /dev/null --cacert "$root_cert" "$dashboard_url/health" || fail "GET $dashboard_url/health through Caddy failed"

# ======================================================================================
phase "round trip through the containers"
mkdir -p "$work/round-trip"
# Node and curl (the presigned PUT's command) trust Caddy's CA, and only it.
(cd apps/stack && AUTH_URL=$auth_url MCP_URL=$mcp_url DELIVERY_URL=$delivery_url WORK_DIR=$work/round-trip \
  NODE_EXTRA_CA_CERTS=$root_cert CURL_CA_BUNDLE=$root_cert \
  node --conditions=source --import tsx scripts/images-check.ts) || fail "the round trip failed (see images-check above)"

phase_end
echo "smoke: every image built and ran; round trip passed"
