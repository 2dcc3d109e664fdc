#!/usr/bin/env bash
# Installs Debian's Chromium for the browser tests when it is missing; harmless otherwise.
# Browser builds downloaded by test tools are unreachable here, so the distribution's
# package is the one source. Without root (or apt) it says so and leaves the browser tests to
# skip (or, with SOLPROOF_REQUIRE=chromium as in .ci/run, to fail).
set -euo pipefail

CHROMIUM=/usr/bin/chromium

if [ -x "$CHROMIUM" ]; then
  exit 0
fi

if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "ensure-chromium: $CHROMIUM is missing and cannot be installed here (needs root and apt-get); browser tests will be skipped" >&2
  exit 0
fi

echo "ensure-chromium: installing Debian's chromium" >&2
export DEBIAN_FRONTEND=noninteractive
if ! { apt-get update && apt-get install -y chromium; }; then
  echo "ensure-chromium: installing chromium failed; browser tests will be skipped" >&2
  exit 0
fi

if [ ! -x "$CHROMIUM" ]; then
  echo "ensure-chromium: chromium was installed but $CHROMIUM is not there" >&2
  exit 1
fi
