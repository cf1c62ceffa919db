"""Per-card win rates of a gridsim run directory, computed by DuckDB from the
run's Parquet files, and checked against gridsim's own report.

    python3 benches/duckdb_compare.py query RUN_DIR OUT.json [--checksums]
        Runs the query once; writes {"seconds": query time, "cards": {...}}.
        With --checksums, first checks the SHA-256 of every file the
        manifest lists, as `gridsim report` does (the files the query reads
        before it, the units parts alongside it, on every core).
    python3 benches/duckdb_compare.py table RUN_DIR OUT.json [--checksums]
        The whole card table of the report in one query: the tally above,
        and each card's win rate with its two-way (dyadic) cluster-robust
        standard error, and its rate against boards without the card
        (mirrors out) with its own. Writes {"seconds", "cards"} as `query`
        does, each card also with se, apart_fights, apart_wins, apart_se.
        --checksums as for `query`.
    python3 benches/duckdb_compare.py check DUCK.json SUMMARY.json
        Compares DuckDB's cards (from `query` or `table`) with the `cards`
        table of gridsim's summary.json: counts and rates exactly, standard
        errors (when DUCK.json has them) to a relative 1e-9 (absolute
        1e-12).

The figures follow crates/analysis/src/report.rs: a board's tally is every fight it played,
on either side (a win is `winner` naming its side, a draw is `draw`); a card's
tally is the sum of the tallies of the boards that hold it, each board
counted once however many copies of the card it holds. Fights whose board is
not in the boards table count for no card. The part files read are the ones
the manifest lists, as gridsim reads them.

The standard errors follow crates/analysis/src/dyadic.rs. For card k each fight f has n_f
sides whose board holds k (0, 1 or 2; a board meeting itself is two sides)
and y_f wins among them; r = Σy / Σn and e_f = y_f − r·n_f. With S_b the sum
of e over the fights board b played (a fight with itself once) and T_p the
sum over the fights of one pair of distinct boards,

    V = Σ_b S_b² − Σ_p T_p²        se = sqrt(H/(H−1) · max(V, 0)) / Σn

H being the boards holding k that fought. The apart figures are the same with a side
counted only when its opponent does not hold k (a mirror counts for
neither side). Here only fights between two boards of the boards table
count (gridsim's dyads), so Σn is the tally's fights when every board is in
the table. V·(Σn)² is computed exactly in 128-bit integers, as gridsim does,
from sums of y², y·n, n² over boards less those over pairs; where the
figure is undefined (Σn = 0, or G < 2) se is 0.5, and the apart rate 0 when
there are no apart fights, as in summary.json.
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


def tally_sql(fights, boards):
    # One scan of the fights, grouped by matchup and outcome, each group
    # then credited to both of its boards. Of the plans tried on a run of
    # ten million fights (this one; one grouped by matchup with FILTER
    # counts; a UNION of a left and a right scan, with and without a
    # materialized CTE), this one and the UNION were the fastest, within
    # noise of each other.
    return f"""
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


def table_sql(fights, boards):
    # The report's card table in one query, by pairs of boards as
    # crates/analysis/src/dyadic.rs works: a pair's fights enter every sum only through
    # their count and each side's wins. With h the boards holding card k,
    # and for board b: W, F its own side's wins and fights (a fight with
    # itself twice), W', F' the same without those; and over b's fights
    # against holders c of k (c ≠ b): s1 = Σ c's wins, s2 = Σ fights,
    # s3 = Σ b's wins, and the pair terms s4..s7 below. Then b's sums are
    #     Y = h·W + s1,  N = h·F + s2,
    #     apart: h·(W' − s3) + (1 − h)·s1,  h·(F' − s2) + (1 − h)·s2,
    # and the pair sums T_p over k's pairs add up from s4..s7 (a pair where
    # both hold k, met from both boards, gives its cross terms once each
    # way). V·(Σn)² = (Σn)²·A − 2·Σy·Σn·B + (Σy)²·C, A, B, C the sums of
    # y², y·n, n² over boards less those over pairs, exact in HUGEINT as
    # gridsim's i128. The cost is one grouping by board and card of every
    # fought pair times the cards of each side (the estimator's own cost);
    # edges sorted by board first made that grouping about a third faster,
    # and summing it in DOUBLE (exact: integers far below 2^53) a little.
    se = lambda y, n, yy, yn, nn: f"""CASE WHEN {n} = 0 OR g < 2 THEN 0.5 ELSE sqrt(
        g::DOUBLE / (g::DOUBLE - 1) * greatest(
            ({n} * {n} * {yy} - 2 * {y} * {n} * {yn} + {y} * {y} * {nn})::DOUBLE
            / ({n}::DOUBLE * {n}::DOUBLE * {n}::DOUBLE * {n}::DOUBLE), 0)) END"""
    return f"""
    WITH listed AS MATERIALIZED (
        SELECT board_id, cards FROM read_parquet({sql_list([boards])})
    ),
    card AS (
        SELECT card, row_number() OVER (ORDER BY card)::INTEGER AS k
        FROM (SELECT DISTINCT unnest(cards) AS card FROM listed)
    ),
    holds AS MATERIALIZED (
        SELECT DISTINCT board_id, k
        FROM (SELECT board_id, unnest(cards) AS card FROM listed) JOIN card USING (card)
    ),
    -- Unordered pairs a <= b: fights, each side's wins, draws; a board
    -- meeting itself is a = b, its two sides' wins in wa and wb. ok: both
    -- boards are in the boards table (gridsim's dyads; a fight against any
    -- other board counts only in the tally).
    pair AS MATERIALIZED (
        SELECT a, b, f, wa, wb, d,
               a IN (SELECT board_id FROM listed) AND b IN (SELECT board_id FROM listed) AS ok
        FROM (
            SELECT least(left_board, right_board) AS a, greatest(left_board, right_board) AS b,
                   count(*) AS f,
                   count(*) FILTER (winner = CASE WHEN left_board <= right_board THEN 'left' ELSE 'right' END) AS wa,
                   count(*) FILTER (winner = CASE WHEN left_board <= right_board THEN 'right' ELSE 'left' END) AS wb,
                   count(*) FILTER (winner = 'draw') AS d
            FROM read_parquet({sql_list(fights)}) GROUP BY 1, 2
        )
    ),
    -- Each pair of distinct boards from both sides.
    edge AS MATERIALIZED (
        SELECT * FROM (
            SELECT a AS me, b AS them, f, wa AS mine, wb AS theirs, d, ok FROM pair WHERE a <> b
            UNION ALL
            SELECT b, a, f, wb, wa, d, ok FROM pair WHERE a <> b
        ) ORDER BY me
    ),
    -- Each board's tally (every fight), and W, F, W', F' (ok fights).
    own AS (
        SELECT board, sum(f)::BIGINT AS f, sum(w)::BIGINT AS w, sum(d)::BIGINT AS d,
               coalesce(sum(f) FILTER (ok), 0)::BIGINT AS fo,
               coalesce(sum(w) FILTER (ok), 0)::BIGINT AS wo,
               coalesce(sum(f) FILTER (ok AND NOT self), 0)::BIGINT AS fx,
               coalesce(sum(w) FILTER (ok AND NOT self), 0)::BIGINT AS wx
        FROM (
            SELECT me AS board, f, mine AS w, d, ok, false AS self FROM edge
            UNION ALL
            SELECT a, 2 * f, wa + wb, 2 * d, ok, true FROM pair WHERE a = b
        ) GROUP BY board
    ),
    -- Per board and card: whether it holds the card (hh), s1..s7, and its
    -- own figures; then its sums (b_y, b_n, b_ay, b_an: Y, N and apart) and
    -- its part of the card's totals (o_y, o_n, o_ay, o_an).
    per AS (
        SELECT p.*, coalesce(o.f, 0) AS f, coalesce(o.w, 0) AS w, coalesce(o.d, 0) AS d,
               coalesce(o.fo, 0) AS fo, coalesce(o.wo, 0) AS wo,
               coalesce(o.fx, 0) AS fx, coalesce(o.wx, 0) AS wx
        FROM (
            SELECT board, k, sum(hh)::BIGINT AS hh,
                   sum(s1::DOUBLE)::BIGINT AS s1, sum(s2::DOUBLE)::BIGINT AS s2,
                   sum(s3::DOUBLE)::BIGINT AS s3, sum(s4::DOUBLE)::BIGINT AS s4,
                   sum(s5::DOUBLE)::BIGINT AS s5, sum(s6::DOUBLE)::BIGINT AS s6,
                   sum(s7::DOUBLE)::BIGINT AS s7
            FROM (
                SELECT e.me AS board, h.k, 0 AS hh, theirs AS s1, f AS s2, mine AS s3,
                       theirs * theirs AS s4, theirs * f AS s5, f * f AS s6, theirs * mine AS s7
                FROM edge e JOIN holds h ON h.board_id = e.them
                WHERE e.ok
                UNION ALL
                SELECT board_id, k, 1, 0, 0, 0, 0, 0, 0, 0 FROM holds
            ) GROUP BY board, k
        ) p LEFT JOIN own o USING (board)
    ),
    terms AS (
        SELECT k, hh, f, w, d, fo, s4, s5, s6, s7,
               hh * wo AS o_y, hh * fo AS o_n, hh * (wx - s3) AS o_ay, hh * (fx - s2) AS o_an,
               hh * wo + s1 AS b_y, hh * fo + s2 AS b_n,
               hh * (wx - s3) + (1 - hh) * s1 AS b_ay, hh * (fx - s2) + (1 - hh) * s2 AS b_an
        FROM per
    ),
    -- Per card: the tally; Σy, Σn (ok fights), apart too; and A, B, C:
    -- over boards less over pairs (the pairs' own sides s4, s5, s6 and, for
    -- a pair both hold, the cross terms s7, s5, s6 met from each board).
    sums AS (
        SELECT k, sum(hh * f) AS fights, sum(hh * w) AS wins, sum(hh * d) AS draws,
               sum(o_y) AS y, sum(o_n) AS n, sum(o_ay) AS ay, sum(o_an) AS an,
               sum(b_y * b_y) - sum(s4 + hh * s7) AS yy,
               sum(b_y * b_n) - sum(s5 + hh * s5) AS yn,
               sum(b_n * b_n) - sum(s6 + hh * s6) AS nn,
               sum(b_ay * b_ay) - sum((1 - hh) * s4) AS ayy,
               sum(b_ay * b_an) - sum((1 - hh) * s5) AS ayn,
               sum(b_an * b_an) - sum((1 - hh) * s6) AS ann,
               -- H: the boards holding the card that fought, whose
               -- H/(H-1) is the small-sample factor (crates/analysis/src/dyadic.rs).
               sum(CASE WHEN hh = 1 AND fo > 0 THEN 1 ELSE 0 END) AS g
        FROM terms GROUP BY k
    )
    SELECT card, fights::BIGINT, wins::BIGINT, draws::BIGINT,
           {se("y", "n", "yy", "yn", "nn")},
           an::BIGINT, ay::BIGINT,
           {se("ay", "an", "ayy", "ayn", "ann")}
    FROM sums JOIN card USING (k)
    WHERE fights > 0
    ORDER BY card
    """


def run_query(run_dir, sql_of, checksums):
    """The rows of `sql_of(fights files, boards file)` on the run, and the
    seconds taken (the checksums first, with `checksums`)."""
    import duckdb

    manifest = json.load(open(os.path.join(run_dir, "manifest.json")))
    at = lambda entry: os.path.join(run_dir, entry["path"])
    fights = [at(p["files"][0]) for p in manifest["parts"]]
    boards = at(manifest["boards_file"])
    sql = sql_of(fights, boards)
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
    return rows, time.perf_counter() - start


def query(run_dir, out_path, checksums):
    rows, seconds = run_query(run_dir, tally_sql, checksums)
    cards = {c: {"fights": n, "wins": w, "draws": d} for c, n, w, d in rows}
    with open(out_path, "w") as f:
        json.dump({"seconds": seconds, "cards": cards}, f)


def table(run_dir, out_path, checksums):
    rows, seconds = run_query(run_dir, table_sql, checksums)
    names = ("fights", "wins", "draws", "se", "apart_fights", "apart_wins", "apart_se")
    cards = {row[0]: dict(zip(names, row[1:])) for row in rows}
    with open(out_path, "w") as f:
        json.dump({"seconds": seconds, "cards": cards}, f)


def close(a, b):
    return abs(a - b) <= max(1e-12, 1e-9 * abs(b))


def check(duck_path, summary_path):
    duck = json.load(open(duck_path))["cards"]
    report = {row["key"]: row for row in json.load(open(summary_path))["cards"]}
    # From `table`, the standard errors and the apart figures too.
    full = all("se" in d for d in duck.values())
    problems = []
    for card in sorted(set(duck) | set(report)):
        if card not in duck or card not in report:
            problems.append(f"{card}: only in {'gridsim' if card in report else 'DuckDB'}")
            continue
        d, r = duck[card], report[card]
        n, w, dr = d["fights"], d["wins"], d["draws"]
        ours = (r["fights"], r["wins"], r["draws"], r["losses"], r["win_rate"], r["draw_rate"])
        theirs = (n, w, dr, n - w - dr, w / n if n else 0.0, dr / n if n else 0.0)
        if full:
            an, aw = d["apart_fights"], d["apart_wins"]
            ours += (r["apart_fights"], r["apart_wins"], r["apart_win_rate"])
            theirs += (an, aw, aw / an if an else 0.0)
        if ours != theirs:
            problems.append(f"{card}: gridsim {ours}, DuckDB {theirs}")
        if full:
            for key in ("se", "apart_se"):
                if not close(d[key], r[key]):
                    problems.append(f"{card}: {key} gridsim {r[key]!r}, DuckDB {d[key]!r}")
    for p in problems:
        print("  differs: " + p)
    what = "exactly (fights, wins, draws, losses, win and draw rates)"
    if full:
        what = ("(exactly: fights, wins, draws, losses, win and draw rates, apart fights, wins "
                "and rate; to 1e-9: standard errors, apart and not)")
    print(f"{len(report)} cards; " + (f"all agree {what}" if not problems else f"{len(problems)} differ"))
    return not problems


if __name__ == "__main__":
    args = sys.argv[1:]
    if args[:1] == ["query"] and len(args) in (3, 4) and args[3:] in ([], ["--checksums"]):
        query(args[1], args[2], args[3:] == ["--checksums"])
    elif args[:1] == ["table"] and len(args) in (3, 4) and args[3:] in ([], ["--checksums"]):
        table(args[1], args[2], args[3:] == ["--checksums"])
    elif args[:1] == ["check"] and len(args) == 3:
        sys.exit(0 if check(args[1], args[2]) else 1)
    else:
        sys.exit(__doc__)
