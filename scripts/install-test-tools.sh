#!/usr/bin/env bash
# The programs the test suite drives that PyPI cannot provide: redis-server (realtime and
# deployment tests), chromium (browser tests), node (front-end unit tests), gettext
# (catalogue checks), nginx (the shipped proxy config, tests/deploy/test_nginx.py), pgbouncer
# (the shipped pooler config, tests/deploy/test_pgbouncer.py) and stress-ng (keeps the cores
# busy, to check that the suite passes on a busy machine: CONTRIBUTING.md). As root
# on Debian/Ubuntu they are installed; elsewhere this says what is missing, and each test that
# needs a missing program fails naming it.
set -euo pipefail

declare -A package_of=([redis-server]=redis-server [chromium]=chromium [node]=nodejs [xgettext]=gettext [nginx]=nginx [pgbouncer]=pgbouncer [stress-ng]=stress-ng)
missing=()
for program in "${!package_of[@]}"; do
  # nginx and pgbouncer live in /usr/sbin, which a non-root PATH may lack
  command -v "$program" >/dev/null || [ -x "/usr/sbin/$program" ] || missing+=("${package_of[$program]}")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq "${missing[@]}" >/dev/null
else
  echo "The test suite also needs: ${missing[*]} (Debian: sudo apt-get install -y ${missing[*]})" >&2
fi
