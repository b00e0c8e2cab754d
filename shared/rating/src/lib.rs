//! FIDE rating regulations (B.02): expected scores, K factors, rating changes, performance; title norms (B.01).
