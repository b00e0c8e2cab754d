//! Generated rating lists in the published layouts, for tests and benchmarks: player `i` of a
//! list is [`record`]`(first_id, i)`, so a test can check what a lookup returns without
//! keeping the list in memory.

use arbiter_rating::list::{CategoryRating, ListRecord};
use arbiter_rating::{Federation, Sex, Title};
use std::io::{self, Write};

/// The header of the combined text list (`players_list_foa.txt`).
pub const TEXT_HEADER: &str = "ID Number      Name                                                         Fed Sex Tit  WTit OTit           FOA SRtng SGm SK RRtng RGm Rk BRtng BGm BK B-day Flag";

const FEDS: [&str; 10] = [
    "NOR", "ESP", "IND", "USA", "GER", "FRA", "CHN", "ARM", "BRA", "EGY",
];

/// Player `i` (0-based) of a generated list whose first FIDE id is `first_id`.
pub fn record(first_id: u64, i: u64) -> ListRecord {
    let woman = i % 4 == 1;
    let rating = |base: u64, spread: u64| 1400 + ((i * base) % spread) as u16;
    let standard = if i % 10 == 9 {
        CategoryRating::default()
    } else {
        CategoryRating {
            rating: Some(rating(7919, 1400)),
            games: Some((i % 9) as u16),
            k: Some(if i.is_multiple_of(5) { 40 } else { 20 }),
        }
    };
    let rapid = if i.is_multiple_of(3) {
        CategoryRating::default()
    } else {
        CategoryRating {
            rating: Some(rating(104_729, 1300)),
            games: Some((i % 13) as u16),
            k: Some(20),
        }
    };
    let blitz = if i.is_multiple_of(7) {
        CategoryRating {
            rating: Some(rating(1_299_709, 1200)),
            games: Some(0),
            k: Some(20),
        }
    } else {
        CategoryRating::default()
    };
    let title = match i % 50 {
        0 => Some(Title::GM),
        1 | 2 => Some(Title::IM),
        3..=6 => Some(Title::FM),
        7 => Some(Title::CM),
        _ => None,
    };
    let women_title = (woman && i % 6 == 5).then_some(Title::WIM);
    let name = if i.is_multiple_of(97) {
        format!("Núñez-{i}, José")
    } else if woman {
        format!("Player{i}, Anna")
    } else {
        format!("Player{i}, Test")
    };
    ListRecord {
        fide_id: first_id + i,
        name,
        federation: Federation::new(FEDS[(i % FEDS.len() as u64) as usize]),
        sex: Some(if woman { Sex::Female } else { Sex::Male }),
        title,
        women_title,
        other_titles: Vec::new(),
        foa_title: None,
        birth_year: (i % 11 != 10).then_some(1940 + (i % 70) as u16),
        standard,
        rapid,
        blitz,
        inactive: i % 8 == 3,
        woman_flag: woman,
    }
}

/// The first character of each label of `header`, in order (`ID Number` is one label).
fn label_starts(header: &str) -> Vec<usize> {
    let skip = if header.starts_with("ID Number") {
        "ID Number".len()
    } else {
        0
    };
    let mut starts = vec![0];
    let mut after_blank = false;
    for (j, c) in header.chars().enumerate().skip(skip) {
        if c != ' ' && after_blank {
            starts.push(j);
        }
        after_blank = c == ' ';
    }
    starts
}

fn opt<T: ToString>(v: Option<T>) -> String {
    v.map(|x| x.to_string()).unwrap_or_default()
}

/// The text line of a record in [`TEXT_HEADER`]'s layout (columns counted in characters).
pub fn text_line(r: &ListRecord) -> String {
    let starts = label_starts(TEXT_HEADER);
    let flag = format!(
        "{}{}",
        if r.woman_flag { "w" } else { "" },
        if r.inactive { "i" } else { "" }
    );
    let cells = [
        r.fide_id.to_string(),
        r.name.clone(),
        opt(r.federation),
        opt(r.sex.map(Sex::code)),
        opt(r.title.map(Title::code)),
        opt(r.women_title.map(Title::code)),
        r.other_titles.join(","),
        r.foa_title.clone().unwrap_or_default(),
        opt(r.standard.rating),
        opt(r.standard.games),
        opt(r.standard.k),
        opt(r.rapid.rating),
        opt(r.rapid.games),
        opt(r.rapid.k),
        opt(r.blitz.rating),
        opt(r.blitz.games),
        opt(r.blitz.k),
        opt(r.birth_year),
        flag,
    ];
    let mut line = String::with_capacity(200);
    let mut col = 0usize;
    for (start, cell) in starts.iter().zip(cells.iter()) {
        while col < *start {
            line.push(' ');
            col += 1;
        }
        line.push_str(cell);
        col += cell.chars().count();
    }
    line.trim_end().to_string()
}

/// Writes a combined text list of `players` players, ids from `first_id`.
pub fn write_text_list(mut w: impl Write, first_id: u64, players: u64) -> io::Result<()> {
    writeln!(w, "{TEXT_HEADER}")?;
    for i in 0..players {
        writeln!(w, "{}", text_line(&record(first_id, i)))?;
    }
    w.flush()
}

fn xml_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// Writes a combined XML list of `players` players, ids from `first_id`.
pub fn write_xml_list(mut w: impl Write, first_id: u64, players: u64) -> io::Result<()> {
    writeln!(w, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>")?;
    writeln!(w, "<playerslist>")?;
    for i in 0..players {
        let r = record(first_id, i);
        writeln!(w, "<player>")?;
        let field = |w: &mut dyn Write, tag: &str, v: String| writeln!(w, "<{tag}>{v}</{tag}>");
        field(&mut w, "fideid", r.fide_id.to_string())?;
        field(&mut w, "name", xml_escape(&r.name))?;
        field(&mut w, "country", opt(r.federation))?;
        field(&mut w, "sex", opt(r.sex.map(Sex::code)))?;
        field(&mut w, "title", opt(r.title.map(Title::code)))?;
        field(&mut w, "w_title", opt(r.women_title.map(Title::code)))?;
        field(&mut w, "o_title", String::new())?;
        field(&mut w, "foa_title", String::new())?;
        for (prefix, c) in [
            ("", &r.standard),
            ("rapid_", &r.rapid),
            ("blitz_", &r.blitz),
        ] {
            field(&mut w, &format!("{prefix}rating"), opt(c.rating))?;
            field(&mut w, &format!("{prefix}games"), opt(c.games))?;
            field(&mut w, &format!("{prefix}k"), opt(c.k))?;
        }
        field(&mut w, "birthday", opt(r.birth_year))?;
        let flag = format!(
            "{}{}",
            if r.woman_flag { "w" } else { "" },
            if r.inactive { "i" } else { "" }
        );
        field(&mut w, "flag", flag)?;
        writeln!(w, "</player>")?;
    }
    writeln!(w, "</playerslist>")?;
    w.flush()
}

/// The 1-based column (in characters) where `field`'s label starts in [`TEXT_HEADER`]
/// (`"SRtng"`, `"Fed"`, ...).
pub fn text_column(label: &str) -> Option<usize> {
    let starts = label_starts(TEXT_HEADER);
    let labels: Vec<&str> = {
        let mut v = vec!["ID Number"];
        v.extend(TEXT_HEADER["ID Number".len()..].split_whitespace());
        v
    };
    labels
        .iter()
        .position(|l| *l == label)
        .and_then(|i| starts.get(i))
        .map(|s| s + 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use arbiter_rating::Category;
    use arbiter_rating::list::{TextListReader, XmlListReader};

    #[test]
    fn generated_lists_read_back() {
        let mut text = Vec::new();
        write_text_list(&mut text, 100, 300).unwrap();
        let reader = TextListReader::new(text.as_slice(), Category::Standard).unwrap();
        let got: Vec<ListRecord> = reader.map(Result::unwrap).collect();
        assert_eq!(got.len(), 300);
        for (i, r) in got.iter().enumerate() {
            assert_eq!(*r, record(100, i as u64), "text record {i}");
        }
        let mut xml = Vec::new();
        write_xml_list(&mut xml, 100, 50).unwrap();
        let got: Vec<ListRecord> = XmlListReader::new(xml.as_slice(), Category::Standard)
            .map(Result::unwrap)
            .collect();
        assert_eq!(got.len(), 50);
        assert_eq!(got[49], record(100, 49));
        assert_eq!(text_column("ID Number"), Some(1));
        assert_eq!(text_column("Name"), Some(16));
        assert_eq!(text_column("SRtng"), Some(114));
    }
}
