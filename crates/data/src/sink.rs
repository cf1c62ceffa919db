//! The only module that knows Arrow and Parquet: turns finished parts and
//! board lists into Parquet files, each written under a temporary name and
//! renamed only once complete, and reads a single fight back for replays.

use gridsim_core::atomic::FileError;

use crate::Error;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use arrow::array::{
    Array, ArrayRef, BooleanArray, Int32Array, Int64Array, ListBuilder, StringArray, StringBuilder, UInt32Array,
    UInt64Array,
};
use arrow::datatypes::{DataType, Field, Schema};
use arrow::record_batch::RecordBatch;
use parquet::arrow::ArrowWriter;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use parquet::basic::{Compression, Encoding};
use parquet::file::properties::WriterProperties;
use parquet::schema::types::ColumnPath;

use gridsim_core::atomic::AtomicFile;

/// Declares a table's columns once: its column buffers, a `clear` that
/// keeps their capacity (a worker refills the same buffers part after
/// part), and its Arrow schema and arrays, in the declared order, each
/// column's Arrow type following from its Rust type ([`ArrowColumn`]).
macro_rules! columns {
    ($(#[$meta:meta])* $Name:ident { $( $field:ident: $ty:ty ),* $(,)? }) => {
        $(#[$meta])*
        #[derive(Debug, Default, Clone, PartialEq)]
        pub struct $Name { $( pub $field: Vec<$ty>, )* }

        impl $Name {
            pub fn clear(&mut self) {
                $( self.$field.clear(); )*
            }

            /// Each column's field and Arrow array, in the declared order.
            fn arrays(&self) -> Vec<(Field, ArrayRef)> {
                vec![ $( {
                    let a = <$ty as ArrowColumn>::array(&self.$field);
                    (Field::new(stringify!($field), a.data_type().clone(), <$ty as ArrowColumn>::NULLABLE), a)
                }, )* ]
            }
        }
    };
}

/// A Rust type a table column holds, and how Arrow stores it.
trait ArrowColumn: Sized {
    /// Whether the column may hold nulls (an `Option`).
    const NULLABLE: bool = false;
    fn array(values: &[Self]) -> ArrayRef;
}

impl ArrowColumn for u64 {
    fn array(values: &[u64]) -> ArrayRef {
        Arc::new(UInt64Array::from(values.to_vec()))
    }
}

impl ArrowColumn for u32 {
    fn array(values: &[u32]) -> ArrayRef {
        Arc::new(UInt32Array::from(values.to_vec()))
    }
}

impl ArrowColumn for i32 {
    fn array(values: &[i32]) -> ArrayRef {
        Arc::new(Int32Array::from(values.to_vec()))
    }
}

impl ArrowColumn for i64 {
    fn array(values: &[i64]) -> ArrayRef {
        Arc::new(Int64Array::from(values.to_vec()))
    }
}

impl ArrowColumn for bool {
    fn array(values: &[bool]) -> ArrayRef {
        Arc::new(BooleanArray::from(values.to_vec()))
    }
}

impl ArrowColumn for &'static str {
    fn array(values: &[&'static str]) -> ArrayRef {
        strs(values)
    }
}

impl ArrowColumn for String {
    fn array(values: &[String]) -> ArrayRef {
        Arc::new(StringArray::from_iter_values(values.iter().map(String::as_str)))
    }
}

impl ArrowColumn for Option<u32> {
    const NULLABLE: bool = true;
    fn array(values: &[Option<u32>]) -> ArrayRef {
        Arc::new(UInt32Array::from(values.to_vec()))
    }
}

impl ArrowColumn for Option<&'static str> {
    const NULLABLE: bool = true;
    fn array(values: &[Option<&'static str>]) -> ArrayRef {
        Arc::new(StringArray::from(values.to_vec()))
    }
}

impl ArrowColumn for Vec<String> {
    fn array(values: &[Vec<String>]) -> ArrayRef {
        let mut b = ListBuilder::new(StringBuilder::new());
        for row in values {
            for s in row {
                b.values().append_value(s);
            }
            b.append(true);
        }
        Arc::new(b.finish())
    }
}

impl ArrowColumn for Vec<i32> {
    fn array(values: &[Vec<i32>]) -> ArrayRef {
        let mut b = ListBuilder::new(arrow::array::Int32Builder::new());
        for row in values {
            for v in row {
                b.values().append_value(*v);
            }
            b.append(true);
        }
        Arc::new(b.finish())
    }
}

/// A table of one part as a record batch.
fn batch_of(path: &Path, table: &str, arrays: Vec<(Field, ArrayRef)>) -> Result<RecordBatch, Error> {
    let (fields, cols): (Vec<Field>, Vec<ArrayRef>) = arrays.into_iter().unzip();
    RecordBatch::try_new(Arc::new(Schema::new(fields)), cols)
        .map_err(|e| io_err(path, &format!("build the {table} table"), e))
}

columns! {
    /// Rows of the `fights` table for one part, column by column.
    FightColumns {
        fight_id: u64,
        master_seed: u64,
        left_board: u32,
        right_board: u32,
        winner: &'static str,
        end_reason: &'static str,
        end_ms: i32,
        left_survivors: u32,
        right_survivors: u32,
        left_vitality: i64,
        right_vitality: i64,
    }
}

columns! {
    /// Rows of a Riftbound run's `showdowns` table for one part: the two
    /// lanes (boards), who attacked, who won and how (docs/datasets.md).
    ShowdownColumns {
        fight_id: u64,
        master_seed: u64,
        left_board: u32,
        right_board: u32,
        attacker: &'static str,
        winner: &'static str,
        end_reason: &'static str,
        chain_items: u32,
        spells_played: u32,
        left_survivors: u32,
        right_survivors: u32,
    }
}

columns! {
    /// Rows of a Riftbound run's `games` table for one part: the two decks
    /// (boards, seat 0 left), their bots, who went first, who won and how
    /// (docs/datasets.md).
    GameColumns {
        fight_id: u64,
        master_seed: u64,
        left_board: u32,
        right_board: u32,
        left_bot: &'static str,
        right_bot: &'static str,
        first: &'static str,
        winner: &'static str,
        end_reason: &'static str,
        turns: u32,
        left_score: u32,
        right_score: u32,
        showdowns: u32,
    }
}

columns! {
    /// Rows of a run of games' `card_events` table for one part: each
    /// card kept in an opening hand, drawn or played, by game, seat
    /// (`left` is seat 0), turn (0 for the opening hand) and the cost a
    /// play paid (docs/datasets.md); `card` is the catalog index.
    CardEventColumns {
        fight_id: u64,
        side: &'static str,
        turn: u32,
        card: u32,
        event: &'static str,
        energy: u32,
        power: u32,
    }
}

columns! {
    /// Rows of the `units` table for one part; `card` is the catalog index.
    UnitColumns {
        fight_id: u64,
        side: &'static str,
        slot: u32,
        card: u32,
        tier: u32,
        column: u32,
        row: u32,
        damage_dealt: i64,
        damage_taken: i64,
        healing: i64,
        kills: u32,
        deaths: u32,
        revivals: u32,
        activations: u32,
        survived: bool,
    }
}

/// One board of the `boards` table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BoardRow {
    pub board_id: u32,
    pub name: String,
    pub cards: Vec<String>,
    pub tiers: Vec<i32>,
    /// Rune ids in placement order, and each one's tier.
    pub runes: Vec<String>,
    pub rune_tiers: Vec<i32>,
    /// The equipped resonance's id, empty for none.
    pub resonance: String,
    pub keywords: Vec<String>,
    /// Each unit's footprint (`2x2`), in the order of `cards`.
    pub footprints: Vec<String>,
}

/// A written file: where, how many rows, its SHA-256.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WrittenFile {
    pub path: PathBuf,
    pub rows: u64,
    pub sha256: String,
}

fn props() -> WriterProperties {
    // Large row groups: a part is one or a few row groups, which readers scan fast.
    // `fight_id` counts up (one value per fight, or a run of one per unit):
    // delta encoding stores it in a few bits a row, where a dictionary would
    // hash every value and hold one entry per fight.
    let fight_id = ColumnPath::from("fight_id");
    WriterProperties::builder()
        .set_compression(Compression::SNAPPY)
        .set_max_row_group_row_count(Some(1 << 20))
        .set_column_dictionary_enabled(fight_id.clone(), false)
        .set_column_encoding(fight_id, Encoding::DELTA_BINARY_PACKED)
        .build()
}

fn io_err(path: &Path, what: &str, e: impl std::fmt::Display) -> Error {
    Error::table(path, what, e)
}

/// Writes `batch` to `path` through an [`AtomicFile`]: hashed as it is
/// written and renamed only once complete, so no half-written file ever
/// looks finished.
fn write_batch(path: &Path, batch: &RecordBatch) -> Result<WrittenFile, Error> {
    let file = AtomicFile::create(path)?;
    let tmp = gridsim_core::atomic::temporary_name(path);
    let mut w =
        ArrowWriter::try_new(file, batch.schema(), Some(props())).map_err(|e| io_err(&tmp, "start writing", e))?;
    w.write(batch).map_err(|e| io_err(&tmp, "write", e))?;
    let file = w.into_inner().map_err(|e| io_err(&tmp, "finish", e))?;
    let done = file.finish()?;
    Ok(WrittenFile {
        path: path.to_path_buf(),
        rows: batch.num_rows() as u64,
        sha256: done.sha256,
    })
}

fn strs(v: &[&'static str]) -> ArrayRef {
    Arc::new(StringArray::from_iter_values(v.iter().copied()))
}

/// Writes the `fights` table of one part.
pub fn write_fights(path: &Path, f: &FightColumns) -> Result<WrittenFile, Error> {
    write_batch(path, &batch_of(path, "fights", f.arrays())?)
}

/// Writes the `showdowns` table of one part.
pub fn write_showdowns(path: &Path, f: &ShowdownColumns) -> Result<WrittenFile, Error> {
    write_batch(path, &batch_of(path, "showdowns", f.arrays())?)
}

/// Writes the `games` table of one part.
pub fn write_games(path: &Path, f: &GameColumns) -> Result<WrittenFile, Error> {
    write_batch(path, &batch_of(path, "games", f.arrays())?)
}

/// Writes the `units` table of one part; `card_names` turns card indices
/// into card ids.
pub fn write_units(path: &Path, u: &UnitColumns, card_names: &[String]) -> Result<WrittenFile, Error> {
    let mut arrays = u.arrays();
    name_cards(&mut arrays, &u.card, card_names);
    write_batch(path, &batch_of(path, "units", arrays)?)
}

/// Writes the `card_events` table of one part; `card_names` turns card
/// indices into card ids.
pub fn write_card_events(path: &Path, c: &CardEventColumns, card_names: &[String]) -> Result<WrittenFile, Error> {
    let mut arrays = c.arrays();
    name_cards(&mut arrays, &c.card, card_names);
    write_batch(path, &batch_of(path, "card_events", arrays)?)
}

/// The buffers hold a card's catalog index; the table holds its id.
fn name_cards(arrays: &mut [(Field, ArrayRef)], cards: &[u32], card_names: &[String]) {
    for (field, a) in arrays {
        if field.name() == "card" {
            *a = Arc::new(StringArray::from_iter_values(
                cards.iter().map(|&c| card_names[c as usize].as_str()),
            ));
            *field = Field::new("card", DataType::Utf8, false);
        }
    }
}

/// Writes the `boards` table.
pub fn write_boards(path: &Path, boards: &[BoardRow]) -> Result<WrittenFile, Error> {
    let list = |name: &str, inner: DataType| {
        Field::new(name, DataType::List(Arc::new(Field::new("item", inner, true))), false)
    };
    let schema = Arc::new(Schema::new(vec![
        Field::new("board_id", DataType::UInt32, false),
        Field::new("name", DataType::Utf8, false),
        list("cards", DataType::Utf8),
        list("tiers", DataType::Int32),
        list("runes", DataType::Utf8),
        list("keywords", DataType::Utf8),
        list("footprints", DataType::Utf8),
        list("rune_tiers", DataType::Int32),
        Field::new("resonance", DataType::Utf8, false),
    ]));
    let strings = |get: &dyn Fn(&BoardRow) -> &Vec<String>| -> ArrayRef {
        let mut b = ListBuilder::new(StringBuilder::new());
        for row in boards {
            for s in get(row) {
                b.values().append_value(s);
            }
            b.append(true);
        }
        Arc::new(b.finish())
    };
    let ints = |get: &dyn Fn(&BoardRow) -> &Vec<i32>| -> ArrayRef {
        let mut b = ListBuilder::new(arrow::array::Int32Builder::new());
        for row in boards {
            for t in get(row) {
                b.values().append_value(*t);
            }
            b.append(true);
        }
        Arc::new(b.finish())
    };
    let cols: Vec<ArrayRef> = vec![
        Arc::new(UInt32Array::from_iter_values(boards.iter().map(|b| b.board_id))),
        Arc::new(StringArray::from_iter_values(boards.iter().map(|b| b.name.as_str()))),
        strings(&|b| &b.cards),
        ints(&|b| &b.tiers),
        strings(&|b| &b.runes),
        strings(&|b| &b.keywords),
        strings(&|b| &b.footprints),
        ints(&|b| &b.rune_tiers),
        Arc::new(StringArray::from_iter_values(
            boards.iter().map(|b| b.resonance.as_str()),
        )),
    ];
    let batch = RecordBatch::try_new(schema, cols).map_err(|e| io_err(path, "build the boards table", e))?;
    write_batch(path, &batch)
}

/// One fight's row as recorded, for replays.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordedFight {
    pub fight_id: u64,
    pub winner: String,
    pub end_reason: String,
    pub end_ms: i32,
    pub left_survivors: u32,
    pub right_survivors: u32,
    pub left_vitality: i64,
    pub right_vitality: i64,
}

/// Finds fight `fight_id` in a `fights` part file.
pub fn read_fight(path: &Path, fight_id: u64) -> Result<Option<RecordedFight>, Error> {
    let file = File::open(path).map_err(|e| FileError::new(path, "open", e))?;
    let reader = ParquetRecordBatchReaderBuilder::try_new(file)
        .and_then(|b| b.build())
        .map_err(|e| io_err(path, "read as Parquet", e))?;
    for batch in reader {
        let batch = batch.map_err(|e| io_err(path, "read a row group", e))?;
        let col = |name: &str| -> Result<&ArrayRef, Error> {
            batch
                .column_by_name(name)
                .ok_or_else(|| Error::malformed(path, format!("no column `{name}`")))
        };
        let ids = col("fight_id")?
            .as_any()
            .downcast_ref::<UInt64Array>()
            .ok_or_else(|| Error::malformed(path, "`fight_id` is not UInt64"))?;
        let Some(row) = (0..ids.len()).find(|&i| ids.value(i) == fight_id) else {
            continue;
        };
        let s = |name: &str| -> Result<String, Error> {
            col(name)?
                .as_any()
                .downcast_ref::<StringArray>()
                .map(|a| a.value(row).to_string())
                .ok_or_else(|| Error::malformed(path, format!("`{name}` is not text")))
        };
        let i32_ = |name: &str| col(name).map(|c| c.as_any().downcast_ref::<Int32Array>().map(|a| a.value(row)));
        let u32_ = |name: &str| col(name).map(|c| c.as_any().downcast_ref::<UInt32Array>().map(|a| a.value(row)));
        let i64_ = |name: &str| col(name).map(|c| c.as_any().downcast_ref::<Int64Array>().map(|a| a.value(row)));
        let bad = || Error::malformed(path, "unexpected column types");
        return Ok(Some(RecordedFight {
            fight_id,
            winner: s("winner")?,
            end_reason: s("end_reason")?,
            end_ms: i32_("end_ms")?.ok_or_else(bad)?,
            left_survivors: u32_("left_survivors")?.ok_or_else(bad)?,
            right_survivors: u32_("right_survivors")?.ok_or_else(bad)?,
            left_vitality: i64_("left_vitality")?.ok_or_else(bad)?,
            right_vitality: i64_("right_vitality")?.ok_or_else(bad)?,
        }));
    }
    Ok(None)
}

/// Reads a `boards` table back.
pub fn read_boards(path: &Path) -> Result<Vec<BoardRow>, Error> {
    let mut out = Vec::new();
    for_each_board(path, |row| out.push(row))?;
    Ok(out)
}

/// Reads a `boards` table back a row at a time, keeping none.
pub fn for_each_board(path: &Path, mut visit: impl FnMut(BoardRow)) -> Result<(), Error> {
    use arrow::array::{AsArray, ListArray};
    let file = File::open(path).map_err(|e| FileError::new(path, "open", e))?;
    let reader = ParquetRecordBatchReaderBuilder::try_new(file)
        .and_then(|b| b.build())
        .map_err(|e| io_err(path, "read as Parquet", e))?;
    let bad = |what: &str| Error::malformed(path, format!("column `{what}` is missing or of the wrong type"));
    for batch in reader {
        let batch = batch.map_err(|e| io_err(path, "read a row group", e))?;
        let ids = batch
            .column_by_name("board_id")
            .and_then(|c| c.as_any().downcast_ref::<UInt32Array>().cloned())
            .ok_or_else(|| bad("board_id"))?;
        let names = batch
            .column_by_name("name")
            .and_then(|c| c.as_any().downcast_ref::<StringArray>().cloned())
            .ok_or_else(|| bad("name"))?;
        let list = |name: &str| -> Result<ListArray, Error> {
            batch
                .column_by_name(name)
                .and_then(|c| c.as_any().downcast_ref::<ListArray>().cloned())
                .ok_or_else(|| bad(name))
        };
        let (cards, tiers, runes, keywords) = (list("cards")?, list("tiers")?, list("runes")?, list("keywords")?);
        // Runs written before the columns existed have no footprints, rune
        // tiers or resonance.
        let footprints = list("footprints").ok();
        let rune_tiers = list("rune_tiers").ok();
        let resonance = batch
            .column_by_name("resonance")
            .and_then(|c| c.as_any().downcast_ref::<StringArray>().cloned());
        let ints = |l: &ListArray, i: usize| -> Vec<i32> {
            l.value(i)
                .as_any()
                .downcast_ref::<Int32Array>()
                .map(|a| a.values().to_vec())
                .unwrap_or_default()
        };
        let strings = |l: &ListArray, i: usize| -> Vec<String> {
            let v = l.value(i);
            v.as_string_opt::<i32>()
                .map(|s| s.iter().flatten().map(str::to_string).collect())
                .unwrap_or_default()
        };
        for i in 0..batch.num_rows() {
            visit(BoardRow {
                board_id: ids.value(i),
                name: names.value(i).to_string(),
                cards: strings(&cards, i),
                tiers: ints(&tiers, i),
                runes: strings(&runes, i),
                rune_tiers: rune_tiers.as_ref().map(|l| ints(l, i)).unwrap_or_default(),
                resonance: resonance.as_ref().map(|r| r.value(i).to_string()).unwrap_or_default(),
                keywords: strings(&keywords, i),
                footprints: footprints.as_ref().map(|f| strings(f, i)).unwrap_or_default(),
            });
        }
    }
    Ok(())
}

columns! {
    /// Rows of the `matches` table for one part: one per player of each
    /// match (a solo match has one), with the board it ended on.
    MatchColumns {
        match_id: u64,
        master_seed: u64,
        // One of the run's seed matches, played against an empty pool.
        seed_match: bool,
        players: u32,
        seat: u32,
        policy: String,
        won: bool,
        boss_wins: u32,
        nemesis_wins: u32,
        level: i32,
        gold: i32,
        dividend: i32,
        profit: i32,
        cards: Vec<String>,
        tiers: Vec<i32>,
        runes: Vec<String>,
        rune_tiers: Vec<i32>,
        resonance: String,
        keywords: Vec<String>,
        forge_cores: Vec<String>,
    }
}

columns! {
    /// Rows of the `rounds` table: one per player per round played.
    RoundColumns {
        match_id: u64,
        round: u32,
        seat: u32,
        boss: String,
        boss_fight: &'static str,
        team_boss_won: bool,
        rescue_fights: u32,
        destination: &'static str,
        nemesis: String,
        nemesis_fight: &'static str,
        gold_spent: i32,
        bought: u32,
        sold: u32,
        level: i32,
        units: u32,
        runes: u32,
        dividend: i32,
        profit: i32,
        // The boss reward's signature earned this round, empty for none.
        reward: String,
        // The next nemesis fight with the reward and without it (a probe).
        reward_with: Option<&'static str>,
        reward_without: Option<&'static str>,
    }
}

columns! {
    /// Rows of the `match_fights` table: one per fight of a match.
    MatchFightColumns {
        match_id: u64,
        round: u32,
        seat: u32,
        stage: &'static str,
        opponent: String,
        rescued: Option<u32>,
        stream: u64,
        winner: &'static str,
        end_reason: &'static str,
        end_ms: i32,
        survivors: u32,
        opponent_survivors: u32,
        carried_units: u32,
        // The player's board as it entered the fight.
        cards: Vec<String>,
        tiers: Vec<i32>,
        runes: Vec<String>,
        resonance: String,
        keywords: Vec<String>,
    }
}

columns! {
    /// Rows of the `shop_picks` table: one per item offered in a shop
    /// (bought or not), and one per item bought back (200.1f).
    ShopPickColumns {
        match_id: u64,
        round: u32,
        seat: u32,
        destination: &'static str,
        item: String,
        kind: &'static str,
        offered: bool,
        // Offered when the player could pay for it and place it.
        buyable: bool,
        bought: bool,
        buyback: bool,
        tier: Option<u32>,
        gold: i32,
        dividend: i32,
        profit: i32,
        combined_to: Option<u32>,
        // The offer a probe measured, and its next fight with and without it.
        probed: bool,
        probe_with: Option<&'static str>,
        probe_without: Option<&'static str>,
    }
}

/// The four tables of one part of a match run, refilled part after part.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct MatchTables {
    pub matches: MatchColumns,
    pub rounds: RoundColumns,
    pub fights: MatchFightColumns,
    pub picks: ShopPickColumns,
}

impl MatchTables {
    pub fn clear(&mut self) {
        self.matches.clear();
        self.rounds.clear();
        self.fights.clear();
        self.picks.clear();
    }
}

/// Writes the four tables of one part of a match run, each to the path
/// `path_of(table)` gives, in the order of `RunKind::Matches.tables()`.
pub fn write_match_tables(t: &MatchTables, path_of: impl Fn(&str) -> PathBuf) -> Result<Vec<WrittenFile>, Error> {
    [
        (t.matches.arrays(), "matches"),
        (t.rounds.arrays(), "rounds"),
        (t.fights.arrays(), "match_fights"),
        (t.picks.arrays(), "shop_picks"),
    ]
    .into_iter()
    .map(|(arrays, name)| {
        let path = path_of(name);
        write_batch(&path, &batch_of(&path, name, arrays)?)
    })
    .collect()
}

/// Reads the rows of match `match_id` back from a `matches` part file, for
/// replays (one row per player; none when the file does not hold it).
pub fn read_match(path: &Path, match_id: u64) -> Result<MatchColumns, Error> {
    use arrow::array::{AsArray, ListArray};
    use arrow::datatypes::{Int32Type, UInt32Type, UInt64Type};
    let file = File::open(path).map_err(|e| FileError::new(path, "open", e))?;
    let reader = ParquetRecordBatchReaderBuilder::try_new(file)
        .and_then(|b| b.build())
        .map_err(|e| io_err(path, "read as Parquet", e))?;
    let bad = |what: &str| Error::malformed(path, format!("column `{what}` is missing or of the wrong type"));
    let mut m = MatchColumns::default();
    for batch in reader {
        let batch = batch.map_err(|e| io_err(path, "read a row group", e))?;
        let col = |name: &str| batch.column_by_name(name).ok_or_else(|| bad(name));
        let u64s = |name: &str| col(name)?.as_primitive_opt::<UInt64Type>().ok_or_else(|| bad(name));
        let u32s = |name: &str| col(name)?.as_primitive_opt::<UInt32Type>().ok_or_else(|| bad(name));
        let i32s = |name: &str| col(name)?.as_primitive_opt::<Int32Type>().ok_or_else(|| bad(name));
        let texts = |name: &str| col(name)?.as_string_opt::<i32>().ok_or_else(|| bad(name));
        let bools = |name: &str| col(name)?.as_boolean_opt().ok_or_else(|| bad(name));
        let lists = |name: &str| col(name)?.as_any().downcast_ref::<ListArray>().ok_or_else(|| bad(name));
        let text_list = |name: &str, i: usize| -> Result<Vec<String>, Error> {
            let v = lists(name)?.value(i);
            let s = v.as_string_opt::<i32>().ok_or_else(|| bad(name))?;
            Ok(s.iter().flatten().map(str::to_string).collect())
        };
        let int_list = |name: &str, i: usize| -> Result<Vec<i32>, Error> {
            let v = lists(name)?.value(i);
            Ok(v.as_primitive_opt::<Int32Type>()
                .ok_or_else(|| bad(name))?
                .values()
                .to_vec())
        };
        let ids = u64s("match_id")?;
        for i in (0..batch.num_rows()).filter(|&i| ids.value(i) == match_id) {
            m.match_id.push(match_id);
            m.master_seed.push(u64s("master_seed")?.value(i));
            m.seed_match.push(bools("seed_match")?.value(i));
            m.players.push(u32s("players")?.value(i));
            m.seat.push(u32s("seat")?.value(i));
            m.policy.push(texts("policy")?.value(i).to_string());
            m.won.push(bools("won")?.value(i));
            m.boss_wins.push(u32s("boss_wins")?.value(i));
            m.nemesis_wins.push(u32s("nemesis_wins")?.value(i));
            m.level.push(i32s("level")?.value(i));
            m.gold.push(i32s("gold")?.value(i));
            m.dividend.push(i32s("dividend")?.value(i));
            m.profit.push(i32s("profit")?.value(i));
            m.cards.push(text_list("cards", i)?);
            m.tiers.push(int_list("tiers", i)?);
            m.runes.push(text_list("runes", i)?);
            m.rune_tiers.push(int_list("rune_tiers", i)?);
            m.resonance.push(texts("resonance")?.value(i).to_string());
            m.keywords.push(text_list("keywords", i)?);
            m.forge_cores.push(text_list("forge_cores", i)?);
        }
    }
    Ok(m)
}
