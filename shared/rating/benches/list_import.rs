//! Generates a 1,000,000-line FIDE text rating list (combined format) in a temporary file and
//! imports it with the streaming reader, printing elapsed time and peak memory (VmHWM).
//! Also imports a 200,000-player XML list. Run: `cargo bench -p arbiter-rating`.

use arbiter_rating::Category;
use arbiter_rating::list::{TextListReader, XmlListReader};
use std::fs::File;
use std::io::{BufReader, BufWriter, Write};
use std::time::Instant;

/// Player lines (the header comes on top).
const TEXT_LINES: u64 = 1_000_000;
const XML_PLAYERS: u64 = 200_000;
const HEADER: &str = "ID Number      Name                                                         Fed Sex Tit  WTit OTit           FOA SRtng SGm SK RRtng RGm Rk BRtng BGm BK B-day Flag";
const FEDS: [&str; 8] = ["ESP", "GER", "FRA", "IND", "USA", "RUS", "CHN", "NOR"];
const TITLES: [&str; 6] = ["", "", "", "FM", "IM", "GM"];

fn status(key: &str) -> String {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with(key))
                .map(|l| l[key.len()..].trim().to_string())
        })
        .unwrap_or_else(|| "n/a".into())
}

fn name(i: u64) -> String {
    if i.is_multiple_of(97) {
        format!("Núñez-{i}, José")
    } else {
        format!("Player{i}, Test")
    }
}

fn generate_text(path: &std::path::Path) -> std::io::Result<()> {
    let mut w = BufWriter::with_capacity(1 << 16, File::create(path)?);
    writeln!(w, "{HEADER}")?;
    for i in 0..TEXT_LINES {
        let id = 1_000_000 + i;
        let rating = 1000 + (i * 7919) % 1800;
        let fed = FEDS[(i % 8) as usize];
        let sex = if i % 5 == 0 { "F" } else { "M" };
        let tit = TITLES[(i % 6) as usize];
        let wtit = if i % 5 == 0 && i % 3 == 0 { "WIM" } else { "" };
        let otit = if i % 50 == 0 { "FA,FT" } else { "" };
        let flag = match i % 4 {
            0 => "i",
            1 if sex == "F" => "w",
            _ => "",
        };
        let rapid = if i % 3 == 0 {
            String::new()
        } else {
            (rating - 50).to_string()
        };
        let n = name(i);
        // Names are padded by characters, as the published files are.
        let pad = 61usize.saturating_sub(n.chars().count());
        writeln!(
            w,
            "{id:<15}{n}{:pad$}{fed:<4}{sex:<4}{tit:<5}{wtit:<5}{otit:<15}{:<4}{rating:<6}{:<4}{:<3}{rapid:<6}{:<4}{:<3}{:<6}{:<4}{:<3}{:<6}{flag}",
            "",
            "",
            i % 12,
            if rating < 2400 { 20 } else { 10 },
            i % 7,
            20,
            "",
            "",
            "",
            1950 + i % 60,
        )?;
    }
    w.flush()
}

fn generate_xml(path: &std::path::Path) -> std::io::Result<()> {
    let mut w = BufWriter::with_capacity(1 << 16, File::create(path)?);
    writeln!(
        w,
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<playerslist>"
    )?;
    for i in 0..XML_PLAYERS {
        let n = name(i).replace('&', "&amp;");
        writeln!(
            w,
            "<player>\n<fideid>{}</fideid>\n<name>{n}</name>\n<country>{}</country>\n<sex>M</sex>\n<title>{}</title>\n<w_title></w_title>\n<o_title></o_title>\n<foa_title></foa_title>\n<rating>{}</rating>\n<games>{}</games>\n<k>20</k>\n<rapid_rating></rapid_rating>\n<rapid_games></rapid_games>\n<rapid_k></rapid_k>\n<blitz_rating>{}</blitz_rating>\n<blitz_games>0</blitz_games>\n<blitz_k>20</blitz_k>\n<birthday>{}</birthday>\n<flag>{}</flag>\n</player>",
            1_000_000 + i,
            FEDS[(i % 8) as usize],
            TITLES[(i % 6) as usize],
            1000 + (i * 7919) % 1800,
            i % 12,
            1000 + (i * 31) % 1500,
            1950 + i % 60,
            if i % 4 == 0 { "i" } else { "" },
        )?;
    }
    writeln!(w, "</playerslist>")?;
    w.flush()
}

fn main() {
    // `cargo test --benches` runs bench targets with --bench absent: keep that quick.
    let full = std::env::args().any(|a| a == "--bench");
    let dir = std::env::temp_dir();
    let pid = std::process::id();
    let text_path = dir.join(format!("arbiter-rating-list-{pid}.txt"));
    let xml_path = dir.join(format!("arbiter-rating-list-{pid}.xml"));
    if !full {
        println!("list_import: run with `cargo bench -p arbiter-rating` for figures");
        return;
    }

    let t = Instant::now();
    generate_text(&text_path).expect("generate text list");
    let size = std::fs::metadata(&text_path).map(|m| m.len()).unwrap_or(0);
    println!(
        "text list: generated {TEXT_LINES} player lines + header ({:.1} MB) in {:.2?}; VmHWM {}",
        size as f64 / 1e6,
        t.elapsed(),
        status("VmHWM:")
    );

    let t = Instant::now();
    let reader = TextListReader::new(
        BufReader::with_capacity(1 << 16, File::open(&text_path).unwrap()),
        Category::Standard,
    )
    .expect("header");
    let (mut ok, mut errors, mut rated, mut checksum) = (0u64, 0u64, 0u64, 0u64);
    for r in reader {
        match r {
            Ok(rec) => {
                ok += 1;
                if let Some(x) = rec.standard.rating {
                    rated += 1;
                    checksum += u64::from(x);
                }
            }
            Err(e) => {
                if errors < 3 {
                    eprintln!("{e}");
                }
                errors += 1;
            }
        }
    }
    let el = t.elapsed();
    println!(
        "text list: imported {ok} records ({errors} errors, {rated} rated, checksum {checksum}) in {el:.2?} \
         ({:.0} records/s); VmHWM {}, VmRSS {}",
        ok as f64 / el.as_secs_f64(),
        status("VmHWM:"),
        status("VmRSS:")
    );
    assert_eq!(ok, TEXT_LINES);
    assert_eq!(errors, 0);

    let t = Instant::now();
    generate_xml(&xml_path).expect("generate xml list");
    let size = std::fs::metadata(&xml_path).map(|m| m.len()).unwrap_or(0);
    println!(
        "xml list: generated {XML_PLAYERS} players ({:.1} MB) in {:.2?}",
        size as f64 / 1e6,
        t.elapsed()
    );
    let t = Instant::now();
    let reader = XmlListReader::new(
        BufReader::with_capacity(1 << 16, File::open(&xml_path).unwrap()),
        Category::Standard,
    );
    let (mut ok, mut errors) = (0u64, 0u64);
    for r in reader {
        if r.is_ok() { ok += 1 } else { errors += 1 }
    }
    let el = t.elapsed();
    println!(
        "xml list: imported {ok} records ({errors} errors) in {el:.2?} ({:.0} records/s); VmHWM {}, VmRSS {}",
        ok as f64 / el.as_secs_f64(),
        status("VmHWM:"),
        status("VmRSS:")
    );
    assert_eq!((ok, errors), (XML_PLAYERS, 0));

    let _ = std::fs::remove_file(&text_path);
    let _ = std::fs::remove_file(&xml_path);
}
