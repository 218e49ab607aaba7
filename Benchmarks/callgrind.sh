#!/usr/bin/env bash
# Instructions per operation of one workload, counted by callgrind.
#
# usage: Benchmarks/callgrind.sh WORKLOAD [COUNT] [subject|baseline]
# Builds nothing: run `swift build -c release --product ReactorKitBenchmarks` first. Writes
# the profile to /tmp/callgrind.WORKLOAD.SIDE.out for callgrind_annotate.
set -euo pipefail
workload=${1:?usage: Benchmarks/callgrind.sh WORKLOAD [COUNT] [subject|baseline]}
count=${2:-10000}
side=${3:-subject}
case "$side" in
  subject) symbol='*measuredSubject*' ;;
  baseline) symbol='*measuredBaseline*' ;;
  *) echo "side must be subject or baseline" >&2; exit 2 ;;
esac
root=$(cd "$(dirname "$0")/.." && pwd)
out=/tmp/callgrind.$workload.$side.out
valgrind --tool=callgrind --callgrind-out-file="$out" --collect-atstart=no \
  --toggle-collect="$symbol" \
  "$root/.build/release/ReactorKitBenchmarks" --filter "$workload\$" --count "$count" \
  >/dev/null 2>/tmp/callgrind.$workload.$side.log
total=$(callgrind_annotate "$out" 2>/dev/null | awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1 }')
echo "$workload $side: $total instructions for $count ops = $((total / count)) per op"
