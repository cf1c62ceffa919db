//! Board geometry within one side's grid (100.4 and 100.5, reconstructed).
//!
//! A footprint is a square of `size` cells whose top-left cell is
//! (`column`, `row`). Distances are between the nearest cells of two
//! footprints, counted in cells.

/// A unit's footprint on its side's grid.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Rect {
    pub column: u8,
    pub row: u8,
    pub size: u8,
}

impl Rect {
    fn right(self) -> i32 {
        i32::from(self.column) + i32::from(self.size) - 1
    }
    fn bottom(self) -> i32 {
        i32::from(self.row) + i32::from(self.size) - 1
    }
}

/// Cells between the nearest columns and rows of two footprints: 0 when
/// they overlap on that axis, 1 when they touch.
pub fn axis_gaps(a: Rect, b: Rect) -> (i32, i32) {
    let gap = |a0: i32, a1: i32, b0: i32, b1: i32| (b0 - a1).max(a0 - b1).max(0);
    (
        gap(i32::from(a.column), a.right(), i32::from(b.column), b.right()),
        gap(i32::from(a.row), a.bottom(), i32::from(b.row), b.bottom()),
    )
}

/// Footprint Manhattan distance: the fewest orthogonal cell steps from a
/// cell of `a` to a cell of `b` (800.8e). Edge contact is 1, corner contact 2.
pub fn manhattan(a: Rect, b: Rect) -> i32 {
    let (dx, dy) = axis_gaps(a, b);
    dx + dy
}

/// Adjacent when the footprints share an edge; corners do not count (900.41a).
pub fn adjacent(a: Rect, b: Rect) -> bool {
    matches!(axis_gaps(a, b), (1, 0) | (0, 1))
}

/// Flank: adjacent on the left or right, never above or below (800.24a, 800.24b).
pub fn flanks(a: Rect, b: Rect) -> bool {
    axis_gaps(a, b) == (1, 0)
}

/// Board reading order: rows top to bottom, then columns left to right,
/// keyed on the footprint's top-left cell (800.4b, 800.44a).
pub fn reading_key(r: Rect) -> (u8, u8) {
    (r.row, r.column)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(column: u8, row: u8, size: u8) -> Rect {
        Rect { column, row, size }
    }

    #[test]
    fn adjacency_needs_a_shared_edge() {
        // 900.41a: edge contact counts, corner contact does not.
        assert!(adjacent(r(0, 0, 2), r(2, 0, 2)));
        assert!(adjacent(r(0, 0, 2), r(0, 2, 2)));
        assert!(!adjacent(r(0, 0, 2), r(2, 2, 2)));
        assert!(!adjacent(r(0, 0, 2), r(3, 0, 2)));
    }

    #[test]
    fn a_giant_borders_several_units_along_one_side() {
        // 900.41b: a 4x4 Huge side borders two 2x2 units.
        let huge = r(0, 0, 4);
        assert!(adjacent(huge, r(4, 0, 2)));
        assert!(adjacent(huge, r(4, 2, 2)));
        assert!(flanks(huge, r(4, 2, 2)));
        assert!(!flanks(huge, r(0, 4, 2)), "800.24b: below is adjacent but not Flank");
        assert!(adjacent(huge, r(0, 4, 2)));
    }

    #[test]
    fn manhattan_ranks_edge_before_corner_before_far() {
        let a = r(2, 2, 2);
        assert_eq!(manhattan(a, r(4, 2, 2)), 1);
        assert_eq!(manhattan(a, r(4, 4, 2)), 2);
        assert_eq!(manhattan(a, r(7, 2, 1)), 4);
    }
}
