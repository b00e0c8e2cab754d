//! The XML rating lists: a flat `<playerslist>` of `<player>` elements.

use super::{Field, ListError, ListRecord, MAX_LINE_BYTES, set_field};
use crate::rules::Category;
use std::io::BufRead;

/// Reads an XML rating list, one record per `<player>` element.
pub struct XmlListReader<R> {
    reader: R,
    single: Category,
    line: u64,
    column: u64,
    done: bool,
    /// Inside a `<player>` element (its end tag not yet read).
    in_player: bool,
    name: Vec<u8>,
    value: Vec<u8>,
    text: String,
}

/// What the scanner found after a `<`.
enum Tag {
    Start {
        self_closing: bool,
    },
    End,
    /// Declaration, processing instruction, comment, doctype.
    Other,
}

impl<R: BufRead> XmlListReader<R> {
    /// `single_category` receives the `rating`, `games` and `k` elements (standard for the
    /// combined list, whose other categories have `rapid_`/`blitz_` tags).
    pub fn new(reader: R, single_category: Category) -> XmlListReader<R> {
        XmlListReader {
            reader,
            single: single_category,
            line: 1,
            column: 1,
            done: false,
            in_player: false,
            name: Vec::new(),
            value: Vec::new(),
            text: String::new(),
        }
    }

    fn io(&self, source: std::io::Error) -> ListError {
        ListError::Io {
            line: self.line,
            source,
        }
    }

    fn syntax(&self, message: impl Into<String>) -> ListError {
        ListError::Syntax {
            line: self.line,
            column: self.column,
            message: message.into(),
        }
    }

    fn peek(&mut self) -> Result<Option<u8>, ListError> {
        loop {
            match self.reader.fill_buf() {
                Ok(b) => return Ok(b.first().copied()),
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(self.io(e)),
            }
        }
    }

    fn bump(&mut self) -> Result<Option<u8>, ListError> {
        let b = self.peek()?;
        if let Some(c) = b {
            self.reader.consume(1);
            if c == b'\n' {
                self.line += 1;
                self.column = 1;
            } else if c & 0xC0 != 0x80 {
                self.column += 1;
            }
        }
        Ok(b)
    }

    /// Skips to the next `<` and consumes it; `false` at end of input. Non-blank text is an
    /// error when `strict`.
    fn next_tag(&mut self, strict: bool) -> Result<bool, ListError> {
        loop {
            match self.bump()? {
                None => return Ok(false),
                Some(b'<') => return Ok(true),
                Some(c) if strict && !c.is_ascii_whitespace() => {
                    return Err(self.syntax("text outside a field"));
                }
                Some(_) => {}
            }
        }
    }

    /// Skips input up to and including `end`.
    fn skip_past(&mut self, end: &[u8]) -> Result<(), ListError> {
        let mut matched = 0;
        while matched < end.len() {
            match self.bump()? {
                None => {
                    return Err(self.syntax(format!(
                        "unterminated markup, expected {:?}",
                        String::from_utf8_lossy(end)
                    )));
                }
                Some(c) if c == end[matched] => matched += 1,
                Some(c) => matched = usize::from(c == end[0]),
            }
        }
        Ok(())
    }

    /// After a `<`: reads the tag name into `self.name` and classifies it.
    fn tag(&mut self) -> Result<Tag, ListError> {
        self.name.clear();
        match self.peek()? {
            Some(b'?') => {
                self.skip_past(b"?>")?;
                return Ok(Tag::Other);
            }
            Some(b'!') => {
                self.bump()?;
                if self.peek()? == Some(b'-') {
                    self.skip_past(b"-->")?;
                } else {
                    self.skip_past(b">")?;
                }
                return Ok(Tag::Other);
            }
            _ => {}
        }
        let end = if self.peek()? == Some(b'/') {
            self.bump()?;
            true
        } else {
            false
        };
        loop {
            match self.peek()? {
                Some(c) if c.is_ascii_alphanumeric() || matches!(c, b'_' | b'-' | b':' | b'.') => {
                    if self.name.len() >= 64 {
                        return Err(self.syntax("tag name too long"));
                    }
                    self.name.push(c);
                    self.bump()?;
                }
                _ => break,
            }
        }
        if self.name.is_empty() {
            return Err(self.syntax("expected a tag name"));
        }
        // Attributes are ignored; find the end of the tag.
        let mut prev = 0u8;
        let mut quote: Option<u8> = None;
        loop {
            let Some(c) = self.bump()? else {
                return Err(self.syntax("unterminated tag"));
            };
            match quote {
                Some(q) if c == q => quote = None,
                Some(_) => {}
                None if c == b'"' || c == b'\'' => quote = Some(c),
                None if c == b'>' => break,
                None => {}
            }
            prev = c;
        }
        Ok(if end {
            Tag::End
        } else {
            Tag::Start {
                self_closing: prev == b'/',
            }
        })
    }

    fn field_of(&self) -> Option<Field> {
        let c = self.single;
        Some(match self.name.as_slice() {
            b"fideid" => Field::Id,
            b"name" => Field::Name,
            b"country" => Field::Fed,
            b"sex" => Field::Sex,
            b"title" => Field::Title,
            b"w_title" => Field::WomenTitle,
            b"o_title" => Field::OtherTitles,
            b"foa_title" => Field::Foa,
            b"rating" => Field::Rating(c),
            b"games" => Field::Games(c),
            b"k" => Field::K(c),
            b"rapid_rating" => Field::Rating(Category::Rapid),
            b"rapid_games" => Field::Games(Category::Rapid),
            b"rapid_k" => Field::K(Category::Rapid),
            b"blitz_rating" => Field::Rating(Category::Blitz),
            b"blitz_games" => Field::Games(Category::Blitz),
            b"blitz_k" => Field::K(Category::Blitz),
            b"birthday" => Field::Birth,
            b"flag" => Field::Flag,
            _ => return None,
        })
    }

    /// Reads a field's text up to its `<`, which is consumed. Returns the start position.
    fn field_text(&mut self) -> Result<(u64, u64), ListError> {
        self.value.clear();
        let start = (self.line, self.column);
        loop {
            match self.bump()? {
                None => return Err(self.syntax("unterminated field")),
                Some(b'<') => return Ok(start),
                Some(c) => {
                    if self.value.len() >= MAX_LINE_BYTES {
                        return Err(
                            self.syntax(format!("field value longer than {MAX_LINE_BYTES} bytes"))
                        );
                    }
                    self.value.push(c);
                }
            }
        }
    }

    /// Decodes `self.value` (UTF-8, entities) into `self.text`.
    fn decode_value(&mut self) -> Result<(), &'static str> {
        self.text.clear();
        let s = std::str::from_utf8(&self.value).map_err(|_| "not UTF-8")?;
        let mut rest = s;
        while let Some(i) = rest.find('&') {
            self.text.push_str(&rest[..i]);
            let after = &rest[i + 1..];
            let semi = after.find(';').filter(|&j| j <= 10).ok_or("bad entity")?;
            let ent = &after[..semi];
            let ch = match ent {
                "amp" => '&',
                "lt" => '<',
                "gt" => '>',
                "quot" => '"',
                "apos" => '\'',
                _ => {
                    let code = if let Some(h) =
                        ent.strip_prefix("#x").or_else(|| ent.strip_prefix("#X"))
                    {
                        u32::from_str_radix(h, 16).ok()
                    } else if let Some(d) = ent.strip_prefix('#') {
                        d.parse().ok()
                    } else {
                        None
                    };
                    code.and_then(char::from_u32).ok_or("bad entity")?
                }
            };
            self.text.push(ch);
            rest = &after[semi + 1..];
        }
        self.text.push_str(rest);
        Ok(())
    }

    /// Reads the body of a `<player>` element (its start tag consumed).
    fn player(&mut self) -> Result<ListRecord, ListError> {
        let mut rec = ListRecord::default();
        let mut have_id = false;
        self.in_player = true;
        loop {
            if !self.next_tag(true)? {
                return Err(self.syntax("unterminated <player>"));
            }
            match self.tag()? {
                Tag::Other => continue,
                Tag::End if self.name == b"player" => {
                    self.in_player = false;
                    break;
                }
                Tag::End => {
                    return Err(self.syntax(format!(
                        "unexpected </{}>",
                        String::from_utf8_lossy(&self.name)
                    )));
                }
                Tag::Start { self_closing } => {
                    let field = self.field_of();
                    let tag = self.name.clone();
                    let (line, column) = if self_closing {
                        self.value.clear();
                        (self.line, self.column)
                    } else {
                        let pos = self.field_text()?;
                        match self.tag()? {
                            Tag::End if self.name == tag => {}
                            _ => {
                                return Err(self.syntax(format!(
                                    "expected </{}> (fields hold text only)",
                                    String::from_utf8_lossy(&tag)
                                )));
                            }
                        }
                        pos
                    };
                    let Some(field) = field else { continue };
                    let bad = |message: &'static str, text: String| ListError::Field {
                        line,
                        column,
                        field: field.name(),
                        message,
                        text,
                    };
                    if let Err(m) = self.decode_value() {
                        return Err(bad(m, String::from_utf8_lossy(&self.value).into_owned()));
                    }
                    let v = self.text.trim();
                    set_field(&mut rec, field, v).map_err(|m| bad(m, v.to_string()))?;
                    have_id |= field == Field::Id;
                }
            }
        }
        if !have_id {
            return Err(ListError::Field {
                line: self.line,
                column: self.column,
                field: Field::Id.name(),
                message: "missing FIDE id",
                text: String::new(),
            });
        }
        Ok(rec)
    }

    /// After an error inside a `<player>`, skips to just past its `</player>`.
    fn recover(&mut self) -> Result<(), ListError> {
        self.skip_past(b"</player>")?;
        Ok(())
    }
}

impl<R: BufRead> Iterator for XmlListReader<R> {
    type Item = Result<ListRecord, ListError>;

    fn next(&mut self) -> Option<Self::Item> {
        while !self.done {
            let step = (|| -> Result<Option<ListRecord>, ListError> {
                if !self.next_tag(false)? {
                    self.done = true;
                    return Ok(None);
                }
                match self.tag()? {
                    Tag::Start {
                        self_closing: false,
                    } if self.name == b"player" => self.player().map(Some),
                    _ => Ok(None),
                }
            })();
            match step {
                Ok(Some(rec)) => return Some(Ok(rec)),
                Ok(None) => continue,
                Err(e) => {
                    if e.is_fatal() {
                        self.done = true;
                    } else if self.in_player {
                        self.in_player = false;
                        if self.recover().is_err() {
                            self.done = true;
                        }
                    }
                    return Some(Err(e));
                }
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::title::{Sex, Title};

    const SAMPLE: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<playerslist>
<!-- a comment -->
<player>
<fideid>1503014</fideid>
<name>Carlsen, Magnus</name>
<country>NOR</country>
<sex>M</sex>
<title>GM</title>
<w_title></w_title>
<o_title></o_title>
<foa_title></foa_title>
<rating>2833</rating>
<games>9</games>
<k>10</k>
<rapid_rating>2824</rapid_rating>
<rapid_games>0</rapid_games>
<rapid_k>10</rapid_k>
<blitz_rating>2886</blitz_rating>
<blitz_games>0</blitz_games>
<blitz_k>10</blitz_k>
<birthday>1990</birthday>
<flag></flag>
</player>
<player><fideid>99999001</fideid><name>O&apos;Brien &amp; Co, S&#233;an</name><country>IRL</country><sex>F</sex><title/><w_title>WIM</w_title><o_title>FA,IO</o_title><foa_title>AFM</foa_title><rating>0</rating><games></games><k></k><birthday>2010</birthday><flag>wi</flag><extra attr="x">ignored</extra></player>
</playerslist>
"#;

    #[test]
    fn reads_players() {
        let recs: Vec<ListRecord> = XmlListReader::new(SAMPLE.as_bytes(), Category::Standard)
            .map(Result::unwrap)
            .collect();
        assert_eq!(recs.len(), 2);
        let c = &recs[0];
        assert_eq!(
            (c.fide_id, c.name.as_str(), c.federation.unwrap().as_str()),
            (1503014, "Carlsen, Magnus", "NOR")
        );
        assert_eq!(
            (c.sex, c.title, c.birth_year),
            (Some(Sex::Male), Some(Title::GM), Some(1990))
        );
        assert_eq!(
            (c.standard.rating, c.standard.games, c.standard.k),
            (Some(2833), Some(9), Some(10))
        );
        assert_eq!((c.rapid.rating, c.blitz.rating), (Some(2824), Some(2886)));
        let o = &recs[1];
        assert_eq!(o.name, "O'Brien & Co, Séan");
        assert_eq!((o.title, o.women_title), (None, Some(Title::WIM)));
        assert_eq!(o.other_titles, vec!["FA".to_string(), "IO".to_string()]);
        assert_eq!(o.foa_title.as_deref(), Some("AFM"));
        assert_eq!(o.standard, Default::default());
        assert!(o.inactive && o.woman_flag);
    }

    #[test]
    fn single_category_list() {
        let xml = "<playerslist><player><fideid>7</fideid><rating>1500</rating><k>20</k></player></playerslist>";
        let r = XmlListReader::new(xml.as_bytes(), Category::Blitz)
            .next()
            .unwrap()
            .unwrap();
        assert_eq!(
            (r.blitz.rating, r.blitz.k, r.standard.rating),
            (Some(1500), Some(20), None)
        );
    }

    #[test]
    fn errors_have_positions_and_reading_continues() {
        let xml = "<playerslist>\n<player>\n<fideid>1</fideid>\n<rating>2x</rating>\n</player>\n\
                   <player><fideid>2</fideid></player>\n\
                   <player><name>No id</name></player>\n\
                   <player><fideid>4</fideid><name><b>x</b></name></player>\n\
                   <player><fideid>5</fideid><country>ESPANA</country></player>\n\
                   <player><fideid>6</fideid></player>\n</playerslist>\n";
        let out: Vec<_> = XmlListReader::new(xml.as_bytes(), Category::Standard).collect();
        assert_eq!(out.len(), 6, "{out:?}");
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
                    (4, 9, "standard_rating", "2x")
                );
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(out[1].as_ref().unwrap().fide_id, 2);
        assert!(matches!(
            &out[2],
            Err(ListError::Field {
                line: 7,
                field: "fide_id",
                ..
            })
        ));
        assert!(matches!(&out[3], Err(ListError::Syntax { line: 8, .. })));
        assert!(matches!(
            &out[4],
            Err(ListError::Field {
                line: 9,
                field: "federation",
                ..
            })
        ));
        assert_eq!(out[5].as_ref().unwrap().fide_id, 6);
    }

    #[test]
    fn truncated_input_ends_with_an_error() {
        let xml = "<playerslist><player><fideid>1</fideid><name>Cut";
        let out: Vec<_> = XmlListReader::new(xml.as_bytes(), Category::Standard).collect();
        assert_eq!(out.len(), 1);
        assert!(matches!(&out[0], Err(ListError::Syntax { .. })));
    }
}
