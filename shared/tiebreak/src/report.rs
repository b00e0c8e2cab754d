//! Standings as text, CSV or JSON.

use crate::rational::Rational;
use crate::standings::{Standing, Standings};
use std::fmt::Write as _;
use std::str::FromStr;

/// Output format of a standings report.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    /// Aligned columns for a terminal or a notice board.
    Text,
    /// RFC 4180 CSV with a header line.
    Csv,
    /// One JSON document; values are JSON numbers written exactly.
    Json,
}

/// Unknown format name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown standings format {0:?} (expected text, csv or json)")]
pub struct FormatParseError(pub String);

impl FromStr for Format {
    type Err = FormatParseError;
    fn from_str(s: &str) -> Result<Format, FormatParseError> {
        match s.trim().to_ascii_lowercase().as_str() {
            "text" | "txt" => Ok(Format::Text),
            "csv" => Ok(Format::Csv),
            "json" => Ok(Format::Json),
            _ => Err(FormatParseError(s.to_string())),
        }
    }
}

fn place(row: &Standing) -> String {
    if row.rank_to > row.rank {
        format!("{}-{}", row.rank, row.rank_to)
    } else {
        row.rank.to_string()
    }
}

fn value_text(v: Option<Rational>, decimals: u32) -> Option<String> {
    v.map(|x| x.to_decimal_string(decimals))
}

/// Exact JSON number: as many decimals as the value needs (at least `decimals`); values with no
/// finite decimal expansion are rounded half up to `decimals`.
fn json_number(v: Rational, decimals: u32) -> String {
    let d = v
        .exact_decimals(9)
        .map(|e| e.max(decimals))
        .unwrap_or(decimals);
    v.to_decimal_string(d)
}

fn json_string(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| "\"\"".to_string())
}

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// Writes the standings in the given format.
pub fn render(st: &Standings, format: Format) -> String {
    let names: Vec<String> = st.tiebreaks.iter().map(|t| t.to_string()).collect();
    match format {
        Format::Text => {
            let mut header = vec![
                "Rk".to_string(),
                "No".into(),
                "Name".into(),
                "Rtg".into(),
                "Fed".into(),
                "Pts".into(),
            ];
            header.extend(names.iter().cloned());
            let mut lines: Vec<Vec<String>> = vec![header];
            for row in &st.rows {
                let mut l = vec![
                    place(row),
                    row.id.to_string(),
                    row.name.clone(),
                    row.rating.map(|r| r.to_string()).unwrap_or_default(),
                    row.federation.clone().unwrap_or_default(),
                    row.points.to_decimal_string(1),
                ];
                for (i, v) in row.values.iter().enumerate() {
                    l.push(value_text(*v, st.decimals[i]).unwrap_or_else(|| "-".into()));
                }
                lines.push(l);
            }
            let cols = lines[0].len();
            let widths: Vec<usize> = (0..cols)
                .map(|c| {
                    lines
                        .iter()
                        .map(|l| l.get(c).map(|s| s.chars().count()).unwrap_or(0))
                        .max()
                        .unwrap_or(0)
                })
                .collect();
            let mut out = String::new();
            let _ = writeln!(out, "Rules: {}", st.rule_set);
            for l in &lines {
                let mut cells = Vec::with_capacity(cols);
                for (c, cell) in l.iter().enumerate() {
                    let pad = widths[c].saturating_sub(cell.chars().count());
                    // Names and federations left-aligned, numbers right-aligned.
                    if c == 2 || c == 4 {
                        cells.push(format!("{cell}{}", " ".repeat(pad)));
                    } else {
                        cells.push(format!("{}{cell}", " ".repeat(pad)));
                    }
                }
                let _ = writeln!(out, "{}", cells.join("  ").trim_end());
            }
            for w in &st.warnings {
                let _ = writeln!(out, "Note: {w}");
            }
            out
        }
        Format::Csv => {
            let mut out = String::new();
            let mut header = vec![
                "rank",
                "rank_to",
                "no",
                "name",
                "rating",
                "federation",
                "points",
            ]
            .into_iter()
            .map(String::from)
            .collect::<Vec<_>>();
            header.extend(names.iter().map(|n| csv_field(n)));
            out.push_str(&header.join(","));
            out.push_str("\r\n");
            for row in &st.rows {
                let mut l = vec![
                    row.rank.to_string(),
                    row.rank_to.to_string(),
                    row.id.to_string(),
                    csv_field(&row.name),
                    row.rating.map(|r| r.to_string()).unwrap_or_default(),
                    csv_field(row.federation.as_deref().unwrap_or("")),
                    row.points.to_decimal_string(1),
                ];
                for (i, v) in row.values.iter().enumerate() {
                    l.push(value_text(*v, st.decimals[i]).unwrap_or_default());
                }
                out.push_str(&l.join(","));
                out.push_str("\r\n");
            }
            out
        }
        Format::Json => {
            let mut out = String::new();
            out.push_str("{\n");
            let _ = writeln!(out, "  \"rules\": {},", json_string(st.rule_set.id()));
            let tbs: Vec<String> = names.iter().map(|n| json_string(n)).collect();
            let _ = writeln!(out, "  \"tiebreaks\": [{}],", tbs.join(", "));
            let warns: Vec<String> = st.warnings.iter().map(|w| json_string(w)).collect();
            let _ = writeln!(out, "  \"warnings\": [{}],", warns.join(", "));
            out.push_str("  \"standings\": [");
            for (k, row) in st.rows.iter().enumerate() {
                out.push_str(if k == 0 { "\n" } else { ",\n" });
                let vals: Vec<String> = row
                    .values
                    .iter()
                    .enumerate()
                    .map(|(i, v)| {
                        let num = v
                            .map(|x| json_number(x, st.decimals[i]))
                            .unwrap_or_else(|| "null".into());
                        format!("{}: {}", json_string(&names[i]), num)
                    })
                    .collect();
                let _ = write!(
                    out,
                    "    {{\"rank\": {}, \"rank_to\": {}, \"score_group\": [{}, {}], \"no\": {}, \"name\": {}, \"rating\": {}, \"federation\": {}, \"points\": {}, \"values\": {{{}}}}}",
                    row.rank,
                    row.rank_to,
                    row.score_group.0,
                    row.score_group.1,
                    row.id,
                    json_string(&row.name),
                    row.rating
                        .map(|r| r.to_string())
                        .unwrap_or_else(|| "null".into()),
                    row.federation
                        .as_deref()
                        .map(json_string)
                        .unwrap_or_else(|| "null".into()),
                    json_number(row.points, 1),
                    vals.join(", ")
                );
            }
            out.push_str(if st.rows.is_empty() { "]\n" } else { "\n  ]\n" });
            out.push_str("}\n");
            out
        }
    }
}
