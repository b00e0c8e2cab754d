//! FIDE tie-breaks (C.07, 2024 and 2026 versions, and the older systems) and standings, in exact arithmetic.
