#!/usr/bin/env bash
# The inspector in a real browser: runs the Todos example with --inspect from a script, opens
# the inspector's page in headless Chromium (Selenium), checks that the timeline shows the
# dispatched actions, opens one and sees its diff, jumps back and checks through the app (its
# own screen and GET /api/state) that the store holds the old state, goes back to live, and
# saves a screenshot to .build/inspector-screenshot.png. Then the token: the page keeps it out
# of cookies and storage and out of the address bar (it moves from the fragment into the
# history entry's state), a new action arrives over its authenticated event stream, a reload
# recovers the token from that state (.build/inspector-screenshot-reloaded.png), and a page
# served on a second local port (in another tab, then in the same tab) reads nothing of it in
# document.cookie, nor does its server receive it (.build/inspector-other-port.png).
#
# Installs what is missing: Debian's chromium and chromium-driver, selenium from PyPI.
# Exits non-zero on any failure.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v chromium >/dev/null 2>&1 || ! command -v chromedriver >/dev/null 2>&1; then
  echo "browser-test: installing chromium and chromium-driver"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null
fi
if ! python3 -c "import selenium" >/dev/null 2>&1; then
  echo "browser-test: installing selenium"
  pip install -q selenium 2>/dev/null || pip install -q --break-system-packages selenium
fi

swift build --product Todos 2>&1 | tail -1
todos="$(swift build --show-bin-path)/Todos"

work=$(mktemp -d)
app_pid=""
cleanup() {
  exec 3>&- 2>/dev/null || true
  if [ -n "$app_pid" ]; then kill "$app_pid" 2>/dev/null || true; wait "$app_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

# The app reads its commands from a FIFO that stays open, so it keeps running (and can be
# given more commands) while the browser works.
mkfifo "$work/commands"
"$todos" --inspect --state "$work/todos.json" --log "$work/todos.log" \
  <"$work/commands" >"$work/screen.txt" 2>"$work/stderr.txt" &
app_pid=$!
exec 3>"$work/commands"
printf 'add Buy milk\nadd Write the inspector guide\nadd Call the plumber\ntoggle 1\nlogin ada\n' >&3

for _ in $(seq 1 100); do
  grep -q "^Inspector: " "$work/stderr.txt" 2>/dev/null && break
  sleep 0.1
done
url=$(grep -m1 "^Inspector: " "$work/stderr.txt" | cut -d' ' -f2)
[ -n "$url" ] || { echo "browser-test: the app printed no inspector URL"; cat "$work/stderr.txt"; exit 1; }
echo "browser-test: $url"

mkdir -p .build
INSPECTOR_URL="$url" APP_SCREEN="$work/screen.txt" COMMANDS_FD=3 \
  SCREENSHOT=".build/inspector-screenshot.png" OTHER_SCREENSHOT=".build/inspector-other-port.png" \
  timeout 300 python3 scripts/browser-test.py
echo "browser-test: passed; screenshot at .build/inspector-screenshot.png"
