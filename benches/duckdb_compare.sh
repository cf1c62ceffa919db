#!/usr/bin/env bash
# gridsim's report against DuckDB on the same run directory, on the same
# machine, alternately, so a busy machine slows each alike.
#
#   benches/duckdb_compare.sh RUN_DIR [ROUNDS]
#
# GRIDSIM names the binary (default: target/release/gridsim, or
# $CARGO_TARGET_DIR/release/gridsim). DuckDB is installed with pip if
# missing. One untimed round of each warms the page cache and gives the
# figures checked: DuckDB's per-card fights, wins and draws (and the losses
# and rates derived from them) must equal the `cards` table of gridsim's
# summary.json exactly, and so must the full table's apart fights, wins and
# rate, its standard errors (apart and not) to a relative 1e-9. Then, for
# each round, in rotating order:
#   - gridsim: `gridsim report RUN_DIR` as a person runs it (wall seconds of
#     the whole command: the SHA-256 of every file it reads (inputs, boards
#     table, fights parts), the aggregation, every table of the report,
#     HTML, Markdown and JSON);
#   - duckdb: a Python process computing the card tally with DuckDB (wall
#     seconds, Python start and `import duckdb` included), and its query
#     alone;
#   - duckdb+sha: the same process also checking the SHA-256 of every file
#     it reads before reading, as gridsim does, so both give the same
#     guarantee;
#   - duckdb table: a Python process computing with DuckDB the card table
#     as the report gives it: the tally, and each card's rate with its
#     two-way (dyadic) cluster-robust standard error and its rate against
#     boards without the card with its own (wall seconds, and its query
#     alone).
# Prints every measurement, the medians, and whether the figures agree;
# exits non-zero when they do not.
set -euo pipefail
run=${1:?usage: benches/duckdb_compare.sh RUN_DIR [ROUNDS]}
rounds=${2:-3}
here=$(cd "$(dirname "$0")" && pwd)
gridsim=${GRIDSIM:-${CARGO_TARGET_DIR:-$here/../target}/release/gridsim}
[[ -x $gridsim ]] || { echo "no gridsim binary at $gridsim (cargo build --release, or set GRIDSIM)" >&2; exit 2; }
python3 -c 'import duckdb' 2>/dev/null || python3 -m pip install --quiet duckdb
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

now() { date +%s.%N; }
seconds_of() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["seconds"])' "$1"; }
# Each prints "wall [query-alone]"; time_duckdb MODE NAME [--checksums].
time_gridsim() {
  local start end
  # A first report: from the fights, not from tallies an earlier round
  # saved in the run directory.
  rm -f "$run/tallies.bin"
  start=$(now)
  "$gridsim" report "$run" --out "$scratch/report" > /dev/null
  end=$(now)
  echo "$end - $start" | bc -l
}
time_duckdb() {
  local start end
  start=$(now)
  python3 "$here/duckdb_compare.py" "$1" "$run" "$scratch/$2.json" ${3:-}
  end=$(now)
  echo "$(echo "$end - $start" | bc -l) $(seconds_of "$scratch/$2.json")"
}
median() { sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }

fights=$(python3 -c 'import json,sys; print(sum(p["count"] for p in json.load(open(sys.argv[1]))["parts"]))' "$run/manifest.json")
echo "run: $run ($fights fights, $(du -sh "$run" | cut -f1)); gridsim: $gridsim"
echo "duckdb $(python3 -c 'import duckdb; print(duckdb.__version__)'); $(nproc) cores; load average $(cut -d' ' -f1-3 /proc/loadavg)"
time_gridsim > /dev/null
time_duckdb query duck > /dev/null
time_duckdb query sha --checksums > /dev/null
time_duckdb table table > /dev/null
agree=yes
python3 "$here/duckdb_compare.py" check "$scratch/duck.json" "$scratch"/report/*/summary.json || agree=no
python3 "$here/duckdb_compare.py" check "$scratch/sha.json" "$scratch"/report/*/summary.json > /dev/null || agree=no
python3 "$here/duckdb_compare.py" check "$scratch/table.json" "$scratch"/report/*/summary.json || agree=no

: > "$scratch/g"; : > "$scratch/d"; : > "$scratch/q"; : > "$scratch/s"; : > "$scratch/t"; : > "$scratch/u"
orders=("gridsim duckdb sha table" "duckdb sha table gridsim" "sha table gridsim duckdb" "table gridsim duckdb sha")
for r in $(seq 1 "$rounds"); do
  for which in ${orders[$(( (r - 1) % 4 ))]}; do
    case $which in
      gridsim)
        g=$(time_gridsim); echo "$g" >> "$scratch/g"
        printf 'round %d  gridsim report  %7.3f s\n' "$r" "$g" ;;
      duckdb)
        read -r d q < <(time_duckdb query duck); echo "$d" >> "$scratch/d"; echo "$q" >> "$scratch/q"
        printf 'round %d  duckdb          %7.3f s  (query alone %.3f s)\n' "$r" "$d" "$q" ;;
      sha)
        read -r s _ < <(time_duckdb query sha --checksums); echo "$s" >> "$scratch/s"
        printf 'round %d  duckdb+sha      %7.3f s\n' "$r" "$s" ;;
      table)
        read -r t u < <(time_duckdb table table); echo "$t" >> "$scratch/t"; echo "$u" >> "$scratch/u"
        printf 'round %d  duckdb table    %7.3f s  (query alone %.3f s)\n' "$r" "$t" "$u" ;;
    esac
  done
done
g=$(median < "$scratch/g"); d=$(median < "$scratch/d"); q=$(median < "$scratch/q"); s=$(median < "$scratch/s")
t=$(median < "$scratch/t"); u=$(median < "$scratch/u")
printf '\nmedian  gridsim report %.3f s   duckdb %.3f s (query alone %.3f s)   duckdb+sha %.3f s   duckdb table %.3f s (query alone %.3f s)\n' \
  "$g" "$d" "$q" "$s" "$t" "$u"
printf 'time over gridsim'"'"'s: duckdb %.2fx, its query alone %.2fx, duckdb+sha %.2fx, duckdb table %.2fx, its query alone %.2fx   figures agree: %s\n' \
  "$(echo "$d / $g" | bc -l)" "$(echo "$q / $g" | bc -l)" "$(echo "$s / $g" | bc -l)" \
  "$(echo "$t / $g" | bc -l)" "$(echo "$u / $g" | bc -l)" "$agree"
[[ $agree == yes ]]
