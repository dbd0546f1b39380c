//! [`FileError`]: an error in a flowgraph file, with its place, the key
//! at fault and, for a misspelt name, the closest known one.

use super::location::Location;
use std::fmt;

/// An error in a flowgraph file: where, which key, what, and a suggestion.
///
/// Displays as `file:line:col: key `k`: message (did you mean `x`?)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileError {
    /// Where in which file.
    pub at: Location,
    /// The key at fault (`blocks.filt.cutoff`, `connections[2]`), or empty.
    pub key: String,
    /// What is wrong.
    pub message: String,
    /// The closest known name, for an unknown one.
    pub suggestion: Option<String>,
}

impl FileError {
    /// An error at `at` about `key`.
    pub fn new(at: Location, key: impl Into<String>, message: impl Into<String>) -> Self {
        Self {
            at,
            key: key.into(),
            message: message.into(),
            suggestion: None,
        }
    }

    /// Adds "did you mean `name`?" when there is a close name.
    pub fn suggest(mut self, name: Option<impl Into<String>>) -> Self {
        self.suggestion = name.map(Into::into);
        self
    }
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: ", self.at)?;
        if !self.key.is_empty() {
            write!(f, "`{}`: ", self.key)?;
        }
        f.write_str(&self.message)?;
        if let Some(s) = &self.suggestion {
            write!(f, " (did you mean `{s}`?)")?;
        }
        Ok(())
    }
}

impl std::error::Error for FileError {}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;
    use std::sync::Arc;

    #[test]
    fn display_names_place_key_and_suggestion() {
        let at = Location::new(Arc::new(PathBuf::from("fm.toml")), 12, 5);
        let e = FileError::new(at, "blocks.lpf.kind", "unknown block `low_pas_filter`")
            .suggest(Some("low_pass_filter"));
        assert_eq!(
            e.to_string(),
            "fm.toml:12:5: `blocks.lpf.kind`: unknown block `low_pas_filter` (did you mean `low_pass_filter`?)"
        );
    }
}
