//! Tie-break descriptors: `BH/C1`, `BH:MP/C1`, `KS/L+2`, `SSSC/F/K3`, ...
//!
//! Grammar (FIDE TEC "Mandatory Tie-Breaks", TRF-2026 records 202/212; acronyms of C.07 Art. 5,
//! modifiers of Art. 14):
//! `NAME[:MP|:GP][/Cn][/Mn][/L±n][/P][/F][/R][/Kx]`, case-insensitive, items separated by
//! commas (or blanks). Extensions for the older systems of the seeds: `/H` (Harkness median,
//! seed 004 "02 DESEMPATES" 3), `KASH[www]` (Kashdan, seed 004 "02 DESEMPATES" 9) and `SOB`
//! (sum of the opponents' Buchholz, seed 001 "Sistemas de desempate con resultados de los
//! rivales"); these two may also be written `OTHER_KASH...` / `OTHER_SOB`.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// Which score of a team a tie-break refers to (`:MP` / `:GP`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ScoreRef {
    Match,
    Game,
}

impl ScoreRef {
    fn letter(self) -> char {
        match self {
            ScoreRef::Match => 'M',
            ScoreRef::Game => 'G',
        }
    }
}

/// The last steps of an extended direct encounter (C.07 13.3, 2026 variants).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum EdeChain {
    /// `EDE`: primary then secondary score.
    Plain,
    /// `EDET`: then top board result of the mutual match.
    TopBoard,
    /// `EDEB`: then bottom board elimination.
    BottomBoard,
    /// `EDEBT`: then board count, then top board result.
    CountTop,
    /// `EDEBB`: then board count, then bottom board elimination.
    CountBottom,
}

/// A tie-break criterion (C.07 Art. 5 table and the seed systems).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Acronym {
    /// `PTS`: the primary score (first item of a TRF 212 list).
    Pts,
    /// `DE` direct encounter (Art. 6).
    De,
    /// `WIN` number of wins, with or without playing (7.1).
    Win,
    /// `WON` number of games won over the board (7.2).
    Won,
    /// `BPG` games played with Black (7.3).
    Bpg,
    /// `BWG` games won with Black (7.4).
    Bwg,
    /// `PS` sum of progressive scores (7.5).
    Ps,
    /// `REP` rounds one elected to play (7.6; `GE` before Aug 2024).
    Rep,
    /// `STD` standard points (7.7, 2026).
    Std,
    /// `TPN` tournament pairing number (7.8, 2026).
    Tpn,
    /// `BH` Buchholz (8.1).
    Bh,
    /// `AOB` average of opponents' Buchholz (8.2).
    Aob,
    /// `FB` Fore Buchholz (8.3).
    Fb,
    /// `SB` Sonneborn-Berger (9.1).
    Sb,
    /// `KS` Koya system (9.2).
    Ks,
    /// `ARO` average rating of opponents (10.1).
    Aro,
    /// `TPR` tournament performance rating (10.2).
    Tpr,
    /// `PTP` perfect tournament performance (10.3).
    Ptp,
    /// `APRO` average performance rating of opponents (10.4).
    Apro,
    /// `APPO` average perfect performance of opponents (10.5).
    Appo,
    /// `RTNG` rating (10.6, 2026).
    Rtng,
    /// `MPvGP` the team score that is not the primary one (13.1).
    MpVGp,
    /// `BC` board count (12.1).
    Bc,
    /// `TBR` top board result (12.2).
    Tbr,
    /// `BBE` bottom board elimination (12.3).
    Bbe,
    /// `EMMSB`, `EMGSB`, `EGMSB`, `EGGSB` extended Sonneborn-Berger (13.2): the opponent's score
    /// of the first kind times the own result of the second kind.
    Esb(ScoreRef, ScoreRef),
    /// `EDE` and its 2026 chains (13.3).
    Ede(EdeChain),
    /// `SSSC` score and schedule strength combination (13.4).
    Sssc,
    /// `KASHwdl` Kashdan rescoring (seed 004): win, draw, loss values (default 4, 2, 1);
    /// unplayed rounds count as the draw value.
    Kashdan { win: u8, draw: u8, loss: u8 },
    /// `SOB` sum of the Buchholz of the opponents met over the board (seed 001).
    Sob,
}

impl Acronym {
    /// The canonical acronym (`GE` is written `REP`).
    pub fn name(self) -> String {
        match self {
            Acronym::Pts => "PTS".into(),
            Acronym::De => "DE".into(),
            Acronym::Win => "WIN".into(),
            Acronym::Won => "WON".into(),
            Acronym::Bpg => "BPG".into(),
            Acronym::Bwg => "BWG".into(),
            Acronym::Ps => "PS".into(),
            Acronym::Rep => "REP".into(),
            Acronym::Std => "STD".into(),
            Acronym::Tpn => "TPN".into(),
            Acronym::Bh => "BH".into(),
            Acronym::Aob => "AOB".into(),
            Acronym::Fb => "FB".into(),
            Acronym::Sb => "SB".into(),
            Acronym::Ks => "KS".into(),
            Acronym::Aro => "ARO".into(),
            Acronym::Tpr => "TPR".into(),
            Acronym::Ptp => "PTP".into(),
            Acronym::Apro => "APRO".into(),
            Acronym::Appo => "APPO".into(),
            Acronym::Rtng => "RTNG".into(),
            Acronym::MpVGp => "MPvGP".into(),
            Acronym::Bc => "BC".into(),
            Acronym::Tbr => "TBR".into(),
            Acronym::Bbe => "BBE".into(),
            Acronym::Esb(a, b) => format!("E{}{}SB", a.letter(), b.letter()),
            Acronym::Ede(c) => match c {
                EdeChain::Plain => "EDE".into(),
                EdeChain::TopBoard => "EDET".into(),
                EdeChain::BottomBoard => "EDEB".into(),
                EdeChain::CountTop => "EDEBT".into(),
                EdeChain::CountBottom => "EDEBB".into(),
            },
            Acronym::Sssc => "SSSC".into(),
            Acronym::Kashdan { win, draw, loss } => {
                if (win, draw, loss) == (4, 2, 1) {
                    "KASH".into()
                } else {
                    format!("KASH{win}{draw}{loss}")
                }
            }
            Acronym::Sob => "SOB".into(),
        }
    }

    fn parse(s: &str) -> Option<Acronym> {
        let u = s.to_ascii_uppercase();
        let u = u.strip_prefix("OTHER_").map(str::to_string).unwrap_or(u);
        Some(match u.as_str() {
            "PTS" => Acronym::Pts,
            "DE" => Acronym::De,
            "WIN" => Acronym::Win,
            "WON" => Acronym::Won,
            "BPG" => Acronym::Bpg,
            "BWG" => Acronym::Bwg,
            "PS" => Acronym::Ps,
            "REP" | "GE" => Acronym::Rep,
            "STD" => Acronym::Std,
            "TPN" => Acronym::Tpn,
            "BH" => Acronym::Bh,
            "AOB" => Acronym::Aob,
            "FB" => Acronym::Fb,
            "SB" => Acronym::Sb,
            "KS" => Acronym::Ks,
            "ARO" => Acronym::Aro,
            "TPR" => Acronym::Tpr,
            "PTP" => Acronym::Ptp,
            "APRO" => Acronym::Apro,
            "APPO" => Acronym::Appo,
            "RTNG" => Acronym::Rtng,
            "MPVGP" => Acronym::MpVGp,
            "BC" => Acronym::Bc,
            "TBR" => Acronym::Tbr,
            "BBE" => Acronym::Bbe,
            "EMMSB" => Acronym::Esb(ScoreRef::Match, ScoreRef::Match),
            "EMGSB" => Acronym::Esb(ScoreRef::Match, ScoreRef::Game),
            "EGMSB" => Acronym::Esb(ScoreRef::Game, ScoreRef::Match),
            "EGGSB" => Acronym::Esb(ScoreRef::Game, ScoreRef::Game),
            "EDE" => Acronym::Ede(EdeChain::Plain),
            "EDET" => Acronym::Ede(EdeChain::TopBoard),
            "EDEB" => Acronym::Ede(EdeChain::BottomBoard),
            "EDEBT" => Acronym::Ede(EdeChain::CountTop),
            "EDEBB" => Acronym::Ede(EdeChain::CountBottom),
            "SSSC" => Acronym::Sssc,
            "SOB" => Acronym::Sob,
            "KASH" | "KASHDAN" => Acronym::Kashdan {
                win: 4,
                draw: 2,
                loss: 1,
            },
            k if k.starts_with("KASH")
                && k.len() == 7
                && k[4..].chars().all(|c| c.is_ascii_digit()) =>
            {
                let d: Vec<u8> = k[4..].bytes().map(|b| b - b'0').collect();
                Acronym::Kashdan {
                    win: d[0],
                    draw: d[1],
                    loss: d[2],
                }
            }
            _ => return None,
        })
    }

    /// Tie-breaks that need the tied participants considered together (C.07 4.3 type A) or
    /// that compare lexicographically inside a tied group (TBR, BBE).
    pub fn is_group_relative(self) -> bool {
        matches!(
            self,
            Acronym::De | Acronym::Ede(_) | Acronym::Tbr | Acronym::Bbe
        )
    }

    /// Defined only for team events.
    pub fn is_team_only(self) -> bool {
        matches!(
            self,
            Acronym::MpVGp
                | Acronym::Bc
                | Acronym::Tbr
                | Acronym::Bbe
                | Acronym::Esb(..)
                | Acronym::Ede(_)
                | Acronym::Sssc
        )
    }

    /// Introduced by the March 2026 revision.
    pub fn is_2026_only(self) -> bool {
        matches!(self, Acronym::Std | Acronym::Tpn | Acronym::Rtng)
    }

    /// Uses ratings (C.07 Art. 10).
    pub fn is_rating_based(self) -> bool {
        matches!(
            self,
            Acronym::Aro
                | Acronym::Tpr
                | Acronym::Ptp
                | Acronym::Apro
                | Acronym::Appo
                | Acronym::Rtng
        )
    }

    /// Belongs to the Buchholz family (C.07 2026 note to Art. 8: not for round-robins).
    pub fn is_buchholz_family(self) -> bool {
        matches!(
            self,
            Acronym::Bh | Acronym::Fb | Acronym::Aob | Acronym::Sob
        )
    }

    fn allows(self, m: ModKind) -> bool {
        use Acronym::*;
        match m {
            ModKind::Cut => matches!(self, Bh | Fb | Sb | Ps | Aro | Esb(..)),
            ModKind::Median => matches!(self, Bh | Fb | Aro),
            ModKind::Harkness => matches!(self, Bh | Fb),
            ModKind::Limit => matches!(self, Ks),
            ModKind::Played => matches!(self, De | Bh | Fb | Sb | Esb(..) | Ede(_) | Sssc),
            ModKind::Fore => matches!(self, Aob | Sssc),
            ModKind::Reverse => matches!(self, Tpn | Rtng),
            ModKind::Divisor => matches!(self, Sssc),
            ModKind::Reference => matches!(
                self,
                Pts | De | Win | Won | Ps | Std | Bh | Aob | Fb | Sb | Ks | Sssc
            ),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ModKind {
    Cut,
    Median,
    Harkness,
    Limit,
    Played,
    Fore,
    Reverse,
    Divisor,
    Reference,
}

/// One configured tie-break: a criterion and its modifiers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct TieBreak {
    pub acronym: Acronym,
    /// `:MP` / `:GP`: the team score used (default: the primary score).
    pub score: Option<ScoreRef>,
    /// `/Cn` (and the low half of `/Mn`): least significant values removed (Art. 14.1-14.4).
    pub cut_low: u8,
    /// High half of `/Mn`: most significant values removed.
    pub cut_high: u8,
    /// `/H`: Harkness median (1+1 up to 8 rounds, 2+2 for 9-12, 3+3 from 13 rounds).
    pub harkness: bool,
    /// `/L±n`: Koya limit moved by `n` half-points (14.5).
    pub limit_half_points: i32,
    /// `/P`: forfeits treated as games against the scheduled opponent.
    pub forfeits_played: bool,
    /// `/F`: Fore Buchholz instead of Buchholz (AOB, SSSC).
    pub fore: bool,
    /// `/R`: reverse order (TPN descending, RTNG ascending).
    pub reverse: bool,
    /// `/Kx`: SSSC divisor.
    pub divisor: Option<u32>,
}

impl TieBreak {
    /// The criterion without modifiers.
    pub fn new(acronym: Acronym) -> TieBreak {
        TieBreak {
            acronym,
            score: None,
            cut_low: 0,
            cut_high: 0,
            harkness: false,
            limit_half_points: 0,
            forfeits_played: false,
            fore: false,
            reverse: false,
            divisor: None,
        }
    }

    /// With `/Cn`.
    pub fn cut(mut self, n: u8) -> TieBreak {
        self.cut_low = n;
        self
    }

    /// With `/Mn`.
    pub fn median(mut self, n: u8) -> TieBreak {
        self.cut_low = n;
        self.cut_high = n;
        self
    }
}

impl fmt::Display for TieBreak {
    /// The canonical descriptor, e.g. `BH:MP/C1`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = self.acronym.name();
        if let Some(r) = self.score {
            s.push_str(match r {
                ScoreRef::Match => ":MP",
                ScoreRef::Game => ":GP",
            });
        }
        if self.harkness {
            s.push_str("/H");
        } else if self.cut_high > 0 && self.cut_high == self.cut_low {
            s.push_str(&format!("/M{}", self.cut_high));
        } else if self.cut_low > 0 {
            s.push_str(&format!("/C{}", self.cut_low));
        }
        if self.limit_half_points != 0 {
            s.push_str(&format!("/L{:+}", self.limit_half_points));
        }
        if self.forfeits_played {
            s.push_str("/P");
        }
        if self.fore {
            s.push_str("/F");
        }
        if self.reverse {
            s.push_str("/R");
        }
        if let Some(k) = self.divisor {
            s.push_str(&format!("/K{k}"));
        }
        f.pad(&s)
    }
}

/// Why a descriptor could not be read. `item` is the 1-based position in the list and
/// `column` the 1-based character column of the offending text in the input.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DescriptorError {
    #[error("item {item} (column {column}): empty tie-break")]
    Empty { item: usize, column: usize },
    #[error("item {item} (column {column}): unknown tie-break {text:?}")]
    UnknownAcronym {
        item: usize,
        column: usize,
        text: String,
    },
    #[error("item {item} (column {column}): unknown modifier {text:?} in {descriptor:?}")]
    UnknownModifier {
        item: usize,
        column: usize,
        descriptor: String,
        text: String,
    },
    #[error("item {item} (column {column}): modifier {text:?} does not apply to {acronym}")]
    ModifierNotAllowed {
        item: usize,
        column: usize,
        acronym: String,
        text: String,
    },
    #[error("item {item} (column {column}): bad value in modifier {text:?}: {reason}")]
    BadValue {
        item: usize,
        column: usize,
        text: String,
        reason: &'static str,
    },
    #[error(
        "item {item} (column {column}): modifier {text:?} conflicts with an earlier one in {descriptor:?}"
    )]
    Conflict {
        item: usize,
        column: usize,
        descriptor: String,
        text: String,
    },
    #[error(
        "item {item} (column {column}): unknown score reference {text:?} (expected :MP or :GP)"
    )]
    BadReference {
        item: usize,
        column: usize,
        text: String,
    },
}

/// Parses one descriptor; `item` and `column` locate it in a list for error messages.
pub fn parse_descriptor(
    text: &str,
    item: usize,
    column: usize,
) -> Result<TieBreak, DescriptorError> {
    let t = text.trim();
    let lead = text.len() - text.trim_start().len();
    let col0 = column + lead;
    if t.is_empty() {
        return Err(DescriptorError::Empty { item, column });
    }
    let mut parts = t.split('/');
    let head = parts.next().unwrap_or("");
    let (name, reference) = match head.split_once(':') {
        Some((n, r)) => (n, Some(r)),
        None => (head, None),
    };
    if name.is_empty() {
        return Err(DescriptorError::Empty { item, column: col0 });
    }
    let acronym = Acronym::parse(name).ok_or_else(|| DescriptorError::UnknownAcronym {
        item,
        column: col0,
        text: name.to_string(),
    })?;
    let mut tb = TieBreak::new(acronym);
    let not_allowed = |text: &str, col: usize| DescriptorError::ModifierNotAllowed {
        item,
        column: col,
        acronym: acronym.name(),
        text: text.to_string(),
    };
    if let Some(r) = reference {
        let col = col0 + name.len();
        tb.score = Some(match r.to_ascii_uppercase().as_str() {
            "MP" => ScoreRef::Match,
            "GP" => ScoreRef::Game,
            _ => {
                return Err(DescriptorError::BadReference {
                    item,
                    column: col,
                    text: format!(":{r}"),
                });
            }
        });
        if !acronym.allows(ModKind::Reference) {
            return Err(not_allowed(&format!(":{r}"), col));
        }
    }
    let mut offset = col0 + head.len();
    let mut seen_cut = false;
    let mut seen = Vec::<char>::new();
    for m in parts {
        let col = offset;
        offset += 1 + m.len();
        let shown = format!("/{m}");
        let upper = m.to_ascii_uppercase();
        let mut chars = upper.chars();
        let Some(letter) = chars.next() else {
            return Err(DescriptorError::UnknownModifier {
                item,
                column: col,
                descriptor: t.to_string(),
                text: shown,
            });
        };
        let rest: String = chars.collect();
        let kind = match letter {
            'C' => ModKind::Cut,
            'M' => ModKind::Median,
            'H' if rest.is_empty() => ModKind::Harkness,
            'L' => ModKind::Limit,
            'P' if rest.is_empty() => ModKind::Played,
            'F' if rest.is_empty() => ModKind::Fore,
            'R' if rest.is_empty() => ModKind::Reverse,
            'K' => ModKind::Divisor,
            _ => {
                return Err(DescriptorError::UnknownModifier {
                    item,
                    column: col,
                    descriptor: t.to_string(),
                    text: shown,
                });
            }
        };
        if !acronym.allows(kind) {
            return Err(not_allowed(&shown, col));
        }
        let is_cut = matches!(kind, ModKind::Cut | ModKind::Median | ModKind::Harkness);
        if (is_cut && seen_cut) || (!is_cut && seen.contains(&letter)) {
            return Err(DescriptorError::Conflict {
                item,
                column: col,
                descriptor: t.to_string(),
                text: shown,
            });
        }
        seen_cut |= is_cut;
        seen.push(letter);
        let bad = |reason: &'static str| DescriptorError::BadValue {
            item,
            column: col,
            text: shown.clone(),
            reason,
        };
        let small = |s: &str| -> Result<u8, DescriptorError> {
            if s.is_empty() || !s.chars().all(|c| c.is_ascii_digit()) {
                return Err(bad("expected a number of values, 1 to 9"));
            }
            match s.parse::<u8>() {
                Ok(n) if (1..=9).contains(&n) => Ok(n),
                _ => Err(bad("expected a number of values, 1 to 9")),
            }
        };
        match kind {
            ModKind::Cut => tb.cut_low = small(&rest)?,
            ModKind::Median => {
                let n = small(&rest)?;
                tb.cut_low = n;
                tb.cut_high = n;
            }
            ModKind::Harkness => tb.harkness = true,
            ModKind::Limit => {
                let (sign, digits) = match rest.chars().next() {
                    Some('+') => (1, &rest[1..]),
                    Some('-') => (-1, &rest[1..]),
                    _ => return Err(bad("expected /L+n or /L-n (n half-points)")),
                };
                if digits.is_empty() || !digits.chars().all(|c| c.is_ascii_digit()) {
                    return Err(bad("expected /L+n or /L-n (n half-points)"));
                }
                let n: i32 = digits.parse().map_err(|_| bad("limit too large"))?;
                if n > 1000 {
                    return Err(bad("limit too large"));
                }
                tb.limit_half_points = sign * n;
            }
            ModKind::Played => tb.forfeits_played = true,
            ModKind::Fore => tb.fore = true,
            ModKind::Reverse => tb.reverse = true,
            ModKind::Divisor => {
                if rest.is_empty() || !rest.chars().all(|c| c.is_ascii_digit()) {
                    return Err(bad("expected /Kx with a positive whole divisor"));
                }
                match rest.parse::<u32>() {
                    Ok(k) if k > 0 => tb.divisor = Some(k),
                    _ => return Err(bad("expected /Kx with a positive whole divisor")),
                }
            }
            ModKind::Reference => {}
        }
    }
    Ok(tb)
}

/// An ordered tie-break list, as configured for a tournament.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub struct TieBreakList(pub Vec<TieBreak>);

impl TieBreakList {
    pub fn iter(&self) -> std::slice::Iter<'_, TieBreak> {
        self.0.iter()
    }
    pub fn len(&self) -> usize {
        self.0.len()
    }
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl fmt::Display for TieBreakList {
    /// Comma-separated canonical descriptors (TRF record 202 form).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let v: Vec<String> = self.0.iter().map(|t| t.to_string()).collect();
        f.write_str(&v.join(","))
    }
}

impl FromStr for TieBreakList {
    type Err = DescriptorError;
    /// Reads `"BH/C1,BH,SB,DE,WIN,BPG,ARO"`; commas separate items, blanks around them are
    /// ignored, and a list with no commas may use blanks as separators (TRF style). An empty
    /// input is an empty list.
    fn from_str(s: &str) -> Result<TieBreakList, DescriptorError> {
        let mut out = Vec::new();
        if s.trim().is_empty() {
            return Ok(TieBreakList(out));
        }
        let mut items: Vec<(usize, &str)> = Vec::new();
        if s.contains(',') {
            let mut pos = 0;
            for part in s.split(',') {
                items.push((pos, part));
                pos += part.len() + 1;
            }
        } else {
            let mut pos = 0;
            for part in s.split(' ') {
                if !part.trim().is_empty() {
                    items.push((pos, part));
                }
                pos += part.len() + 1;
            }
        }
        for (i, (pos, part)) in items.into_iter().enumerate() {
            let column = s[..pos].chars().count() + 1;
            out.push(parse_descriptor(part, i + 1, column)?);
        }
        Ok(TieBreakList(out))
    }
}

impl FromStr for TieBreak {
    type Err = DescriptorError;
    fn from_str(s: &str) -> Result<TieBreak, DescriptorError> {
        parse_descriptor(s, 1, 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_usual_list() {
        let l: TieBreakList = "BH/C1,BH,SB,DE,WIN,BPG,ARO".parse().unwrap();
        assert_eq!(l.len(), 7);
        assert_eq!(l.0[0], TieBreak::new(Acronym::Bh).cut(1));
        assert_eq!(l.to_string(), "BH/C1,BH,SB,DE,WIN,BPG,ARO");
    }

    #[test]
    fn parses_modifiers_and_references() {
        let t: TieBreak = "bh:mp/m2/p".parse().unwrap();
        assert_eq!(t.score, Some(ScoreRef::Match));
        assert_eq!((t.cut_low, t.cut_high), (2, 2));
        assert!(t.forfeits_played);
        assert_eq!(t.to_string(), "BH:MP/M2/P");
        let k: TieBreak = "KS/L-2".parse().unwrap();
        assert_eq!(k.limit_half_points, -2);
        assert_eq!(k.to_string(), "KS/L-2");
        let s: TieBreak = "SSSC/F/K3".parse().unwrap();
        assert_eq!((s.fore, s.divisor), (true, Some(3)));
        assert_eq!("GE".parse::<TieBreak>().unwrap().acronym, Acronym::Rep);
        assert_eq!(
            "EMGSB/C1".parse::<TieBreak>().unwrap().to_string(),
            "EMGSB/C1"
        );
        assert_eq!(
            "EDEBT".parse::<TieBreak>().unwrap().acronym,
            Acronym::Ede(EdeChain::CountTop)
        );
        assert_eq!("RTNG/R".parse::<TieBreak>().unwrap().to_string(), "RTNG/R");
        assert_eq!(
            "OTHER_KASH310".parse::<TieBreak>().unwrap().to_string(),
            "KASH310"
        );
        assert_eq!("BH/H".parse::<TieBreak>().unwrap().to_string(), "BH/H");
    }

    #[test]
    fn blank_separated_lists_are_accepted() {
        let l: TieBreakList = "PTS  BH/C1 BH".parse().unwrap();
        assert_eq!(l.to_string(), "PTS,BH/C1,BH");
        assert!("".parse::<TieBreakList>().unwrap().is_empty());
    }

    #[test]
    fn precise_errors() {
        assert_eq!(
            "BH/C1,XYZ,SB".parse::<TieBreakList>(),
            Err(DescriptorError::UnknownAcronym {
                item: 2,
                column: 7,
                text: "XYZ".into()
            })
        );
        assert_eq!(
            "BH, SB/Q".parse::<TieBreakList>(),
            Err(DescriptorError::UnknownModifier {
                item: 2,
                column: 7,
                descriptor: "SB/Q".into(),
                text: "/Q".into()
            })
        );
        assert_eq!(
            "WIN/C1".parse::<TieBreakList>(),
            Err(DescriptorError::ModifierNotAllowed {
                item: 1,
                column: 4,
                acronym: "WIN".into(),
                text: "/C1".into()
            })
        );
        assert!(matches!(
            "BH/C0".parse::<TieBreak>(),
            Err(DescriptorError::BadValue { .. })
        ));
        assert!(matches!(
            "BH/Cx".parse::<TieBreak>(),
            Err(DescriptorError::BadValue { .. })
        ));
        assert!(matches!(
            "KS/L2".parse::<TieBreak>(),
            Err(DescriptorError::BadValue { .. })
        ));
        assert!(matches!(
            "SSSC/K0".parse::<TieBreak>(),
            Err(DescriptorError::BadValue { .. })
        ));
        assert!(matches!(
            "BH/C1/M1".parse::<TieBreak>(),
            Err(DescriptorError::Conflict { .. })
        ));
        assert!(matches!(
            "BH:XP".parse::<TieBreak>(),
            Err(DescriptorError::BadReference { .. })
        ));
        assert!(matches!(
            "ARO:MP".parse::<TieBreak>(),
            Err(DescriptorError::ModifierNotAllowed { .. })
        ));
        assert_eq!(
            "BH,,SB".parse::<TieBreakList>(),
            Err(DescriptorError::Empty { item: 2, column: 4 })
        );
        assert!(matches!(
            "BH/".parse::<TieBreak>(),
            Err(DescriptorError::UnknownModifier { .. })
        ));
    }
}
