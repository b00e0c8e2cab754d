//! One module per subcommand.
pub mod check;
pub mod pair;
