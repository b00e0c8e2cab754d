//! What arbiter exchanges as files, both ways in one place so that a round trip is one crate's
//! concern:
//!
//! - [`import`]: a parsed TRF file worked out, in memory, as the commands that make the
//!   tournament it describes (the binary's `arbiter import` appends them through the store);
//! - [`trf_export`]: a tournament's state written as TRF in the dialect asked for (the
//!   reporting service's `ExportTrf` and `/api/.../trf`, and `arbiter export`);
//! - [`chess_json`]: Chess-JSON, FIDE TEC's JSON tournament format, read into and written from
//!   the TRF model, so every TRF command takes it;
//! - [`heads`]: the signed chain heads of a stream as the JSON document `arbiter replay
//!   --against` checks a log with.

pub mod chess_json;
pub mod heads;
pub mod import;
pub mod trf_export;
