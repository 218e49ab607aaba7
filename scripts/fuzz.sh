#!/usr/bin/env bash
# Coverage-guided fuzzing (libFuzzer, with the address sanitizer) of the parsers that read
# untrusted input: the inspector's HTTP request parser and the recording loader.
#
# usage: scripts/fuzz.sh [SECONDS_PER_TARGET]   (default 60)
# Builds Fuzz/ReactorKitFuzz in its own scratch path (.build-fuzz), then fuzzes each target
# from its seed corpus (Fuzz/Corpus/TARGET) for the given time. New inputs go to a scratch
# corpus under .build-fuzz, never into the repository. A broken property or a sanitizer report
# stops the run and leaves the input in .build-fuzz/crashes; the script exits non-zero.
set -euo pipefail
seconds=${1:-60}
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
scratch=.build-fuzz
swift build -c release --scratch-path "$scratch" --product ReactorKitFuzz \
  -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING -Xswiftc -parse-as-library 2>&1 \
  | grep -vE "^\[[0-9]+/[0-9]+\] Compiling"
binary="$scratch/release/ReactorKitFuzz"
mkdir -p "$scratch/crashes"
status=0
for target in http recording; do
  corpus="$scratch/corpus/$target"
  mkdir -p "$corpus"
  echo "==> fuzzing $target for ${seconds}s"
  # -timeout: one input taking over 10 s is a hang; -rss_limit_mb bounds memory.
  if ! SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=detect_leaks=0 timeout $((seconds + 120)) "$binary" "$target" \
    -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$scratch/crashes/$target-" "$corpus" "Fuzz/Corpus/$target" \
    >"$scratch/$target.log" 2>&1; then
    status=1
    echo "FUZZ FAILURE in $target: the input is in $scratch/crashes/; the log's end:"
    tail -40 "$scratch/$target.log"
  fi
  grep -E "^stat::(number_of_executed_units|new_units_added|peak_rss_mb)|Done [0-9]+ runs" \
    "$scratch/$target.log" || true
done
exit $status
