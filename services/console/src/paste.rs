//! A list of players pasted from a spreadsheet: one player a line, cells separated by tabs (what
//! a spreadsheet copies) or semicolons. Names keep their commas ("Surname, Given").
//!
//! Columns: name, then optionally rating, FIDE id, federation, title. A first line whose first
//! cell is "name" is a header and skipped. Each refusal names the line and the column.

/// One player read from the list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// 1-based line in the pasted text.
    pub line: usize,
    pub name: String,
    pub rating: u32,
    pub fide_id: Option<u64>,
    pub federation: String,
    pub title: String,
}

/// A line that could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineError {
    pub line: usize,
    pub column: &'static str,
    pub message: String,
}

impl std::fmt::Display for LineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}, {}: {}", self.line, self.column, self.message)
    }
}

const TITLES: &[&str] = &["GM", "IM", "FM", "CM", "WGM", "WIM", "WFM", "WCM"];

/// Reads the list; nothing is returned unless every line reads (no half-registered list).
pub fn parse(text: &str) -> Result<Vec<Entry>, Vec<LineError>> {
    let mut entries = Vec::new();
    let mut errors = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        if raw.trim().is_empty() {
            continue;
        }
        let cells: Vec<&str> = if raw.contains('\t') {
            raw.split('\t').map(str::trim).collect()
        } else {
            raw.split(';').map(str::trim).collect()
        };
        if entries.is_empty() && errors.is_empty() && cells[0].eq_ignore_ascii_case("name") {
            continue;
        }
        let mut err = |column, message: String| {
            errors.push(LineError {
                line,
                column,
                message,
            })
        };
        let name = cells[0].to_string();
        if name.is_empty() {
            err("name", "the name is empty".into());
            continue;
        }
        let cell = |k: usize| cells.get(k).copied().unwrap_or("");
        let rating = match cell(1) {
            "" => 0,
            r => match r.parse::<u32>() {
                Ok(v) if v <= 3500 => v,
                _ => {
                    err(
                        "rating",
                        format!("{r:?} is not a rating (a number up to 3500)"),
                    );
                    continue;
                }
            },
        };
        let fide_id = match cell(2) {
            "" => None,
            f => match f.parse::<u64>() {
                Ok(v) if v > 0 => Some(v),
                _ => {
                    err(
                        "FIDE id",
                        format!("{f:?} is not a FIDE id (a positive number)"),
                    );
                    continue;
                }
            },
        };
        let federation = cell(3).to_ascii_uppercase();
        if !(federation.is_empty()
            || federation.len() == 3 && federation.bytes().all(|b| b.is_ascii_uppercase()))
        {
            err(
                "federation",
                format!("{:?} is not a three-letter federation code", cell(3)),
            );
            continue;
        }
        let title = cell(4).to_ascii_uppercase();
        if !(title.is_empty() || TITLES.contains(&title.as_str())) {
            err(
                "title",
                format!("{:?} is not one of {}", cell(4), TITLES.join(", ")),
            );
            continue;
        }
        entries.push(Entry {
            line,
            name,
            rating,
            fide_id,
            federation,
            title,
        });
    }
    if errors.is_empty() {
        Ok(entries)
    } else {
        Err(errors)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tabs_or_semicolons_and_a_header_line() {
        let got = parse(
            "Name\tRating\tFIDE\tFed\nCarlsen, Magnus\t2830\t1503014\tnor\tGM\n\nDoe, Jane;1500\n",
        )
        .unwrap();
        assert_eq!(got.len(), 2);
        assert_eq!(
            got[0],
            Entry {
                line: 2,
                name: "Carlsen, Magnus".into(),
                rating: 2830,
                fide_id: Some(1503014),
                federation: "NOR".into(),
                title: "GM".into()
            }
        );
        assert_eq!(
            (got[1].line, got[1].rating, got[1].fide_id),
            (4, 1500, None)
        );
    }

    #[test]
    fn every_bad_line_is_named_and_nothing_is_taken() {
        let e = parse("A\tx\nB\t1500\t-3\nC\t1500\t1\tNORWAY\nD\t1\t1\tNOR\tXX\nOk\n").unwrap_err();
        let said: Vec<String> = e.iter().map(|e| e.to_string()).collect();
        assert_eq!(said.len(), 4, "{said:?}");
        assert!(said[0].starts_with("line 1, rating"), "{said:?}");
        assert!(said[1].starts_with("line 2, FIDE id"), "{said:?}");
        assert!(said[2].starts_with("line 3, federation"), "{said:?}");
        assert!(said[3].starts_with("line 4, title"), "{said:?}");
    }
}
