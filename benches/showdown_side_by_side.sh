#!/usr/bin/env bash
# Side-by-side speed of Riftbound showdowns: two gridsim binaries, run
# alternately in one script, so a busy machine slows both alike.
#
#   benches/showdown_side_by_side.sh OLD NEW [ROUNDS]
#
# Each round runs `gridsim bench SUITE --fights $FIGHTS --threads 1` with
# each binary, old first on even rounds and new first on odd ones, and
# prints showdowns per second; then the median of each and new/old.
# SUITE (env, default configs/riftbound/suites/default.toml) is read by
# both: to compare the engines on the same cards, give both a suite whose
# catalog the old binary can read, such as the old commit's:
#   git archive OLD configs/riftbound | tar -x -C /tmp/old
#   SUITE=/tmp/old/configs/riftbound/suites/default.toml benches/showdown_side_by_side.sh OLD NEW
# Whole games: the games suite, whose bench prints games per second:
#   SUITE=configs/riftbound/suites/games.toml RATE="games per second per thread" FIGHTS=200000 \
#     benches/showdown_side_by_side.sh OLD NEW
set -euo pipefail
old=${1:?usage: benches/showdown_side_by_side.sh OLD NEW [ROUNDS]}
new=${2:?usage: benches/showdown_side_by_side.sh OLD NEW [ROUNDS]}
rounds=${3:-5}
fights=${FIGHTS:-2000000}
suite=${SUITE:-configs/riftbound/suites/default.toml}
label=${RATE:-showdowns per second}

rate() {
  # The bench prints "<label>: N"; keep the number.
  "$1" bench "$suite" --fights "$fights" --threads 1 2>&1 | awk -F': ' -v label="$label" '$1 == label {print $2; exit}'
}

olds=()
news=()
for ((r = 0; r < rounds; r++)); do
  if ((r % 2 == 0)); then
    o=$(rate "$old"); n=$(rate "$new")
  else
    n=$(rate "$new"); o=$(rate "$old")
  fi
  echo "round $r: old $o/s, new $n/s"
  olds+=("$o"); news+=("$n")
done
median() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
mo=$(median "${olds[@]}"); mn=$(median "${news[@]}")
echo "median: old $mo/s, new $mn/s, new/old $(awk -v a="$mn" -v b="$mo" 'BEGIN {printf "%.3f", a/b}')"
