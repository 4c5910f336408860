#!/usr/bin/env bash
# A throwaway single-node Ceph cluster with RADOS Gateway: a real S3 engine for the
# storage tests and the production-topology test (see packages/storage/README.md).
#
#   rgw.sh start          start it, or reuse the running one; prints the S3_* settings
#                         as `export` lines: eval "$(rgw.sh start)"
#   rgw.sh env            print the S3_* settings of the running one
#   rgw.sh stop           stop every daemon it started and remove its folder
#   rgw.sh run CMD...     start, run CMD with the S3_* settings, stop (unless it was
#                         already running); exits with CMD's status
#
# RGW_DIR (default: .data/rgw in the repository) holds the configuration, the monitor's
# store, logs and pid files. MAX_UPLOAD_BYTES (default: the MCP server's default) becomes
# the gateway's `rgw max put size`, so the store itself refuses larger PUTs.
set -euo pipefail

repo_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
dir=${RGW_DIR:-$repo_root/.data/rgw}
conf=$dir/ceph.conf
max_put_bytes=${MAX_UPLOAD_BYTES:-5242880}
[[ $max_put_bytes =~ ^[1-9][0-9]*$ ]] || { echo "rgw.sh: MAX_UPLOAD_BYTES must be a number of bytes" >&2; exit 1; }
bucket=cp-storage-test
region=us-east-1
packages=(ceph-mon ceph-osd radosgw ceph-common)
daemons=(client.rgw.cp osd.0 mon.a)
# Created before the gateway starts: made on demand, they would slow its first bucket and PUT.
rgw_pools=(.rgw.root default.rgw.control default.rgw.meta default.rgw.log
  default.rgw.buckets.index default.rgw.buckets.data default.rgw.buckets.non-ec)

say() { printf 'rgw.sh: %s\n' "$*" >&2; }
die() {
  say "$*"
  exit 1
}

ensure_installed() {
  local tool missing=0
  for tool in ceph-mon ceph-osd radosgw radosgw-admin monmaptool ceph curl; do
    command -v "$tool" >/dev/null || missing=1
  done
  [ "$missing" = 0 ] && return
  local install=(apt-get install -y -qq --no-install-recommends "${packages[@]}" curl)
  if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
    die "Ceph is not installed; run: sudo apt-get update && sudo ${install[*]}"
  fi
  say "installing ${packages[*]} from Debian"
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive "${install[@]}"; } >&2 ||
    die "installing Ceph failed; run: apt-get update && ${install[*]}"
}

pid_of() { cat "$dir/run/$1.pid" 2>/dev/null || true; }

# A pid counts only if that process runs with our configuration: a stale pid file may
# name a pid that the system has since given to something else.
is_ours() {
  local pid=$1
  [ -n "$pid" ] && [ -r "/proc/$pid/cmdline" ] && [[ "$(tr '\0' ' ' <"/proc/$pid/cmdline")" == *"-c $conf "* ]]
}

# Alive and not a zombie waiting for its parent.
alive() { [ -r "/proc/$1/stat" ] && [[ "$(cut -d' ' -f3 "/proc/$1/stat" 2>/dev/null)" != Z ]]; }

running() {
  local daemon
  [ -f "$dir/env" ] || return 1
  for daemon in "${daemons[@]}"; do is_ours "$(pid_of "$daemon")" || return 1; done
}

# Kills what this folder's pid files name (ours only) and removes the folder.
teardown() {
  local daemon pid pids=()
  for daemon in "${daemons[@]}"; do
    pid=$(pid_of "$daemon")
    if is_ours "$pid"; then pids+=("$pid"); fi
  done
  # The cluster is thrown away, so there is nothing to flush: SIGKILL is enough.
  if [ "${#pids[@]}" -gt 0 ]; then kill -KILL "${pids[@]}" 2>/dev/null || true; fi
  local deadline=$((SECONDS + 10))
  for pid in "${pids[@]}"; do
    while alive "$pid" && [ "$SECONDS" -lt "$deadline" ]; do sleep 0.05; done
  done
  rm -rf "$dir"
}

# Loopback ports for the monitor and the gateway, picked by the system (so never the stack's).
free_ports() {
  node -e '
    const net = require("node:net");
    const servers = [net.createServer(), net.createServer()];
    Promise.all(servers.map((s) => new Promise((ok) => s.listen(0, "127.0.0.1", () => ok(s.address().port)))))
      .then((ports) => { console.log(ports.join(" ")); servers.forEach((s) => s.close()); });'
}

random_hex() { node -p "require('node:crypto').randomBytes($1).toString('hex')"; }

write_conf() {
  local fsid=$1 mon_port=$2 rgw_port=$3
  cat >"$conf" <<EOF
[global]
fsid = $fsid
mon host = v2:127.0.0.1:$mon_port
ms bind msgr1 = false
auth cluster required = none
auth service required = none
auth client required = none
# Paths must stay short and local: no admin sockets (their path length is limited).
admin socket =
run dir = $dir/run
pid file = $dir/run/\$name.pid
log file = $dir/log/\$name.log
mon data = $dir/mon
osd data = $dir/osd
# One OSD holding everything in memory, no replicas.
osd objectstore = memstore
osd pool default size = 1
osd pool default min size = 1
mon allow pool size one = true
mon warn on pool no redundancy = false
osd crush chooseleaf type = 0
# Fail within seconds, not minutes, when the monitor does not answer.
client mount timeout = 15

[mon]
# The monitor's store is a few MiB: a nearly full disk must not stop it.
mon data avail crit = 0
# Commits each cluster map change sooner: the default interval is most of the start-up time.
paxos propose interval = 0.1

[client]
# With auth off, the gateway otherwise hangs at start (get_initial_auth_request returned -13).
ms mon client mode = crc

[client.rgw.cp]
# tcp_nodelay: without it every response waits for the delayed ACK.
rgw frontends = beast endpoint=127.0.0.1:$rgw_port tcp_nodelay=1
rgw max put size = $max_put_bytes
rgw init timeout = 30
EOF
}

# On a failed start: the reason, the tail of the logs that explain it (the gateway's by
# default), then everything removed.
fail_start() {
  local reason=$1 log
  shift
  say "start failed: $reason"
  for log in "${@:-client.rgw.cp.log}"; do
    [ -s "$dir/log/$log" ] || continue
    # Ceph logs errors at level -1; a crash dump after them would push them out of a tail.
    printf -- '--- %s: errors\n' "$dir/log/$log" >&2
    grep -E ' -1 |ERROR' "$dir/log/$log" | tail -n 10 >&2 || true
    printf -- '--- %s: last lines\n' "$dir/log/$log" >&2
    tail -n 15 "$dir/log/$log" >&2
  done
  teardown
  exit 1
}

# Runs a daemon (or its mkfs), which detaches itself; what it prints goes to <name>.out.
launch() {
  local name=$1
  shift
  "$@" -c "$conf" >>"$dir/log/$name.out" 2>&1 || fail_start "$name did not start" "$name.out" "$name.log"
}

# Ready when our gateway answers an anonymous bucket listing: a 200 alone could come from
# something else listening on that port.
wait_for_gateway() {
  local url=$1 deadline=$((SECONDS + 60)) daemon
  until [[ "$(curl -s "$url/" 2>/dev/null || true)" == *ListAllMyBucketsResult* ]]; do
    for daemon in "${daemons[@]}"; do
      is_ours "$(pid_of "$daemon")" || fail_start "$daemon exited" "$daemon.out" "$daemon.log"
    done
    [ "$SECONDS" -lt "$deadline" ] || fail_start "the gateway did not answer at $url within 60 s"
    sleep 0.1
  done
}

# PUT /<bucket> signed with the test user's keys (curl signs; RGW wants the payload hash).
create_bucket() {
  local endpoint=$1 access_key=$2 secret_key=$3 empty_sha256
  empty_sha256=$(printf '' | sha256sum | cut -d' ' -f1)
  curl -sS --fail-with-body -X PUT --aws-sigv4 "aws:amz:$region:s3" --user "$access_key:$secret_key" \
    -H "x-amz-content-sha256: $empty_sha256" "$endpoint/$bucket" >"$dir/log/create-bucket.out" 2>&1 ||
    fail_start "creating bucket $bucket failed" create-bucket.out client.rgw.cp.log
}

start() {
  if running; then
    say "already running in $dir; reusing it"
    cat "$dir/env"
    return
  fi
  ensure_installed
  # A folder without a complete running cluster is left over from a crash: start afresh.
  teardown
  mkdir -p "$dir"/{mon,osd,log,run}
  local started=$SECONDS ports mon_port rgw_port fsid access_key secret_key endpoint
  ports=$(free_ports)
  read -r mon_port rgw_port <<<"$ports"
  fsid=$(cat /proc/sys/kernel/random/uuid)
  write_conf "$fsid" "$mon_port" "$rgw_port"
  endpoint=http://127.0.0.1:$rgw_port

  monmaptool --create --fsid "$fsid" --addv a "[v2:127.0.0.1:$mon_port]" "$dir/run/monmap" \
    >>"$dir/log/mon.a.out" 2>&1 || fail_start "monmaptool failed" mon.a.out
  launch mon.a ceph-mon --mkfs -i a --monmap "$dir/run/monmap"
  launch mon.a ceph-mon -i a
  # One client for the OSD id and every pool the gateway needs.
  { echo "osd create"; printf 'osd pool create %s 8\n' "${rgw_pools[@]}"; } |
    ceph -c "$conf" --connect-timeout 15 >>"$dir/log/ceph.out" 2>&1 ||
    fail_start "creating the OSD and the pools failed" ceph.out mon.a.log
  launch osd.0 ceph-osd -i 0 --mkfs
  launch osd.0 ceph-osd -i 0
  launch client.rgw.cp radosgw -n client.rgw.cp
  wait_for_gateway "$endpoint"

  access_key=cp$(random_hex 9)
  secret_key=$(random_hex 20)
  radosgw-admin -c "$conf" user create --uid=cp-test --display-name="cp tests" \
    --access-key="$access_key" --secret-key="$secret_key" >>"$dir/log/radosgw-admin.out" 2>&1 ||
    fail_start "radosgw-admin user create failed" radosgw-admin.out
  create_bucket "$endpoint" "$access_key" "$secret_key"

  (
    umask 077
    cat >"$dir/env" <<EOF
export S3_ENDPOINT='$endpoint'
export S3_ACCESS_KEY='$access_key'
export S3_SECRET_KEY='$secret_key'
export S3_BUCKET='$bucket'
export S3_REGION='$region'
export S3_MAX_PUT_BYTES='$max_put_bytes'
EOF
  )
  say "RADOS Gateway ready at $endpoint in $((SECONDS - started)) s ($dir)"
  cat "$dir/env"
}

# One start or stop at a time (the lock is on the parent folder, so none is left behind).
locked() {
  mkdir -p "$(dirname "$dir")"
  exec 9<"$(dirname "$dir")"
  flock 9
  "$@"
  flock -u 9
}

run() {
  [ "$#" -gt 0 ] || die "usage: rgw.sh run COMMAND [ARGS...]"
  local was_running=0 settings
  if running; then was_running=1; fi
  settings=$(locked start)
  if [ "$was_running" = 0 ]; then
    trap 'locked teardown' EXIT
    # Signals end the script through exit, so the EXIT trap stops the cluster then too.
    trap 'exit 130' INT
    trap 'exit 143' TERM
  fi
  eval "$settings"
  "$@"
}

case "${1:-}" in
  start) locked start ;;
  stop) locked teardown ;;
  env) if running; then cat "$dir/env"; else die "not running; start it with: $0 start"; fi ;;
  run)
    shift
    run "$@"
    ;;
  *) die "usage: rgw.sh start | stop | env | run COMMAND [ARGS...]" ;;
esac
