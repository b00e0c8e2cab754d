//! Read and write TRF16, the TRF(x)/TRF(bx) pairing-engine extensions and TRF-2026.
//!
//! TRF is how tournaments travel between arbiter programs, pairing engines (JaVaFo,
//! bbpPairings), the FIDE rating office and the tie-break reference implementation. This crate
//! is the one place in arbiter that knows its columns (TRF16, the FIDE Data Exchange Format,
//! and TRF-2026; how we read and write them: docs/src/guide/files.md):
//!
//! * [`parse`] / [`parse_bytes`] read a file into a [`TrfFile`] (one typed [`Record`] per
//!   line, in order) and run the consistency checks listed in docs/src/guide/files.md;
//!   problems come back as a [`TrfError`] naming line, columns, field and what was expected,
//!   minor ones as [`TrfWarning`]s next to the file.
//! * The derived views on [`TrfFile`] ([`TrfFile::point_system`], [`TrfFile::total_rounds`],
//!   [`TrfFile::initial_color`], [`TrfFile::accelerations`], [`TrfFile::absences`],
//!   [`TrfFile::forbidden_pairs`], [`TrfFile::tournament_type`], [`TrfFile::round_to_pair`])
//!   resolve the several ways a file can state the same fact.
//! * [`write()`] / [`write_with`] turn a model back into text; for a parsed file the output is
//!   the input again (modulo line ends), and reading the output gives the model back for every
//!   model the writer accepts (strictly when the model is consistent, leniently always).
//!   [`TrfFile::to_profile`] converts between the TRF16+x and TRF-2026 conventions.
//!
//! The crate does no I/O and never panics on input.
//!
//! ```
//! use arbiter_core::{Color, Score};
//!
//! let text = "012 Club Championship\n\
//! 001    1      First, Player                     2100                             1.0          2 w 1\n\
//! 001    2      Second, Player                    2000                             0.0          1 b 0\n\
//! 001    3      Third, Player                     1900                             0.0       0000 - Z\n\
//! XXR 5\n";
//! let trf = arbiter_trf::parse(text)?;
//! let f = &trf.file;
//! assert_eq!(f.total_rounds(), 5);
//! assert_eq!(f.round_to_pair(), 2);
//! assert_eq!(f.initial_color(), Some(Color::White));
//! assert_eq!(f.point_system().win, Score::ONE);
//! assert_eq!(trf.write()?, text);
//!
//! let bad = text.replace("   2 w 1", "   2 w =");
//! let e = arbiter_trf::parse(&bad).unwrap_err();
//! assert_eq!(e.to_string(), "line 3, column 99 (round 1 result): \
//!     result 0 does not match = recorded by player 1 on line 2");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![warn(missing_docs)]

mod check;
mod convert;
mod dates;
mod error;
mod implied;
mod legacy;
mod model;
mod read;
mod text;
mod views;
mod write;

pub use convert::{Converted, bb_records, xxs_record};
pub use error::{ErrorKind, Found, Location, TrfError, TrfWarning, TrfWriteError, WarningKind};
pub use model::*;
pub use read::parse_birth_date;
pub use text::{Encoding, decode};
pub use views::{
    AccelerationSource, Accelerations, DutchRules, PointSource, TournamentSystem, TournamentType,
};
pub use write::{write, write_with};

use error::Location as Loc;

/// Reading options.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ParseOptions {
    /// Turn consistency errors into warnings, read blank points as 0.0, and read misaligned
    /// `001` lines with the fallbacks (byte-counted columns, then the round area as
    /// opponent/colour/result groups). Syntax errors stay errors. Independent of
    /// [`ParseOptions::tolerant`]: a lenient reading of a written model gives the model back.
    pub lenient: bool,
    /// Read what older programs write, with a warning each: dates in other orders and
    /// separators (or dropped when unreadable: nothing computes from them), malformed FIDE id,
    /// sex and rank dropped, the legacy bye codes (`0000 - =`, `0000 - +`, `0000 - -`, blank
    /// blocks in a paired round), a forfeit whose colour only the opponent's line gives, and
    /// byes written only in the points column (a blank round the points count as a half or a
    /// full point, when that is the only reading: `implied.rs`). Other consistency errors and
    /// everything pairing reads (start numbers, ratings, points, games) stay strict. Without it (the default) the reader is as strict as TRF16 / TRF-2026.
    pub tolerant: bool,
}

impl ParseOptions {
    /// Options with [`ParseOptions::lenient`] set.
    pub fn lenient() -> ParseOptions {
        ParseOptions {
            lenient: true,
            tolerant: false,
        }
    }

    /// Options with [`ParseOptions::tolerant`] set: how arbiter reads files by default.
    pub fn tolerant() -> ParseOptions {
        ParseOptions {
            lenient: false,
            tolerant: true,
        }
    }

    pub(crate) fn tolerates(&self) -> bool {
        self.tolerant
    }
}

/// A parsed file with what was noticed while reading it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Trf {
    /// The records.
    pub file: TrfFile,
    /// What was noticed while reading (encoding, legacy codes, inferred scoring, ...).
    pub warnings: Vec<TrfWarning>,
    /// The first line terminator of the input, to write the file back the same way.
    pub line_ending: LineEnding,
    /// How the bytes were decoded ([`Encoding::Utf8`] for text input).
    pub encoding: Encoding,
}

impl Trf {
    /// The file's profile (see [`TrfFile::profile`]).
    pub fn profile(&self) -> Profile {
        self.file.profile()
    }

    /// Writes the file back with its own line ends.
    pub fn write(&self) -> Result<String, TrfWriteError> {
        write_with(&self.file, self.line_ending)
    }
}

/// Parses TRF text strictly: consistency problems are errors.
pub fn parse(text: &str) -> Result<Trf, TrfError> {
    parse_with(text, &ParseOptions::default())
}

/// Parses TRF text with options.
pub fn parse_with(text: &str, opts: &ParseOptions) -> Result<Trf, TrfError> {
    parse_decoded(text, Encoding::Utf8, Vec::new(), opts)
}

/// Parses TRF bytes: strips a UTF-8 byte order mark, decodes UTF-8, or Windows-1252 /
/// Latin-1 with a warning when the bytes are not UTF-8.
pub fn parse_bytes(bytes: &[u8]) -> Result<Trf, TrfError> {
    parse_bytes_with(bytes, &ParseOptions::default())
}

/// [`parse_bytes`] with options.
pub fn parse_bytes_with(bytes: &[u8], opts: &ParseOptions) -> Result<Trf, TrfError> {
    let (text, encoding) = decode(bytes);
    let mut warnings = Vec::new();
    if encoding == Encoding::Windows1252 {
        warnings.push(TrfWarning::new(
            WarningKind::Encoding,
            None,
            "encoding",
            "the file is not valid UTF-8; it was read as Windows-1252 / Latin-1",
        ));
    }
    parse_decoded(&text, encoding, warnings, opts)
}

fn parse_decoded(
    text: &str,
    encoding: Encoding,
    mut warnings: Vec<TrfWarning>,
    opts: &ParseOptions,
) -> Result<Trf, TrfError> {
    let (lines, line_ending) = text::split_lines(text);
    let (records, map) = read::read_records(&lines, opts, &mut warnings)?;
    if records.iter().all(|r| matches!(r, Record::Blank)) {
        return Err(TrfError::new(
            ErrorKind::Empty,
            Loc::line(lines.len().max(1)),
            "file",
            "the file has no records",
        ));
    }
    let mut file = TrfFile { records };
    if opts.tolerant {
        implied::read_implied_byes(&mut file, &lines, &mut warnings);
    }
    check::check(&file, &map, opts, &mut warnings)?;
    Ok(Trf {
        file,
        warnings,
        line_ending,
        encoding,
    })
}

impl TrfFile {
    /// Runs the consistency checks (docs/src/guide/files.md) on a model (e.g. one built in code
    /// before writing it). Locations refer to the lines [`write()`] would produce.
    pub fn check(&self, opts: &ParseOptions) -> Result<Vec<TrfWarning>, TrfError> {
        let mut warnings = Vec::new();
        check::check(self, &read::SourceMap::default(), opts, &mut warnings)?;
        Ok(warnings)
    }
}
