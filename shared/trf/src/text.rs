//! Decoding, line splitting and column access.
//!
//! TRF is a fixed-column format defined on characters, but files arrive as bytes from many
//! programs: UTF-8 with or without BOM, Windows-1252, CR (as the 2006 text demands), LF or
//! CR LF. Everything here exists so that the record parsers can ask for "columns 92-95" and
//! get the same answer whatever the file's origin.

use crate::model::LineEnding;

/// The character encoding a byte input was decoded with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Encoding {
    #[default]
    /// UTF-8 (a byte order mark, if any, removed).
    Utf8,
    /// Not valid UTF-8: decoded as Windows-1252 (Latin-1 plus the printable 0x80-0x9F range).
    Windows1252,
}

/// Windows-1252 characters for bytes 0x80..=0x9F; the five undefined bytes map to the C1
/// controls as in Latin-1.
const CP1252_HIGH: [char; 32] = [
    '\u{20AC}', '\u{0081}', '\u{201A}', '\u{0192}', '\u{201E}', '\u{2026}', '\u{2020}', '\u{2021}',
    '\u{02C6}', '\u{2030}', '\u{0160}', '\u{2039}', '\u{0152}', '\u{008D}', '\u{017D}', '\u{008F}',
    '\u{0090}', '\u{2018}', '\u{2019}', '\u{201C}', '\u{201D}', '\u{2022}', '\u{2013}', '\u{2014}',
    '\u{02DC}', '\u{2122}', '\u{0161}', '\u{203A}', '\u{0153}', '\u{009D}', '\u{017E}', '\u{0178}',
];

/// Strips a UTF-8 BOM and decodes; falls back to Windows-1252 when the bytes are not UTF-8.
pub fn decode(bytes: &[u8]) -> (String, Encoding) {
    let bytes = bytes.strip_prefix(&[0xEF, 0xBB, 0xBF]).unwrap_or(bytes);
    match std::str::from_utf8(bytes) {
        Ok(s) => (s.to_string(), Encoding::Utf8),
        Err(_) => {
            let s = bytes
                .iter()
                .map(|&b| match b {
                    0x80..=0x9F => CP1252_HIGH[usize::from(b - 0x80)],
                    _ => char::from(b),
                })
                .collect();
            (s, Encoding::Windows1252)
        }
    }
}

/// Splits on CR LF, LF or lone CR. Returns the lines (without terminators) and the first
/// terminator seen (CR LF when there is none). A final terminator does not start a new line.
pub fn split_lines(text: &str) -> (Vec<&str>, LineEnding) {
    let text = text.strip_prefix('\u{FEFF}').unwrap_or(text);
    let mut lines = Vec::new();
    let mut ending: Option<LineEnding> = None;
    let bytes = text.as_bytes();
    let mut start = 0;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\n' => {
                lines.push(&text[start..i]);
                ending.get_or_insert(LineEnding::Lf);
                i += 1;
                start = i;
            }
            b'\r' => {
                lines.push(&text[start..i]);
                if bytes.get(i + 1) == Some(&b'\n') {
                    ending.get_or_insert(LineEnding::CrLf);
                    i += 2;
                } else {
                    ending.get_or_insert(LineEnding::Cr);
                    i += 1;
                }
                start = i;
            }
            _ => i += 1,
        }
    }
    if start < bytes.len() {
        lines.push(&text[start..]);
    }
    (lines, ending.unwrap_or_default())
}

/// Placeholder for the extra columns a multi-byte character occupies when a writer counted
/// bytes instead of characters (lenient re-alignment only).
pub(crate) const FILLER: char = '\u{FFFF}';

/// One decoded line with 1-based column access; trailing white space removed.
#[derive(Debug, Clone)]
pub(crate) struct Line {
    pub no: usize,
    pub chars: Vec<char>,
    /// Set on [`Line::byte_columns`] copies: [`FILLER`] columns are then not part of any text.
    filler: bool,
}

impl Line {
    pub fn new(no: usize, text: &str) -> Line {
        Line {
            no,
            chars: text.trim_end().chars().collect(),
            filler: false,
        }
    }

    /// The same line with every multi-byte character followed by filler columns, i.e. the
    /// column layout a byte-counting writer produced.
    pub fn byte_columns(&self) -> Line {
        let mut chars = Vec::with_capacity(self.chars.len());
        for &c in &self.chars {
            chars.push(c);
            chars.extend(std::iter::repeat_n(FILLER, c.len_utf8() - 1));
        }
        Line {
            no: self.no,
            chars,
            filler: true,
        }
    }

    pub fn len(&self) -> usize {
        self.chars.len()
    }

    pub fn is_ascii(&self) -> bool {
        self.chars.iter().all(|c| c.is_ascii())
    }

    /// The character at column `col` (1-based); blank beyond the end.
    pub fn at(&self, col: usize) -> char {
        col.checked_sub(1)
            .and_then(|i| self.chars.get(i))
            .copied()
            .unwrap_or(' ')
    }

    /// Columns `a..=b` (1-based), padded with blanks beyond the end of the line.
    pub fn cols(&self, a: usize, b: usize) -> String {
        (a..=b)
            .map(|c| self.at(c))
            .filter(|&c| !(self.filler && c == FILLER))
            .collect()
    }

    /// Everything from column `a` on.
    pub fn rest(&self, a: usize) -> String {
        if a == 0 || a > self.chars.len() {
            return String::new();
        }
        self.chars[a - 1..]
            .iter()
            .filter(|&&c| !(self.filler && c == FILLER))
            .collect()
    }

    /// What columns `a..=b` hold, for error messages.
    pub fn found(&self, a: usize, b: usize) -> crate::error::Found {
        if self.len() < a {
            return crate::error::Found::EndOfLine;
        }
        let s = self.cols(a, b);
        let t = s.trim();
        if t.is_empty() {
            crate::error::Found::Blank
        } else {
            crate::error::Found::Text(t.to_string())
        }
    }

    /// White-space separated tokens from column `from` on, with their column ranges.
    pub fn tokens(&self, from: usize) -> Vec<(String, usize, usize)> {
        let mut out = Vec::new();
        let mut cur: Option<(String, usize)> = None;
        for col in from.max(1)..=self.len() {
            let c = self.at(col);
            if c.is_whitespace() {
                if let Some((s, a)) = cur.take() {
                    out.push((s, a, col - 1));
                }
            } else {
                match &mut cur {
                    Some((s, _)) => s.push(c),
                    None => cur = Some((c.to_string(), col)),
                }
            }
        }
        if let Some((s, a)) = cur {
            out.push((s, a, self.len()));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_all_line_ends() {
        assert_eq!(
            split_lines("a\r\nb\r\n"),
            (vec!["a", "b"], LineEnding::CrLf)
        );
        assert_eq!(split_lines("a\nb"), (vec!["a", "b"], LineEnding::Lf));
        assert_eq!(split_lines("a\rb\r"), (vec!["a", "b"], LineEnding::Cr));
        assert_eq!(
            split_lines("a\n\nb\n"),
            (vec!["a", "", "b"], LineEnding::Lf)
        );
    }

    #[test]
    fn decodes_latin1_and_strips_bom() {
        assert_eq!(
            decode(b"\xEF\xBB\xBF012 x"),
            ("012 x".to_string(), Encoding::Utf8)
        );
        assert_eq!(
            decode(b"G\xF6rz \x80"),
            ("G\u{f6}rz \u{20ac}".to_string(), Encoding::Windows1252)
        );
    }

    #[test]
    fn columns_are_characters() {
        let l = Line::new(1, "001 é23");
        assert_eq!(l.cols(5, 7), "é23");
        assert_eq!(l.byte_columns().cols(5, 8), "é23");
        assert_eq!(l.cols(8, 10), "   ");
        assert_eq!(
            l.tokens(1),
            vec![("001".into(), 1, 3), ("é23".into(), 5, 7)]
        );
    }
}
