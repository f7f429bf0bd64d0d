#!/bin/sh
# Debian's Chromium for the browser tests (Playwright drives it; it never downloads one).
set -e
if [ -x /usr/bin/chromium ]; then exit 0; fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "installing Debian's chromium for the browser tests..."
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
else
  echo "warning: /usr/bin/chromium is missing and cannot be installed here (needs root + apt-get);" \
       "the browser tests will be skipped" >&2
fi
