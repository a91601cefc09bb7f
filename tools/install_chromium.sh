#!/usr/bin/env bash
# Make a Chromium available to the browser test (tests/test_browser.py): Debian's package, installed
# when it is missing and this is a Debian or Ubuntu system where we are root. Otherwise say so and
# fail, so that `make` can go on without it (the browser test is then skipped, except in CI).
# A CJK font comes with it, so that the screenshots show the notes' Chinese quotes (errata appendix).
set -euo pipefail
if [ -n "${SVMBOOK_CHROMIUM:-}" ] || command -v chromium >/dev/null 2>&1; then
  exit 0
fi
if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
  echo "installing Debian's chromium for the browser test" >&2
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-wqy-zenhei >/dev/null
  exit 0
fi
echo "no chromium, and it cannot be installed here (that needs apt-get and root): the browser" >&2
echo "test will be skipped; install chromium, or set SVMBOOK_CHROMIUM to a Chrome or Chromium binary" >&2
exit 1
