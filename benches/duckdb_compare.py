"""Per-card win rates of a gridsim run directory, computed by DuckDB from the
run's Parquet files, and checked against gridsim's own report.

    python3 benches/duckdb_compare.py query RUN_DIR OUT.json [--checksums]
        Runs the query once; writes {"seconds": query time, "cards": {...}}.
        With --checksums, first checks the SHA-256 of every file the
        manifest lists, as `gridsim report` does (the files the query reads
        before it, the units parts alongside it, on every core).
    python3 benches/duckdb_compare.py check DUCK.json SUMMARY.json
        Compares DuckDB's cards with the `cards` table of gridsim's
        summary.json, exactly.

The figures follow src/report.rs: a board's tally is every fight it played,
on either side (a win is `winner` naming its side, a draw is `draw`); a card's
tally is the sum of the tallies of the boards that hold it, each board
counted once however many copies of the card it holds. Fights whose board is
not in the boards table count for no card. The part files read are the ones
the manifest lists, as gridsim reads them.
"""

import hashlib
import json
import os
import sys
import time
from concurrent.futures import ThreadPoolExecutor


def sql_list(paths):
    return "[" + ", ".join("'" + p.replace("'", "''") + "'" for p in paths) + "]"


def sha256_problem(path, expected):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        while chunk := f.read(1 << 20):
            h.update(chunk)
    return None if h.hexdigest() == expected else f"{path}: corrupt"


def query(run_dir, out_path, checksums):
    import duckdb

    manifest = json.load(open(os.path.join(run_dir, "manifest.json")))
    at = lambda entry: os.path.join(run_dir, entry["path"])
    fights = [at(p["files"][0]) for p in manifest["parts"]]
    boards = at(manifest["boards_file"])
    # One scan of the fights, grouped by matchup and outcome, each group
    # then credited to both of its boards. Of the plans tried on a run of
    # ten million fights (this one; one grouped by matchup with FILTER
    # counts; a UNION of a left and a right scan, with and without a
    # materialized CTE), this one and the UNION were the fastest, within
    # noise of each other.
    sql = f"""
    WITH outcome AS (
        SELECT left_board, right_board, winner, count(*) AS n
        FROM read_parquet({sql_list(fights)})
        GROUP BY ALL
    ),
    board AS (
        SELECT board_id, sum(n) AS n, sum(w) AS w, sum(d) AS d FROM (
            SELECT left_board AS board_id, n,
                   CASE WHEN winner = 'left' THEN n ELSE 0 END AS w,
                   CASE WHEN winner = 'draw' THEN n ELSE 0 END AS d
            FROM outcome
            UNION ALL
            SELECT right_board, n,
                   CASE WHEN winner = 'right' THEN n ELSE 0 END,
                   CASE WHEN winner = 'draw' THEN n ELSE 0 END
            FROM outcome
        ) GROUP BY board_id
    ),
    holds AS (
        SELECT DISTINCT board_id, unnest(cards) AS card
        FROM read_parquet({sql_list([boards])})
    )
    SELECT card, sum(n)::BIGINT, sum(w)::BIGINT, sum(d)::BIGINT
    FROM holds JOIN board USING (board_id)
    GROUP BY card ORDER BY card
    """
    start = time.perf_counter()
    if checksums:
        # What the report checks: every file it reads (the inputs, the
        # boards table, the fights parts), before reading.
        read = [(at(e), e["sha256"]) for e in manifest["inputs"] + [manifest["boards_file"]]]
        read += [(at(p["files"][0]), p["files"][0]["sha256"]) for p in manifest["parts"]]
        with ThreadPoolExecutor(os.cpu_count()) as pool:
            bad = [b for b in pool.map(lambda x: sha256_problem(*x), read) if b]
        if not bad:
            rows = duckdb.connect().execute(sql).fetchall()
        if bad:
            sys.exit("\n".join(bad))
    else:
        rows = duckdb.connect().execute(sql).fetchall()
    seconds = time.perf_counter() - start
    cards = {c: {"fights": n, "wins": w, "draws": d} for c, n, w, d in rows}
    with open(out_path, "w") as f:
        json.dump({"seconds": seconds, "cards": cards}, f)


def check(duck_path, summary_path):
    duck = json.load(open(duck_path))["cards"]
    report = {row["key"]: row for row in json.load(open(summary_path))["cards"]}
    problems = []
    for card in sorted(set(duck) | set(report)):
        if card not in duck or card not in report:
            problems.append(f"{card}: only in {'gridsim' if card in report else 'DuckDB'}")
            continue
        d, r = duck[card], report[card]
        n, w, dr = d["fights"], d["wins"], d["draws"]
        ours = (r["fights"], r["wins"], r["draws"], r["losses"], r["win_rate"], r["draw_rate"])
        theirs = (n, w, dr, n - w - dr, w / n if n else 0.0, dr / n if n else 0.0)
        if ours != theirs:
            problems.append(f"{card}: gridsim {ours}, DuckDB {theirs}")
    for p in problems:
        print("  differs: " + p)
    what = "fights, wins, draws, losses, win and draw rates"
    print(f"{len(report)} cards; " + (f"all agree exactly ({what})" if not problems else f"{len(problems)} differ"))
    return not problems


if __name__ == "__main__":
    args = sys.argv[1:]
    if args[:1] == ["query"] and len(args) in (3, 4) and args[3:] in ([], ["--checksums"]):
        query(args[1], args[2], args[3:] == ["--checksums"])
    elif args[:1] == ["check"] and len(args) == 3:
        sys.exit(0 if check(args[1], args[2]) else 1)
    else:
        sys.exit(__doc__)
