//! Primal–dual maximum-weight matching (Edmonds' blossom algorithm) on a dense graph.
//!
//! Why this shape:
//! * **Exactness.** The linear program has vertex duals `y ≥ 0` and odd-set (blossom) duals
//!   `z ≥ 0`; both are stored doubled (`Y = 2y`, `Z = 2z`) and weights enter slacks as `2w`, so
//!   every dual step is an integer: blossom duals stay even, and all S-vertices of a search share
//!   the parity of their duals (tight edges preserve it, and the roots are aligned by raising a
//!   root's dual by one), so half the slack of an S–S edge is integral too.
//! * **Free vertices need not share a dual.** Optimality only asks free vertices to have a zero
//!   dual. A search grows alternating trees from free vertices whose dual is positive. An
//!   augmentation (trees meet, or one reaches another free vertex) or a flip (an S-vertex dual
//!   reaches zero: the path to it is flipped, leaving it free with a zero dual) uses up the
//!   trees involved: they are cleared away (unlabeled, their duals decoded, the least-slack
//!   records that pointed into them recomputed) and the other trees grow on, so one search
//!   makes many augmentations instead of re-growing every tree after each. Each augmentation
//!   or flip removes at least one violation and creates none. Growing several trees at once
//!   lets them meet halfway, which explores far less of a dense graph than one tree would.
//! * **Cheap re-solves.** The optimum's matching, duals and blossoms are kept. Changed edges that
//!   stay feasible and are neither matched nor inside a blossom need nothing; the others are
//!   covered by a few dirty vertices, each cut out of its blossoms (a blossom's dual moves into
//!   its vertices, which keeps the slack of its internal edges) and given the least feasible
//!   dual; a dirty vertex keeps its mate if some feasible duals make their edge tight, else both
//!   become free. A handful of violations remain, each repaired by a search of `O(n²)` at worst.
//! * **Lazy duals.** Within a search, S-vertices store `Y + Δ` (constant) and T-vertices
//!   `Y + C - Δ`, where `Δ` is the total dual step so far; a dual step is one addition, and
//!   least-slack edges are compared through these constant keys.
//! * **Dense storage, distinct weights once.** Pairing graphs are complete or nearly so; a
//!   row-major matrix gives sequential scans. Its cells are `u32` indices into a table of the
//!   distinct weights ([`Palette`]): a pairing graph has few distinct weights but each is wide,
//!   so the matrix shrinks to 4 bytes a cell and the table stays in cache. Index 0 means
//!   "no edge".
//!
//! * **Sparse solves of large graphs.** A solve from scratch of [`SPARSE_FROM`] vertices or
//!   more, or a re-solve with many dirty vertices, scans candidate lists instead of rows: each
//!   vertex's heaviest edges and a few spread by a fixed hash, plus the greedy start's pairs.
//!   Its searches re-scan those lists many times; afterwards the dense rows of the vertices
//!   whose dual dropped are read once, to price the other edges: a violated edge becomes a
//!   candidate and is repaired like a changed edge, and the searches go on. When nothing is
//!   violated every edge is feasible, so the matching is maximum for the whole graph (the
//!   same certificate as a dense solve). Later small re-solves scan rows again: pricing after
//!   a short search would cost as much as the rows it spares.
//!
//! Blossom ids: `0..n` are the vertices themselves, `n..2n` non-trivial blossoms (a laminar family
//! of odd sets with at least three members each has fewer than `n/2` of them).

mod blossom;
mod forest;
mod search;
mod sparse;

use forest::{Chains, Leaves, Tops};

use crate::palette::Palette;
use crate::weight::Weight;
use core::fmt;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

pub(crate) const NONE: u32 = u32::MAX;
const NO_EDGE: (u32, u32) = (NONE, NONE);

const UNLABELED: u8 = 0;
const S: u8 = 1;
const T: u8 = 2;

/// Trees grown at once. A tree outlives the augmentations of the others, so more trees do
/// more augmentations per search (a solve from the greedy start may have thousands of free
/// vertices); each costs a scan of its root's edges first. 128 was the fastest of 8 to 256
/// on generated pairing fields of 1,000 to 5,000 players.
const MAX_ROOTS: usize = 128;

/// Above this share of dirty vertices a re-solve starts from scratch instead (it is then cheaper).
const REBUILD_DIRTY_NUM: usize = 1;
const REBUILD_DIRTY_DEN: usize = 4;

/// Graphs of at least this many vertices are solved on candidate edges (see [`Matcher`]).
pub const SPARSE_FROM: usize = 200;
/// An incremental solve with at least this many dirty vertices also runs on candidate edges.
const SPARSE_DIRTY: usize = 16;
/// Heaviest edges of each vertex among its first candidates.
const HEAVIEST_CANDIDATES: usize = 6;
/// Further candidates of each vertex, spread over its row by a fixed hash: on equal or nearly
/// equal weights (a pairing graph has many) they make the candidate graph an expander, which
/// has the near-perfect matchings the heaviest edges alone (all towards the same few vertices)
/// would not.
const SPREAD_CANDIDATES: usize = 20;

std::thread_local! {
    static SPARSE_THRESHOLD: core::cell::Cell<usize> = const { core::cell::Cell::new(SPARSE_FROM) };
    static THREADS: core::cell::Cell<Option<usize>> = const { core::cell::Cell::new(None) };
    static PARALLEL_FROM: core::cell::Cell<usize> = const { core::cell::Cell::new(PARALLEL_CELLS) };
}

/// Runs `f` with this thread's `setting` set to `value`, restored afterwards (also if `f`
/// panics): the shape of the switches below.
fn with_setting<T: Copy + 'static, R>(
    setting: &'static std::thread::LocalKey<core::cell::Cell<T>>,
    value: T,
    f: impl FnOnce() -> R,
) -> R {
    struct Restore<T: Copy + 'static>(&'static std::thread::LocalKey<core::cell::Cell<T>>, T);
    impl<T: Copy + 'static> Drop for Restore<T> {
        fn drop(&mut self) {
            self.0.with(|c| c.set(self.1));
        }
    }
    let _restore = Restore(setting, setting.with(|c| c.replace(value)));
    f()
}

/// Matrix cells a pricing round must check before it is split over threads: below this,
/// starting the threads costs more than they save.
const PARALLEL_CELLS: usize = 1 << 20;

/// Threads for a step of `cells` matrix cells: this thread's setting (see [`with_threads`]),
/// else the machine's parallelism; 1 below the parallel threshold.
fn threads_for(cells: usize) -> usize {
    if cells < PARALLEL_FROM.with(|c| c.get()) {
        return 1;
    }
    THREADS
        .with(|c| c.get())
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |p| p.get()))
        .max(1)
}

/// Runs `f` with this thread's matchers using at most `threads` threads for their
/// parallel steps (pricing rows), split from `from` matrix cells up (`0`: always). The
/// matchings are the same for every setting; for tests and benchmarks that show it.
pub fn with_threads<R>(threads: usize, from: usize, f: impl FnOnce() -> R) -> R {
    with_setting(&THREADS, Some(threads), || {
        with_setting(&PARALLEL_FROM, from, f)
    })
}

fn sparse_threshold() -> usize {
    SPARSE_THRESHOLD.with(|c| c.get()).max(2)
}

/// Runs `f` with this thread's matchers solving on candidate edges from `from` vertices up
/// (`usize::MAX`: never, `0`: always) instead of [`SPARSE_FROM`]; the setting is read when a
/// matcher solves from scratch. For tests and benchmarks that compare the two ways: both give
/// a maximum-weight matching, proved by the same dual certificate.
pub fn with_sparse_from<R>(from: usize, f: impl FnOnce() -> R) -> R {
    with_setting(&SPARSE_THRESHOLD, from, f)
}

#[inline(always)]
fn add<W: Weight>(a: W, b: W) -> W {
    debug_assert!(a.checked_add(b).is_some(), "dual arithmetic overflow");
    a.wrapping_add(b)
}

#[inline(always)]
fn sub<W: Weight>(a: W, b: W) -> W {
    debug_assert!(a.checked_sub(b).is_some(), "dual arithmetic went negative");
    a.wrapping_sub(b)
}

/// Keeps in `best` the least `(key, index)` seen, ties to the least index, and in `ties` the
/// other indices with that key.
#[inline(always)]
fn least<W: Weight>(best: &mut Option<(W, u32)>, ties: &mut Vec<u32>, key: W, x: u32) {
    match *best {
        Some((b, _)) if key > b => {}
        Some((b, a)) if key == b => {
            ties.push(a.max(x));
            *best = Some((b, a.min(x)));
        }
        _ => {
            ties.clear();
            *best = Some((key, x));
        }
    }
}

/// Work done by the last [`Matcher::solve`], for diagnostics and tuning.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SolveStats {
    /// Whether the previous solution was reused (false: solved from scratch).
    pub incremental: bool,
    /// Vertices repaired because of their changed edges (cut out of their blossoms, given new
    /// duals, unmatched unless their pair could stay).
    pub dirty_vertices: usize,
    /// Alternating-tree searches (each grows trees from up to `max_roots` free vertices until
    /// augmentations and flips have used all of them up).
    pub searches: usize,
    /// Edge-row scans of S-vertices (each `O(n)`, or the candidate list's length).
    pub scans: usize,
    /// Matrix cells those scans visited.
    pub cells: usize,
    /// Dual adjustments (each `O(n)`).
    pub dual_steps: usize,
    /// Blossoms formed.
    pub blossoms: usize,
    /// Dual checks of the edges outside the candidate lists that found violated edges (each
    /// is followed by a repair and more searches); 0 for a dense solve.
    pub pricing_rounds: usize,
    /// Edges added to the candidate lists by those checks.
    pub priced_in: usize,
    /// The most threads one of those checks was split over (see [`with_threads`]).
    pub pricing_threads: usize,
}

/// Records S–S edge `e` (with `inv` = slack + 2Δ) as a new blossom's edge to S-blossom `by` if
/// it is the least so far (`touched` lists the blossoms with an entry).
#[inline(always)]
fn offer_best<W: Weight>(
    best_to: &mut [(u32, u32)],
    best_to_inv: &mut [W],
    by: u32,
    e: (u32, u32),
    inv: W,
    touched: &mut Vec<u32>,
) {
    let byi = by as usize;
    if best_to[byi] == NO_EDGE {
        touched.push(by);
    } else if inv >= best_to_inv[byi] {
        return;
    }
    best_to[byi] = e;
    best_to_inv[byi] = inv;
}

/// One S-vertex's scan: the keys its edges are compared with and what it records.
struct Scan<'a, W: Weight> {
    vi: u32,
    bv: u32,
    key_v: W,
    key_cv: W,
    c_d: W,
    d2: W,
    dbl: &'a [W],
    ys: &'a [W],
    labels: &'a [u8],
    tops: &'a Tops,
    sbest: &'a mut [u32],
    sbest_key: &'a mut [W],
    touched: &'a mut Vec<u32>,
    best: (u32, u32),
    best_inv: W,
}

impl<W: Weight> Scan<'_, W> {
    /// Visits edge `(v, u)` with weight index `wi`, recording least-slack edges. Returns
    /// `Some(far end is S)` when the edge is tight to an unlabeled vertex or to an S-vertex of
    /// another blossom: the scan stops there for the caller to act on it.
    #[inline(always)]
    fn visit(&mut self, u: usize, wi: u32) -> Option<bool> {
        let lu = self.labels[u];
        // Edges inside v's own blossom are skipped before their (wide) weight is read.
        if (lu == S && self.tops.get(u) == self.bv) || wi == 0 {
            return None;
        }
        let tw = self.dbl[wi as usize];
        if lu == S {
            let inv = sub(add(self.key_v, self.ys[u]), tw);
            if inv == self.d2 {
                return Some(true);
            }
            if self.best == NO_EDGE || inv < self.best_inv {
                self.best = (self.vi, u as u32);
                self.best_inv = inv;
            }
        } else {
            // A tight edge has the least possible key, so it always improves on an edge that
            // is not tight (an equal key would mean `u` was already reached).
            let key = sub(self.key_cv, tw);
            if self.sbest[u] == NONE || key < self.sbest_key[u] {
                if self.sbest[u] == NONE {
                    self.touched.push(u as u32);
                }
                self.sbest[u] = self.vi;
                self.sbest_key[u] = key;
                if lu == UNLABELED && add(key, self.ys[u]) == self.c_d {
                    return Some(false);
                }
            }
        }
        None
    }
}

/// Why [`Matcher::try_set_weight`] refused a weight.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WeightError {
    /// A vertex index is not below [`Matcher::len`].
    OutOfRange {
        /// The offending index.
        vertex: usize,
        /// The number of vertices.
        len: usize,
    },
    /// `u == v`: loops are not edges.
    SelfLoop(usize),
    /// The weight has more than [`Matcher::WEIGHT_BITS`] significant bits.
    TooLarge {
        /// Significant bits of the refused weight.
        bits: u32,
        /// The limit.
        max_bits: u32,
    },
}

impl fmt::Display for WeightError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WeightError::OutOfRange { vertex, len } => {
                write!(f, "vertex {vertex} out of range (graph has {len} vertices)")
            }
            WeightError::SelfLoop(v) => write!(f, "edge ({v}, {v}) is a loop"),
            WeightError::TooLarge { bits, max_bits } => write!(
                f,
                "weight has {bits} significant bits, at most {max_bits} are allowed"
            ),
        }
    }
}

impl std::error::Error for WeightError {}

/// Maximum-weight matching on a dense general graph of `n` vertices.
///
/// Weights are exact integers of type `W` (see [`Weight`] for the headroom requirement); weight 0
/// means "no edge", and such edges are never matched. The matching maximises the total weight;
/// among maximum matchings the one returned is a deterministic function of the sequence of calls
/// made on this value.
///
/// Memory: `n²` 4-byte indices, one copy of each distinct weight, and `O(n)` bookkeeping;
/// while a large graph is solved on candidate edges, `n²/8` bytes more for their bit set.
///
/// ```
/// use arbiter_matching::Matcher;
/// let mut m = Matcher::<u64>::new(4);
/// m.set_weight(0, 1, 5);
/// m.set_weight(1, 2, 6);
/// m.set_weight(2, 3, 5);
/// m.solve();
/// assert_eq!(m.total_weight(), 10);
/// assert_eq!(m.mate(0), Some(1));
/// m.set_weight(0, 1, 0); // remove an edge: only vertices 0 and 1 are re-examined
/// m.solve();
/// assert_eq!(m.total_weight(), 6);
/// ```
#[derive(Clone)]
pub struct Matcher<W: Weight> {
    n: usize,
    /// Row-major `n × n`, symmetric, zero diagonal: indices into `pal`.
    w: Vec<u32>,
    /// The distinct weights.
    pal: Palette<W>,
    mate: Vec<u32>,
    /// Doubled vertex duals.
    pub(crate) y: Vec<W>,

    // Blossom forest (indexed by blossom id, `2n` entries).
    pub(crate) parent: Vec<u32>,
    /// Children in cycle order, starting with the one holding the base.
    childs: Vec<Vec<u32>>,
    /// `cedges[b][i] = (x, y)`: `x` in `childs[b][i]`, `y` in `childs[b][i + 1]` (cyclically);
    /// the edges with odd `i` are matched.
    cedges: Vec<Vec<(u32, u32)>>,
    base: Vec<u32>,
    /// Doubled blossom duals (always even).
    pub(crate) z: Vec<W>,
    /// Top-level blossom of each vertex, through groups (see [`Tops`]).
    tops: Tops,
    /// Each blossom's vertices.
    leaves: Leaves,
    unused: Vec<u32>,

    // Search state (valid for top-level blossoms during one search).
    //
    // Duals are updated lazily during a search: with `Δ` the total dual step so far, an
    // S-vertex stores `Y + Δ`, a T-vertex `Y + C - Δ`, others `Y`; a top-level S-blossom stores
    // `Z + 2C - 2Δ`, a T-blossom `Z + 2Δ`. Stored values of S-vertices are thus constant and
    // a dual step is a single addition; `finish_search` decodes everything.
    label: Vec<u8>,
    /// Labelled top-level blossom: the root vertex of its tree. Trees outlive augmentations
    /// of other trees, so a search goes on until every tree of its roots is used up.
    tree: Vec<u32>,
    /// Trees augmented (or flipped) since the search last cleared them away.
    spent: Vec<u32>,
    /// Blossoms labelled in this search (entries no longer top-level or labelled are stale).
    labelled: Vec<u32>,
    /// Bit `v` set when vertex `v` is in top-level blossom `memb_of` (`NONE`: no blossom).
    /// A row scan of one of its S-vertices visits only the columns outside it: in a pairing
    /// graph one blossom often holds most vertices, whose rows would otherwise be read in
    /// full only to skip their own blossom. Follows that blossom into the blossoms formed
    /// around it; forgotten when it is expanded or dissolved.
    memb: Vec<u64>,
    memb_of: u32,
    /// `label[top[v]]`, per vertex.
    vlabel: Vec<u8>,
    /// Bit `v` set when vertex `v` is an S-vertex (`vlabel[v] == S`): a new blossom's row scans
    /// visit only the S columns, in increasing order as a full scan would, skipping 64
    /// non-S columns per word.
    sbits: Vec<u64>,
    /// T: `(s, t)` with `s` an S-vertex and `t` in the blossom; S (non-root): the matched edge
    /// `(t, base)` from the parent T-blossom. Always (vertex outside, vertex inside).
    labelend: Vec<(u32, u32)>,
    /// S-blossom: least-slack edge to another S-blossom, oriented (inside, outside).
    best: Vec<(u32, u32)>,
    /// Its stored-dual sum minus `2w`, i.e. slack + `2Δ` (constant while both ends are S).
    best_inv: Vec<W>,
    /// S-blossom formed in this search: one least-slack edge per neighbouring S-blossom.
    best_list: Vec<Vec<(u32, u32)>>,
    has_list: Vec<bool>,
    /// Non-S vertex: the S-vertex at the other end of its least-slack edge.
    sbest: Vec<u32>,
    /// Its key `Y_s + Δ + C - 2w` (slack + `C + Δ - Y_u`): constant while `s` is S, so keys
    /// compare slacks without touching `w[s][u]` again.
    sbest_key: Vec<W>,
    /// Total dual step `Δ` of the current search.
    delta_sum: W,
    /// Offset `C = 2^(BITS-2)`: above `Δ` and any doubled weight, so stored values stay
    /// non-negative (see [`Weight`] for the bounds).
    key_offset: W,
    /// Least stored dual of an S-vertex, and that vertex (for the "dual reaches zero" step).
    min_s: (W, u32),
    /// Every S-vertex of the search, in labelling order; `queue[qhead..]` are still to be scanned.
    queue: Vec<u32>,
    qhead: usize,
    mark: Vec<u32>,
    stamp: u32,
    best_to: Vec<(u32, u32)>,
    best_to_inv: Vec<W>,
    buf: Vec<u32>,

    /// Non-S vertices given an `sbest` entry in this search (δ2 looks only at them).
    touched: Vec<u32>,
    /// Blossoms labelled S, and non-trivial blossoms labelled T, in this search (δ3 and δ4
    /// look only at them; entries no longer top-level or so labelled are skipped).
    s_blossoms: Vec<u32>,
    t_blossoms: Vec<u32>,
    /// Events that need no dual step, noted where they arise (ties of a step's minimum,
    /// T-blossoms labelled with a zero dual, unlabeled vertices with a tight least-slack edge)
    /// as `(kind, index)`, and taken least first: the order in which zero steps would choose
    /// them, each checked again when taken. Spares a sweep of the δ minima per event.
    zero_events: BinaryHeap<Reverse<(u8, u32)>>,
    /// Scratch: the indices tied with the δ2, δ3 and δ4 minima of a dual step.
    ties: [Vec<u32>; 3],

    // Candidate edges (sparse solving).
    /// Whether searches scan the candidate lists instead of whole rows.
    sparse: bool,
    /// Sorted candidate neighbours of each vertex, each with its edge's weight index, so that
    /// a scan reads no matrix row (sparse only; weights do not change during a solve).
    cand: Vec<Vec<(u32, u32)>>,
    /// Bit `u·n + v`: `v` is a candidate of `u` (and `u` of `v`).
    cand_bits: Vec<u64>,
    /// Vertices whose dual may have dropped since the last dual check.
    suspect: Vec<bool>,
    suspects: Vec<u32>,

    // Incremental bookkeeping.
    changed: Vec<(u32, u32)>,
    rebuild: bool,
    /// No weight changed and no vertex dropped since the last solve.
    solved: bool,
    /// Most trees grown at once.
    pub(crate) max_roots: usize,
    stats: SolveStats,
    /// The last solve's blossom forest indexed for [`slack`](Self::slack), built on the first
    /// call after a solve: the phases of a pairing engine ask for millions of slacks between
    /// vertices deep in nested blossoms, and walking the chains each time cost more than the
    /// re-solves.
    chains: std::sync::OnceLock<Chains<W>>,
    #[cfg(test)]
    pub(crate) never_rebuild: bool,
}

impl<W: Weight> fmt::Debug for Matcher<W> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Matcher")
            .field("n", &self.n)
            .field("mates", &self.mates())
            .finish_non_exhaustive()
    }
}

impl<W: Weight> Matcher<W> {
    /// Largest number of significant bits an edge weight may have: `W::BITS - 4`.
    pub const WEIGHT_BITS: u32 = W::BITS - 4;

    /// A graph of `n` vertices without edges (every weight 0), with the empty matching.
    ///
    /// # Panics
    /// If `n ≥ 2³¹ - 1`, or `n²` overflows `usize`.
    pub fn new(n: usize) -> Self {
        let cells = n.checked_mul(n).expect("n² overflows usize");
        Self::with_weights(n, vec![0; cells], Palette::new())
    }

    /// A graph of `n` vertices with the row-major weights `w` (`n²` indices into `pal`,
    /// symmetric, zero diagonal) and the empty matching.
    fn with_weights(n: usize, w: Vec<u32>, pal: Palette<W>) -> Self {
        assert!(n < (u32::MAX / 2) as usize, "too many vertices");
        debug_assert_eq!(w.len(), n * n);
        let nb = 2 * n;
        Matcher {
            n,
            w,
            pal,
            mate: vec![NONE; n],
            y: vec![W::ZERO; n],
            parent: vec![NONE; nb],
            childs: vec![Vec::new(); nb],
            cedges: vec![Vec::new(); nb],
            base: (0..nb as u32).collect(),
            z: vec![W::ZERO; nb],
            tops: Tops::new(n),
            leaves: Leaves::new(n),
            unused: (n as u32..nb as u32).rev().collect(),
            label: vec![UNLABELED; nb],
            tree: vec![NONE; nb],
            spent: Vec::new(),
            labelled: Vec::new(),
            memb: vec![0; n.div_ceil(64)],
            memb_of: NONE,
            vlabel: vec![UNLABELED; n],
            sbits: vec![0; n.div_ceil(64)],
            labelend: vec![NO_EDGE; nb],
            best: vec![NO_EDGE; nb],
            best_inv: vec![W::ZERO; nb],
            best_list: vec![Vec::new(); nb],
            has_list: vec![false; nb],
            sbest: vec![NONE; n],
            sbest_key: vec![W::ZERO; n],
            delta_sum: W::ZERO,
            key_offset: {
                let mut c = W::from_u64(1);
                for _ in 0..W::BITS - 2 {
                    c = c.wrapping_add(c);
                }
                c
            },
            min_s: (W::ZERO, NONE),
            queue: Vec::with_capacity(n),
            qhead: 0,
            mark: vec![0; nb],
            stamp: 0,
            best_to: vec![NO_EDGE; nb],
            best_to_inv: vec![W::ZERO; nb],
            buf: Vec::with_capacity(n),
            touched: Vec::new(),
            s_blossoms: Vec::new(),
            t_blossoms: Vec::new(),
            zero_events: BinaryHeap::new(),
            ties: Default::default(),
            sparse: false,
            cand: Vec::new(),
            cand_bits: Vec::new(),
            suspect: vec![false; n],
            suspects: Vec::new(),
            changed: Vec::new(),
            rebuild: false,
            solved: false,
            stats: SolveStats::default(),
            chains: std::sync::OnceLock::new(),
            max_roots: MAX_ROOTS,
            #[cfg(test)]
            never_rebuild: false,
        }
    }

    /// Number of vertices.
    pub fn len(&self) -> usize {
        self.n
    }

    /// Whether the graph has no vertex.
    pub fn is_empty(&self) -> bool {
        self.n == 0
    }

    /// Sets the weight of edge `{u, v}` (0 removes it).
    ///
    /// # Panics
    /// If [`try_set_weight`](Self::try_set_weight) would refuse it: a vertex out of range,
    /// `u == v`, or a weight of more than [`WEIGHT_BITS`](Self::WEIGHT_BITS) bits.
    pub fn set_weight(&mut self, u: usize, v: usize, w: W) {
        if let Err(e) = self.try_set_weight(u, v, w) {
            panic!("Matcher::set_weight: {e}");
        }
    }

    /// Sets the weight of edge `{u, v}` (0 removes it), refusing weights that would leave the
    /// matcher without the headroom it needs (at most [`WEIGHT_BITS`](Self::WEIGHT_BITS)
    /// significant bits, i.e. `w < 2^(W::BITS - 4)`). Nothing changes on error.
    pub fn try_set_weight(&mut self, u: usize, v: usize, w: W) -> Result<(), WeightError> {
        let n = self.n;
        for x in [u, v] {
            if x >= n {
                return Err(WeightError::OutOfRange { vertex: x, len: n });
            }
        }
        if u == v {
            return Err(WeightError::SelfLoop(u));
        }
        let bits = w.bit_len();
        if bits > Self::WEIGHT_BITS {
            return Err(WeightError::TooLarge {
                bits,
                max_bits: Self::WEIGHT_BITS,
            });
        }
        let old = self.w[u * n + v];
        let old_w = self.pal.get(old);
        if old_w == w {
            return Ok(());
        }
        let new = self.pal.acquire(w);
        self.pal.release(old);
        self.w[u * n + v] = new;
        self.w[v * n + u] = new;
        // Lowering an unmatched edge keeps the duals feasible and the matching's edges tight,
        // so the last solve's certificate still holds; anything else may break it.
        if w > old_w || self.mate[u] == v as u32 {
            self.solved = false;
        }
        if !self.rebuild {
            // Past this many changes a rebuild is cheaper than classifying them.
            if self.changed.len() >= (n * n / 8).max(64) {
                self.rebuild = true;
                self.changed = Vec::new();
            } else {
                self.changed.push((u as u32, v as u32));
            }
        }
        Ok(())
    }

    /// The weight of edge `{u, v}` (0 if there is no edge, and for `u == v`).
    ///
    /// # Panics
    /// If a vertex is out of range.
    pub fn weight(&self, u: usize, v: usize) -> &W {
        assert!(u < self.n && v < self.n, "vertex out of range");
        &self.pal.values()[self.w[u * self.n + v] as usize]
    }

    /// Distinct non-zero weights currently in the graph.
    pub fn distinct_weights(&self) -> usize {
        self.pal.len()
    }

    /// The weight of `{u, v}` (no range check beyond the slices').
    #[inline(always)]
    fn wt(&self, u: usize, v: usize) -> W {
        self.pal.get(self.w[u * self.n + v])
    }

    /// The mate of `v` in the current matching.
    ///
    /// # Panics
    /// If `v` is out of range.
    pub fn mate(&self, v: usize) -> Option<usize> {
        let m = self.mate[v];
        (m != NONE).then_some(m as usize)
    }

    /// The mates of all vertices, indexed by vertex.
    pub fn mates(&self) -> Vec<Option<usize>> {
        (0..self.n).map(|v| self.mate(v)).collect()
    }

    /// Twice the slack of edge `{u, v}` under the duals of the last [`solve`](Self::solve):
    /// `2y_u + 2y_v + Σ 2z_B - 2w(u, v)`, the sum over the blossoms holding both. `None` when
    /// there is no edge, or when the weight changed since the solve made the edge infeasible.
    ///
    /// For a matching `M` of the weights of that solve, every edge of `M` has slack at most
    /// the optimum's weight minus `w(M)`: a caller can prove that no nearly optimal matching
    /// uses an edge without solving again.
    ///
    /// # Panics
    /// If a vertex is out of range.
    pub fn slack(&self, u: usize, v: usize) -> Option<W> {
        assert!(u < self.n && v < self.n, "vertex out of range");
        let wt = self.wt(u, v);
        if wt.is_zero() || u == v {
            return None;
        }
        let chains = self
            .chains
            .get_or_init(|| Chains::new(&self.parent, &self.z));
        let mut lhs = add(self.y[u], self.y[v]);
        if let Some(b) = chains.meet(u as u32, v as u32) {
            lhs = add(lhs, chains.zsum[b as usize]);
        }
        lhs.checked_sub(add(wt, wt))
    }

    /// Twice the dual of vertex `v` after the last [`solve`](Self::solve). A matching `M` of
    /// the weights of that solve that leaves `v` unmatched weighs at most the optimum minus
    /// half of it.
    ///
    /// # Panics
    /// If `v` is out of range.
    pub fn dual(&self, v: usize) -> W {
        assert!(v < self.n, "vertex out of range");
        self.y[v]
    }

    /// Work done by the last [`solve`](Self::solve).
    pub fn last_solve_stats(&self) -> SolveStats {
        self.stats
    }

    /// Total weight of the current matching.
    ///
    /// # Panics
    /// If the sum does not fit in `W`.
    pub fn total_weight(&self) -> W {
        let n = self.n;
        let mut total = W::ZERO;
        for v in 0..n {
            let m = self.mate[v] as usize;
            if self.mate[v] != NONE && v < m {
                total = total
                    .checked_add(self.wt(v, m))
                    .expect("total matching weight overflows the weight type");
            }
        }
        total
    }

    /// Computes a maximum-weight matching for the current weights.
    ///
    /// The previous optimum (matching, vertex and blossom duals, blossom structure) is reused. An
    /// edge change that keeps its edge dual-feasible and is neither matched nor inside a blossom
    /// costs nothing; the others are covered by a few "dirty" vertices. Each is cut out of its
    /// blossoms and given the least feasible dual; it keeps its mate if feasible duals can make
    /// their edge tight, otherwise both become free. Searches growing alternating trees from the
    /// free vertices with positive duals then restore optimality, each `O(n²)` at worst and usually
    /// far less. When more than about a quarter of the vertices is dirty (or after very many
    /// changes), it starts from scratch instead (`O(n³)`).
    ///
    /// The result is a function of the sequence of calls only: no hashing, no randomness.
    pub fn solve(&mut self) {
        self.solve_with(false);
    }

    /// Like [`solve`](Self::solve) but ignores the previous solution (`O(n³)`); for reference
    /// and testing.
    pub fn solve_from_scratch(&mut self) {
        self.solve_with(true);
    }

    fn solve_with(&mut self, scratch: bool) {
        self.stats = SolveStats::default();
        self.chains.take();
        let incremental = !scratch && !self.rebuild && self.repair();
        self.stats.incremental = incremental;
        if !incremental {
            self.reset(true);
        } else if self.stats.dirty_vertices >= SPARSE_DIRTY && self.n >= sparse_threshold() {
            // Many searches ahead, each re-scanning its trees' rows: scan candidates instead.
            // The repair left every edge feasible, so only the vertices the searches label S
            // need pricing afterwards.
            self.build_candidates();
            self.sparse = true;
            self.add_matched_candidates();
        }
        self.changed.clear();
        self.rebuild = false;
        loop {
            self.run_searches();
            // Sparse: the searches saw only candidate edges. The matching is optimal for the
            // whole graph when every other edge is dual-feasible too; the violated ones join
            // the candidates and are repaired like changed edges.
            if !self.sparse || !self.price() {
                break;
            }
            self.stats.pricing_rounds += 1;
            if !self.repair() {
                self.reset(false);
            }
            self.changed.clear();
        }
        // The optimum is now certified for every edge, so later (incremental) solves may scan
        // whole rows again: their searches are short, and pricing after each would cost as
        // much as the rows it spares.
        if self.sparse {
            self.sparse = false;
            self.cand = Vec::new();
            self.cand_bits = Vec::new();
        }
        self.expand_zero_blossoms();
        self.solved = true;
    }

    /// Whether the matching is optimal for the current weights: since the last
    /// [`solve`](Self::solve) no weight changed but unmatched edges lowered and no vertex was
    /// dropped, so its duals certify it (see [`slack`](Self::slack)).
    pub fn is_solved(&self) -> bool {
        self.solved
    }
}
