//! The column a misspelt `--columns` path most likely meant: the closest by edit distance
//! among the columns of the first rows.

use super::*;

/// Rows sampled for a suggestion.
pub(super) const SUGGESTION_ROWS: usize = 10_000;

/// The existing column (of the first rows, all keys flattened as in CSV) closest to `text`, if
/// one is close (fewer edits than half its length).
pub(super) fn closest_column(
    text: &str,
    bytes: &[u8],
    prefix: LengthPrefix,
    options: Options,
    conditions: &[Condition],
    layout: &Layout,
) -> Option<String> {
    let all = Layout { rows: layout.rows, columns: None, frame_columns: false };
    let sample = rows(bytes, prefix, options, conditions, layout.rows).take(SUGGESTION_ROWS);
    let schema = ExportSchema::infer(all, sample);
    csv::column_names(&schema.arrow_schema())
        .into_iter()
        .map(|name| (edits(text, &name), name))
        .filter(|(edits, name)| edits.saturating_mul(2) < name.chars().count().max(2))
        .min_by_key(|(edits, _)| *edits)
        .map(|(_, name)| name)
}

/// Levenshtein distance (both texts are short: a path and a column name).
pub(super) fn edits(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row.first().copied().unwrap_or(0);
        if let Some(first) = row.first_mut() {
            *first = i.saturating_add(1);
        }
        for (j, cb) in b.iter().enumerate() {
            let above = row.get(j.saturating_add(1)).copied().unwrap_or(0);
            let left = row.get(j).copied().unwrap_or(0);
            let cost = usize::from(ca != *cb);
            let best = diagonal
                .saturating_add(cost)
                .min(above.saturating_add(1))
                .min(left.saturating_add(1));
            diagonal = above;
            if let Some(slot) = row.get_mut(j.saturating_add(1)) {
                *slot = best;
            }
        }
    }
    row.last().copied().unwrap_or(0)
}
