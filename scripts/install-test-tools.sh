#!/usr/bin/env bash
# The programs the test suite drives that PyPI cannot provide: redis-server (realtime and
# deployment tests), chromium (browser tests), node (front-end unit tests), npm (the npm
# packages below), gettext (catalogue checks), nginx (the shipped proxy config,
# tests/deploy/test_nginx.py), pgbouncer (the shipped pooler config,
# tests/deploy/test_pgbouncer.py) and stress-ng (keeps the cores busy, to check that the suite
# passes on a busy machine: CONTRIBUTING.md). As root on Debian/Ubuntu they are installed;
# elsewhere this says what is missing, and each test that needs a missing program fails naming
# it. Then the npm packages of package.json, as package-lock.json pins them (axe-core, which
# the browser suite injects for its accessibility audit), go into node_modules/.
set -euo pipefail
cd "$(dirname "$0")/.."

declare -A package_of=([redis-server]=redis-server [chromium]=chromium [node]=nodejs [npm]=npm [xgettext]=gettext [nginx]=nginx [pgbouncer]=pgbouncer [stress-ng]=stress-ng)
missing=()
for program in "${!package_of[@]}"; do
  # nginx and pgbouncer live in /usr/sbin, which a non-root PATH may lack
  command -v "$program" >/dev/null || [ -x "/usr/sbin/$program" ] || missing+=("${package_of[$program]}")
done

if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq "${missing[@]}" >/dev/null
  else
    echo "The test suite also needs: ${missing[*]} (Debian: sudo apt-get install -y ${missing[*]})" >&2
  fi
fi

# npm keeps node_modules/.package-lock.json of what it installed: newer than the lock, it is
# up to date and nothing is fetched.
if command -v npm >/dev/null && ! [ node_modules/.package-lock.json -nt package-lock.json ]; then
  npm ci --no-audit --no-fund --loglevel=error
fi
