//! The drawing of lots of a round robin (C.05 §6.2) with an auditable source: every choice the
//! draw makes (an envelope, a number) is taken from SHA-256 of a published seed and the
//! choice's index, so anyone holding the seed and the field re-derives the same numbers, and
//! nobody can steer the draw without choosing the seed before the field is known.
//!
//! Also the unrestricted draw (every player in turn draws one of the numbers left) for round
//! robins that do not use the Varma tables.

use crate::varma::Lot;
use sha2::{Digest, Sha256};

/// Domain separation, so a seed used elsewhere does not give the same lots.
const DOMAIN: &[u8] = b"arbiter round-robin lots v1\0";

/// A lot source for [`crate::varma::varma_draw`] and [`unrestricted_draw`]: the `k`-th choice
/// (from 0) takes option `h mod options`, where `h` is the first 8 bytes (big-endian) of
/// SHA-256(domain, seed, k as 8 big-endian bytes). The bias of the modulo is below 2^-56 for
/// the at most 24 options a draw offers.
pub fn seeded(seed: &str) -> impl FnMut(&Lot<'_>) -> usize + '_ {
    let mut k = 0u64;
    move |lot: &Lot<'_>| {
        let mut h = Sha256::new();
        h.update(DOMAIN);
        h.update((seed.len() as u64).to_be_bytes());
        h.update(seed.as_bytes());
        h.update(k.to_be_bytes());
        k += 1;
        let d = h.finalize();
        let mut first = [0u8; 8];
        first.copy_from_slice(&d[..8]);
        (u64::from_be_bytes(first) % lot.options().max(1) as u64) as usize
    }
}

/// An unrestricted draw of `names.len()` players: in the given order each player draws one of
/// the numbers still in the envelope (1..=n). Returns each player's number.
pub fn unrestricted_draw(names: &[&str], mut lot: impl FnMut(&Lot<'_>) -> usize) -> Vec<u32> {
    let mut left: Vec<u32> = (1..=names.len() as u32).collect();
    names
        .iter()
        .map(|name| {
            let l = Lot::Open {
                player: name,
                options: left.clone(),
            };
            let k = lot(&l).min(left.len() - 1);
            left.remove(k)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::varma::{Entrant, varma_draw};

    #[test]
    fn the_same_seed_gives_the_same_draw_and_another_seed_another() {
        let names: Vec<String> = (1..=16).map(|i| format!("Player {i:02}")).collect();
        let refs: Vec<&str> = names.iter().map(String::as_str).collect();
        let a = unrestricted_draw(&refs, seeded("2026-03-01 public seed"));
        let b = unrestricted_draw(&refs, seeded("2026-03-01 public seed"));
        let c = unrestricted_draw(&refs, seeded("2026-03-01 public seed!"));
        assert_eq!(a, b);
        assert_ne!(a, c);
        let mut sorted = a.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (1..=16).collect::<Vec<u32>>(), "a permutation");
    }

    /// Over many seeds every number reaches the first player about equally often (a coarse
    /// check that the source does not favour an option).
    #[test]
    fn every_number_comes_up_for_the_first_player() {
        let names = ["A", "B", "C", "D", "E", "F"];
        let mut count = [0u32; 6];
        for s in 0..6000 {
            let seed = format!("seed {s}");
            let d = unrestricted_draw(&names, seeded(&seed));
            count[d[0] as usize - 1] += 1;
        }
        for (i, &c) in count.iter().enumerate() {
            assert!((850..=1150).contains(&c), "number {}: {c} of 6000", i + 1);
        }
    }

    #[test]
    fn a_seeded_varma_draw_is_reproducible() {
        let feds = [
            "ESP", "ESP", "ESP", "FRA", "FRA", "GER", "ITA", "POR", "NED", "BEL",
        ];
        let entrants: Vec<Entrant> = feds
            .iter()
            .enumerate()
            .map(|(i, f)| Entrant {
                name: format!("Player {i}"),
                federation: f.to_string(),
            })
            .collect();
        let a = varma_draw(&entrants, seeded("x")).expect("draw");
        let b = varma_draw(&entrants, seeded("x")).expect("draw");
        assert_eq!(a, b);
    }
}
