#!/usr/bin/env bash
# Side-by-side report speed: two gridsim binaries (or more) report the same
# run directory alternately in one script, so a busy machine slows them
# alike.
#
#   benches/report_side_by_side.sh RUN_DIR ROUNDS OLD NEW [MORE...]
#
# Each round runs every binary once, in the order given, as
# `/usr/bin/time gridsim report RUN_DIR --out SCRATCH`; prints one line per
# report: the binary's name, wall seconds, user and system CPU seconds, and
# peak resident memory. The reports go to a scratch folder removed
# afterwards. A run directory: `gridsim run --fights 1000000` on the default
# suite gives the one docs/performance.md uses.
#
# A report saves the run's tallies in the run directory (`tallies.bin`) and
# the next report reads them instead of the fights. Each report here starts
# without them (a first report, as the main command makes), unless
# SAVED=1, which times reports from saved tallies (a report again, or a
# baseline read) after one untimed report has saved them (binaries that
# save tallies only: an older one calls the file foreign).
set -euo pipefail
run=$1
rounds=$2
shift 2
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
if [ "${SAVED:-0}" = 1 ]; then
  "$1" report "$run" --out "$scratch/out" >/dev/null
fi
for _ in $(seq "$rounds"); do
  for binary in "$@"; do
    if [ "${SAVED:-0}" != 1 ]; then
      rm -f "$run/tallies.bin"
    fi
    /usr/bin/time -o "$scratch/time" -f "%e s wall, %U s user, %S s sys, %M KB peak" \
      "$binary" report "$run" --out "$scratch/out" >/dev/null
    echo "$(basename "$binary"): $(cat "$scratch/time")"
  done
done
