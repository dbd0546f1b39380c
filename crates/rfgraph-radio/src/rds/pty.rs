//! The programme type (PTY) names of RDS (IEC 62106, the European
//! table; North America's RBDS names the codes differently).

/// The RDS names of PTY codes 0..=31, by code.
const NAMES: [&str; 32] = [
    "None",
    "News",
    "Current Affairs",
    "Information",
    "Sport",
    "Education",
    "Drama",
    "Culture",
    "Science",
    "Varied",
    "Pop Music",
    "Rock Music",
    "Easy Listening",
    "Light Classical",
    "Serious Classical",
    "Other Music",
    "Weather",
    "Finance",
    "Children's Programmes",
    "Social Affairs",
    "Religion",
    "Phone-in",
    "Travel",
    "Leisure",
    "Jazz Music",
    "Country Music",
    "National Music",
    "Oldies Music",
    "Folk Music",
    "Documentary",
    "Alarm Test",
    "Alarm",
];

/// The RDS name of programme type `pty` (`None` above 31).
pub fn pty_name(pty: u64) -> Option<&'static str> {
    usize::try_from(pty)
        .ok()
        .and_then(|i| NAMES.get(i))
        .copied()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_every_code_and_nothing_else() {
        assert_eq!(pty_name(0), Some("None"));
        assert_eq!(pty_name(10), Some("Pop Music"));
        assert_eq!(pty_name(31), Some("Alarm"));
        assert_eq!(pty_name(32), None);
        assert_eq!(pty_name(u64::MAX), None);
    }
}
