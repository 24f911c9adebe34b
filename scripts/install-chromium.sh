#!/usr/bin/env bash
# Installs Debian's Chromium for the browser tests (the API reference, the dashboard), unless it
# is there already. Browser tests drive it through playwright-core; nothing is downloaded by npm.
set -euo pipefail
if [ -x /usr/bin/chromium ]; then exit 0; fi
if [ "$(id -u)" -ne 0 ]; then
  echo "install-chromium: /usr/bin/chromium is missing; run as root: apt-get install chromium" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends chromium
