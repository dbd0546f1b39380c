//! The importer's errors. Each names the file and, where the file is at
//! fault, the line, column and key; blocks without an rfgraph equivalent
//! come together in one error that lists every one of them, so a user
//! sees at once what a flowgraph lacks and nothing ever half-runs.

use super::yaml::Pos;
use std::fmt;

/// One block of a `.grc` file that rfgraph has no equivalent for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unsupported {
    /// The GNU Radio block id (`digital_ofdm_rx`).
    pub id: String,
    /// The block's name in the file (`ofdm_rx`).
    pub name: String,
    /// Where the block is written.
    pub pos: Pos,
    /// Why, when it is more than "no equivalent" (a parameter value or a
    /// vector length rfgraph's block does not take).
    pub reason: Option<String>,
}

impl fmt::Display for Unsupported {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} '{}' (line {}", self.id, self.name, self.pos.line)?;
        if let Some(r) = &self.reason {
            write!(f, ": {r}")?;
        }
        f.write_str(")")
    }
}

/// Why a `.grc` file could not be imported.
#[derive(Debug, thiserror::Error)]
pub enum GrcError {
    /// The file could not be read.
    #[error("{file}: {error}")]
    Io {
        /// The file.
        file: String,
        /// What went wrong.
        error: std::io::Error,
    },
    /// Something at one place of the file.
    #[error("{file}:{}:{}: {}{message}{}", .pos.line, .pos.col, key_prefix(.key), suggestion(.suggest))]
    At {
        /// The file.
        file: String,
        /// Where.
        pos: Pos,
        /// The key at fault (`blocks[3].parameters.samp_rate`), empty
        /// when none applies.
        key: String,
        /// What is wrong.
        message: String,
        /// The closest known name, for a misspelt one.
        suggest: Option<String>,
    },
    /// Blocks without an rfgraph equivalent: every one of them, in file
    /// order.
    #[error("{file}: unsupported blocks: {}", list(.blocks))]
    Unsupported {
        /// The file.
        file: String,
        /// Every unsupported block.
        blocks: Vec<Unsupported>,
    },
}

fn key_prefix(key: &str) -> String {
    if key.is_empty() {
        String::new()
    } else {
        format!("`{key}`: ")
    }
}

fn suggestion(s: &Option<String>) -> String {
    s.as_ref()
        .map(|s| format!(" (did you mean `{s}`?)"))
        .unwrap_or_default()
}

fn list(blocks: &[Unsupported]) -> String {
    blocks
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

impl GrcError {
    /// An error at `pos` about `key`.
    pub fn at(file: &str, pos: Pos, key: impl Into<String>, message: impl Into<String>) -> Self {
        GrcError::At {
            file: file.to_string(),
            pos,
            key: key.into(),
            message: message.into(),
            suggest: None,
        }
    }

    /// Adds a "did you mean" suggestion to an [`GrcError::At`].
    pub fn suggest(mut self, name: Option<&str>) -> Self {
        if let GrcError::At { suggest, .. } = &mut self {
            *suggest = name.map(str::to_string);
        }
        self
    }

    /// The place in the file, if the error has one (an unsupported-block
    /// list gives its first block's).
    pub fn pos(&self) -> Option<Pos> {
        match self {
            GrcError::Io { .. } => None,
            GrcError::At { pos, .. } => Some(*pos),
            GrcError::Unsupported { blocks, .. } => blocks.first().map(|b| b.pos),
        }
    }
}

impl From<GrcError> for crate::model::FileError {
    /// The same error in the shape every flowgraph file error has, for
    /// the builder and `rfgraph run`: an unsupported-block list is placed
    /// at its first block.
    fn from(e: GrcError) -> Self {
        use crate::model::{FileError, Location};
        use std::path::PathBuf;
        use std::sync::Arc;
        let place = |file: &str, pos: Option<Pos>| {
            let file = Arc::new(PathBuf::from(file));
            match pos {
                Some(p) => Location::new(file, p.line, p.col),
                None => Location::file(file),
            }
        };
        match e {
            GrcError::Io { file, error } => {
                FileError::new(place(&file, None), "", error.to_string())
            }
            GrcError::At {
                file,
                pos,
                key,
                message,
                suggest,
            } => FileError::new(place(&file, Some(pos)), key, message).suggest(suggest),
            GrcError::Unsupported { file, blocks } => {
                let at = place(&file, blocks.first().map(|b| b.pos));
                FileError::new(at, "", format!("unsupported blocks: {}", list(&blocks)))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_name_file_line_column_key_and_every_unsupported_block() {
        let e = GrcError::at(
            "a.grc",
            Pos { line: 3, col: 5 },
            "blocks[0].id",
            "unknown block id `low_pass_filtr`",
        )
        .suggest(Some("low_pass_filter"));
        assert_eq!(
            e.to_string(),
            "a.grc:3:5: `blocks[0].id`: unknown block id `low_pass_filtr` (did you mean `low_pass_filter`?)"
        );
        let e = GrcError::Unsupported {
            file: "b.grc".into(),
            blocks: vec![
                Unsupported {
                    id: "digital_ofdm_rx".into(),
                    name: "ofdm_rx".into(),
                    pos: Pos { line: 812, col: 3 },
                    reason: None,
                },
                Unsupported {
                    id: "fft_vxx".into(),
                    name: "fft".into(),
                    pos: Pos { line: 900, col: 3 },
                    reason: Some("vlen 64".into()),
                },
            ],
        };
        assert_eq!(
            e.to_string(),
            "b.grc: unsupported blocks: digital_ofdm_rx 'ofdm_rx' (line 812), fft_vxx 'fft' (line 900: vlen 64)"
        );
        assert_eq!(e.pos().unwrap().line, 812);
        let f = crate::model::FileError::from(e);
        assert!(
            f.to_string()
                .starts_with("b.grc:812:3: unsupported blocks: digital_ofdm_rx"),
            "{f}"
        );
    }
}
