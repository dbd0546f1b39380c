//! Reader for the reference vectors in `tests/reference/*.txt`, written by
//! `tests/reference/generate.py` from GNU Radio 3.10 and scipy. One case per
//! line: `key=value` fields, `|`, then numbers; `#` starts a comment line.

/// One line of a reference file.
pub struct Case {
    fields: Vec<(String, String)>,
    /// The numbers after `|`.
    pub values: Vec<f64>,
}

impl Case {
    /// The field `key` (panics if missing: the files are generated).
    pub fn get(&self, key: &str) -> &str {
        self.fields
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
            .unwrap_or_else(|| panic!("reference case has no field {key}"))
    }

    /// Whether the field `key` is present.
    pub fn has(&self, key: &str) -> bool {
        self.fields.iter().any(|(k, _)| k == key)
    }

    /// The field `key` as a number.
    pub fn num(&self, key: &str) -> f64 {
        self.get(key).parse().unwrap()
    }

    /// The field `key` as a count.
    pub fn count(&self, key: &str) -> usize {
        self.get(key).parse().unwrap()
    }

    /// The comma-separated numbers of field `key`.
    pub fn list(&self, key: &str) -> Vec<f64> {
        self.get(key)
            .split(',')
            .map(|v| v.parse().unwrap())
            .collect()
    }

    /// The values as `f32`.
    pub fn f32s(&self) -> Vec<f32> {
        self.values.iter().map(|&v| v as f32).collect()
    }

    /// The values as `(re, im)` pairs.
    pub fn c32s(&self) -> Vec<num_complex::Complex32> {
        self.values
            .chunks_exact(2)
            .map(|p| num_complex::Complex32::new(p[0] as f32, p[1] as f32))
            .collect()
    }

    /// The values as indices.
    pub fn indices(&self) -> Vec<usize> {
        self.values.iter().map(|&v| v as usize).collect()
    }

    /// `key=value` pairs, for messages.
    pub fn label(&self) -> String {
        self.fields
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// Parses a reference file's text.
pub fn parse(text: &str) -> Vec<Case> {
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let (head, tail) = l.split_once('|').expect("reference line without '|'");
            let fields = head
                .split_whitespace()
                .map(|kv| {
                    let (k, v) = kv.split_once('=').expect("field without '='");
                    (k.to_string(), v.to_string())
                })
                .collect();
            let values = tail
                .split_whitespace()
                .map(|v| v.parse().expect("bad number"))
                .collect();
            Case { fields, values }
        })
        .collect()
}
