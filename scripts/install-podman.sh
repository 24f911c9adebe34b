#!/usr/bin/env bash
# Installs what scripts/container-test.sh needs from Debian's packages, unless it is there:
# podman (with buildah inside it) and runc to run the image, debootstrap to make its base.
set -euo pipefail
need=()
for tool in podman runc debootstrap; do
  command -v "$tool" >/dev/null || need+=("$tool")
done
[ ${#need[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -ne 0 ]; then
  echo "install-podman: ${need[*]} missing; run as root: apt-get install podman runc debootstrap" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq podman runc debootstrap >/dev/null
