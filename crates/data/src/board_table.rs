//! A run's boards table as the report holds it: every name once, each
//! board's lists as numbers into the names, in flat arrays.
//!
//! The nightly suite's pool is 100,000 boards of about thirty names each
//! (cards, footprints, keywords, runes); as strings, one per name and board,
//! they took more memory than everything else the report keeps per board.
//! Here a board is a few dozen 4-byte numbers.

use std::collections::HashMap;

use crate::sink::BoardRow;

/// Names numbered as first met.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Names {
    number: HashMap<String, u32>,
    names: Vec<String>,
}

impl Names {
    /// The name's number, given it now if it has none.
    pub fn id(&mut self, name: &str) -> u32 {
        if let Some(&i) = self.number.get(name) {
            return i;
        }
        let i = self.names.len() as u32;
        self.names.push(name.to_string());
        self.number.insert(name.to_string(), i);
        i
    }

    /// The name numbered `id`.
    pub fn of(&self, id: u32) -> &str {
        &self.names[id as usize]
    }
}

/// The boards, in the order read.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct BoardTable {
    names: Names,
    ids: Vec<u32>,
    cards: Lists<u32>,
    tiers: Lists<i32>,
    runes: Lists<u32>,
    rune_tiers: Lists<i32>,
    keywords: Lists<u32>,
    footprints: Lists<u32>,
    /// The resonance's name, [`BoardTable::NONE`] for none.
    resonance: Vec<u32>,
}

/// One list per board, end to end: board `b`'s is `values[start[b]..start[b + 1]]`.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Lists<T> {
    start: Vec<usize>,
    values: Vec<T>,
}

impl<T> Default for Lists<T> {
    fn default() -> Self {
        Lists {
            start: vec![0],
            values: Vec::new(),
        }
    }
}

impl<T: Copy> Lists<T> {
    fn push(&mut self, list: impl IntoIterator<Item = T>) {
        self.values.extend(list);
        self.start.push(self.values.len());
    }

    fn of(&self, b: usize) -> &[T] {
        &self.values[self.start[b]..self.start[b + 1]]
    }
}

/// One board of a [`BoardTable`]: its lists as name numbers
/// ([`BoardTable::name`]), as [`BoardRow`] has them as strings.
#[derive(Debug, Clone, Copy)]
pub struct Board<'a> {
    pub id: u32,
    pub cards: &'a [u32],
    pub tiers: &'a [i32],
    pub runes: &'a [u32],
    pub rune_tiers: &'a [i32],
    pub resonance: Option<u32>,
    pub keywords: &'a [u32],
    pub footprints: &'a [u32],
}

impl BoardTable {
    const NONE: u32 = u32::MAX;

    pub fn from_rows(rows: &[BoardRow]) -> BoardTable {
        let mut table = BoardTable::default();
        for row in rows {
            table.push(row);
        }
        table
    }

    fn intern(&mut self, name: &str) -> u32 {
        self.names.id(name)
    }

    /// Adds a board after the others.
    pub fn push(&mut self, row: &BoardRow) {
        self.ids.push(row.board_id);
        let cards: Vec<u32> = row.cards.iter().map(|c| self.intern(c)).collect();
        self.cards.push(cards);
        self.tiers.push(row.tiers.iter().copied());
        let runes: Vec<u32> = row.runes.iter().map(|r| self.intern(r)).collect();
        self.runes.push(runes);
        self.rune_tiers.push(row.rune_tiers.iter().copied());
        let keywords: Vec<u32> = row.keywords.iter().map(|k| self.intern(k)).collect();
        self.keywords.push(keywords);
        let footprints: Vec<u32> = row.footprints.iter().map(|f| self.intern(f)).collect();
        self.footprints.push(footprints);
        let resonance = if row.resonance.is_empty() {
            Self::NONE
        } else {
            self.intern(&row.resonance)
        };
        self.resonance.push(resonance);
    }

    pub fn len(&self) -> usize {
        self.ids.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ids.is_empty()
    }

    /// The `b`-th board read.
    pub fn board(&self, b: usize) -> Board<'_> {
        Board {
            id: self.ids[b],
            cards: self.cards.of(b),
            tiers: self.tiers.of(b),
            runes: self.runes.of(b),
            rune_tiers: self.rune_tiers.of(b),
            resonance: Some(self.resonance[b]).filter(|&r| r != Self::NONE),
            keywords: self.keywords.of(b),
            footprints: self.footprints.of(b),
        }
    }

    pub fn iter(&self) -> impl Iterator<Item = Board<'_>> + Clone {
        (0..self.len()).map(|b| self.board(b))
    }

    /// The name numbered `n` by a [`Board`]'s lists.
    pub fn name(&self, n: u32) -> &str {
        self.names.of(n)
    }

    /// Names of a board's list, as strings.
    pub fn names<'a>(&'a self, list: &'a [u32]) -> impl Iterator<Item = &'a str> + 'a {
        list.iter().map(|&n| self.name(n))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The table gives back every list of every row as read, names shared:
    /// the misreading caught is a list of one board run into the next.
    #[test]
    fn boards_read_back_as_their_rows() {
        let row = |id: u32, cards: &[&str], resonance: &str| BoardRow {
            board_id: id,
            name: format!("b{id}"),
            cards: cards.iter().map(|c| c.to_string()).collect(),
            tiers: (1..=cards.len() as i32).collect(),
            runes: vec!["ember".into()],
            rune_tiers: vec![2],
            resonance: resonance.into(),
            keywords: cards.iter().map(|c| format!("{c}-kw")).collect(),
            footprints: cards.iter().map(|_| "1x1".to_string()).collect(),
        };
        let rows = [
            row(4, &["fox", "crab"], ""),
            row(9, &[], "overpower"),
            row(2, &["fox"], ""),
        ];
        let table = BoardTable::from_rows(&rows);
        assert_eq!(table.len(), 3);
        for (b, r) in table.iter().zip(&rows) {
            assert_eq!(b.id, r.board_id);
            assert_eq!(table.names(b.cards).collect::<Vec<_>>(), r.cards);
            assert_eq!(b.tiers, r.tiers.as_slice());
            assert_eq!(table.names(b.runes).collect::<Vec<_>>(), r.runes);
            assert_eq!(b.rune_tiers, r.rune_tiers.as_slice());
            assert_eq!(b.resonance.map(|n| table.name(n)).unwrap_or(""), r.resonance);
            assert_eq!(table.names(b.keywords).collect::<Vec<_>>(), r.keywords);
            assert_eq!(table.names(b.footprints).collect::<Vec<_>>(), r.footprints);
        }
        assert_eq!(table.board(0).cards[0], table.board(2).cards[0], "fox is one name");
    }
}
