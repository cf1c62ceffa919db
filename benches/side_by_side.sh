#!/usr/bin/env bash
# Side-by-side speed: two gridsim binaries, run alternately on the same
# machine in one script, so a busy machine slows both alike.
#
#   benches/side_by_side.sh OLD NEW [ROUNDS]
#
# For each round, in alternating order (old first on even rounds, new first
# on odd ones):
#   - engine throughput: `gridsim bench SUITE --fights $BENCH_FIGHTS --threads 1`
#     (fights per second, one thread);
#   - end to end: `gridsim run SUITE --fights $RUN_FIGHTS` with full Parquet
#     output on all cores (wall seconds), into a scratch folder removed
#     afterwards.
# SUITE (env) defaults to the frozen golden suite, tests/golden/suite.toml,
# so that binaries from before and after a change to the nightly suite read
# the same suite and measure the same fights.
# OLD_RULES and OLD_CARDS (env) are the rules file and card folder the old
# binary reads (default: the current configs/rules.toml, and configs/cards with
# configs/runes, the rune files the cards may name);
# give it the old commit's copies when the files use what it cannot read:
#   git show OLD:configs/rules.toml > /tmp/old-rules.toml
#   mkdir -p /tmp/old-cards && git show OLD:configs/cards/starter.toml > /tmp/old-cards/starter.toml
#   OLD_RULES=/tmp/old-rules.toml OLD_CARDS=/tmp/old-cards benches/side_by_side.sh OLD NEW
# NEW_CARDS (env) is the same for the new binary (default: configs/cards with
# configs/runes); give both the old card file to measure the engines on the
# same cards, when the new binary still reads the old format.
# The default suite pins its cards, so both read the same fights.
# Prints every measurement, then the median of each and the ratio new/old.
# Run it from the repository root (both binaries read configs/).
set -euo pipefail
old=${1:?usage: benches/side_by_side.sh OLD NEW [ROUNDS]}
new=${2:?usage: benches/side_by_side.sh OLD NEW [ROUNDS]}
rounds=${3:-3}
bench_fights=${BENCH_FIGHTS:-300000}
run_fights=${RUN_FIGHTS:-1000000}
suite=${SUITE:-tests/golden/suite.toml}
old_rules=${OLD_RULES:-configs/rules.toml}
old_cards=${OLD_CARDS:-configs/cards configs/runes}
new_cards=${NEW_CARDS:-configs/cards configs/runes}
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

# The rules file and card folder each binary reads.
rules_for() { if [[ $1 == "$old" ]]; then echo "$old_rules"; else echo configs/rules.toml; fi; }
# Each card folder or file is its own `--cards` (the option repeats).
cards_for() {
  local list=$old_cards
  [[ $1 == "$old" ]] || list=$new_cards
  for c in $list; do printf -- '--cards %s ' "$c"; done
}
bench_rate() {
  "$1" bench "$suite" --fights "$bench_fights" --threads 1 --rules "$(rules_for "$1")" $(cards_for "$1") |
    awk '/fights per second/ {print $4}'
}
run_seconds() {
  local out="$scratch/$2"
  rm -rf "$out"
  local start end
  start=$(date +%s.%N)
  "$1" run "$suite" --fights "$run_fights" --out "$out" --rules "$(rules_for "$1")" $(cards_for "$1") > /dev/null 2>&1
  end=$(date +%s.%N)
  rm -rf "$out"
  echo "$end - $start" | bc -l
}
median() { sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }

: > "$scratch/old.bench"; : > "$scratch/new.bench"; : > "$scratch/old.run"; : > "$scratch/new.run"
for r in $(seq 1 "$rounds"); do
  if (( r % 2 )); then order="old new"; else order="new old"; fi
  for which in $order; do
    bin=$old; [[ $which == new ]] && bin=$new
    rate=$(bench_rate "$bin")
    secs=$(run_seconds "$bin" "$which")
    echo "$rate" >> "$scratch/$which.bench"
    echo "$secs" >> "$scratch/$which.run"
    printf 'round %d %-3s  bench %8.0f fights/s (1 thread)   run %7.2f s (%d fights, all cores)\n' \
      "$r" "$which" "$rate" "$secs" "$run_fights"
  done
done
ob=$(median < "$scratch/old.bench"); nb=$(median < "$scratch/new.bench")
orun=$(median < "$scratch/old.run"); nrun=$(median < "$scratch/new.run")
printf '\nmedian  old: %8.0f fights/s, %7.2f s    new: %8.0f fights/s, %7.2f s\n' "$ob" "$orun" "$nb" "$nrun"
printf 'engine throughput new/old: %.2fx    end to end old/new: %.2fx\n' \
  "$(echo "$nb / $ob" | bc -l)" "$(echo "$orun / $nrun" | bc -l)"
