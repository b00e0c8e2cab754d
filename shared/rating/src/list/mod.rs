//! Streaming importers for the public FIDE rating lists.
//!
//! Two formats, both read from any [`std::io::BufRead`] with bounded memory (one line, or one
//! `<player>` element, at a time; each line and each field value has a length limit), yielding
//! one [`ListRecord`] per player through an iterator:
//!
//! * [`TextListReader`]: the fixed-width text lists (`players_list_foa.txt`, and the
//!   per-category `standard_rating_list.txt`, `rapid_...`, `blitz_...`). The column layout is
//!   derived from the header line (see [`TextLayout`]).
//! * [`XmlListReader`]: the XML lists (`players_list_xml.xml` and the per-category ones): a flat
//!   `<playerslist>` of `<player>` elements whose children are text-only fields.
//!
//! Errors carry the line, the column (1-based, in characters) and the field; a bad record does
//! not stop the iteration, the next call continues with the next record. I/O errors and a bad
//! header end it.
//!
//! # What is assumed about the formats
//!
//! * Text lists: the first non-empty line is the header; each column starts at its label and runs
//!   to the next label (values are left-aligned under their labels). Labels recognised
//!   (case-insensitive): `ID Number`/`ID`, `Name`, `Fed`, `Sex`, `Tit`, `WTit`, `OTit`, `FOA`,
//!   `SRtng`/`RRtng`/`BRtng`, `SGm`/`RGm`/`BGm`, `SK`/`RK`/`BK`, `B-day`/`Bday`/`Born`, `Flag`;
//!   in a per-category list the rating column is headed by the list month (`MAR25`) and its
//!   companions by `Gms` and `K`; that category is given by the caller. Unknown labels are
//!   skipped. The legacy header with merged labels (`TitlFed`, `GamesBorn`) is rejected.
//! * Columns count characters. Lines that are valid UTF-8 are sliced by characters; if that
//!   misplaces the federation column but byte offsets place it, the line is taken as padded by
//!   bytes. Lines that are not UTF-8 are read as Latin-1 (one byte, one character).
//! * A rating of `0` or blank means unrated; a birth year of `0` or `0000` means unknown.
//! * Flags: `i` inactive, `w` woman (combined as `wi`).
//! * Other titles (`OTit`, `o_title`) are comma-separated codes (`IA,FT`), kept as text.
//! * XML: tags `fideid`, `name`, `country`, `sex`, `title`, `w_title`, `o_title`, `foa_title`,
//!   `rating`, `games`, `k`, `rapid_rating`, `rapid_games`, `rapid_k`, `blitz_rating`,
//!   `blitz_games`, `blitz_k`, `birthday`, `flag`; `rating`/`games`/`k` belong to the category the
//!   caller gives (standard for the combined list). Other tags are ignored; entities
//!   (`&amp;` `&lt;` `&gt;` `&quot;` `&apos;`, numeric) are decoded; comments, processing
//!   instructions and the declaration are skipped; CDATA sections are not supported.

mod text;
mod xml;

pub use text::{TextLayout, TextListReader};
pub use xml::XmlListReader;

use crate::rules::Category;
use crate::title::{Federation, Sex, Title, Titles};

/// Longest line (text list) or field value (XML) accepted, in bytes.
pub const MAX_LINE_BYTES: usize = 4096;

/// A player's figures in one rating category.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct CategoryRating {
    /// `None`: unrated in this category.
    pub rating: Option<u16>,
    /// Rated games in the list's period.
    pub games: Option<u16>,
    pub k: Option<u8>,
}

/// One player of a rating list.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ListRecord {
    pub fide_id: u64,
    pub name: String,
    pub federation: Option<Federation>,
    pub sex: Option<Sex>,
    pub title: Option<Title>,
    pub women_title: Option<Title>,
    /// Arbiter, trainer and organiser titles (`IA`, `FA`, `FT`, ...).
    pub other_titles: Vec<String>,
    /// FIDE Online Arena title (`AGM`, `AIM`, ...).
    pub foa_title: Option<String>,
    pub birth_year: Option<u16>,
    pub standard: CategoryRating,
    pub rapid: CategoryRating,
    pub blitz: CategoryRating,
    pub inactive: bool,
    /// The `w` flag.
    pub woman_flag: bool,
}

impl ListRecord {
    pub fn category(&self, c: Category) -> &CategoryRating {
        match c {
            Category::Standard => &self.standard,
            Category::Rapid => &self.rapid,
            Category::Blitz => &self.blitz,
        }
    }
    fn category_mut(&mut self, c: Category) -> &mut CategoryRating {
        match c {
            Category::Standard => &mut self.standard,
            Category::Rapid => &mut self.rapid,
            Category::Blitz => &mut self.blitz,
        }
    }
    /// Open and women's titles together.
    pub fn titles(&self) -> Titles {
        let t = Titles::single(self.title);
        match self.women_title {
            Some(w) => t.with(w),
            None => t,
        }
    }
}

/// An import error, with its position.
#[derive(Debug, thiserror::Error)]
pub enum ListError {
    #[error("line {line}: read error: {source}")]
    Io {
        line: u64,
        #[source]
        source: std::io::Error,
    },
    #[error("line {line}: header: {message}")]
    Header { line: u64, message: String },
    #[error("line {line}, column {column}, field {field}: {message}: {text:?}")]
    Field {
        line: u64,
        column: u64,
        field: &'static str,
        message: &'static str,
        text: String,
    },
    #[error("line {line}, column {column}: {message}")]
    Syntax {
        line: u64,
        column: u64,
        message: String,
    },
    #[error("line {line}: longer than {max} bytes")]
    TooLong { line: u64, max: usize },
}

impl ListError {
    /// The 1-based line of the error.
    pub fn line(&self) -> u64 {
        match self {
            ListError::Io { line, .. }
            | ListError::Header { line, .. }
            | ListError::Field { line, .. }
            | ListError::Syntax { line, .. }
            | ListError::TooLong { line, .. } => *line,
        }
    }
    /// An error after which the reader stops.
    pub fn is_fatal(&self) -> bool {
        matches!(self, ListError::Io { .. } | ListError::Header { .. })
    }
}

/// The fields of a record, as both formats name them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Field {
    Id,
    Name,
    Fed,
    Sex,
    Title,
    WomenTitle,
    OtherTitles,
    Foa,
    Rating(Category),
    Games(Category),
    K(Category),
    Birth,
    Flag,
}

impl Field {
    pub(crate) fn name(self) -> &'static str {
        use Category::*;
        match self {
            Field::Id => "fide_id",
            Field::Name => "name",
            Field::Fed => "federation",
            Field::Sex => "sex",
            Field::Title => "title",
            Field::WomenTitle => "women_title",
            Field::OtherTitles => "other_titles",
            Field::Foa => "foa_title",
            Field::Rating(Standard) => "standard_rating",
            Field::Rating(Rapid) => "rapid_rating",
            Field::Rating(Blitz) => "blitz_rating",
            Field::Games(Standard) => "standard_games",
            Field::Games(Rapid) => "rapid_games",
            Field::Games(Blitz) => "blitz_games",
            Field::K(Standard) => "standard_k",
            Field::K(Rapid) => "rapid_k",
            Field::K(Blitz) => "blitz_k",
            Field::Birth => "birth_year",
            Field::Flag => "flag",
        }
    }
}

fn number<T: std::str::FromStr>(s: &str) -> Result<Option<T>, &'static str> {
    if s.is_empty() {
        return Ok(None);
    }
    if !s.bytes().all(|b| b.is_ascii_digit()) {
        return Err("not a number");
    }
    s.parse::<T>().map(Some).map_err(|_| "number out of range")
}

/// Stores one trimmed field value into `rec`; the error message on failure.
pub(crate) fn set_field(rec: &mut ListRecord, field: Field, v: &str) -> Result<(), &'static str> {
    match field {
        Field::Id => rec.fide_id = number::<u64>(v)?.ok_or("missing FIDE id")?,
        Field::Name => {
            rec.name.clear();
            rec.name.push_str(v);
        }
        Field::Fed => {
            rec.federation = if v.is_empty() {
                None
            } else {
                Some(Federation::new(v).ok_or("not a federation code")?)
            }
        }
        Field::Sex => {
            rec.sex = if v.is_empty() {
                None
            } else {
                Some(Sex::from_code(v).ok_or("not M or F")?)
            }
        }
        Field::Title => rec.title = title(v)?,
        Field::WomenTitle => rec.women_title = title(v)?,
        Field::OtherTitles => {
            rec.other_titles.clear();
            rec.other_titles.extend(
                v.split(',')
                    .map(str::trim)
                    .filter(|s| !s.is_empty())
                    .map(str::to_string),
            );
        }
        Field::Foa => rec.foa_title = (!v.is_empty()).then(|| v.to_string()),
        Field::Rating(c) => rec.category_mut(c).rating = number::<u16>(v)?.filter(|&r| r > 0),
        Field::Games(c) => rec.category_mut(c).games = number::<u16>(v)?,
        Field::K(c) => rec.category_mut(c).k = number::<u8>(v)?,
        Field::Birth => rec.birth_year = number::<u16>(v)?.filter(|&y| y > 0),
        Field::Flag => {
            let (mut i, mut w) = (false, false);
            for ch in v.chars() {
                match ch {
                    'i' | 'I' => i = true,
                    'w' | 'W' => w = true,
                    ' ' => {}
                    _ => return Err("unknown flag"),
                }
            }
            rec.inactive = i;
            rec.woman_flag = w;
        }
    }
    Ok(())
}

fn title(v: &str) -> Result<Option<Title>, &'static str> {
    if v.is_empty() {
        Ok(None)
    } else {
        Title::from_code(v).map(Some).ok_or("unknown title")
    }
}
