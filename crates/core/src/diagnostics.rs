//! Load errors that name the file, line, column and key path, say what was
//! expected, and suggest the nearest valid name.

use std::fmt;
use std::ops::Range;
use std::path::{Path, PathBuf};

/// One problem in one input file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    pub file: PathBuf,
    /// 1-based; 0 when the problem has no position (a missing file).
    pub line: usize,
    /// 1-based, in characters.
    pub column: usize,
    /// Dotted key path such as `card[2].ability[0].effect`; empty for the
    /// whole file.
    pub key: String,
    pub message: String,
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{}", self.file.display())?;
        if self.line > 0 {
            write!(f, ":{}:{}", self.line, self.column)?;
        }
        if self.key.is_empty() {
            write!(f, ": error: {}", self.message)
        } else {
            write!(f, ": error at `{}`: {}", self.key, self.message)
        }
    }
}

impl Diagnostic {
    pub fn whole_file(file: &Path, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            file: file.to_path_buf(),
            line: 0,
            column: 0,
            key: String::new(),
            message: message.into(),
        }
    }

    /// A diagnostic at a byte span of `text`.
    pub fn at(
        file: &Path,
        text: &str,
        span: Option<Range<usize>>,
        key: impl Into<String>,
        message: impl Into<String>,
    ) -> Diagnostic {
        let (line, column) = match span {
            Some(s) => line_column(text, s.start),
            None => (1, 1),
        };
        Diagnostic {
            file: file.to_path_buf(),
            line,
            column,
            key: key.into(),
            message: message.into(),
        }
    }
}

/// 1-based line and character column of a byte offset.
pub fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(text.len());
    let mut start = offset;
    while !text.is_char_boundary(start) {
        start -= 1;
    }
    let before = &text[..start];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let column = before[line_start..].chars().count() + 1;
    (line, column)
}

/// `` `a`, `b`, `c` ``
pub fn backticked(names: &[&str]) -> String {
    names.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>().join(", ")
}

/// `"; did you mean `x`?"` when some name is close to `typed`, else empty.
pub fn suggestion(typed: &str, names: &[&str]) -> String {
    nearest(typed, names)
        .map(|n| format!("; did you mean `{n}`?"))
        .unwrap_or_default()
}

/// The valid name nearest to `typed`, if any is close enough to be a typo.
pub fn nearest<'a>(typed: &str, names: &[&'a str]) -> Option<&'a str> {
    let typed_lower = typed.to_lowercase();
    // Typos: a few edits (transpositions count as one), scaled to length.
    let allowed = (typed_lower.chars().count() / 3 + 1).max(1);
    names
        .iter()
        .map(|n| {
            (
                strsim::osa_distance(&typed_lower, n),
                strsim::jaro_winkler(&typed_lower, n),
                *n,
            )
        })
        .filter(|(d, jw, _)| *d <= allowed || *jw >= 0.9)
        .min_by(|a, b| a.0.cmp(&b.0).then(b.1.total_cmp(&a.1)))
        .map(|(_, _, n)| n)
}

/// Adds a suggestion to serde's own "unknown field/variant `x`, expected one
/// of `a`, `b`" messages, which list the valid names but do not pick one.
pub fn enrich_serde_message(message: &str) -> String {
    if message.contains("did you mean") {
        return message.to_string();
    }
    let Some(rest) = message
        .strip_prefix("unknown field `")
        .or_else(|| message.strip_prefix("unknown variant `"))
    else {
        return message.to_string();
    };
    let Some(end) = rest.find('`') else {
        return message.to_string();
    };
    let typed = &rest[..end];
    let names: Vec<&str> = rest[end + 1..].split('`').skip(1).step_by(2).collect();
    format!("{}{}", message.trim_end(), suggestion(typed, &names))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_column_counts_characters_from_one() {
        let text = "a = 1\nbé = 2\n";
        assert_eq!(line_column(text, 0), (1, 1));
        assert_eq!(line_column(text, 6), (2, 1));
        assert_eq!(line_column(text, 9), (2, 3));
    }

    #[test]
    fn serde_messages_gain_a_suggestion() {
        let m = enrich_serde_message("unknown field `powr`, expected one of `power`, `speed`");
        assert!(m.ends_with("did you mean `power`?"), "{m}");
        let far = enrich_serde_message("unknown field `zzzz`, expected one of `power`, `speed`");
        assert!(!far.contains("did you mean"), "{far}");
    }
}
