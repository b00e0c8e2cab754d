//! Errors and warnings.
//!
//! An arbiter who gets a TRF file rejected must be able to fix it in a text editor, so every
//! error says where (line and columns, 1-based characters of the decoded line), which
//! field, and what was expected there. Consistency errors (a game recorded on one line only,
//! a wrong points column) carry the same location, pointing at the line that disagrees.

use std::fmt;

/// A position in the decoded text: 1-based line and, when it is about one field, the 1-based
/// inclusive column range of that field.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Location {
    /// 1-based line number.
    pub line: usize,
    /// 1-based inclusive column range, when the location is one field.
    pub columns: Option<(usize, usize)>,
}

impl Location {
    /// A whole line.
    pub fn line(line: usize) -> Location {
        Location {
            line,
            columns: None,
        }
    }
    /// Columns `first..=last` of a line.
    pub fn span(line: usize, first: usize, last: usize) -> Location {
        Location {
            line,
            columns: Some((first, last)),
        }
    }
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.columns {
            None => write!(f, "line {}", self.line),
            Some((a, b)) if a == b => write!(f, "line {}, column {a}", self.line),
            Some((a, b)) => write!(f, "line {}, columns {a}-{b}", self.line),
        }
    }
}

/// What a field actually contained, for "expected X, found Y" messages.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Found {
    /// The field's text (surrounding blanks removed).
    Text(String),
    /// The field is present but all blank.
    Blank,
    /// The line ends before the field.
    EndOfLine,
}

impl fmt::Display for Found {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Found::Text(s) => write!(f, "{s:?}"),
            Found::Blank => f.write_str("blank"),
            Found::EndOfLine => f.write_str("end of line"),
        }
    }
}

/// The class of a [`TrfError`], for callers that react differently to different problems.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ErrorKind {
    /// A field does not have the expected form.
    Syntax,
    /// A record's fields are not in their columns (e.g. a shifted round block).
    Misaligned,
    /// The input has no records at all.
    Empty,
    /// Two `001` records with the same start number.
    DuplicateStartNumber,
    /// A start number that no `001` record has (opponent, `XXA`, `XXP`, `240`, ...), or a team
    /// number that no `310` record has (`240`, `260`, `300`, `320`, `330` in team files).
    UnknownPlayer,
    /// A player paired against himself.
    SelfPairing,
    /// A game that appears on one of the two players' lines only.
    OneSidedGame,
    /// A player who is the opponent of two different players in the same round (or a team in
    /// two forfeited matches, `330`, of one round).
    PairedTwice,
    /// Both lines of a game give the same colour (or only one gives a colour).
    ColourMismatch,
    /// The two results of a game do not fit together (e.g. `1` against `=`).
    ResultMismatch,
    /// More than one pairing-allocated bye (`U`) in a round.
    SecondPairingBye,
    /// The points column differs from the sum of the results under the file's point system.
    PointsMismatch,
}

/// Why a TRF text was rejected.
///
/// Displays as `line 7, columns 92-95 (round 1 opponent): expected a start number or 0000,
/// found "12a4"`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{location} ({field}): {message}")]
pub struct TrfError {
    /// The class of the problem.
    pub kind: ErrorKind,
    /// Where it is.
    pub location: Location,
    /// The field, in words: `round 1 opponent`, `points`, `XXR number of rounds`, ...
    pub field: String,
    /// What is wrong, usually `expected X, found Y`.
    pub message: String,
}

impl TrfError {
    pub(crate) fn syntax(
        location: Location,
        field: impl Into<String>,
        expected: &str,
        found: Found,
    ) -> TrfError {
        TrfError {
            kind: ErrorKind::Syntax,
            location,
            field: field.into(),
            message: format!("expected {expected}, found {found}"),
        }
    }

    pub(crate) fn new(
        kind: ErrorKind,
        location: Location,
        field: impl Into<String>,
        message: impl Into<String>,
    ) -> TrfError {
        TrfError {
            kind,
            location,
            field: field.into(),
            message: message.into(),
        }
    }

    /// 1-based line number.
    pub fn line(&self) -> usize {
        self.location.line
    }
    /// 1-based inclusive column range of the field, when the error is about one field.
    pub fn columns(&self) -> Option<(usize, usize)> {
        self.location.columns
    }
    /// The field, in words.
    pub fn field(&self) -> &str {
        &self.field
    }
}

/// The class of a [`TrfWarning`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum WarningKind {
    /// The bytes were not UTF-8 and were decoded as Windows-1252 / Latin-1.
    Encoding,
    /// A record we do not know, kept verbatim.
    UnknownRecord,
    /// A legacy spelling that was read as its modern equivalent (title, sex).
    Legacy,
    /// A field was unusual but usable (e.g. a title outside the FIDE list, a forfeit without
    /// colour).
    Unusual,
    /// The records that state the same thing disagree (e.g. `XXR` and `142`, `162` and `BBW`).
    Conflict,
    /// No scoring record, and the points column only fits another point system, which was
    /// inferred (docs/src/guide/files.md).
    InferredScoring,
    /// A player received the pairing-allocated bye after an earlier one or a forfeit win (or a
    /// team, `320`, a second one).
    RepeatedPairingBye,
    /// A misaligned line was read by the fallback rules (lenient mode only).
    Realigned,
    /// A blank round read as the bye the player's points count (lenient mode only).
    ImpliedBye,
    /// A consistency error accepted because of lenient mode.
    Inconsistent,
}

/// Something worth telling the user that does not stop the file from being used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TrfWarning {
    /// The class of the remark.
    pub kind: WarningKind,
    /// Where it is, when it is about one place.
    pub location: Option<Location>,
    /// The field or record concerned, in words.
    pub field: String,
    /// The remark.
    pub message: String,
}

impl TrfWarning {
    pub(crate) fn new(
        kind: WarningKind,
        location: Option<Location>,
        field: impl Into<String>,
        message: impl Into<String>,
    ) -> TrfWarning {
        TrfWarning {
            kind,
            location,
            field: field.into(),
            message: message.into(),
        }
    }
}

impl fmt::Display for TrfWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.location {
            Some(l) => write!(f, "{l} ({}): {}", self.field, self.message),
            None => write!(f, "{}: {}", self.field, self.message),
        }
    }
}

impl From<TrfError> for TrfWarning {
    fn from(e: TrfError) -> TrfWarning {
        TrfWarning {
            kind: WarningKind::Inconsistent,
            location: Some(e.location),
            field: e.field,
            message: e.message,
        }
    }
}

/// Why a model could not be written: a value that does not fit its columns or would read back
/// as something else.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("record {record} ({field}): {message}")]
pub struct TrfWriteError {
    /// 1-based index of the record (= the line it would have been written to).
    pub record: usize,
    /// The field that does not fit.
    pub field: String,
    /// Why.
    pub message: String,
}
