#!/usr/bin/env bash
# browser-test-env.sh - provide a real headless browser for the dashboard's browser tests:
# Debian's chromium and chromium-driver (/usr/bin/chromium, /usr/bin/chromedriver), installed with
# apt-get when missing (as root, or through sudo when it needs no password).
#
# Usage: scripts/browser-test-env.sh        # prints the chromedriver path as the last stdout line
#
# Environment (all optional):
#   WINDLASS_CHROMIUM       the browser binary      (default: /usr/bin/chromium)
#   WINDLASS_CHROMEDRIVER   the driver binary       (default: /usr/bin/chromedriver)
#
# Skipped with the integration tests (-DskipITs or -DskipTests), or alone with -DskipBrowserTests (the browser
# tests then skip themselves, saying why). Later runs only check the binaries (<1 s); the first install downloads
# about 100 MB of Debian packages.
set -euo pipefail

CHROMIUM="${WINDLASS_CHROMIUM:-/usr/bin/chromium}"
DRIVER="${WINDLASS_CHROMEDRIVER:-/usr/bin/chromedriver}"

log() { printf '[browser-test-env] %s\n' "$*" >&2; }
die() { printf '[browser-test-env] ERROR: %s\n' "$*" >&2; exit 1; }

works() { [ -x "$CHROMIUM" ] && [ -x "$DRIVER" ] && "$DRIVER" --version >/dev/null 2>&1; }

if ! works; then
  if [ "$(id -u)" -eq 0 ]; then SUDO=(); elif sudo -n true 2>/dev/null; then SUDO=(sudo -n); else
    die "$CHROMIUM or $DRIVER is missing and this user cannot install packages; run as root: apt-get install chromium chromium-driver"
  fi
  command -v apt-get >/dev/null || die "no apt-get here: install chromium and its chromedriver, then set WINDLASS_CHROMIUM and WINDLASS_CHROMEDRIVER"
  log "installing chromium and chromium-driver with apt-get (first run only)"
  export DEBIAN_FRONTEND=noninteractive
  "${SUDO[@]}" apt-get update -q >&2
  "${SUDO[@]}" apt-get install -y -q --no-install-recommends chromium chromium-driver fonts-dejavu-core >&2
  works || die "chromium-driver installed but $DRIVER does not run"
fi
log "$("$CHROMIUM" --version 2>/dev/null | head -n1); $("$DRIVER" --version | head -n1)"
echo "$DRIVER"
