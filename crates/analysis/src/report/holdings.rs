//! What the rate tables count: every row's holders and each board's rows,
//! the keyword grid, and the boards in dense order for the fit.

use crate::Error;
use std::collections::BTreeMap;

use super::{Acc, VersusCell, rate_keys};
use crate::analysis::{MatchupTally, Tallies};
use crate::dyadic::{self, Dyad, ItemLists, ItemRates};
use crate::marginal::{MatchupResult, MatchupSource, Matchups};
use gridsim_data::board_table::{BoardTable, Names};
use gridsim_data::pair_blocks::{Block, PairBlocks};

/// Every row's point counts, table by table, and each board's rows, over
/// the boards that fought.
pub(super) struct Holdings {
    /// Board id to dense index, over the boards that fought: a board no
    /// fight met is no cluster.
    pub(super) dense: DenseBoards,
    /// Cards, cards at a tier, runes, keywords, footprints: the order of
    /// [`RATE_SECTIONS`].
    pub(super) tables: [BTreeMap<String, Acc>; 5],
    /// Keyword pairs on one board, and rune against keyword.
    pub(super) pairs: BTreeMap<(String, String), Acc>,
    /// Each dense board's rows, numbered table by table in key order, the
    /// pair table last.
    pub(super) of_board: ItemLists,
    /// The number of rows.
    pub(super) items: usize,
}

/// A row of [`Holdings`] while the boards are read: a table's item by its
/// name's number, or a pair of names.
#[derive(Clone, Copy)]
pub(super) enum Row {
    Table(usize, u32),
    Pair(u32, u32),
}

impl Holdings {
    pub(super) fn new(tallies: &Tallies, boards: &BoardTable) -> Holdings {
        let by_id: std::collections::HashMap<u32, usize> = boards.iter().enumerate().map(|(i, b)| (b.id, i)).collect();
        let dense = DenseBoards::of_run(tallies, boards);
        // Names are numbered as first met, and rows too, each row's counts
        // kept in a vector by row number: a string is hashed once per
        // board, not cloned into an ordered map once per board and table.
        // A board keeps its rows' numbers, renumbered in key order at the
        // end.
        let mut names = Names::default();
        let mut rows: Vec<(Row, Acc)> = Vec::new();
        let mut table_rows: [Vec<u32>; 5] = Default::default();
        let mut pair_rows: std::collections::HashMap<(u32, u32), u32> = Default::default();
        // The boards come in increasing id, so in dense order.
        let mut of_board = ItemLists::empty();
        let mut held: Vec<u32> = Vec::new();
        let mut ids: [Vec<u32>; 5] = Default::default();
        for t in &tallies.boards {
            let (Some(&b), Some(d)) = (by_id.get(&t.board_id), dense.get(t.board_id)) else {
                continue;
            };
            let b = boards.board(b);
            held.clear();
            let mut hold = |row: Row, number: &mut u32| {
                if *number == u32::MAX {
                    *number = rows.len() as u32;
                    rows.push((row, Acc::default()));
                }
                rows[*number as usize].1.add_board(t.fights, t.wins, t.draws);
                held.push(*number);
            };
            // A board counts once per card, card and tier, rune, keyword or
            // footprint it holds, however many copies it holds.
            let lists = rate_keys(b, boards);
            for (table, (keys, out)) in lists.iter().zip(&mut ids).enumerate() {
                out.clear();
                out.extend(keys.iter().map(|k| names.id(k)));
                let mut unique = out.clone();
                unique.sort_unstable();
                unique.dedup();
                let numbers = &mut table_rows[table];
                for k in unique {
                    if numbers.len() <= k as usize {
                        numbers.resize(k as usize + 1, u32::MAX);
                    }
                    hold(Row::Table(table, k), &mut numbers[k as usize]);
                }
            }
            let keywords = &ids[3];
            for (i, &k) in keywords.iter().enumerate() {
                for &k2 in &keywords[i + 1..] {
                    hold(Row::Pair(k, k2), pair_rows.entry((k, k2)).or_insert(u32::MAX));
                }
            }
            // Rune against keyword on one board: the same lift as keyword pairs.
            let mut placed: Vec<u32> = boards.names(b.runes).map(|r| names.id(r)).collect();
            placed.sort_unstable();
            placed.dedup();
            for r in placed {
                for &k in keywords {
                    hold(Row::Pair(r, k), pair_rows.entry((r, k)).or_insert(u32::MAX));
                }
            }
            of_board.append(d as usize, held.drain(..));
        }
        of_board.pad(dense.len());
        // Rows in key order, table by table, pairs last.
        let mut order: Vec<u32> = (0..rows.len() as u32).collect();
        let key = |&(row, _): &(Row, Acc)| match row {
            Row::Table(table, k) => (table, names.of(k), ""),
            Row::Pair(a, b) => (5, names.of(a), names.of(b)),
        };
        order.sort_by(|&x, &y| key(&rows[x as usize]).cmp(&key(&rows[y as usize])));
        let mut renumber = vec![0u32; rows.len()];
        for (new, &old) in order.iter().enumerate() {
            renumber[old as usize] = new as u32;
        }
        for r in of_board.items_mut() {
            *r = renumber[*r as usize];
        }
        let mut tables: [BTreeMap<String, Acc>; 5] = Default::default();
        let mut pairs = BTreeMap::new();
        for (row, acc) in rows {
            match row {
                Row::Table(table, k) => {
                    tables[table].insert(names.of(k).to_string(), acc);
                }
                Row::Pair(a, b) => {
                    pairs.insert((names.of(a).to_string(), names.of(b).to_string()), acc);
                }
            }
        }
        let items = renumber.len();
        Holdings {
            dense,
            tables,
            pairs,
            of_board,
            items,
        }
    }

    /// A pair's fights as a dyad of dense boards, each side measured by
    /// its wins (or its wins less the baseline's); `None` for a board that
    /// is no cluster.
    pub(super) fn dyad(&self, m: &MatchupTally, a_value: i64, b_value: i64) -> Option<Dyad> {
        Some(Dyad {
            a: self.dense.get(m.left)?,
            b: self.dense.get(m.right)?,
            fights: m.fights as i64,
            a_value,
            b_value,
        })
    }

    /// Every row's estimate from the run's fights ([`Holdings::estimates`]).
    #[allow(clippy::type_complexity)]
    pub(super) fn run_estimates(&self, tallies: &Tallies) -> Result<([Vec<ItemRates>; 5], Vec<ItemRates>), Error> {
        self.estimates(|add| {
            tallies.pairs.each(|block| {
                let dyads: Vec<Dyad> = block
                    .pairs
                    .iter()
                    .filter_map(|m| self.dyad(m, m.left_wins as i64, m.right_wins as i64))
                    .collect();
                add(&block.ids, &dyads);
                Ok(())
            })?;
            Ok(())
        })
    }

    /// Every row's estimate, split as the tables are: the five rate tables,
    /// then the pair table. `each_block` hands over the run's fights a
    /// block at a time: its board ids and its dyads.
    #[allow(clippy::type_complexity)]
    pub(super) fn estimates(
        &self,
        each_block: impl FnOnce(&mut dyn FnMut(&std::ops::Range<u32>, &[Dyad])) -> Result<(), Error>,
    ) -> Result<([Vec<ItemRates>; 5], Vec<ItemRates>), Error> {
        let mut sums = dyadic::RateSums::new(self.items);
        each_block(&mut |ids, dyads| sums.add_block(&self.of_board, self.dense.range(ids), dyads))?;
        let mut all = sums.finish().into_iter();
        let tables = self.tables.each_ref().map(|t| all.by_ref().take(t.len()).collect());
        Ok((tables, all.collect()))
    }
}

/// Keyword against keyword, from both sides of every matchup.
pub(super) fn keyword_versus(
    boards: &BoardTable,
    dense: &DenseBoards,
    pairs: &PairBlocks,
) -> Result<Vec<VersusCell>, Error> {
    // Counted in a grid indexed by keyword (numbered in name order). A board's side is
    // summed first over its opponents' keywords, one row, and the row then
    // added under each of its own keywords: a matchup adds to about ten
    // cells, not a hundred.
    let names: Vec<&str> = {
        let mut all: Vec<&str> = boards.iter().flat_map(|b| boards.names(b.keywords)).collect();
        all.sort();
        all.dedup();
        all
    };
    let index: BTreeMap<&str, usize> = names.iter().enumerate().map(|(i, k)| (*k, i)).collect();
    // By dense board, looked up twice per matchup.
    let mut board_keywords: Vec<Vec<usize>> = vec![Vec::new(); dense.len()];
    for b in boards.iter() {
        if let Some(d) = dense.get(b.id) {
            board_keywords[d as usize] = boards.names(b.keywords).map(|k| index[k]).collect();
        }
    }
    let k = names.len();
    let versus = keyword_grid(k, pairs, |id| {
        dense.get(id).map(|d| board_keywords[d as usize].as_slice())
    })?;
    Ok(versus
        .into_iter()
        .enumerate()
        .filter_map(|(cell, acc)| acc.map(|acc| (cell, acc)))
        .map(|(cell, acc)| VersusCell {
            a: names[cell / k].to_string(),
            b: names[cell % k].to_string(),
            fights: acc.n,
            wins: acc.wins,
            draws: acc.draws,
            win_rate: if acc.n == 0 {
                0.0
            } else {
                acc.wins as f64 / acc.n as f64
            },
        })
        .collect())
}

/// Keyword against keyword: cell `a * k + b` holds the fights of boards
/// with keyword `a` against boards with keyword `b`, from the first side
/// (its wins), over both sides of every matchup; `None` where none met.
pub(super) fn keyword_grid<'a>(
    k: usize,
    pairs: &PairBlocks,
    keywords_of: impl Fn(u32) -> Option<&'a [usize]>,
) -> Result<Vec<Option<Acc>>, Error> {
    let mut grid = vec![Acc::default(); k * k];
    let mut met = vec![false; k * k];
    let mut row = vec![(0u64, 0u64, 0u64); k];
    pairs.each(|block| {
        // Each pair from the side of each of its boards in the block, as
        // (own board, opponent, wins), grouped by own board.
        let mut sides: Vec<(u32, u32, u64, u64, u64)> = Vec::with_capacity(2 * block.pairs.len());
        for m in block.pairs.iter() {
            if block.ids.contains(&m.left) {
                sides.push((m.left, m.right, m.fights, m.left_wins, m.draws));
            }
            if block.ids.contains(&m.right) {
                sides.push((m.right, m.left, m.fights, m.right_wins, m.draws));
            }
        }
        sides.sort_unstable_by_key(|s| s.0);
        add_sides(&sides, &mut grid, &mut met, &mut row, &keywords_of);
        Ok(())
    })?;
    Ok(grid.into_iter().zip(met).map(|(acc, met)| met.then_some(acc)).collect())
}

/// [`keyword_grid`] over sides grouped by own board.
pub(super) fn add_sides<'a>(
    sides: &[(u32, u32, u64, u64, u64)],
    grid: &mut [Acc],
    met: &mut [bool],
    row: &mut [(u64, u64, u64)],
    keywords_of: &impl Fn(u32) -> Option<&'a [usize]>,
) {
    let k = row.len();
    for own in sides.chunk_by(|x, y| x.0 == y.0) {
        let Some(mine) = keywords_of(own[0].0) else {
            continue;
        };
        row.fill((0, 0, 0));
        let mut any = false;
        for &(_, opponent, fights, wins, draws) in own {
            let Some(theirs) = keywords_of(opponent) else {
                continue;
            };
            any = true;
            for &b in theirs {
                row[b].0 += fights;
                row[b].1 += wins;
                row[b].2 += draws;
            }
        }
        if !any {
            continue;
        }
        for &a in mine {
            for (b, &(n, wins, draws)) in row.iter().enumerate() {
                if n > 0 {
                    grid[a * k + b].add(n, wins, draws);
                    met[a * k + b] = true;
                }
            }
        }
    }
}

/// Board ids numbered densely in increasing order, so that a range of ids
/// (a block of [`gridsim_data::pair_blocks`]) is a range of dense indices. Looked
/// up twice per matchup, so held as a vector by id where ids are compact (a
/// run's own boards table numbers its boards from 0), in a hash map
/// otherwise.
pub(super) struct DenseBoards {
    /// The ids in increasing order: dense index `i` is `ids[i]`.
    pub(super) ids: Vec<u32>,
    pub(super) by_id: Vec<u32>,
    pub(super) sparse: std::collections::HashMap<u32, u32>,
}

impl DenseBoards {
    const ABSENT: u32 = u32::MAX;

    pub(super) fn new(ids: impl Iterator<Item = u32>) -> DenseBoards {
        let mut ids: Vec<u32> = ids.collect();
        ids.sort_unstable();
        ids.dedup();
        let highest = ids.last().copied().unwrap_or(0);
        let compact = (highest as usize) < 4 * ids.len() + 1024;
        let mut out = DenseBoards {
            by_id: if compact {
                vec![Self::ABSENT; highest as usize + 1]
            } else {
                Vec::new()
            },
            sparse: Default::default(),
            ids: Vec::new(),
        };
        for (i, &id) in ids.iter().enumerate() {
            if compact {
                out.by_id[id as usize] = i as u32;
            } else {
                out.sparse.insert(id, i as u32);
            }
        }
        out.ids = ids;
        out
    }

    /// The boards of the table that fought in the run.
    pub(super) fn of_run(tallies: &Tallies, boards: &BoardTable) -> DenseBoards {
        let listed: std::collections::HashSet<u32> = boards.iter().map(|b| b.id).collect();
        DenseBoards::new(
            tallies
                .boards
                .iter()
                .filter(|t| t.fights > 0 && listed.contains(&t.board_id))
                .map(|t| t.board_id),
        )
    }

    pub(super) fn get(&self, id: u32) -> Option<u32> {
        if self.by_id.is_empty() {
            return self.sparse.get(&id).copied();
        }
        self.by_id.get(id as usize).copied().filter(|&d| d != Self::ABSENT)
    }

    pub(super) fn len(&self) -> usize {
        self.ids.len()
    }

    /// The dense indices of the ids in `ids`.
    pub(super) fn range(&self, ids: &std::ops::Range<u32>) -> std::ops::Range<usize> {
        self.ids.partition_point(|&id| id < ids.start)..self.ids.partition_point(|&id| id < ids.end)
    }
}

/// The fit's matchups, read block by block from a run's [`PairBlocks`] in
/// dense board indices; a run of few enough pairs ([`FIT_IN_MEMORY_RECORDS`])
/// is converted once and held.
pub(super) struct FitSource<'a> {
    pub(super) pairs: &'a PairBlocks,
    pub(super) dense: &'a DenseBoards,
    pub(super) single: Option<Matchups>,
}

/// Block records (a pair with boards in two blocks counts twice) up to
/// which the fit holds every pair in memory, converted once: about 36 MiB
/// of pairs and incidence at the limit, a fixed bound whatever the run.
/// The fit passes over the pairs a dozen times; read from the blocks each
/// time, the reading and sorting alone would take a third of a pass on a
/// run of 1,000,000 fights. Past the limit each pass reads the blocks
/// again, so memory stays flat in the number of fights.
pub(super) const FIT_IN_MEMORY_RECORDS: u64 = 1 << 21;

impl<'a> FitSource<'a> {
    /// The run's pairs, held when their block records are at most
    /// `hold_up_to`.
    pub(super) fn new(pairs: &'a PairBlocks, dense: &'a DenseBoards, hold_up_to: u64) -> Result<FitSource<'a>, Error> {
        let mut source = FitSource {
            pairs,
            dense,
            single: None,
        };
        if pairs.count() == 1 {
            source.single = Some(source.convert(pairs.block(0)?));
        } else if pairs.records()? <= hold_up_to {
            // Block by block straight into the fit's pairs, with no copy
            // of them all between.
            let mut failed = None;
            let results = (0..pairs.count())
                .map_while(|i| pairs.block(i).map_err(|e| failed = Some(e)).ok())
                .flat_map(|block| {
                    let owned: Vec<MatchupTally> = block.pairs.iter().filter(|m| block.owns(m)).copied().collect();
                    owned.into_iter()
                })
                .filter_map(|m| source.result(&m));
            let single = Matchups::block(dense.len(), 0..dense.len(), results);
            if let Some(e) = failed {
                return Err(e.into());
            }
            source.single = Some(single);
        }
        Ok(source)
    }

    /// A pair's fights as the fit reads them; `None` for a board that is no
    /// cluster.
    fn result(&self, m: &MatchupTally) -> Option<MatchupResult> {
        Some(MatchupResult {
            left: self.dense.get(m.left)?,
            right: self.dense.get(m.right)?,
            fights: m.fights as f64,
            left_score: m.left_wins as f64 + 0.5 * m.draws as f64,
        })
    }

    pub(super) fn convert(&self, block: Block) -> Matchups {
        let results = block.pairs.iter().filter_map(|m| self.result(m));
        Matchups::block(self.dense.len(), self.dense.range(&block.ids), results)
    }
}

impl MatchupSource for FitSource<'_> {
    fn boards(&self) -> usize {
        self.dense.len()
    }

    fn each(&self, visit: &mut dyn FnMut(&Matchups)) -> Result<(), Error> {
        if let Some(single) = &self.single {
            visit(single);
            return Ok(());
        }
        self.pairs.each(|block| {
            visit(&self.convert(block));
            Ok(())
        })?;
        Ok(())
    }
}
