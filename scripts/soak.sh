#!/usr/bin/env bash
# Soak run: the stress, fuzz and fault suites, longer and repeatedly, for local use (not CI).
#
#   scripts/soak.sh                          3 rounds at 10× the iterations, fresh seeds
#   scripts/soak.sh --rounds 5 --iterations 20
#   scripts/soak.sh --duration 30m           rounds until 30 minutes have passed
#   scripts/soak.sh --sanitize=thread        the same under the thread sanitizer
#   scripts/soak.sh --seed 1234              pin the seeds (round r uses a seed derived from it)
#   scripts/soak.sh --filter 'StoreFuzz'     only matching tests (a `swift test --filter` regex)
#
# Options:
#   --rounds N          rounds to run (default 3; with --duration, the most to run)
#   --duration T        keep starting rounds until T has passed (T: 90s, 45m, 2h, or seconds)
#   --iterations M      STRESS_ITERATIONS, the iteration multiplier (default 10)
#   --seed S            STRESS_SEED of round 1; round r uses S + (r - 1) × 1000 × M, so rounds
#                       never repeat a seed (default: the current Unix time)
#   --sanitize=KIND     thread or address; each gets its own --scratch-path (.build-tsan,
#                       .build-asan), as in .ci/run
#   --filter REGEX      tests to run (default: every suite in Tests/*/Reliability, every
#                       test class that scales with StressConfiguration and every
#                       *ConcurrencyTests class)
#   --round-timeout T   a round running longer fails (default 60m)
#   --log-dir DIR       where the logs go (default: a new directory under $TMPDIR or /tmp)
#
# The suites read STRESS_ITERATIONS and STRESS_SEED (ReactorKitTesting's StressConfiguration).
# The script builds once, then runs `swift test --skip-build` per round and prints, per round and
# in total: seed, iterations, duration, tests run, failures and sanitizer reports, with the
# command that reproduces a failed round. Exits 1 when any round fails (a failing test, a
# non-zero exit, a timeout or any sanitizer report), 2 on bad usage or a failed build.
set -uo pipefail
cd "$(dirname "$0")/.."

usage() { sed -n '2,/^set -uo/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'; }
die() {
  printf 'soak: %s\n' "$*" >&2
  exit 2
}

# Seconds from 90, 90s, 45m or 2h.
seconds_of() {
  case "$1" in
    *[!0-9smh]* | "" | [smh]*) return 1 ;;
    *s) echo "${1%s}" ;;
    *m) echo $((${1%m} * 60)) ;;
    *h) echo $((${1%h} * 3600)) ;;
    *) echo "$1" ;;
  esac
}

rounds=""
duration=""
iterations=10
seed=""
sanitizer=""
filter=""
round_timeout=3600
log_dir=""
while [ "$#" -gt 0 ]; do
  case "$1" in
    --rounds) rounds=${2:?}; shift ;;
    --duration) duration=$(seconds_of "${2:?}") || die "bad duration: $2"; shift ;;
    --iterations) iterations=${2:?}; shift ;;
    --seed) seed=${2:?}; shift ;;
    --sanitize=*) sanitizer=${1#--sanitize=} ;;
    --sanitize) sanitizer=${2:?}; shift ;;
    --filter) filter=${2:?}; shift ;;
    --round-timeout) round_timeout=$(seconds_of "${2:?}") || die "bad timeout: $2"; shift ;;
    --log-dir) log_dir=${2:?}; shift ;;
    -h | --help) usage; exit 0 ;;
    *) die "unknown option: $1 (see --help)" ;;
  esac
  shift
done

is_count() { case "$1" in '' | *[!0-9]*) return 1 ;; *) [ "$1" -gt 0 ] ;; esac; }
is_count "$iterations" || die "--iterations needs a positive integer"
[ -z "$rounds" ] || is_count "$rounds" || die "--rounds needs a positive integer"
[ -z "$duration" ] || is_count "$duration" || die "--duration must be longer than 0"
is_count "$round_timeout" || die "--round-timeout must be longer than 0"
if [ -z "$rounds" ]; then
  if [ -n "$duration" ]; then rounds=1000000; else rounds=3; fi
fi
if [ -z "$seed" ]; then seed=$(date +%s); fi
case "$seed" in '' | *[!0-9]*) die "--seed needs a non-negative integer" ;; esac
[ "${#seed}" -le 15 ] || die "--seed: at most 15 digits"

scratch=.build
sanitize_args=()
case "$sanitizer" in
  "") ;;
  thread) scratch=.build-tsan; sanitize_args=(--sanitize=thread) ;;
  address)
    scratch=.build-asan
    sanitize_args=(--sanitize=address)
    # XCTest itself leaks a few KB on Linux: leak checking only over Swift Testing suites.
    export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0}
    ;;
  *) die "--sanitize: thread or address" ;;
esac
swift_args=(--scratch-path "$scratch" "${sanitize_args[@]}")

# The default selection: every suite in a Reliability folder, every test class whose file
# scales with StressConfiguration (stress tests kept next to the code they test) and the
# concurrency tests.
if [ -z "$filter" ]; then
  mapfile -t files < <({
    ls Tests/*/Reliability/*.swift
    grep -rl --include='*.swift' 'StressConfiguration\.' Tests
    find Tests -name '*ConcurrencyTests.swift'
  } | LC_ALL=C sort -u)
  names=$(sed -nE \
    -e 's/^(final )?class ([A-Za-z0-9_]+): *(XCTestCase|ResourceTestCase).*/\2/p' \
    -e 's/^@Suite.* struct ([A-Za-z0-9_]+).*/\1/p' "${files[@]}" | LC_ALL=C sort -u)
  [ -n "$names" ] || die "found no test classes to soak"
  filter="\\.($(echo "$names" | paste -sd '|'))/"
fi

if [ -z "$log_dir" ]; then
  log_dir=$(mktemp -d "${TMPDIR:-/tmp}/reactorkit-soak.XXXXXX") || die "cannot create a log directory"
fi
mkdir -p "$log_dir" || die "cannot create $log_dir"
summary="$log_dir/summary.txt"

say() { printf '%s\n' "$*" | tee -a "$summary"; }
clock() { date +%s; }
# The number PATTERN's group captures in TEXT, 0 when it doesn't match.
number() {
  local found
  found=$(printf '%s\n' "$1" | sed -nE "s/.*$2.*/\\1/p" | head -1)
  echo "${found:-0}"
}
minutes() { printf '%dm%02ds' $(($1 / 60)) $(($1 % 60)); }

say "soak: $(date -u '+%Y-%m-%d %H:%M:%S UTC') on $(uname -sm), $(nproc 2>/dev/null || echo '?') cores"
say "soak: STRESS_ITERATIONS=$iterations, first STRESS_SEED=$seed, sanitizer: ${sanitizer:-none}, scratch path: $scratch"
say "soak: rounds: $rounds$([ -n "$duration" ] && echo " at most, for $(minutes "$duration")"), round timeout $(minutes "$round_timeout")"
say "soak: filter: $filter"
say "soak: logs in $log_dir"

printf '\n==> build (swift build --build-tests %s)\n' "${swift_args[*]}"
build_start=$(clock)
swift build --build-tests "${swift_args[@]}" >"$log_dir/build.log" 2>&1
build_status=$?
build_seconds=$(($(clock) - build_start))
if [ "$build_status" -ne 0 ]; then
  tail -30 "$log_dir/build.log"
  die "build failed (exit $build_status), see $log_dir/build.log"
fi
say "soak: build took $(minutes "$build_seconds")"

timeout_command=()
if command -v timeout >/dev/null 2>&1; then
  timeout_command=(timeout --kill-after=30 "$round_timeout")
fi

seed_stride=$((1000 * iterations))
soak_start=$(clock)
ran=0
failed_rounds=0
total_tests=0
total_failures=0
total_reports=0
rows=()
reproduce=()
for ((round = 1; round <= rounds; round++)); do
  if [ -n "$duration" ] && [ "$ran" -gt 0 ] && [ $(($(clock) - soak_start)) -ge "$duration" ]; then
    break
  fi
  round_seed=$((seed + (round - 1) * seed_stride))
  log="$log_dir/round-$round.log"
  printf '\n==> round %d: STRESS_ITERATIONS=%s STRESS_SEED=%s\n' "$round" "$iterations" "$round_seed"
  round_start=$(clock)
  STRESS_ITERATIONS=$iterations STRESS_SEED=$round_seed \
    "${timeout_command[@]}" swift test --skip-build "${swift_args[@]}" --filter "$filter" \
    >"$log" 2>&1
  status=$?
  seconds=$(($(clock) - round_start))
  ran=$((ran + 1))

  # XCTest's last "Executed" line is the whole run; Swift Testing prints one "Test run" line.
  xc_line=$(grep -E "Executed [0-9]+ tests?, with" "$log" | tail -1)
  xc_total=$(number "$xc_line" "Executed ([0-9]+)")
  xc_skipped=$(number "$xc_line" "([0-9]+) tests? skipped")
  xc_failures=$(number "$xc_line" "([0-9]+) failures?")
  st_total=$(number "$(grep -E "Test run with [0-9]+ tests?" "$log" | tail -1)" "Test run with ([0-9]+)")
  tests=$((xc_total - xc_skipped + st_total))
  failed_tests=$( {
    grep -oE "Test Case '[^']+' failed" "$log" | sed -E "s/Test Case '(.*)' failed/\1/"
    grep -E "^✘ Test [^r].* failed" "$log" | sed -E 's/^✘ Test (.*) failed.*/\1/'
  } | LC_ALL=C sort -u)
  failures=$(printf '%s' "$failed_tests" | grep -c .)
  if [ "$failures" -eq 0 ] && [ "$xc_failures" -gt 0 ]; then failures=$xc_failures; fi
  reports=$(grep -cE "^(WARNING|ERROR): [A-Za-z]+Sanitizer|runtime error: " "$log")
  # Any other sanitizer output (a summary without a report header) still fails the round.
  if [ "$reports" -eq 0 ] && grep -qE "[A-Za-z]+Sanitizer" "$log"; then reports=1; fi

  verdict=passed
  note=""
  if [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; then
    verdict=FAILED
    note="timed out after $(minutes "$round_timeout")"
  elif [ "$status" -ne 0 ] || [ "$failures" -gt 0 ] || [ "$reports" -gt 0 ]; then
    verdict=FAILED
    note="exit $status"
  fi
  if [ "$verdict" = passed ] && [ "$tests" -eq 0 ]; then
    verdict=FAILED
    note="no test ran"
  fi
  if [ "$verdict" = FAILED ]; then
    failed_rounds=$((failed_rounds + 1))
    reproduce+=("round $round: STRESS_ITERATIONS=$iterations STRESS_SEED=$round_seed swift test ${swift_args[*]} --filter '$filter'")
    [ -n "$failed_tests" ] && while IFS= read -r name; do reproduce+=("    failed: $name"); done <<<"$failed_tests"
    grep -E "error: |^(WARNING|ERROR): [A-Za-z]+Sanitizer|^SUMMARY: " "$log" | head -5 | sed 's/^/    /'
  fi
  total_tests=$((total_tests + tests))
  total_failures=$((total_failures + failures))
  total_reports=$((total_reports + reports))
  row=$(printf '%5d  %15s  %10s  %8s  %6d  %8d  %9d  %s' "$round" "$round_seed" "$iterations" \
    "$(minutes "$seconds")" "$tests" "$failures" "$reports" "$verdict${note:+ ($note)}")
  rows+=("$row")
  echo "$row"
done
soak_seconds=$(($(clock) - soak_start))

say ""
say "soak summary ($(date -u '+%Y-%m-%d %H:%M:%S UTC'))"
say "round             seed  iterations  duration   tests  failures  sanitizer  result"
for row in "${rows[@]}"; do say "$row"; done
say "total: $ran rounds in $(minutes "$soak_seconds") (build $(minutes "$build_seconds")), $total_tests tests run, $total_failures failures, $total_reports sanitizer reports"
if [ "${#rows[@]}" -ne "$ran" ]; then
  say "soak: a round's results could not be read (logs in $log_dir)"
  failed_rounds=$((failed_rounds + 1))
fi
if [ "$failed_rounds" -gt 0 ]; then
  say "reproduce:"
  for line in "${reproduce[@]}"; do say "  $line"; done
  say "SOAK FAILED: $failed_rounds of $ran rounds (logs in $log_dir)"
  exit 1
fi
say "SOAK PASSED: $ran of $ran rounds (logs in $log_dir)"
