//! FIDE titles, federations and sex as the rating list and the title regulations use them.

use std::fmt;

/// The one title type, arbiter-core's: its codes, parsing and the B.01 1.4.5 title holders.
pub use arbiter_core::tournament::Title;

fn bit(t: Title) -> u8 {
    1 << (t as u8)
}

/// The set of titles a player holds (a woman may hold e.g. both IM and WGM).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Titles(u8);

impl Titles {
    pub const NONE: Titles = Titles(0);

    pub fn of(titles: &[Title]) -> Titles {
        Titles(titles.iter().fold(0, |a, &t| a | bit(t)))
    }
    pub fn single(t: Option<Title>) -> Titles {
        Titles(t.map_or(0, bit))
    }
    pub fn with(self, t: Title) -> Titles {
        Titles(self.0 | bit(t))
    }
    pub fn contains(self, t: Title) -> bool {
        self.0 & bit(t) != 0
    }
    pub fn any_of(self, ts: &[Title]) -> bool {
        ts.iter().any(|&t| self.contains(t))
    }
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }
    pub fn iter(self) -> impl Iterator<Item = Title> {
        Title::ALL.into_iter().filter(move |t| self.contains(*t))
    }
    /// Holds a title that counts for B.01 1.4.5 ("title holders": GM, IM, FM, WGM, WIM, WFM).
    pub fn is_title_holder(self) -> bool {
        self.iter().any(Title::counts_as_title_holder)
    }
    /// The highest title, in the order GM, IM, WGM, FM, WIM, CM, WFM, WCM (for display).
    pub fn highest(self) -> Option<Title> {
        [
            Title::GM,
            Title::IM,
            Title::WGM,
            Title::FM,
            Title::WIM,
            Title::CM,
            Title::WFM,
            Title::WCM,
        ]
        .into_iter()
        .find(|t| self.contains(*t))
    }
}

impl fmt::Display for Titles {
    /// Codes joined by `+` (`IM+WGM`), empty for none.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s: Vec<&str> = self.iter().map(Title::code).collect();
        f.pad(&s.join("+"))
    }
}

/// A FIDE federation code: three upper-case ASCII letters (`GER`, `FID` for the FIDE flag).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Federation([u8; 3]);

impl Federation {
    /// The FIDE flag: players under it are accepted as opponents but are never "foreign"
    /// (B.01 1.4.2, titles-norms.md §3.1).
    pub const FIDE_FLAG: Federation = Federation(*b"FID");

    /// Three ASCII letters, case-insensitive; anything else is `None`.
    pub fn new(code: &str) -> Option<Federation> {
        let b = code.trim().as_bytes();
        if b.len() != 3 || !b.iter().all(u8::is_ascii_alphabetic) {
            return None;
        }
        Some(Federation([
            b[0].to_ascii_uppercase(),
            b[1].to_ascii_uppercase(),
            b[2].to_ascii_uppercase(),
        ]))
    }
    pub fn as_str(&self) -> &str {
        // Always ASCII letters by construction.
        std::str::from_utf8(&self.0).unwrap_or("???")
    }
    pub fn is_fide_flag(self) -> bool {
        self == Federation::FIDE_FLAG
    }
}

impl fmt::Display for Federation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.as_str())
    }
}

/// Sex as FIDE records it (`M` / `F`); women's titles and norms need it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Sex {
    Male,
    Female,
}

impl Sex {
    pub fn from_code(s: &str) -> Option<Sex> {
        match s.trim() {
            "M" | "m" => Some(Sex::Male),
            "F" | "f" | "W" | "w" => Some(Sex::Female),
            _ => None,
        }
    }
    pub fn code(self) -> char {
        match self {
            Sex::Male => 'M',
            Sex::Female => 'F',
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn titles() {
        let t = Titles::of(&[Title::IM, Title::WGM]);
        assert!(t.contains(Title::IM) && t.contains(Title::WGM) && !t.contains(Title::GM));
        assert_eq!(t.to_string(), "IM+WGM");
        assert_eq!(t.highest(), Some(Title::IM));
        assert!(!Titles::single(Some(Title::CM)).is_title_holder());
        assert!(Titles::single(Some(Title::WFM)).is_title_holder());
        assert_eq!(Title::from_code("wg"), Some(Title::WGM));
        assert_eq!(Title::from_code(" GM "), Some(Title::GM));
        assert_eq!(Title::from_code("AGM"), None);
    }

    #[test]
    fn federations() {
        assert_eq!(Federation::new("ger").unwrap().as_str(), "GER");
        assert!(Federation::new("GE").is_none());
        assert!(Federation::new("G3R").is_none());
        assert!(Federation::new("FID").unwrap().is_fide_flag());
    }
}
