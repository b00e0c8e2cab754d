//! Edge weights stored once per distinct value.
//!
//! Why: a pairing graph has up to `n²/2` edges but only a few thousand distinct weights (a
//! weight is a function of a few player attributes: scores, float history, colour preference,
//! plus small bonuses), while each weight is a wide integer of up to a few hundred bytes. Keeping
//! a `u32` index per edge into a table of the distinct values cuts the matrix to 4 bytes per
//! cell, and the table is small enough to stay in cache, so the matcher's row scans read 4-byte
//! indices sequentially instead of streaming wide weights from memory. A missing edge is index 0,
//! so "is there an edge" never touches the table.
//!
//! The values are reference-counted (per matrix cell) and a value no cell uses any more is
//! dropped and its slot reused, so repeated re-weighting (the pairing phases add bonuses and
//! take them back) does not grow the table. Which slot a value gets depends only on the
//! sequence of calls; the matcher reads values, never indices, so results do not depend on it.

use crate::weight::Weight;
use core::hash::{BuildHasher, Hasher};
use std::collections::HashMap;

/// A small deterministic multiply–rotate hasher for wide weights' limbs (no random seed: a
/// table's behaviour should not vary between runs; it only affects speed, never results).
/// Not for untrusted keys.
#[derive(Default, Clone, Copy, Debug)]
pub struct LimbHasher(u64);

impl Hasher for LimbHasher {
    #[inline]
    fn finish(&self) -> u64 {
        // Final avalanche so that the high bits (used by the table) depend on every limb.
        let mut h = self.0;
        h ^= h >> 33;
        h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
        h ^= h >> 33;
        h
    }

    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            self.write_u64(u64::from_le_bytes(c.try_into().expect("8 bytes")));
        }
        for &b in chunks.remainder() {
            self.write_u64(b as u64);
        }
    }

    #[inline]
    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(23) ^ x).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }

    #[inline]
    fn write_usize(&mut self, x: usize) {
        self.write_u64(x as u64);
    }
}

/// Builds [`LimbHasher`]s (for `HashMap::with_hasher`).
#[derive(Default, Clone, Copy, Debug)]
pub struct BuildLimbHasher;

impl BuildHasher for BuildLimbHasher {
    type Hasher = LimbHasher;
    fn build_hasher(&self) -> LimbHasher {
        LimbHasher::default()
    }
}

/// The distinct weights in use; index 0 is zero ("no edge") and is never counted or freed.
#[derive(Clone)]
pub(crate) struct Palette<W: Weight> {
    vals: Vec<W>,
    /// `2w` for each value: slacks use doubled weights, and the row scans read them here
    /// instead of doubling a wide integer per column (no overflow: weights keep 4 bits of
    /// headroom).
    dbl: Vec<W>,
    /// Cells holding each value (each unordered edge counts once).
    refs: Vec<u32>,
    free: Vec<u32>,
    index: HashMap<W, u32, BuildLimbHasher>,
}

impl<W: Weight> Palette<W> {
    pub fn new() -> Self {
        Palette {
            vals: vec![W::ZERO],
            dbl: vec![W::ZERO],
            refs: vec![0],
            free: Vec::new(),
            index: HashMap::with_hasher(BuildLimbHasher),
        }
    }

    /// The values by index (for the hot loops).
    #[inline(always)]
    pub fn values(&self) -> &[W] {
        &self.vals
    }

    /// The doubled values by index.
    #[inline(always)]
    pub fn doubled(&self) -> &[W] {
        &self.dbl
    }

    #[inline(always)]
    pub fn get(&self, i: u32) -> W {
        self.vals[i as usize]
    }

    /// Distinct non-zero values in use.
    pub fn len(&self) -> usize {
        self.index.len()
    }

    /// The index of `w`, counting one more use of it.
    pub fn acquire(&mut self, w: W) -> u32 {
        if w.is_zero() {
            return 0;
        }
        if let Some(&i) = self.index.get(&w) {
            self.refs[i as usize] += 1;
            return i;
        }
        let i = match self.free.pop() {
            Some(i) => {
                self.vals[i as usize] = w;
                self.dbl[i as usize] = w.wrapping_add(w);
                self.refs[i as usize] = 1;
                i
            }
            None => {
                let i = u32::try_from(self.vals.len()).expect("fewer than 2³² distinct weights");
                self.vals.push(w);
                self.dbl.push(w.wrapping_add(w));
                self.refs.push(1);
                i
            }
        };
        self.index.insert(w, i);
        i
    }

    /// One use of index `i` fewer; the value is dropped when unused.
    pub fn release(&mut self, i: u32) {
        if i == 0 {
            return;
        }
        let r = &mut self.refs[i as usize];
        *r -= 1;
        if *r == 0 {
            self.index.remove(&self.vals[i as usize]);
            self.vals[i as usize] = W::ZERO;
            self.dbl[i as usize] = W::ZERO;
            self.free.push(i);
        }
    }

    /// Recounts the uses from the upper triangle of an `n × n` index matrix (after cells were
    /// dropped wholesale), dropping the values no cell uses.
    pub fn recount(&mut self, cells: &[u32], n: usize) {
        self.refs.fill(0);
        for i in 0..n {
            for &c in &cells[i * n + i + 1..(i + 1) * n] {
                self.refs[c as usize] += 1;
            }
        }
        self.refs[0] = 0;
        for i in 1..self.vals.len() {
            if self.refs[i] == 0 && !self.vals[i].is_zero() {
                self.index.remove(&self.vals[i]);
                self.vals[i] = W::ZERO;
                self.dbl[i] = W::ZERO;
                self.free.push(i as u32);
            }
        }
    }
}
