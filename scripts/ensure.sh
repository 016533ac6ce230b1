#!/bin/sh
# Makes a fresh clone runnable: npm packages, Debian's Chromium and a font for drawing, then the build.
# Every step is skipped when already done, so `npm start` and `npm test` stay quick on a warm machine.
set -e
cd "$(dirname "$0")/.."

if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "trueclick: installing npm packages (npm ci)"
  npm ci --no-audit --no-fund --loglevel=error
fi

need_apt=""
if [ -z "$CHROME_PATH" ] && ! command -v chromium >/dev/null 2>&1; then need_apt="chromium"; fi
if ! fc-list 2>/dev/null | grep -qi dejavu; then need_apt="$need_apt fonts-dejavu-core fontconfig"; fi
if [ -n "$need_apt" ]; then
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    echo "trueclick: installing $need_apt with apt-get"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $need_apt >/dev/null
  else
    echo "trueclick: missing $need_apt. Install it with: sudo apt-get install -y $need_apt" >&2
    echo "           (or point CHROME_PATH at a Chromium binary)" >&2
    exit 1
  fi
fi

# OCR for the pixel guard (canvas, video, remote desktops): Debian's tesseract with its English data. Without
# it the guard still compares pixels and says that text was not read, so a machine without root goes on.
if ! command -v tesseract >/dev/null 2>&1 || ! tesseract --list-langs 2>/dev/null | grep -qx eng; then
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    echo "trueclick: installing tesseract-ocr tesseract-ocr-eng with apt-get (OCR for the pixel guard)"
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq tesseract-ocr tesseract-ocr-eng >/dev/null; } ||
      echo "trueclick: apt-get could not install tesseract; the pixel guard will compare pixels only" >&2
  else
    echo "trueclick: no OCR engine; the pixel guard will compare pixels only. Install it with:" >&2
    echo "           sudo apt-get install -y tesseract-ocr tesseract-ocr-eng" >&2
  fi
fi

# `npm test`, `npm run bench` and `npm run load` only: Debian's HAProxy, which the fleet test and the load
# run's --fleet start in front of several servers (examples/fleet/haproxy.cfg). Without it only they fail.
case "$1" in test | bench | load)
  if ! command -v haproxy >/dev/null 2>&1; then
    if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
      echo "trueclick: installing haproxy with apt-get (the fleet test and npm run load -- --fleet 3)"
      { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq haproxy >/dev/null; } ||
        echo "trueclick: apt-get could not install haproxy; the fleet test and --fleet will fail" >&2
    else
      echo "trueclick: no haproxy; the fleet test and npm run load -- --fleet 3 need it. Install it with:" >&2
      echo "           sudo apt-get install -y haproxy" >&2
    fi
  fi
  ;;
esac

# The build is also the type-check: a type error stops `npm start` and `npm test` here.
./node_modules/.bin/tsc -p tsconfig.json

# `npm test` only: the MCP conformance suite and the Node 22 it needs, in a folder of their own (see
# test-tools/conformance/package.json for why not in our node_modules).
if [ "$1" = "test" ]; then
  c=test-tools/conformance
  if [ ! -f $c/node_modules/.package-lock.json ] || [ $c/package-lock.json -nt $c/node_modules/.package-lock.json ]; then
    echo "trueclick: installing the MCP conformance suite (npm ci in $c)"
    (cd $c && npm ci --no-audit --no-fund --loglevel=error)
  fi
fi
