//! [`Location`]: a place in a flowgraph file.

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A place in a file: 1-based line and column. Line 0 means the file as a
/// whole (a required section that is missing).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Location {
    /// The file.
    pub file: Arc<PathBuf>,
    /// 1-based line, or 0 for the whole file.
    pub line: usize,
    /// 1-based column, or 0 for the whole line.
    pub column: usize,
}

impl Location {
    /// Line `line`, column `column` of `file`.
    pub fn new(file: Arc<PathBuf>, line: usize, column: usize) -> Self {
        Self { file, line, column }
    }

    /// The file as a whole.
    pub fn file(file: Arc<PathBuf>) -> Self {
        Self::new(file, 0, 0)
    }

    /// The line and column of byte `offset` in `text`, the contents of
    /// `file`. Offsets past the end point just after the last character.
    pub fn at_offset(file: Arc<PathBuf>, text: &str, offset: usize) -> Self {
        let offset = offset.min(text.len());
        let before = text.get(..offset).unwrap_or(text);
        let line = before.matches('\n').count() + 1;
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        let column = before[line_start..].chars().count() + 1;
        Self::new(file, line, column)
    }

    /// This location moved `chars` characters to the right on its line:
    /// the place of a character inside a string that starts here.
    pub fn shifted(&self, chars: usize) -> Self {
        Self::new(self.file.clone(), self.line, self.column + chars)
    }

    /// The file's path.
    pub fn path(&self) -> &Path {
        &self.file
    }
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.line, self.column) {
            (0, _) => write!(f, "{}", self.file.display()),
            (l, 0) => write!(f, "{}:{l}", self.file.display()),
            (l, c) => write!(f, "{}:{l}:{c}", self.file.display()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_become_lines_and_columns() {
        let file = Arc::new(PathBuf::from("a.toml"));
        let text = "ab\ncdé\nx";
        assert_eq!(
            Location::at_offset(file.clone(), text, 0).to_string(),
            "a.toml:1:1"
        );
        assert_eq!(
            Location::at_offset(file.clone(), text, 3).to_string(),
            "a.toml:2:1"
        );
        // 'x' follows a two-byte 'é': column counts characters.
        assert_eq!(
            Location::at_offset(file.clone(), text, 8).to_string(),
            "a.toml:3:1"
        );
        assert_eq!(
            Location::at_offset(file.clone(), text, 99).to_string(),
            "a.toml:3:2"
        );
        assert_eq!(Location::file(file).to_string(), "a.toml");
    }
}
