//! "Did you mean ...?": the closest known name to a misspelt one, for the
//! errors of flowgraph files, GRC import and the registry.

/// The name in `known` closest to `name` (by edit distance, letters
/// compared without case), if it is close enough to be a likely typo: at
/// most a third of the longer name's letters differ.
pub fn closest<'a>(name: &str, known: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let lower = name.to_ascii_lowercase();
    known
        .into_iter()
        .map(|k| (distance(&lower, &k.to_ascii_lowercase()), k))
        .filter(|&(d, k)| d > 0 && d * 3 <= name.len().max(k.len()))
        .min_by_key(|&(d, k)| (d, k.len()))
        .map(|(_, k)| k)
}

/// The Damerau–Levenshtein distance (with adjacent transpositions)
/// between two strings, by characters.
pub fn distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let (n, m) = (a.len(), b.len());
    let mut d = vec![vec![0usize; m + 1]; n + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=n {
        for j in 1..=m {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            d[i][j] = (d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1)
                .min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                d[i][j] = d[i][j].min(d[i - 2][j - 2] + 1);
            }
        }
    }
    d[n][m]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typos_find_their_name_and_strangers_find_none() {
        let known = ["low_pass_filter", "high_pass_filter", "file_source", "head"];
        assert_eq!(closest("low_pas_filter", known), Some("low_pass_filter"));
        assert_eq!(closest("lowpass_filter", known), Some("low_pass_filter"));
        assert_eq!(closest("file_sorce", known), Some("file_source"));
        assert_eq!(closest("haed", known), Some("head"));
        assert_eq!(closest("quantum_decoder", known), None);
        assert_eq!(closest("head", known), None, "an exact name is no typo");
        assert_eq!(distance("abc", "acb"), 1);
        assert_eq!(distance("", "abc"), 3);
    }
}
