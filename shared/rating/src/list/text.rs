//! The fixed-width text rating lists.

use super::{Field, ListError, ListRecord, MAX_LINE_BYTES, set_field};
use crate::rules::Category;
use crate::title::Federation;
use std::borrow::Cow;
use std::io::BufRead;

/// The column layout of a text list, derived from its header line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TextLayout {
    columns: Vec<Column>,
    /// Header labels that were not recognised, with their columns (1-based), skipped.
    pub unknown_labels: Vec<(String, usize)>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Column {
    field: Field,
    label_start: usize,
    start: usize,
    end: Option<usize>,
}

impl TextLayout {
    /// Derives the layout from a header line such as
    /// `ID Number      Name ... Fed Sex Tit  WTit OTit           FOA SRtng SGm SK ... B-day Flag`.
    /// `single_category` is the category of the month-headed rating column (and of `Gms`, `K`)
    /// in a per-category list.
    pub fn from_header(header: &str, single_category: Category) -> Result<TextLayout, String> {
        let chars: Vec<char> = header.chars().collect();
        // Labels: runs of non-blank characters; "ID" followed by "Number" is one label.
        let mut labels: Vec<(usize, String)> = Vec::new();
        let mut i = 0;
        while i < chars.len() {
            if chars[i].is_whitespace() {
                i += 1;
                continue;
            }
            let start = i;
            while i < chars.len() && !chars[i].is_whitespace() {
                i += 1;
            }
            let word: String = chars[start..i].iter().collect();
            if word.eq_ignore_ascii_case("number")
                && labels
                    .last()
                    .is_some_and(|(_, l)| l.eq_ignore_ascii_case("id"))
            {
                labels.last_mut().unwrap().1 = "ID Number".into();
                continue;
            }
            labels.push((start, word));
        }
        let mut columns = Vec::new();
        let mut unknown = Vec::new();
        for (start, label) in &labels {
            match field_of_label(label, single_category) {
                Some(f) => {
                    if columns.iter().any(|c: &Column| c.field == f) {
                        return Err(format!("column {label:?} appears twice"));
                    }
                    columns.push(Column {
                        field: f,
                        label_start: *start,
                        start: *start,
                        end: None,
                    });
                }
                None => unknown.push((label.clone(), start + 1)),
            }
        }
        // Each column runs to the next label (known or not).
        let starts: Vec<usize> = labels.iter().map(|(s, _)| *s).collect();
        for c in &mut columns {
            c.end = starts.iter().copied().find(|&s| s > c.label_start);
        }
        // The identifier column starts the line.
        if let Some(c) = columns.iter_mut().find(|c| c.field == Field::Id) {
            c.start = 0;
        }
        for need in [Field::Id, Field::Name, Field::Fed] {
            if !columns.iter().any(|c| c.field == need) {
                return Err(format!(
                    "no {} column (labels: {:?})",
                    need.name(),
                    labels.iter().map(|l| &l.1).collect::<Vec<_>>()
                ));
            }
        }
        Ok(TextLayout {
            columns,
            unknown_labels: unknown,
        })
    }

    /// `(field name, first column, end column exclusive)`, 0-based character positions.
    pub fn columns(&self) -> impl Iterator<Item = (&'static str, usize, Option<usize>)> + '_ {
        self.columns
            .iter()
            .map(|c| (c.field.name(), c.start, c.end))
    }

    fn column(&self, f: Field) -> Option<&Column> {
        self.columns.iter().find(|c| c.field == f)
    }
}

fn field_of_label(label: &str, single: Category) -> Option<Field> {
    use Category::*;
    let l = label.to_ascii_lowercase();
    Some(match l.as_str() {
        "id number" | "id" | "fide id" => Field::Id,
        "name" => Field::Name,
        "fed" => Field::Fed,
        "sex" => Field::Sex,
        "tit" => Field::Title,
        "wtit" => Field::WomenTitle,
        "otit" => Field::OtherTitles,
        "foa" => Field::Foa,
        "srtng" => Field::Rating(Standard),
        "rrtng" => Field::Rating(Rapid),
        "brtng" => Field::Rating(Blitz),
        "sgm" => Field::Games(Standard),
        "rgm" => Field::Games(Rapid),
        "bgm" => Field::Games(Blitz),
        "sk" => Field::K(Standard),
        "rk" => Field::K(Rapid),
        "bk" => Field::K(Blitz),
        "gms" | "games" => Field::Games(single),
        "k" => Field::K(single),
        "b-day" | "bday" | "born" => Field::Birth,
        "flag" => Field::Flag,
        _ if is_month_label(&l) => Field::Rating(single),
        _ => return None,
    })
}

/// `mar25`, `sep26`: the rating column of a per-category list.
fn is_month_label(l: &str) -> bool {
    const MONTHS: [&str; 12] = [
        "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
    ];
    l.len() == 5 && MONTHS.contains(&&l[..3]) && l[3..].bytes().all(|b| b.is_ascii_digit())
}

/// Reads a fixed-width text rating list, one record per line.
pub struct TextListReader<R> {
    reader: R,
    layout: TextLayout,
    line: u64,
    buf: Vec<u8>,
    text: String,
    offsets: Vec<usize>,
    done: bool,
}

/// How a line's columns map to its text.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Slicing {
    /// One byte per column (ASCII, Latin-1 read as such, or UTF-8 padded by bytes).
    Bytes,
    /// One character per column.
    Chars,
}

impl<R: BufRead> TextListReader<R> {
    /// Reads the header (the first non-blank line) and derives the layout from it.
    pub fn new(mut reader: R, single_category: Category) -> Result<TextListReader<R>, ListError> {
        let mut buf = Vec::new();
        let mut line = 0u64;
        loop {
            line += 1;
            match read_line(&mut reader, &mut buf) {
                Err(source) => return Err(ListError::Io { line, source }),
                Ok(None) => {
                    return Err(ListError::Header {
                        line,
                        message: "empty input".into(),
                    });
                }
                Ok(Some(true)) => {
                    return Err(ListError::TooLong {
                        line,
                        max: MAX_LINE_BYTES,
                    });
                }
                Ok(Some(false)) => {}
            }
            if buf.iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            let header = decode(&buf);
            let header = header.trim_start_matches('\u{feff}');
            let layout = TextLayout::from_header(header, single_category)
                .map_err(|message| ListError::Header { line, message })?;
            return Ok(TextListReader {
                reader,
                layout,
                line,
                buf,
                text: String::new(),
                offsets: Vec::new(),
                done: false,
            });
        }
    }

    pub fn layout(&self) -> &TextLayout {
        &self.layout
    }

    /// The number of the last line read (1-based).
    pub fn line(&self) -> u64 {
        self.line
    }

    fn parse_line(&mut self) -> Result<ListRecord, ListError> {
        let line = self.line;
        self.text.clear();
        self.offsets.clear();
        let mut slicing = Slicing::Bytes;
        match std::str::from_utf8(&self.buf) {
            Ok(s) => {
                self.text.push_str(s);
                if !s.is_ascii() {
                    slicing = Slicing::Chars;
                }
            }
            Err(_) => {
                self.text.extend(self.buf.iter().map(|&b| b as char));
                slicing = Slicing::Chars;
            }
        }
        if slicing == Slicing::Chars {
            self.offsets
                .extend(self.text.char_indices().map(|(i, _)| i));
            self.offsets.push(self.text.len());
            // A UTF-8 line padded by bytes: the federation column only lines up by bytes.
            if std::str::from_utf8(&self.buf).is_ok()
                && let Some(fed) = self.layout.column(Field::Fed)
            {
                let ok = |s: &str| s.trim().is_empty() || Federation::new(s).is_some();
                let by_chars = slice(
                    &self.text,
                    &self.offsets,
                    Slicing::Chars,
                    fed.start,
                    fed.end,
                )
                .0;
                let by_bytes = slice(
                    &self.text,
                    &self.offsets,
                    Slicing::Bytes,
                    fed.start,
                    fed.end,
                )
                .0;
                if !ok(&by_chars) && ok(&by_bytes) {
                    slicing = Slicing::Bytes;
                }
            }
        }
        let mut rec = ListRecord::default();
        for c in &self.layout.columns {
            let (raw, _) = slice(&self.text, &self.offsets, slicing, c.start, c.end);
            let lead = raw.len() - raw.trim_start().len();
            let v = raw.trim();
            if let Err(message) = set_field(&mut rec, c.field, v) {
                return Err(ListError::Field {
                    line,
                    column: (c.start + lead + 1) as u64,
                    field: c.field.name(),
                    message,
                    text: v.to_string(),
                });
            }
        }
        Ok(rec)
    }
}

impl<R: BufRead> Iterator for TextListReader<R> {
    type Item = Result<ListRecord, ListError>;

    fn next(&mut self) -> Option<Self::Item> {
        while !self.done {
            self.line += 1;
            match read_line(&mut self.reader, &mut self.buf) {
                Err(source) => {
                    self.done = true;
                    return Some(Err(ListError::Io {
                        line: self.line,
                        source,
                    }));
                }
                Ok(None) => self.done = true,
                Ok(Some(true)) => {
                    return Some(Err(ListError::TooLong {
                        line: self.line,
                        max: MAX_LINE_BYTES,
                    }));
                }
                Ok(Some(false)) => {
                    if self.buf.iter().all(u8::is_ascii_whitespace) {
                        continue;
                    }
                    return Some(self.parse_line());
                }
            }
        }
        None
    }
}

/// The text of columns `start..end` (0-based) and its byte offset in `text`.
fn slice<'a>(
    text: &'a str,
    offsets: &[usize],
    how: Slicing,
    start: usize,
    end: Option<usize>,
) -> (Cow<'a, str>, usize) {
    match how {
        Slicing::Bytes => {
            let b = text.as_bytes();
            let a = start.min(b.len());
            let z = end.unwrap_or(b.len()).min(b.len()).max(a);
            (String::from_utf8_lossy(&b[a..z]), a)
        }
        Slicing::Chars => {
            let n = offsets.len() - 1; // characters
            let a = offsets[start.min(n)];
            let z = offsets[end.unwrap_or(n).min(n)].max(a);
            (Cow::Borrowed(&text[a..z]), a)
        }
    }
}

/// UTF-8 if valid, else Latin-1.
fn decode(b: &[u8]) -> Cow<'_, str> {
    match std::str::from_utf8(b) {
        Ok(s) => Cow::Borrowed(s),
        Err(_) => Cow::Owned(b.iter().map(|&c| c as char).collect()),
    }
}

/// Reads one line (without its terminator) into `buf`, keeping at most [`MAX_LINE_BYTES`].
/// `Ok(None)` at end of input; `Ok(Some(too_long))` otherwise.
fn read_line<R: BufRead>(r: &mut R, buf: &mut Vec<u8>) -> std::io::Result<Option<bool>> {
    buf.clear();
    let mut any = false;
    let mut too_long = false;
    loop {
        let avail = match r.fill_buf() {
            Ok(a) => a,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if avail.is_empty() {
            break;
        }
        any = true;
        let (chunk, used, end) = match avail.iter().position(|&b| b == b'\n') {
            Some(i) => (&avail[..i], i + 1, true),
            None => (avail, avail.len(), false),
        };
        let room = MAX_LINE_BYTES.saturating_sub(buf.len());
        if chunk.len() > room {
            too_long = true;
        }
        buf.extend_from_slice(&chunk[..chunk.len().min(room)]);
        r.consume(used);
        if end {
            break;
        }
    }
    if !any {
        return Ok(None);
    }
    if buf.last() == Some(&b'\r') {
        buf.pop();
    }
    Ok(Some(too_long))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::title::{Sex, Title};

    const COMBINED: &str = "ID Number      Name                                                         Fed Sex Tit  WTit OTit           FOA SRtng SGm SK RRtng RGm Rk BRtng BGm BK B-day Flag";
    const SINGLE: &str = "ID Number      Name                                                         Fed Sex Tit  WTit OTit           FOA JAN23 Gms K  B-day Flag";

    /// Builds a line by placing values at character columns.
    fn line(parts: &[(usize, &str)]) -> String {
        let mut chars: Vec<char> = Vec::new();
        for &(at, v) in parts {
            if chars.len() < at {
                chars.resize(at, ' ');
            }
            for (i, c) in v.chars().enumerate() {
                if at + i < chars.len() {
                    chars[at + i] = c;
                } else {
                    chars.push(c);
                }
            }
        }
        chars.into_iter().collect()
    }

    #[test]
    fn layout_from_combined_header() {
        let l = TextLayout::from_header(COMBINED, Category::Standard).unwrap();
        let cols: Vec<_> = l.columns().collect();
        assert_eq!(cols[0], ("fide_id", 0, Some(15)));
        assert_eq!(cols[1], ("name", 15, Some(76)));
        assert_eq!(cols[2], ("federation", 76, Some(80)));
        assert!(cols.contains(&("standard_rating", 113, Some(119))));
        assert!(cols.contains(&("blitz_k", 149, Some(152))));
        assert!(cols.contains(&("flag", 158, None)));
        assert!(l.unknown_labels.is_empty());
    }

    #[test]
    fn reads_combined_list() {
        let rows = [
            line(&[
                (0, "1503014"),
                (15, "Carlsen, Magnus"),
                (76, "NOR"),
                (80, "M"),
                (84, "GM"),
                (113, "2833"),
                (119, "9"),
                (123, "10"),
                (126, "2824"),
                (132, "0"),
                (136, "10"),
                (139, "2886"),
                (145, "0"),
                (149, "10"),
                (152, "1990"),
            ]),
            line(&[
                (0, "13603620"),
                (15, "Hou, Yifan"),
                (76, "CHN"),
                (80, "F"),
                (84, "GM"),
                (89, "WGM"),
                (94, "FT,IA"),
                (113, "2633"),
                (123, "10"),
                (152, "1994"),
                (158, "w"),
            ]),
            line(&[
                (0, "25121731"),
                (15, "Novice, Ana"),
                (76, "ESP"),
                (80, "F"),
                (152, "0000"),
                (158, "wi"),
            ]),
        ];
        let text = format!("{COMBINED}\n{}\r\n\n{}\n{}", rows[0], rows[1], rows[2]);
        let recs: Vec<ListRecord> = TextListReader::new(text.as_bytes(), Category::Standard)
            .unwrap()
            .map(Result::unwrap)
            .collect();
        assert_eq!(recs.len(), 3);
        let c = &recs[0];
        assert_eq!(
            (c.fide_id, c.name.as_str(), c.federation.unwrap().as_str()),
            (1503014, "Carlsen, Magnus", "NOR")
        );
        assert_eq!(
            (c.sex, c.title, c.birth_year),
            (Some(Sex::Male), Some(Title::GM), Some(1990))
        );
        assert_eq!(c.standard.rating, Some(2833));
        assert_eq!((c.standard.games, c.standard.k), (Some(9), Some(10)));
        assert_eq!(c.blitz.rating, Some(2886));
        let h = &recs[1];
        assert_eq!(
            (h.title, h.women_title),
            (Some(Title::GM), Some(Title::WGM))
        );
        assert_eq!(h.other_titles, vec!["FT".to_string(), "IA".to_string()]);
        assert!(h.woman_flag && !h.inactive);
        assert_eq!(h.rapid, Default::default());
        let n = &recs[2];
        assert_eq!(
            (n.birth_year, n.standard.rating, n.inactive, n.woman_flag),
            (None, None, true, true)
        );
    }

    #[test]
    fn reads_single_category_list_and_non_ascii_names() {
        let rows = [
            line(&[
                (0, "25121731"),
                (15, "A C J John"),
                (76, "IND"),
                (80, "M"),
                (113, "1063"),
                (119, "0"),
                (123, "40"),
                (126, "1987"),
                (132, "i"),
            ]),
            line(&[
                (0, "2200000"),
                (15, "Núñez, José"),
                (76, "ESP"),
                (80, "M"),
                (113, "1999"),
                (126, "1970"),
            ]),
        ];
        let text = format!("{SINGLE}\n{}\n{}\n", rows[0], rows[1]);
        let recs: Vec<ListRecord> = TextListReader::new(text.as_bytes(), Category::Rapid)
            .unwrap()
            .map(Result::unwrap)
            .collect();
        assert_eq!(
            recs[0].rapid,
            crate::list::CategoryRating {
                rating: Some(1063),
                games: Some(0),
                k: Some(40)
            }
        );
        assert!(recs[0].inactive);
        assert_eq!(recs[1].name, "Núñez, José");
        assert_eq!(recs[1].rapid.rating, Some(1999));
        // The same line padded by bytes (each accented letter takes two bytes of padding).
        let mut by_bytes = rows[1].clone().into_bytes();
        by_bytes.drain(73..76); // three accented letters: three spaces fewer, byte offsets match
        let text = [SINGLE.as_bytes(), b"\n", &by_bytes].concat();
        let rec = TextListReader::new(&text[..], Category::Rapid)
            .unwrap()
            .next()
            .unwrap()
            .unwrap();
        assert_eq!(
            (
                rec.name.as_str(),
                rec.federation.unwrap().as_str(),
                rec.rapid.rating
            ),
            ("Núñez, José", "ESP", Some(1999))
        );
        // Latin-1 bytes.
        let latin: Vec<u8> = rows[1].chars().map(|c| c as u32 as u8).collect();
        let text = [SINGLE.as_bytes(), b"\n", &latin].concat();
        let rec = TextListReader::new(&text[..], Category::Rapid)
            .unwrap()
            .next()
            .unwrap()
            .unwrap();
        assert_eq!(rec.name, "Núñez, José");
    }

    #[test]
    fn errors_name_line_column_and_field_and_reading_continues() {
        let rows = [
            line(&[(0, "1"), (15, "Bad, Rating"), (76, "ESP"), (113, "2x00")]),
            line(&[(0, "2"), (15, "Good"), (76, "ESP"), (113, "2000")]),
            line(&[(0, "3"), (15, "Bad, Fed"), (76, "E5P")]),
            line(&[(0, "x4"), (15, "Bad, Id"), (76, "ESP")]),
            line(&[(0, "5"), (15, "Bad, Title"), (76, "ESP"), (84, "XM")]),
        ];
        let text = format!(
            "{SINGLE}\n{}\n{}\n{}\n{}\n{}\n",
            rows[0], rows[1], rows[2], rows[3], rows[4]
        );
        let out: Vec<_> = TextListReader::new(text.as_bytes(), Category::Standard)
            .unwrap()
            .collect();
        assert_eq!(out.len(), 5);
        match &out[0] {
            Err(ListError::Field {
                line,
                column,
                field,
                text,
                ..
            }) => {
                assert_eq!(
                    (*line, *column, *field, text.as_str()),
                    (2, 114, "standard_rating", "2x00")
                );
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(out[1].as_ref().unwrap().standard.rating, Some(2000));
        assert!(matches!(
            &out[2],
            Err(ListError::Field {
                line: 4,
                column: 77,
                field: "federation",
                ..
            })
        ));
        assert!(matches!(
            &out[3],
            Err(ListError::Field {
                line: 5,
                column: 1,
                field: "fide_id",
                ..
            })
        ));
        assert!(matches!(
            &out[4],
            Err(ListError::Field {
                line: 6,
                column: 85,
                field: "title",
                ..
            })
        ));
        let msg = out[0].as_ref().unwrap_err().to_string();
        assert_eq!(
            msg,
            "line 2, column 114, field standard_rating: not a number: \"2x00\""
        );
    }

    #[test]
    fn header_problems() {
        let legacy = "ID number Name                              TitlFed  Mar11 GamesBorn  Flag\n";
        assert!(matches!(
            TextListReader::new(legacy.as_bytes(), Category::Standard),
            Err(ListError::Header { line: 1, .. })
        ));
        assert!(matches!(
            TextListReader::new(&b""[..], Category::Standard),
            Err(ListError::Header { .. })
        ));
        let long = format!("{SINGLE}\n{}\n1\n", "9".repeat(MAX_LINE_BYTES + 10));
        let out: Vec<_> = TextListReader::new(long.as_bytes(), Category::Standard)
            .unwrap()
            .collect();
        assert!(matches!(&out[0], Err(ListError::TooLong { line: 2, .. })));
        assert!(out[1].is_ok());
    }
}
