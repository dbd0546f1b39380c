//! [`Alist`]: a sparse binary matrix in MacKay's alist format, as GNU
//! Radio's `alist::read` and `fec_mtrx`'s `read_matrix_from_file` read
//! it. The text is untrusted: every count and index is checked, and an
//! error names the line it is on.
//!
//! The format: `N M` (columns, rows); the largest column and row
//! weights; the `N` column weights; the `M` row weights; then `N` lines
//! listing each column's rows (1-based) and `M` lines listing each row's
//! columns. A list may be padded with zeros past its weight (MacKay's
//! files are); GNU Radio's files are not.

use std::fmt;

/// Most columns (and rows) of a matrix read here.
pub const MAX_DIM: usize = 1 << 16;

/// Most ones of a matrix read here.
pub const MAX_ONES: usize = 1 << 22;

/// Why an alist text is refused: its 1-based line and the reason.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AlistError {
    /// The line, counted from 1 (0: the file as a whole).
    pub line: usize,
    /// What is wrong.
    pub reason: String,
}

impl fmt::Display for AlistError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            write!(f, "{}", self.reason)
        } else {
            write!(f, "line {}: {}", self.line, self.reason)
        }
    }
}

impl std::error::Error for AlistError {}

/// A parity check (or generator) matrix read from an alist text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Alist {
    /// Columns.
    pub n: usize,
    /// Rows.
    pub m: usize,
    /// Each column's rows, 0-based, in the file's order (`nlist`).
    pub cols: Vec<Vec<usize>>,
    /// Each row's columns, 0-based, in the file's order (`mlist`).
    pub rows: Vec<Vec<usize>>,
}

struct Lines<'a> {
    lines: std::iter::Enumerate<std::str::Lines<'a>>,
}

impl<'a> Lines<'a> {
    /// The next non-blank line and its number.
    fn next(&mut self, what: &str) -> Result<(usize, Vec<&'a str>), AlistError> {
        for (i, l) in self.lines.by_ref() {
            let words: Vec<&str> = l.split_whitespace().collect();
            if !words.is_empty() {
                return Ok((i + 1, words));
            }
        }
        Err(AlistError {
            line: 0,
            reason: format!("the text ends before {what}"),
        })
    }
}

fn number(line: usize, word: &str, what: &str) -> Result<usize, AlistError> {
    word.parse::<usize>().map_err(|_| AlistError {
        line,
        reason: format!("{what} `{word}` is not a non-negative integer"),
    })
}

/// The first `count` numbers of a line (`what` names them).
fn numbers(
    line: usize,
    words: &[&str],
    count: usize,
    what: &str,
) -> Result<Vec<usize>, AlistError> {
    if words.len() < count {
        return Err(AlistError {
            line,
            reason: format!("{count} {what} expected, {} found", words.len()),
        });
    }
    words[..count]
        .iter()
        .map(|w| number(line, w, what))
        .collect()
}

impl Alist {
    /// Reads an alist text.
    pub fn parse(text: &str) -> Result<Self, AlistError> {
        let mut lines = Lines {
            lines: text.lines().enumerate(),
        };
        let (l, w) = lines.next("the size `N M`")?;
        let size = numbers(l, &w, 2, "sizes")?;
        let (n, m) = (size[0], size[1]);
        for (v, what) in [(n, "columns"), (m, "rows")] {
            if v == 0 || v > MAX_DIM {
                return Err(AlistError {
                    line: l,
                    reason: format!("{v} {what}: must be 1 to {MAX_DIM}"),
                });
            }
        }
        let (l, w) = lines.next("the largest weights")?;
        numbers(l, &w, 2, "largest weights")?;
        let (l, w) = lines.next("the column weights")?;
        let col_w = numbers(l, &w, n, "column weights")?;
        let (lr, w) = lines.next("the row weights")?;
        let row_w = numbers(lr, &w, m, "row weights")?;
        let ones: usize = col_w.iter().map(|&c| c.min(MAX_ONES)).sum();
        if ones > MAX_ONES {
            return Err(AlistError {
                line: l,
                reason: format!("more than {MAX_ONES} ones"),
            });
        }
        let read_lists = |lines: &mut Lines,
                          weights: &[usize],
                          bound: usize,
                          what: &str|
         -> Result<Vec<Vec<usize>>, AlistError> {
            let mut out = Vec::with_capacity(weights.len());
            for (i, &wt) in weights.iter().enumerate() {
                let (l, w) = lines.next(&format!("the list of {what} {}", i + 1))?;
                let list = numbers(l, &w, wt, "indices")?;
                let mut seen = Vec::with_capacity(wt);
                for &x in &list {
                    if x == 0 || x > bound {
                        return Err(AlistError {
                            line: l,
                            reason: format!("index {x} outside 1 to {bound}"),
                        });
                    }
                    if seen.contains(&(x - 1)) {
                        return Err(AlistError {
                            line: l,
                            reason: format!("index {x} listed twice"),
                        });
                    }
                    seen.push(x - 1);
                }
                out.push(seen);
            }
            Ok(out)
        };
        if col_w.iter().any(|&c| c > m) {
            return Err(AlistError {
                line: l,
                reason: format!("a column weight exceeds the {m} rows"),
            });
        }
        if row_w.iter().any(|&r| r > n) {
            return Err(AlistError {
                line: lr,
                reason: format!("a row weight exceeds the {n} columns"),
            });
        }
        let cols = read_lists(&mut lines, &col_w, m, "column")?;
        let rows = read_lists(&mut lines, &row_w, n, "row")?;
        let a = Self { n, m, cols, rows };
        a.check_consistent()?;
        Ok(a)
    }

    /// Reads the alist file `path`; an error names the file and line.
    pub fn read(path: &str) -> Result<Self, String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
        Self::parse(&text).map_err(|e| format!("{path}: {e}"))
    }

    /// The column lists and the row lists must name the same ones.
    fn check_consistent(&self) -> Result<(), AlistError> {
        let mut from_cols: Vec<(usize, usize)> = self
            .cols
            .iter()
            .enumerate()
            .flat_map(|(c, rs)| rs.iter().map(move |&r| (r, c)))
            .collect();
        let mut from_rows: Vec<(usize, usize)> = self
            .rows
            .iter()
            .enumerate()
            .flat_map(|(r, cs)| cs.iter().map(move |&c| (r, c)))
            .collect();
        from_cols.sort_unstable();
        from_rows.sort_unstable();
        if from_cols != from_rows {
            return Err(AlistError {
                line: 0,
                reason: "the column lists and the row lists describe different matrices".into(),
            });
        }
        Ok(())
    }

    /// The matrix, dense.
    pub(crate) fn matrix(&self) -> super::gf2::BitMatrix {
        let mut h = super::gf2::BitMatrix::zeros(self.m, self.n);
        for (c, rs) in self.cols.iter().enumerate() {
            for &r in rs {
                h.set(r, c, true);
            }
        }
        h
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_a_small_matrix_and_refuses_bad_ones() {
        let text = "3 2\n2 2\n1 2 1\n2 2\n1\n1 2\n2\n1 2\n2 3\n";
        let a = Alist::parse(text).unwrap();
        assert_eq!((a.n, a.m), (3, 2));
        assert_eq!(a.cols, vec![vec![0], vec![0, 1], vec![1]]);
        assert_eq!(a.rows, vec![vec![0, 1], vec![1, 2]]);
        let bad = "3 2\n2 2\n1 2 1\n2 2\n1\n1 5\n2\n1 2\n2 3\n";
        assert_eq!(Alist::parse(bad).unwrap_err().line, 6);
        let inconsistent = "3 2\n2 2\n1 2 1\n2 2\n1\n1 2\n2\n1 3\n2 3\n";
        assert!(Alist::parse(inconsistent).is_err());
        assert!(Alist::parse("").is_err());
    }
}
