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

/// The vertices of every blossom as one chained run, in the order of a depth-first walk of
/// its children (the order every pass over a blossom's vertices keeps): a blossom's run is its
/// children's runs joined in cycle order. Forming or rotating a blossom relinks only its
/// children's ends, so listing the vertices of a deeply nested blossom (pairing graphs grow
/// chains of thousands of levels, two vertices each) is a walk, not a recursion.
#[derive(Clone)]
struct Leaves {
    /// First and last vertex of each blossom's run (a vertex's run is itself).
    first: Vec<u32>,
    last: Vec<u32>,
    /// The vertex after each one within the runs that hold both.
    next: Vec<u32>,
}

impl Leaves {
    fn new(n: usize) -> Leaves {
        let ids = (0..2 * n as u32).collect::<Vec<_>>();
        Leaves {
            first: ids.clone(),
            last: ids,
            next: vec![NONE; n],
        }
    }

    /// Joins the runs of `ch` (in order) into the run of blossom `b`.
    fn link(&mut self, b: u32, ch: &[u32]) {
        for pair in ch.windows(2) {
            self.next[self.last[pair[0] as usize] as usize] = self.first[pair[1] as usize];
        }
        self.first[b as usize] = self.first[ch[0] as usize];
        self.last[b as usize] = self.last[ch[ch.len() - 1] as usize];
    }

    /// Calls `f` with each vertex of blossom `b`, in order.
    fn for_each(&self, b: u32, mut f: impl FnMut(u32)) {
        let (mut x, end) = (self.first[b as usize], self.last[b as usize]);
        loop {
            f(x);
            if x == end {
                break;
            }
            x = self.next[x as usize];
        }
    }

    /// Appends the vertices of blossom `b` to `out`.
    fn collect(&self, b: u32, out: &mut Vec<u32>) {
        self.for_each(b, |x| out.push(x));
    }
}

/// The top-level blossom of each vertex, read through one shared entry per top-level blossom:
/// every vertex of a top-level blossom is in its group, and the group names the blossom. A new
/// blossom takes over the group of its child with the most vertices, so only the other
/// children's vertices change group; expanding or dissolving it gives that child the group
/// back and the others groups of their own. Pairing graphs grow one blossom around a large
/// one thousands of times a solve, and expand them as often: setting the top-level blossom
/// of each of its vertices each time was most of their cost.
#[derive(Clone)]
struct Tops {
    /// Group of each vertex.
    grp: Vec<u32>,
    /// Top-level blossom of each group.
    top: Vec<u32>,
    /// Group a blossom has while top-level: one of its vertices (a vertex's is itself).
    gid: Vec<u32>,
    /// The child sharing a non-trivial blossom's group, and the vertices of each blossom.
    heavy: Vec<u32>,
    size: Vec<u32>,
}

impl Tops {
    fn new(n: usize) -> Tops {
        let mut size = vec![1; n];
        size.resize(2 * n, 0);
        Tops {
            grp: (0..n as u32).collect(),
            top: (0..n as u32).collect(),
            gid: (0..2 * n as u32).collect(),
            heavy: vec![NONE; 2 * n],
            size,
        }
    }

    /// The top-level blossom of vertex `v`.
    #[inline(always)]
    fn get(&self, v: usize) -> u32 {
        self.top[self.grp[v] as usize]
    }

    /// Vertex `v` alone at the top level.
    fn reset_vertex(&mut self, v: usize) {
        self.grp[v] = v as u32;
        self.top[v] = v as u32;
    }

    /// Blossom `id` is formed of children `ch`: it takes over the group of the largest
    /// (the first of equals), whose vertices need no change.
    fn form(&mut self, id: u32, ch: &[u32], leaves: &Leaves) {
        let mut h = ch[0];
        for &c in &ch[1..] {
            if self.size[c as usize] > self.size[h as usize] {
                h = c;
            }
        }
        let g = self.gid[h as usize];
        let mut size = 0;
        for &c in ch {
            size += self.size[c as usize];
            if c != h {
                let grp = &mut self.grp;
                leaves.for_each(c, |x| grp[x as usize] = g);
            }
        }
        let idu = id as usize;
        self.size[idu] = size;
        self.heavy[idu] = h;
        self.gid[idu] = g;
        self.top[g as usize] = id;
    }

    /// Groups anew for the top-level blossom `top[v]` of each vertex, each blossom sharing
    /// the group of its first child.
    fn rebuild(&mut self, top: &[u32], childs: &[Vec<u32>], leaves: &Leaves) {
        let n = top.len();
        for (b, ch) in childs.iter().enumerate().skip(n) {
            if let Some(&c) = ch.first() {
                self.heavy[b] = c;
                self.gid[b] = leaves.first[b];
                let mut size = 0;
                leaves.for_each(b as u32, |_| size += 1);
                self.size[b] = size;
            }
        }
        for (v, &t) in top.iter().enumerate() {
            let g = self.gid[t as usize];
            self.grp[v] = g;
            self.top[g as usize] = t;
        }
    }

    /// The children `ch` of blossom `b` become top-level.
    fn split(&mut self, b: u32, ch: &[u32], leaves: &Leaves) {
        let h = self.heavy[b as usize];
        for &c in ch {
            let g = self.gid[c as usize];
            if c != h {
                let grp = &mut self.grp;
                leaves.for_each(c, |x| grp[x as usize] = g);
            }
            self.top[g as usize] = c;
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

/// A blossom forest indexed for lowest-common-ancestor queries (binary lifting): every node's
/// depth, the duals summed from it to its top-level blossom, and its ancestors `2^k` levels up.
#[derive(Clone)]
struct Chains<W> {
    depth: Vec<u32>,
    zsum: Vec<W>,
    up: Vec<Vec<u32>>,
}

impl<W: Weight> Chains<W> {
    fn new(parent: &[u32], z: &[W]) -> Chains<W> {
        let nodes = parent.len();
        const UNKNOWN: u32 = u32::MAX - 1;
        let mut depth = vec![UNKNOWN; nodes];
        let mut zsum = vec![W::ZERO; nodes];
        let mut path = Vec::new();
        for start in 0..nodes {
            let mut b = start as u32;
            while depth[b as usize] == UNKNOWN {
                path.push(b);
                let p = parent[b as usize];
                if p == NONE {
                    break;
                }
                b = p;
            }
            while let Some(x) = path.pop() {
                let xi = x as usize;
                let p = parent[xi];
                if p == NONE {
                    depth[xi] = 0;
                    zsum[xi] = z[xi];
                } else {
                    depth[xi] = depth[p as usize] + 1;
                    zsum[xi] = add(z[xi], zsum[p as usize]);
                }
            }
        }
        let deepest = depth.iter().copied().max().unwrap_or(0);
        let mut up = vec![parent.to_vec()];
        let mut reach = 1u32;
        while reach < deepest {
            let last = up.last().expect("level 0");
            let next = last
                .iter()
                .map(|&a| if a == NONE { NONE } else { last[a as usize] })
                .collect();
            up.push(next);
            reach = reach.saturating_mul(2);
        }
        Chains { depth, zsum, up }
    }

    /// The innermost blossom holding both `u` and `v`, if any.
    fn meet(&self, u: u32, v: u32) -> Option<u32> {
        let (mut a, mut b) = (u, v);
        if self.depth[a as usize] < self.depth[b as usize] {
            std::mem::swap(&mut a, &mut b);
        }
        let mut lift = self.depth[a as usize] - self.depth[b as usize];
        let mut k = 0;
        while lift != 0 {
            if lift & 1 == 1 {
                a = self.up[k][a as usize];
            }
            lift >>= 1;
            k += 1;
        }
        if a == b {
            return Some(a);
        }
        for level in self.up.iter().rev() {
            let (pa, pb) = (level[a as usize], level[b as usize]);
            if pa != pb {
                a = pa;
                b = pb;
            }
        }
        let p = self.up[0][a as usize];
        (p != NONE).then_some(p)
    }
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

    /// Searches from free vertices with positive duals until there is none.
    fn run_searches(&mut self) {
        let n = self.n;
        let mut roots = Vec::with_capacity(self.max_roots.min(n));
        let mut first = 0;
        loop {
            roots.clear();
            for v in first..n {
                if self.mate[v] == NONE && !self.y[v].is_zero() {
                    roots.push(v as u32);
                    if roots.len() == self.max_roots {
                        break;
                    }
                }
            }
            let Some(&r) = roots.first() else { break };
            first = r as usize;
            self.stats.searches += 1;
            self.search(&roots);
        }
    }

    /// Marks `v` as a vertex whose dual may have dropped (its row is checked by [`price`]).
    #[inline]
    fn mark_suspect(&mut self, v: usize) {
        if self.sparse && !self.suspect[v] {
            self.suspect[v] = true;
            self.suspects.push(v as u32);
        }
    }

    #[inline]
    fn is_candidate(&self, u: usize, v: usize) -> bool {
        let k = u * self.n + v;
        self.cand_bits[k / 64] >> (k % 64) & 1 == 1
    }

    /// Makes `{u, v}` a candidate edge (no-op if it is one).
    fn add_candidate(&mut self, u: usize, v: usize) {
        if self.is_candidate(u, v) {
            return;
        }
        let n = self.n;
        for (a, b) in [(u, v), (v, u)] {
            let k = a * n + b;
            self.cand_bits[k / 64] |= 1 << (k % 64);
            let wi = self.w[a * n + b];
            let list = &mut self.cand[a];
            let at = list.partition_point(|&(x, _)| (x as usize) < b);
            list.insert(at, (b as u32, wi));
        }
    }

    /// Chooses each vertex's candidate edges: its heaviest ones and a few spread by a fixed
    /// hash (see [`SPREAD_CANDIDATES`]), symmetric. Deterministic.
    fn build_candidates(&mut self) {
        let n = self.n;
        // Rank of each distinct weight, so rows compare `u32`s instead of wide integers.
        let vals = self.pal.values();
        let mut order: Vec<u32> = (0..vals.len() as u32).collect();
        order.sort_by(|&a, &b| vals[a as usize].cmp(&vals[b as usize]));
        let mut rank = vec![0u32; vals.len()];
        for (r, &i) in order.iter().enumerate() {
            rank[i as usize] = r as u32;
        }
        let mut pairs: Vec<(u32, u32)> = Vec::new();
        let mut row_buf: Vec<(u32, u32)> = Vec::with_capacity(n);
        for v in 0..n {
            let row = &self.w[v * n..(v + 1) * n];
            row_buf.clear();
            row_buf.extend(
                row.iter()
                    .enumerate()
                    .filter(|&(_, &i)| i != 0)
                    .map(|(u, &i)| (u32::MAX - rank[i as usize], u as u32)),
            );
            if row_buf.len() > HEAVIEST_CANDIDATES {
                row_buf.select_nth_unstable(HEAVIEST_CANDIDATES);
                row_buf.truncate(HEAVIEST_CANDIDATES);
            }
            pairs.extend(row_buf.iter().map(|&(_, u)| (v as u32, u)));
            let mut h = (v as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ 0x5851_f42d_4c95_7f2d;
            let mut found = 0;
            for _ in 0..4 * SPREAD_CANDIDATES {
                if found == SPREAD_CANDIDATES {
                    break;
                }
                h ^= h >> 31;
                h = h.wrapping_mul(0xbf58_476d_1ce4_e5b9);
                h ^= h >> 29;
                let u = (h % n as u64) as usize;
                if u != v && row[u] != 0 {
                    pairs.push((v as u32, u as u32));
                    found += 1;
                }
            }
        }
        self.cand = vec![Vec::new(); n];
        self.cand_bits = vec![0; (n * n).div_ceil(64)];
        for (a, b) in pairs {
            for (x, y) in [(a as usize, b as usize), (b as usize, a as usize)] {
                let k = x * n + y;
                if self.cand_bits[k / 64] >> (k % 64) & 1 == 0 {
                    self.cand_bits[k / 64] |= 1 << (k % 64);
                    self.cand[x].push((y as u32, self.w[x * n + y]));
                }
            }
        }
        for list in &mut self.cand {
            list.sort_unstable();
        }
    }

    /// The dual check of a sparse solve: every edge outside the candidate lists at a vertex
    /// whose dual may have dropped since the last check must have non-negative slack. Each
    /// violated edge becomes a candidate and a changed edge (for [`repair`]). Returns whether
    /// there was one. `O(n)` per suspect vertex.
    fn price(&mut self) -> bool {
        let n = self.n;
        let mut suspects = std::mem::take(&mut self.suspects);
        suspects.sort_unstable();
        // Leaves of each top-level blossom in one order, so that every blossom is an interval
        // of it: the blossoms holding two vertices are then found by a binary search along one
        // vertex's chain of blossoms (nested intervals) instead of walking both chains.
        let mut pos = vec![0u32; n];
        let mut span = vec![(0u32, 0u32); 2 * n];
        let mut next = 0u32;
        for b in n..2 * n {
            if self.parent[b] == NONE && !self.childs[b].is_empty() {
                self.leaves.for_each(b as u32, |x| {
                    pos[x as usize] = next;
                    next += 1;
                });
            }
        }
        // A blossom's vertices are a stretch of its top-level blossom's run.
        for b in n..2 * n {
            if !self.childs[b].is_empty() {
                let (first, last) = (self.leaves.first[b], self.leaves.last[b]);
                span[b] = (pos[first as usize], pos[last as usize] + 1);
            }
        }
        // The suspects' rows are independent: with more than one thread they are split into
        // consecutive runs, one a thread, and the violated edges joined in suspect order, so
        // the result is the same for any thread count.
        let threads = threads_for(suspects.len() * n).min(suspects.len().max(1));
        self.stats.pricing_threads = self.stats.pricing_threads.max(threads);
        let violated: Vec<(usize, usize)> = if threads <= 1 {
            self.violated_edges(&suspects, &pos, &span)
        } else {
            let run = suspects.len().div_ceil(threads);
            let this = &*self;
            let (pos, span) = (&pos, &span);
            std::thread::scope(|scope| {
                let parts: Vec<_> = suspects
                    .chunks(run)
                    .map(|part| scope.spawn(move || this.violated_edges(part, pos, span)))
                    .collect();
                parts
                    .into_iter()
                    .flat_map(|h| h.join().expect("a pricing thread panicked"))
                    .collect()
            })
        };
        for &v in &suspects {
            self.suspect[v as usize] = false;
        }
        suspects.clear();
        self.suspects = suspects;
        for &(a, b) in &violated {
            if !self.is_candidate(a, b) {
                self.add_candidate(a, b);
                self.stats.priced_in += 1;
                self.changed.push((a as u32, b as u32));
            }
        }
        !violated.is_empty()
    }

    /// The non-candidate edges of `suspects` whose dual constraint is violated, in row order.
    /// `pos`/`span`: the leaf layout of [`price`](Self::price).
    fn violated_edges(
        &self,
        suspects: &[u32],
        pos: &[u32],
        span: &[(u32, u32)],
    ) -> Vec<(usize, usize)> {
        let n = self.n;
        let mut violated = Vec::new();
        // Blossoms holding v, innermost first: their interval and the dual sum from each one
        // outwards.
        let mut chain_v: Vec<((u32, u32), W)> = Vec::new();
        // For each position of v's top-level blossom, the innermost blossom of v's chain that
        // holds it (an index into `chain_v`): painted ring by ring from the inside out, each
        // ring being an interval minus the next inner one, so `O(size)` per suspect.
        let mut innermost = vec![0u32; n];
        let dbl = self.pal.doubled();
        for &v in suspects {
            let vi = v as usize;
            let row = &self.w[vi * n..(vi + 1) * n];
            let yv = self.y[vi];
            let tv = self.tops.get(vi);
            chain_v.clear();
            let mut b = self.parent[vi];
            while b != NONE {
                chain_v.push((span[b as usize], self.z[b as usize]));
                b = self.parent[b as usize];
            }
            let mut acc = W::ZERO;
            for e in chain_v.iter_mut().rev() {
                acc = add(acc, e.1);
                e.1 = acc;
            }
            let mut inner = (pos[vi], pos[vi]);
            for (k, &((a, b), _)) in chain_v.iter().enumerate() {
                innermost[a as usize..inner.0 as usize].fill(k as u32);
                innermost[inner.1 as usize..b as usize].fill(k as u32);
                inner = (a, b);
            }
            for (u, &wi) in row.iter().enumerate() {
                if wi == 0 || u == vi || self.is_candidate(vi, u) {
                    continue;
                }
                let mut lhs = add(yv, self.y[u]);
                if self.tops.get(u) == tv && tv as usize >= n {
                    // The innermost blossom holding both, and the duals from it outwards.
                    let k = innermost[pos[u] as usize] as usize;
                    debug_assert_eq!(
                        k,
                        chain_v.partition_point(|&((a, b), _)| !(a <= pos[u] && pos[u] < b))
                    );
                    lhs = add(lhs, chain_v[k].1);
                }
                if lhs < dbl[wi as usize] {
                    violated.push((vi, u));
                }
            }
        }
        violated
    }

    // ----------------------------------------------------------------------------------------
    // Starting points.

    /// Forgets the solution: no blossom, empty matching, `Y_v = max_u w(v, u)` (i.e. `y_v` is
    /// half the heaviest incident weight), then greedily matches the edges that are tight under
    /// these duals (mutual heaviest edges), then lowers each remaining free vertex's dual to the
    /// least feasible value, matching it along the edge this makes tight if the other end is free.
    ///
    /// Sparse (from [`SPARSE_FROM`] vertices): with `fresh_candidates` the candidate lists are
    /// chosen anew from the weights, else the current ones are kept; the greedy pairs join them
    /// and every vertex is to be priced.
    fn reset(&mut self, fresh_candidates: bool) {
        let n = self.n;
        self.memb_of = NONE;
        let sparse = n >= sparse_threshold();
        // Without fresh candidates this is the pricing loop's restart: the lists it grew stay.
        if sparse && fresh_candidates {
            self.build_candidates();
        }
        self.sparse = sparse;
        self.suspects.clear();
        self.suspect.fill(false);
        for b in n..2 * n {
            if !self.childs[b].is_empty() {
                self.childs[b].clear();
                self.cedges[b].clear();
            }
            self.z[b] = W::ZERO;
            self.parent[b] = NONE;
        }
        self.unused.clear();
        self.unused.extend((n as u32..2 * n as u32).rev());
        for v in 0..n {
            self.parent[v] = NONE;
            self.tops.reset_vertex(v);
            self.base[v] = v as u32;
            self.mate[v] = NONE;
            let row = &self.w[v * n..(v + 1) * n];
            let vals = self.pal.values();
            self.y[v] = row
                .iter()
                .map(|&i| vals[i as usize])
                .max()
                .unwrap_or(W::ZERO);
        }
        for v in 0..n {
            if self.mate[v] != NONE || self.y[v].is_zero() {
                continue;
            }
            for u in v + 1..n {
                let wt = self.wt(v, u);
                if self.mate[u] == NONE && !wt.is_zero() && add(self.y[v], self.y[u]) == add(wt, wt)
                {
                    self.mate[v] = u as u32;
                    self.mate[u] = v as u32;
                    break;
                }
            }
        }
        // Lower each still-free vertex's dual to its least feasible value; match it when that
        // makes an edge to another free vertex tight.
        for v in 0..n {
            if self.mate[v] != NONE || self.y[v].is_zero() {
                continue;
            }
            let mut need = W::ZERO;
            let mut arg = NONE;
            for u in 0..n {
                let wt = self.wt(v, u);
                if wt.is_zero() {
                    continue;
                }
                let tw = add(wt, wt);
                if tw > self.y[u] {
                    let r = sub(tw, self.y[u]);
                    let free_tie = r == need
                        && arg != NONE
                        && self.mate[arg as usize] != NONE
                        && self.mate[u] == NONE;
                    if r > need || free_tie {
                        need = r;
                        arg = u as u32;
                    }
                }
            }
            self.y[v] = need;
            if arg != NONE && self.mate[arg as usize] == NONE && !need.is_zero() {
                self.mate[v] = arg;
                self.mate[arg as usize] = v as u32;
            }
        }
        if self.sparse {
            for v in 0..n {
                self.mark_suspect(v);
            }
            self.add_matched_candidates();
        }
    }

    /// Makes every matched edge a candidate.
    fn add_matched_candidates(&mut self) {
        for v in 0..self.n {
            let m = self.mate[v] as usize;
            if self.mate[v] != NONE && v < m {
                self.add_candidate(v, m);
            }
        }
    }

    /// Restores dual feasibility and complementary slackness around the changed edges, leaving
    /// only "free vertex with positive dual" violations for the searches. Returns false (having
    /// changed nothing) when a rebuild is preferable.
    fn repair(&mut self) -> bool {
        let n = self.n;
        if self.changed.is_empty() {
            return true;
        }
        // An edge change needs care when the edge is matched, inside a blossom (it may be a
        // blossom edge; checking that exactly is not worth it), or no longer dual-feasible.
        let mut need = Vec::new();
        let mut count = vec![0u32; n];
        for &(a, b) in &self.changed {
            let (ai, bi) = (a as usize, b as usize);
            let wt = self.wt(ai, bi);
            let bad = self.mate[ai] == b
                || self.tops.get(ai) == self.tops.get(bi)
                || (!wt.is_zero() && add(self.y[ai], self.y[bi]) < add(wt, wt));
            if bad {
                need.push((ai, bi));
                count[ai] += 1;
                count[bi] += 1;
            }
        }
        // Cover those edges by vertices, greedily preferring the endpoint with more of them.
        let mut dirty = Vec::new();
        let mut is_dirty = vec![false; n];
        for &(a, b) in &need {
            if is_dirty[a] || is_dirty[b] {
                continue;
            }
            let p = if count[a] > count[b] || (count[a] == count[b] && a < b) {
                a
            } else {
                b
            };
            is_dirty[p] = true;
            dirty.push(p);
        }
        #[cfg(test)]
        let allow_rebuild = !self.never_rebuild;
        #[cfg(not(test))]
        let allow_rebuild = true;
        if allow_rebuild && dirty.len() * REBUILD_DIRTY_DEN > n * REBUILD_DIRTY_NUM + 8 {
            return false;
        }
        self.stats.dirty_vertices = dirty.len();
        for &v in &dirty {
            self.dissolve_chain(v as u32);
        }
        // A dirty vertex keeps its mate when some feasible duals make their edge tight: then
        // nothing else needs repair. Otherwise both become free. Dirty duals start at zero so
        // that each is computed against final values of the others (lowering the dual of a
        // vertex outside any blossom is allowed while its only tight duty is its matched edge).
        for &v in &dirty {
            let m = self.mate[v];
            if m != NONE && (is_dirty[m as usize] || self.w[v * n + m as usize] == 0) {
                self.mate[v] = NONE;
                self.mate[m as usize] = NONE;
            }
        }
        for &v in &dirty {
            self.y[v] = W::ZERO;
        }
        for &v in &dirty {
            let m = self.mate[v];
            let (need, arg) = self.least_dual(v, m);
            // Sparse: the edge that sets the dual is the one a search from `v` wants first.
            if self.sparse {
                self.mark_suspect(v);
                if m != NONE {
                    self.mark_suspect(m as usize);
                }
                if arg != NONE {
                    self.add_candidate(v, arg as usize);
                }
            }
            if m == NONE {
                self.y[v] = need;
                continue;
            }
            let mi = m as usize;
            let wt = self.wt(v, mi);
            let tw = add(wt, wt);
            let ym = self.y[mi];
            if tw >= ym && sub(tw, ym) >= need {
                self.y[v] = sub(tw, ym);
                continue;
            }
            if self.tops.get(mi) == m {
                let (need_m, _) = self.least_dual(mi, v as u32);
                if add(need, need_m) <= tw {
                    self.y[v] = need;
                    self.y[mi] = sub(tw, need);
                    continue;
                }
            }
            self.mate[v] = NONE;
            self.mate[mi] = NONE;
            self.y[v] = if tw > ym { need.max(sub(tw, ym)) } else { need };
        }
        true
    }

    /// Drops the vertices with `keep[v] == false` and renumbers the others in their order
    /// (vertex `v` becomes the number of kept vertices before it). Returns the old number of each
    /// new vertex.
    ///
    /// The solution of the kept vertices is reused by the next [`solve`](Self::solve): every
    /// blossom holding a dropped vertex is dissolved (its dual moved into its vertices, which
    /// keeps all duals feasible), and a kept vertex whose mate is dropped, or whose matched edge
    /// was the base edge of a dissolved blossom, becomes free. Removing edges never makes duals
    /// infeasible, so the only violations left are free vertices with a positive dual, which the
    /// searches of the next solve remove. Intended for vertices whose pairs are settled (a
    /// pairing engine drops the players paired in earlier brackets), so that later solves scan
    /// smaller rows.
    ///
    /// # Panics
    /// If `keep.len() != self.len()`.
    pub fn retain(&mut self, keep: &[bool]) -> Vec<usize> {
        let n = self.n;
        assert_eq!(keep.len(), n, "one flag per vertex");
        self.solved = false;
        self.chains.take();
        for (v, _) in keep.iter().enumerate().filter(|(_, k)| !**k) {
            self.dissolve_chain(v as u32);
        }
        for v in 0..n {
            let m = self.mate[v];
            if keep[v] && m != NONE && !keep[m as usize] {
                self.mate[v] = NONE;
            }
        }
        let old_of: Vec<usize> = (0..n).filter(|&v| keep[v]).collect();
        let k = old_of.len();
        let mut new_v = vec![NONE; n];
        for (i, &v) in old_of.iter().enumerate() {
            new_v[v] = i as u32;
        }
        // Live blossoms (none holds a dropped vertex now) get ids k.. in their old order.
        let mut new_b = vec![NONE; 2 * n];
        let mut live = Vec::new();
        for (b, id) in new_b.iter_mut().enumerate().skip(n) {
            if !self.childs[b].is_empty() {
                *id = (k + live.len()) as u32;
                live.push(b);
            }
        }
        let id = |x: u32| -> u32 {
            if (x as usize) < n {
                new_v[x as usize]
            } else {
                new_b[x as usize]
            }
        };
        // The weights move within their own buffer: entry (i, j) goes to i*k + j from
        // v*n + u with v >= i, u >= j, n >= k, so every source lies at or after its
        // destination and after every earlier destination, and is read before it is written.
        let mut w = std::mem::take(&mut self.w);
        for (i, &v) in old_of.iter().enumerate() {
            for (j, &u) in old_of.iter().enumerate() {
                w[i * k + j] = w[v * n + u];
            }
        }
        w.truncate(k * k);
        let mut pal = std::mem::replace(&mut self.pal, Palette::new());
        pal.recount(&w, k);
        let mut out = Matcher::<W>::with_weights(k, w, pal);
        out.max_roots = self.max_roots;
        let mut new_top = vec![NONE; k];
        for (i, &v) in old_of.iter().enumerate() {
            out.mate[i] = if self.mate[v] == NONE {
                NONE
            } else {
                new_v[self.mate[v] as usize]
            };
            out.y[i] = self.y[v];
            // Runs hold kept vertices only (blossoms with a dropped one are dissolved); the
            // link after a top-level run's end is never read.
            let next = self.leaves.next[v];
            out.leaves.next[i] = if next != NONE && keep[next as usize] {
                new_v[next as usize]
            } else {
                NONE
            };
            new_top[i] = id(self.tops.get(v));
            out.parent[i] = if self.parent[v] == NONE {
                NONE
            } else {
                id(self.parent[v])
            };
        }
        for &b in &live {
            let nb = new_b[b] as usize;
            out.childs[nb] = self.childs[b].iter().map(|&c| id(c)).collect();
            out.cedges[nb] = self.cedges[b]
                .iter()
                .map(|&(x, y)| (new_v[x as usize], new_v[y as usize]))
                .collect();
            out.base[nb] = new_v[self.base[b] as usize];
            out.leaves.first[nb] = new_v[self.leaves.first[b] as usize];
            out.leaves.last[nb] = new_v[self.leaves.last[b] as usize];
            out.z[nb] = self.z[b];
            out.parent[nb] = if self.parent[b] == NONE {
                NONE
            } else {
                id(self.parent[b])
            };
        }
        out.tops.rebuild(&new_top, &out.childs, &out.leaves);
        out.unused = ((k + live.len()) as u32..2 * k as u32).rev().collect();
        if self.rebuild {
            out.rebuild = true;
        } else {
            out.changed = self
                .changed
                .iter()
                .filter(|&&(a, b)| keep[a as usize] && keep[b as usize])
                .map(|&(a, b)| (new_v[a as usize], new_v[b as usize]))
                .collect();
        }
        #[cfg(test)]
        {
            out.never_rebuild = self.never_rebuild;
        }
        *self = out;
        old_of
    }

    /// The least dual of vertex `v` (outside any blossom) that keeps all its edges except the
    /// one to `except` feasible, and the first vertex whose edge needs that much (`NONE` if
    /// none needs more than zero).
    fn least_dual(&self, v: usize, except: u32) -> (W, u32) {
        let n = self.n;
        let mut need = W::ZERO;
        let mut arg = NONE;
        for u in 0..n {
            let wt = self.wt(v, u);
            if wt.is_zero() || u as u32 == except {
                continue;
            }
            let tw = add(wt, wt);
            if tw > self.y[u] {
                let r = sub(tw, self.y[u]);
                if r > need {
                    need = r;
                    arg = u as u32;
                }
            }
        }
        (need, arg)
    }

    /// Dissolves every blossom containing `v`, outermost first. A blossom's dual is moved into
    /// its vertices (`Z/2` each), which keeps the slack of its internal edges; the one matched
    /// edge leaving it (at its base) gains slack `Z/2` and is unmatched.
    fn dissolve_chain(&mut self, v: u32) {
        let n = self.n;
        while self.tops.get(v as usize) as usize >= n {
            let b = self.tops.get(v as usize);
            let zb = self.z[b as usize];
            let bb = self.base[b as usize];
            if !zb.is_zero() {
                let h = zb.half();
                let mut leaves = std::mem::take(&mut self.buf);
                leaves.clear();
                self.leaves.collect(b, &mut leaves);
                for &x in &leaves {
                    self.y[x as usize] = add(self.y[x as usize], h);
                }
                self.buf = leaves;
            }
            self.dissolve_top(b);
            if !zb.is_zero() {
                let m = self.mate[bb as usize];
                if m != NONE {
                    self.mate[bb as usize] = NONE;
                    self.mate[m as usize] = NONE;
                }
            }
        }
    }

    /// Makes the children of top-level blossom `b` top-level and releases `b` (no dual change).
    fn dissolve_top(&mut self, b: u32) {
        let bi = b as usize;
        let ch = std::mem::take(&mut self.childs[bi]);
        for &c in &ch {
            self.parent[c as usize] = NONE;
        }
        self.tops.split(b, &ch, &self.leaves);
        self.release(b, ch);
    }

    fn release(&mut self, b: u32, mut ch: Vec<u32>) {
        let bi = b as usize;
        if self.memb_of == b {
            self.memb_of = NONE;
        }
        ch.clear();
        self.childs[bi] = ch;
        self.cedges[bi].clear();
        self.z[bi] = W::ZERO;
        self.parent[bi] = NONE;
        self.label[bi] = UNLABELED;
        self.labelend[bi] = NO_EDGE;
        self.best[bi] = NO_EDGE;
        self.has_list[bi] = false;
        self.best_list[bi].clear();
        self.unused.push(b);
    }

    /// Expands top-level blossoms whose dual is zero (recursively): they constrain nothing and
    /// keeping the structure small makes later repairs cheaper.
    fn expand_zero_blossoms(&mut self) {
        let n = self.n;
        let mut stack: Vec<u32> = (n..2 * n)
            .filter(|&b| {
                !self.childs[b].is_empty() && self.parent[b] == NONE && self.z[b].is_zero()
            })
            .map(|b| b as u32)
            .collect();
        while let Some(b) = stack.pop() {
            let first = stack.len();
            for &c in &self.childs[b as usize] {
                if c as usize >= n && self.z[c as usize].is_zero() {
                    stack.push(c);
                }
            }
            stack[first..].reverse();
            self.dissolve_top(b);
        }
    }

    // ----------------------------------------------------------------------------------------
    // One search: alternating trees grown from free vertices until augmentations use them up.

    fn reset_search(&mut self) {
        self.label.fill(UNLABELED);
        self.vlabel.fill(UNLABELED);
        self.sbits.fill(0);
        self.labelend.fill(NO_EDGE);
        self.best.fill(NO_EDGE);
        for b in 0..self.has_list.len() {
            if self.has_list[b] {
                self.has_list[b] = false;
                self.best_list[b].clear();
            }
        }
        self.sbest.fill(NONE);
        self.touched.clear();
        self.s_blossoms.clear();
        self.t_blossoms.clear();
        self.zero_events.clear();
        self.spent.clear();
        self.labelled.clear();
        self.delta_sum = W::ZERO;
        self.min_s = (W::ZERO, NONE);
        self.queue.clear();
        self.qhead = 0;
    }

    /// Grows alternating trees from `roots` (free vertices with positive duals) until every
    /// tree is used up by an augmentation or a flip. Other free vertices are targets.
    fn search(&mut self, roots: &[u32]) {
        self.reset_search();
        // S–S edges between trees have even slack only if all roots' duals share a parity.
        let parity = self.y[roots[0] as usize].is_odd();
        for &r in &roots[1..] {
            if self.y[r as usize].is_odd() != parity {
                self.raise_by_one(r);
            }
        }
        for &r in roots {
            let b = self.tops.get(r as usize);
            debug_assert_eq!(self.base[b as usize], r);
            self.set_s(b, NO_EDGE);
        }
        'search: loop {
            while self.qhead < self.queue.len() {
                let v = self.queue[self.qhead];
                self.qhead += 1;
                // A vertex of a tree cleared away since it was queued.
                if self.vlabel[v as usize] != S {
                    continue;
                }
                self.stats.scans += 1;
                if self.scan(v) {
                    if self.clear_spent_trees() {
                        break 'search;
                    }
                    continue 'search;
                }
            }
            if let Some(over) = self.zero_event() {
                if over && self.clear_spent_trees() {
                    break;
                }
                continue;
            }
            if self.dual_step() && self.clear_spent_trees() {
                break;
            }
        }
        self.finish_search();
    }

    /// After an augmentation or a flip: clears away the trees it used (their blossoms become
    /// unlabeled, with plain duals) and recomputes the least-slack records that pointed into
    /// them, so that the search's other trees grow on instead of being grown again from their
    /// roots by the next search. Returns true when no tree is left.
    fn clear_spent_trees(&mut self) -> bool {
        let n = self.n;
        let spent = std::mem::take(&mut self.spent);
        let mut freed = Vec::new();
        let mut alive = false;
        let mut leaves = std::mem::take(&mut self.buf);
        let mut labelled = std::mem::take(&mut self.labelled);
        let mut keep = 0;
        for k in 0..labelled.len() {
            let b = labelled[k] as usize;
            let l = self.label[b];
            if l == UNLABELED || self.parent[b] != NONE || (b >= n && self.childs[b].is_empty()) {
                continue;
            }
            if !spent.contains(&self.tree[b]) {
                alive = true;
                labelled[keep] = b as u32;
                keep += 1;
                continue;
            }
            leaves.clear();
            self.leaves.collect(b as u32, &mut leaves);
            let shift = self.shift(l, UNLABELED);
            for &x in &leaves {
                self.leaf_to(x, UNLABELED, shift);
            }
            freed.extend_from_slice(&leaves);
            if b >= n {
                self.z[b] = self.decode_z(self.z[b], l);
            }
            self.label[b] = UNLABELED;
            self.tree[b] = NONE;
            self.labelend[b] = NO_EDGE;
            self.best[b] = NO_EDGE;
            if self.has_list[b] {
                self.has_list[b] = false;
                self.best_list[b].clear();
            }
        }
        labelled.truncate(keep);
        self.labelled = labelled;
        self.buf = leaves;
        self.spent = spent;
        self.spent.clear();
        if !alive {
            return true;
        }
        let (parent, label, childs) = (&self.parent, &self.label, &self.childs);
        self.s_blossoms
            .retain(|&b| parent[b as usize] == NONE && label[b as usize] == S);
        self.t_blossoms.retain(|&b| {
            parent[b as usize] == NONE && label[b as usize] == T && !childs[b as usize].is_empty()
        });
        // The least S-vertex dual, first in labelling order on ties (as when it was kept).
        if self.min_s.1 != NONE && self.vlabel[self.min_s.1 as usize] != S {
            self.min_s = (W::ZERO, NONE);
            for &x in &self.queue {
                let xi = x as usize;
                if self.vlabel[xi] == S && (self.min_s.1 == NONE || self.y[xi] < self.min_s.0) {
                    self.min_s = (self.y[xi], x);
                }
            }
        }
        // S-blossoms whose least-slack S–S edge led into a cleared tree.
        for i in 0..self.s_blossoms.len() {
            let b = self.s_blossoms[i] as usize;
            let e = self.best[b];
            if e == NO_EDGE || self.vlabel[e.1 as usize] == S {
                continue;
            }
            self.refresh_best(b as u32);
        }
        // Non-S vertices whose least-slack edge from an S-vertex came from a cleared tree, and
        // the cleared vertices themselves (their S-vertex edges were S–S edges, not recorded).
        let mut again = vec![false; n];
        for &x in &freed {
            again[x as usize] = true;
        }
        for &u in &self.touched {
            let ui = u as usize;
            let sb = self.sbest[ui];
            if self.vlabel[ui] != S && sb != NONE && self.vlabel[sb as usize] != S {
                again[ui] = true;
            }
        }
        let mut touched = std::mem::take(&mut self.touched);
        let mut listed = vec![false; n];
        for &u in &touched {
            listed[u as usize] = true;
        }
        for u in 0..n {
            if again[u] && self.vlabel[u] != S {
                self.refresh_sbest(u);
                if self.sbest[u] != NONE && !listed[u] {
                    listed[u] = true;
                    touched.push(u as u32);
                }
            }
        }
        let sbest = &self.sbest;
        touched.retain(|&u| sbest[u as usize] != NONE);
        self.touched = touched;
        false
    }

    /// Calls `f` on each S-vertex a search looks at from `v` (its candidates when sparse,
    /// else its row), in increasing order, with the edge's weight index.
    fn for_s_neighbours(&self, v: usize, mut f: impl FnMut(u32, u32)) {
        if self.sparse {
            for &(u, wi) in &self.cand[v] {
                if self.vlabel[u as usize] == S {
                    f(u, wi);
                }
            }
        } else {
            let row = &self.w[v * self.n..(v + 1) * self.n];
            for (k, &word) in self.sbits.iter().enumerate() {
                let mut bits = word;
                while bits != 0 {
                    let u = k * 64 + bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    if row[u] != 0 {
                        f(u as u32, row[u]);
                    }
                }
            }
        }
    }

    /// Recomputes S-blossom `b`'s least-slack edge to another S-blossom: from its list when it
    /// has one, else from its vertices' edges (in scan order, first on ties).
    fn refresh_best(&mut self, b: u32) {
        let n = self.n;
        let bi = b as usize;
        let mut b_edge = NO_EDGE;
        let mut b_inv = W::ZERO;
        let dbl = self.pal.doubled();
        let mut consider = |ys: &[W], x: u32, y: u32, wi: u32| {
            let inv = sub(add(ys[x as usize], ys[y as usize]), dbl[wi as usize]);
            if b_edge == NO_EDGE || inv < b_inv {
                b_edge = (x, y);
                b_inv = inv;
            }
        };
        if self.has_list[bi] {
            let mut list = std::mem::take(&mut self.best_list[bi]);
            list.retain(|&(_, y)| self.vlabel[y as usize] == S);
            for &(x, y) in &list {
                consider(&self.y, x, y, self.w[x as usize * n + y as usize]);
            }
            self.best_list[bi] = list;
        } else {
            let mut leaves = Vec::new();
            self.leaves.collect(b, &mut leaves);
            for &x in &leaves {
                self.for_s_neighbours(x as usize, |y, wi| {
                    if self.tops.get(y as usize) != b {
                        consider(&self.y, x, y, wi);
                    }
                });
            }
        }
        self.best[bi] = b_edge;
        self.best_inv[bi] = b_inv;
    }

    /// Recomputes non-S vertex `u`'s least-slack edge from an S-vertex (least index on ties).
    fn refresh_sbest(&mut self, u: usize) {
        let mut arg = NONE;
        let mut key = W::ZERO;
        let dbl = self.pal.doubled();
        self.for_s_neighbours(u, |s, wi| {
            let k = sub(add(self.y[s as usize], self.key_offset), dbl[wi as usize]);
            if arg == NONE || k < key {
                arg = s;
                key = k;
            }
        });
        self.sbest[u] = arg;
        if arg != NONE {
            self.sbest_key[u] = key;
        }
    }

    /// Decodes the lazily stored duals (see the `label` field) back to plain values.
    fn finish_search(&mut self) {
        let n = self.n;
        for v in 0..n {
            let l = self.vlabel[v];
            self.y[v] = self.decode_y(self.y[v], l);
            self.vlabel[v] = UNLABELED;
        }
        self.sbits.fill(0);
        for b in n..2 * n {
            if self.parent[b] == NONE && !self.childs[b].is_empty() {
                self.z[b] = self.decode_z(self.z[b], self.label[b]);
            }
        }
    }

    #[inline(always)]
    fn decode_y(&self, stored: W, label: u8) -> W {
        match label {
            S => sub(stored, self.delta_sum),
            T => sub(add(stored, self.delta_sum), self.key_offset),
            _ => stored,
        }
    }

    #[inline(always)]
    fn encode_y(&self, y: W, label: u8) -> W {
        match label {
            S => add(y, self.delta_sum),
            T => sub(add(y, self.key_offset), self.delta_sum),
            _ => y,
        }
    }

    #[inline(always)]
    fn decode_z(&self, stored: W, label: u8) -> W {
        let d2 = add(self.delta_sum, self.delta_sum);
        match label {
            S => sub(add(stored, d2), add(self.key_offset, self.key_offset)),
            T => sub(stored, d2),
            _ => stored,
        }
    }

    #[inline(always)]
    fn encode_z(&self, z: W, label: u8) -> W {
        let d2 = add(self.delta_sum, self.delta_sum);
        match label {
            S => sub(add(z, add(self.key_offset, self.key_offset)), d2),
            T => add(z, d2),
            _ => z,
        }
    }

    /// Gives unlabeled top-level blossom `b` label `to` (S or T), re-encoding its duals; new
    /// S-vertices are queued for scanning.
    fn relabel(&mut self, b: u32, to: u8) {
        self.relabel_from(b, to, UNLABELED);
    }

    /// [`relabel`](Self::relabel) for a blossom whose vertices' duals are still encoded for
    /// label `from` (a child of an expanded T-blossom keeps its T encoding until it is labeled:
    /// one re-encoding instead of two, none when it stays T).
    fn relabel_from(&mut self, b: u32, to: u8, from: u8) {
        let bi = b as usize;
        debug_assert_eq!(self.label[bi], UNLABELED);
        self.label[bi] = to;
        self.labelled.push(b);
        // A root starts its tree; any other blossom joins the tree of its label end's far side.
        let le = self.labelend[bi];
        self.tree[bi] = if le == NO_EDGE {
            self.base[bi]
        } else {
            self.tree[self.tops.get(le.0 as usize) as usize]
        };
        if to == S {
            self.s_blossoms.push(b);
        } else if to == T && bi >= self.n {
            self.t_blossoms.push(b);
        }
        if bi >= self.n {
            if to == T && self.z[bi].is_zero() {
                self.zero_events.push(Reverse((4, b)));
            }
            self.z[bi] = self.encode_z(self.z[bi], to);
        }
        if from == to {
            debug_assert_eq!(
                to, T,
                "only T-children of an expanded blossom keep their encoding"
            );
            return;
        }
        let start = self.queue.len();
        self.leaves.collect(b, &mut self.queue);
        let shift = self.shift(from, to);
        for i in start..self.queue.len() {
            let x = self.queue[i];
            self.leaf_to(x, to, shift);
        }
        if to != S {
            self.queue.truncate(start);
        }
    }

    /// What re-encoding a stored dual from label `from` to label `to` adds to it (modulo the
    /// width): the difference of the two encodings' offsets, computed once for a whole blossom
    /// instead of decoding and encoding each of its vertices.
    #[inline]
    fn shift(&self, from: u8, to: u8) -> W {
        let off = |l: u8| match l {
            S => self.delta_sum,
            T => self.key_offset.wrapping_sub(self.delta_sum),
            _ => W::ZERO,
        };
        off(to).wrapping_sub(off(from))
    }

    /// Re-encodes vertex `x` for label `to`; `shift` is [`shift`](Self::shift) from its
    /// current label.
    #[inline]
    fn leaf_to(&mut self, x: u32, to: u8, shift: W) {
        let xi = x as usize;
        let stored = self.y[xi].wrapping_add(shift);
        debug_assert!(
            stored == self.encode_y(self.decode_y(self.y[xi], self.vlabel[xi]), to),
            "a blossom's vertices share their label"
        );
        self.y[xi] = stored;
        self.vlabel[xi] = to;
        let bit = 1u64 << (xi % 64);
        if to == S {
            self.sbits[xi / 64] |= bit;
            if self.min_s.1 == NONE || stored < self.min_s.0 {
                self.min_s = (stored, x);
            }
            self.mark_suspect(xi);
        } else {
            self.sbits[xi / 64] &= !bit;
        }
    }

    /// Raises by one the dual of free vertex `f` and of every vertex sharing its top-level
    /// blossom, paying with 2 from that blossom's dual (expanding it first if that is zero), so
    /// that only edges leaving the blossom gain slack. Keeps feasibility and slackness.
    fn raise_by_one(&mut self, f: u32) {
        let n = self.n;
        let one = W::from_u64(1);
        loop {
            let b = self.tops.get(f as usize);
            if (b as usize) < n {
                self.y[f as usize] = add(self.y[f as usize], one);
                return;
            }
            if !self.z[b as usize].is_zero() {
                self.z[b as usize] = sub(self.z[b as usize], W::from_u64(2));
                let mut leaves = std::mem::take(&mut self.buf);
                leaves.clear();
                self.leaves.collect(b, &mut leaves);
                for &x in &leaves {
                    self.y[x as usize] = add(self.y[x as usize], one);
                }
                self.buf = leaves;
                return;
            }
            self.dissolve_top(b);
        }
    }

    /// Slack of edge `(a, b)` between different top-level blossoms (debug checks only).
    #[cfg(debug_assertions)]
    fn real_slack(&self, a: u32, b: u32) -> W {
        let wt = self.wt(a as usize, b as usize);
        let ya = self.decode_y(self.y[a as usize], self.vlabel[a as usize]);
        let yb = self.decode_y(self.y[b as usize], self.vlabel[b as usize]);
        sub(add(ya, yb), add(wt, wt))
    }

    fn set_s(&mut self, b: u32, le: (u32, u32)) {
        self.labelend[b as usize] = le;
        self.relabel(b, S);
    }

    /// Scans the edges of S-vertex `v`. Returns true when the search is over.
    fn scan(&mut self, v: u32) -> bool {
        let mut from = 0;
        loop {
            let event = if self.sparse {
                self.scan_candidates(v as usize, from)
            } else {
                self.scan_row(v as usize, from)
                    .map(|(u, both_s)| (u, both_s, u as usize + 1))
            };
            let Some((u, both_s, next)) = event else {
                return false;
            };
            let over = if both_s {
                self.tight_ss(v, u)
            } else {
                self.tight_unlabeled(v, u)
            };
            if over {
                return true;
            }
            from = next;
        }
    }

    /// [`scan_row`](Self::scan_row) over the candidate list of `vi` from its entry `from`;
    /// the event also says where to resume.
    #[inline]
    fn scan_candidates(&mut self, vi: usize, from: usize) -> Option<(u32, bool, usize)> {
        self.stats.cells += self.cand[vi].len() - from;
        let (mut sc, _, list) = self.split_for_scan(vi);
        let mut event = None;
        for (k, &(u, wi)) in list[from..].iter().enumerate() {
            if let Some(both_s) = sc.visit(u as usize, wi) {
                event = Some((u, both_s, from + k + 1));
                break;
            }
        }
        let (best, best_inv) = (sc.best, sc.best_inv);
        self.best[self.tops.get(vi) as usize] = best;
        self.best_inv[self.tops.get(vi) as usize] = best_inv;
        event
    }

    /// Scans row `v` from column `from`, recording least-slack edges, up to the first tight edge
    /// to an unlabeled vertex or to an S-vertex of another blossom, which it returns (with
    /// whether its far end is S) for the caller to act on.
    #[inline]
    fn scan_row(&mut self, vi: usize, from: usize) -> Option<(u32, bool)> {
        let n = self.n;
        self.stats.cells += n - from;
        let bv = self.tops.get(vi);
        if bv as usize >= n {
            self.cache_members(bv);
        }
        let memb = std::mem::take(&mut self.memb);
        let (mut sc, row, _) = self.split_for_scan(vi);
        let mut event = None;
        if bv as usize >= n {
            // The columns outside v's blossom, in increasing order as a full row scan would
            // visit them (the others it would skip as S-vertices of v's own blossom).
            'words: for (k, &inside) in memb.iter().enumerate().skip(from / 64) {
                let mut bits = !inside;
                if k == from / 64 {
                    bits &= u64::MAX << (from % 64);
                }
                while bits != 0 {
                    let u = k * 64 + bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    if u >= n {
                        break 'words;
                    }
                    if let Some(both_s) = sc.visit(u, row[u]) {
                        event = Some((u as u32, both_s));
                        break 'words;
                    }
                }
            }
        } else {
            for (u, &wi) in row.iter().enumerate().skip(from) {
                if let Some(both_s) = sc.visit(u, wi) {
                    event = Some((u as u32, both_s));
                    break;
                }
            }
        }
        let (best, best_inv) = (sc.best, sc.best_inv);
        self.memb = memb;
        self.best[self.tops.get(vi) as usize] = best;
        self.best_inv[self.tops.get(vi) as usize] = best_inv;
        event
    }

    /// Makes `memb` the vertex set of top-level blossom `b`.
    fn cache_members(&mut self, b: u32) {
        if self.memb_of == b {
            #[cfg(debug_assertions)]
            {
                let mut leaves = Vec::new();
                self.leaves.collect(b, &mut leaves);
                let count: u32 = self.memb.iter().map(|w| w.count_ones()).sum();
                debug_assert_eq!(count as usize, leaves.len(), "member set of blossom {b}");
                for &x in &leaves {
                    debug_assert!(self.memb[x as usize / 64] >> (x % 64) & 1 == 1);
                }
            }
            return;
        }
        self.memb.fill(0);
        let mut leaves = std::mem::take(&mut self.buf);
        leaves.clear();
        self.leaves.collect(b, &mut leaves);
        for &x in &leaves {
            self.memb[x as usize / 64] |= 1 << (x % 64);
        }
        self.buf = leaves;
        self.memb_of = b;
    }

    /// The state a scan of S-vertex `vi`'s edges reads and records, its row and its candidate
    /// list (empty when dense).
    #[inline(always)]
    fn split_for_scan(&mut self, vi: usize) -> (Scan<'_, W>, &[u32], &[(u32, u32)]) {
        let n = self.n;
        let key_v = self.y[vi];
        let bv = self.tops.get(vi);
        let sc = Scan {
            vi: vi as u32,
            bv,
            key_v,
            key_cv: add(key_v, self.key_offset),
            c_d: add(self.key_offset, self.delta_sum),
            d2: add(self.delta_sum, self.delta_sum),
            dbl: self.pal.doubled(),
            ys: &self.y,
            labels: &self.vlabel,
            tops: &self.tops,
            sbest: &mut self.sbest,
            sbest_key: &mut self.sbest_key,
            touched: &mut self.touched,
            best: self.best[bv as usize],
            best_inv: self.best_inv[bv as usize],
        };
        let list = self.cand.get(vi).map_or(&[][..], |l| &l[..]);
        (sc, &self.w[vi * n..(vi + 1) * n], list)
    }

    /// Tight edge from S-vertex `v` to a vertex `u` of an unlabeled blossom: augment if that
    /// blossom is free, else label it T and its mate's blossom S.
    fn tight_unlabeled(&mut self, v: u32, u: u32) -> bool {
        let bu = self.tops.get(u as usize);
        let bb = self.base[bu as usize];
        let m = self.mate[bb as usize];
        if m == NONE {
            self.augment(v, u);
            return true;
        }
        self.labelend[bu as usize] = (v, u);
        self.relabel(bu, T);
        let bm = self.tops.get(m as usize);
        debug_assert_eq!(self.label[bm as usize], UNLABELED);
        self.set_s(bm, (bb, m));
        false
    }

    /// Tight edge between two S-blossoms: a new blossom (same tree) or an augmenting path.
    fn tight_ss(&mut self, v: u32, u: u32) -> bool {
        match self.find_lca(v, u) {
            Some(b) => {
                self.add_blossom(b, v, u);
                false
            }
            None => {
                self.augment(v, u);
                true
            }
        }
    }

    /// The S-blossom above S-blossom `b` in the tree.
    fn tree_parent(&self, b: u32) -> Option<u32> {
        let le = self.labelend[b as usize];
        if le == NO_EDGE {
            return None;
        }
        let bt = self.tops.get(le.0 as usize);
        Some(self.tops.get(self.labelend[bt as usize].0 as usize))
    }

    fn find_lca(&mut self, v: u32, u: u32) -> Option<u32> {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.mark.fill(0);
            self.stamp = 1;
        }
        let mut x = Some(self.tops.get(v as usize));
        let mut y = Some(self.tops.get(u as usize));
        while x.is_some() || y.is_some() {
            if let Some(b) = x {
                if self.mark[b as usize] == self.stamp {
                    return Some(b);
                }
                self.mark[b as usize] = self.stamp;
                x = self.tree_parent(b);
            }
            std::mem::swap(&mut x, &mut y);
        }
        None
    }

    /// Shrinks the odd cycle closed by tight edge `(v, u)` through the tree's blossom `lca`.
    fn add_blossom(&mut self, lca: u32, v: u32, u: u32) {
        let n = self.n;
        self.stats.blossoms += 1;
        let id = self.unused.pop().expect("blossom ids exhausted");
        let idu = id as usize;
        let up = |this: &Self, start: u32| {
            let mut path = Vec::new();
            let mut b = start;
            while b != lca {
                path.push(b);
                let bt = this.tops.get(this.labelend[b as usize].0 as usize);
                path.push(bt);
                b = this.tops.get(this.labelend[bt as usize].0 as usize);
            }
            path
        };
        let pv = up(self, self.tops.get(v as usize));
        let pu = up(self, self.tops.get(u as usize));
        let k = 1 + pv.len() + pu.len();
        let mut ch = std::mem::take(&mut self.childs[idu]);
        let mut ed = std::mem::take(&mut self.cedges[idu]);
        ch.clear();
        ed.clear();
        ch.reserve(k);
        ed.reserve(k);
        ch.push(lca);
        for &c in pv.iter().rev() {
            ed.push(self.labelend[c as usize]);
            ch.push(c);
        }
        ed.push((v, u));
        for &c in &pu {
            ch.push(c);
            let (a, b) = self.labelend[c as usize];
            ed.push((b, a));
        }
        debug_assert!(k % 2 == 1 && k >= 3);
        self.leaves.link(id, &ch);

        self.base[idu] = self.base[lca as usize];
        self.z[idu] = self.encode_z(W::ZERO, S);
        self.parent[idu] = NONE;
        self.label[idu] = S;
        self.tree[idu] = self.tree[lca as usize];
        self.labelled.push(id);
        self.s_blossoms.push(id);
        self.labelend[idu] = self.labelend[lca as usize];
        // Children stop being top-level: their duals freeze at their current values.
        for &c in &ch {
            let ci = c as usize;
            self.parent[ci] = id;
            if ci >= n {
                self.z[ci] = self.decode_z(self.z[ci], self.label[ci]);
            }
        }
        // Vertices, grouped by child; former T-vertices become S and must be scanned. An
        // S-child with a least-slack list needs no scan: its vertices are only walked below
        // (a large blossom is often such a child of each of a long chain of new ones).
        let mut leaves = std::mem::take(&mut self.buf);
        leaves.clear();
        let mut ranges = Vec::with_capacity(k);
        for &c in &ch {
            let start = leaves.len();
            if self.label[c as usize] == S && self.has_list[c as usize] {
                ranges.push(start..start);
                continue;
            }
            self.leaves.collect(c, &mut leaves);
            ranges.push(start..leaves.len());
            if self.label[c as usize] == T {
                let shift = self.shift(T, S);
                for &x in &leaves[start..] {
                    self.leaf_to(x, S, shift);
                    self.queue.push(x);
                }
            }
        }
        self.tops.form(id, &ch, &self.leaves);
        // The cached member set follows its blossom into the new one.
        if let Some(i) = ch.iter().position(|&c| c == self.memb_of) {
            let memb = &mut self.memb;
            for (j, &c) in ch.iter().enumerate() {
                if j != i {
                    self.leaves
                        .for_each(c, |x| memb[x as usize / 64] |= 1 << (x % 64));
                }
            }
            self.memb_of = id;
        }
        // Least-slack edge to every other S-blossom, from the children's lists where they have
        // one and from the vertices' rows otherwise.
        let mut touched: Vec<u32> = Vec::new();
        for (i, &c) in ch.iter().enumerate() {
            let ci = c as usize;
            if self.has_list[ci] {
                let list = std::mem::take(&mut self.best_list[ci]);
                for &(x, y) in &list {
                    let by = self.tops.get(y as usize);
                    if by != id && self.label[by as usize] == S {
                        let wt = self.wt(x as usize, y as usize);
                        let inv = sub(add(self.y[x as usize], self.y[y as usize]), add(wt, wt));
                        offer_best(
                            &mut self.best_to,
                            &mut self.best_to_inv,
                            by,
                            (x, y),
                            inv,
                            &mut touched,
                        );
                    }
                }
                self.best_list[ci] = list;
                self.best_list[ci].clear();
                self.has_list[ci] = false;
            } else {
                for &x in &leaves[ranges[i].clone()] {
                    let xi = x as usize;
                    let yx = self.y[xi];
                    let row = &self.w[xi * n..(xi + 1) * n];
                    let dbl = self.pal.doubled();
                    let (ys, labels, tops) = (&self.y, &self.vlabel, &self.tops);
                    let (best_to, best_to_inv) = (&mut self.best_to, &mut self.best_to_inv);
                    let mut offer = |y: usize, wi: u32| {
                        let by = tops.get(y);
                        if wi != 0 && by != id {
                            let inv = sub(add(yx, ys[y]), dbl[wi as usize]);
                            offer_best(best_to, best_to_inv, by, (x, y as u32), inv, &mut touched);
                        }
                    };
                    // Only the S columns (S candidates when sparse), in increasing order as a
                    // full scan would offer them, which decides ties.
                    if self.sparse {
                        for &(y, wi) in &self.cand[xi] {
                            if labels[y as usize] == S {
                                offer(y as usize, wi);
                            }
                        }
                    } else {
                        // The new blossom's own S columns are skipped by the member set when
                        // it is cached (they would be refused one by one below).
                        let own = |k: usize| if self.memb_of == id { self.memb[k] } else { 0 };
                        for (k, &word) in self.sbits.iter().enumerate() {
                            let mut bits = word & !own(k);
                            while bits != 0 {
                                let y = k * 64 + bits.trailing_zeros() as usize;
                                offer(y, row[y]);
                                bits &= bits - 1;
                            }
                        }
                    }
                }
            }
            self.best[ci] = NO_EDGE;
        }
        self.buf = leaves;
        let mut list = std::mem::take(&mut self.best_list[idu]);
        list.clear();
        let mut b_edge = NO_EDGE;
        let mut b_inv = W::ZERO;
        for &bu in &touched {
            let e = self.best_to[bu as usize];
            let inv = self.best_to_inv[bu as usize];
            self.best_to[bu as usize] = NO_EDGE;
            list.push(e);
            if b_edge == NO_EDGE || inv < b_inv {
                b_edge = e;
                b_inv = inv;
            }
        }
        self.best_list[idu] = list;
        self.has_list[idu] = true;
        self.best[idu] = b_edge;
        self.best_inv[idu] = b_inv;
        // Another edge of the merged children may have become tight in the same step.
        if b_edge != NO_EDGE && b_inv == add(self.delta_sum, self.delta_sum) {
            self.zero_events.push(Reverse((3, id)));
        }
        self.childs[idu] = ch;
        self.cedges[idu] = ed;
    }

    /// Augments along the path root(v) … v – u … (root of u's tree, or u's free blossom).
    fn augment(&mut self, v: u32, u: u32) {
        for x in [v, u] {
            let b = self.tops.get(x as usize) as usize;
            if self.label[b] != UNLABELED {
                self.spent.push(self.tree[b]);
            }
        }
        self.augment_side(v, u);
        self.augment_side(u, v);
    }

    /// Matches `s` to `p` (or leaves it free if `p` is `NONE`) and flips the tree path above it.
    fn augment_side(&mut self, mut s: u32, mut p: u32) {
        let n = self.n;
        loop {
            let bs = self.tops.get(s as usize);
            if bs as usize >= n {
                self.rotate(bs, s);
            }
            self.mate[s as usize] = p;
            let le = self.labelend[bs as usize];
            if le == NO_EDGE {
                break;
            }
            let bt = self.tops.get(le.0 as usize);
            let (s2, j) = self.labelend[bt as usize];
            if bt as usize >= n {
                self.rotate(bt, j);
            }
            self.mate[j as usize] = s2;
            s = s2;
            p = j;
        }
    }

    /// Makes vertex `v` the base of blossom `b` by flipping the even path from `v`'s child to the
    /// base child (recursively inside children). The caller matches `v` outside.
    fn rotate(&mut self, b: u32, v: u32) {
        // The blossoms between `v` and `b`, innermost first, each rotated before the one that
        // holds it: one walk up, instead of one per level of a deeply nested blossom.
        let mut chain = Vec::new();
        let mut c = v;
        while self.parent[c as usize] != b {
            c = self.parent[c as usize];
            chain.push(c);
        }
        let mut child = v;
        for &x in &chain {
            self.rotate_one(x, child, v);
            child = x;
        }
        self.rotate_one(b, child, v);
    }

    /// Rotates blossom `b`, whose child `c` holds `v` and has been rotated already.
    fn rotate_one(&mut self, b: u32, c: u32, v: u32) {
        let n = self.n;
        let bi = b as usize;
        let k = self.childs[bi].len();
        let i = self.childs[bi]
            .iter()
            .position(|&x| x == c)
            .expect("child of its parent");
        if i > 0 {
            // Edges that become matched: forward from odd i, backward from even i.
            let (lo, hi) = if i % 2 == 1 { (i + 1, k) } else { (0, i - 1) };
            let mut j = lo;
            while j < hi {
                let (x, y) = self.cedges[bi][j];
                let cx = self.childs[bi][j];
                let cy = self.childs[bi][(j + 1) % k];
                if cx as usize >= n {
                    self.rotate(cx, x);
                }
                if cy as usize >= n {
                    self.rotate(cy, y);
                }
                self.mate[x as usize] = y;
                self.mate[y as usize] = x;
                j += 2;
            }
            self.childs[bi].rotate_left(i);
            self.cedges[bi].rotate_left(i);
        }
        // Its children's runs changed (the one holding `v`, and any rotated above), and
        // perhaps their order.
        let ch = std::mem::take(&mut self.childs[bi]);
        self.leaves.link(b, &ch);
        self.childs[bi] = ch;
        self.base[bi] = v;
    }

    /// Expands a T-blossom whose dual reached zero: its children become top-level; those on the
    /// even path from the entry child to the base child keep the tree alternating (T, S, …, T),
    /// the others become unlabeled (their least-slack edges are known through `sbest`).
    fn expand_t(&mut self, b: u32) {
        let bi = b as usize;
        let ch = std::mem::take(&mut self.childs[bi]);
        let ed = std::mem::take(&mut self.cedges[bi]);
        let (s0, j0) = self.labelend[bi];
        // The child holding the entry vertex (found before the children become top-level).
        let mut entry = j0;
        while self.parent[entry as usize] != b {
            entry = self.parent[entry as usize];
        }
        let k = ch.len();
        let i = ch.iter().position(|&x| x == entry).expect("entry child");
        let forward = i % 2 == 1;
        // The children on the even path from the entry child to the base child, with their
        // labels and label ends, in the order they are labeled.
        let mut path = vec![(i, T, (s0, j0))];
        let mut p = i;
        while p != 0 {
            let (q, r, e1, e2);
            if forward {
                q = (p + 1) % k;
                r = (q + 1) % k;
                e1 = ed[p];
                e2 = ed[q];
            } else {
                q = p - 1;
                r = q - 1;
                let (x, y) = ed[p - 1];
                e1 = (y, x);
                let (x2, y2) = ed[q - 1];
                e2 = (y2, x2);
            }
            path.push((q, S, e1));
            path.push((r, T, e2));
            p = r;
        }
        let mut on_path = vec![false; k];
        for &(c, _, _) in &path {
            on_path[c] = true;
        }
        // Children become top-level and unlabeled first (their own duals are plain values, as
        // for any non-top-level blossom); the vertices of those off the path are decoded now,
        // the others keep their T encoding until the path is labeled.
        let mut leaves = std::mem::take(&mut self.buf);
        let to_unlabeled = self.shift(T, UNLABELED);
        self.tops.split(b, &ch, &self.leaves);
        for (ci, &c) in ch.iter().enumerate() {
            let cu = c as usize;
            self.parent[cu] = NONE;
            if !on_path[ci] {
                leaves.clear();
                self.leaves.collect(c, &mut leaves);
                for &x in &leaves {
                    self.leaf_to(x, UNLABELED, to_unlabeled);
                    // A child left unlabeled may already be reached by a tight edge.
                    if self.tight_unlabeled_vertex(x as usize) {
                        self.zero_events.push(Reverse((2, x)));
                    }
                }
            }
            self.label[cu] = UNLABELED;
            self.labelend[cu] = NO_EDGE;
            self.best[cu] = NO_EDGE;
        }
        self.buf = leaves;
        for &(c, to, le) in &path {
            self.labelend[ch[c] as usize] = le;
            self.relabel_from(ch[c], to, T);
        }
        self.cedges[bi] = ed;
        self.release(b, ch);
    }

    /// Handles a noted event that needs no dual step, if one is still valid. Returns whether
    /// the search is over, or `None` when no such event is left.
    fn zero_event(&mut self) -> Option<bool> {
        while let Some(Reverse((kind, x))) = self.zero_events.pop() {
            let xi = x as usize;
            let valid = match kind {
                2 => self.tight_unlabeled_vertex(xi),
                3 => {
                    self.s_top_with_edge(xi)
                        && self.best_inv[xi] == add(self.delta_sum, self.delta_sum)
                }
                _ => self.t_top_blossom(xi) && self.decode_z(self.z[xi], T).is_zero(),
            };
            if valid {
                return Some(self.take_event(kind, x));
            }
        }
        None
    }

    /// Computes the next dual step, applies it and handles the event it makes possible.
    /// Returns true when the search is over.
    fn dual_step(&mut self) -> bool {
        self.stats.dual_steps += 1;
        let dsum = self.delta_sum;
        let [mut ties2, mut ties3, mut ties4] = std::mem::take(&mut self.ties);
        // δ2: tight edge from an S-vertex to an unlabeled blossom. Slack = key + Y_u - (C + Δ).
        // Each minimum goes to the least index (the order of a full sweep) and keeps its ties,
        // which become tight with it and are handled after it without another step.
        let mut m2: Option<(W, u32)> = None;
        for &u in &self.touched {
            let ui = u as usize;
            if self.vlabel[ui] == UNLABELED {
                least(&mut m2, &mut ties2, add(self.sbest_key[ui], self.y[ui]), u);
            }
        }
        let d2 = m2.map(|(q, u)| (sub(q, add(self.key_offset, dsum)), u));
        #[cfg(debug_assertions)]
        if let Some((d, u)) = d2 {
            debug_assert!(d == self.real_slack(self.sbest[u as usize], u));
        }
        // δ3: half the slack of an edge between two S-blossoms. Slack = inv - 2Δ.
        let mut m3: Option<(W, u32)> = None;
        for &b in &self.s_blossoms {
            let bi = b as usize;
            if self.s_top_with_edge(bi) {
                least(&mut m3, &mut ties3, self.best_inv[bi], b);
            }
        }
        let d3 = m3.map(|(inv, b)| {
            let sl = sub(inv, add(dsum, dsum));
            debug_assert!(!sl.is_odd(), "S–S slack must be even");
            #[cfg(debug_assertions)]
            debug_assert!(sl == self.real_slack(self.best[b as usize].0, self.best[b as usize].1));
            (sl.half(), b)
        });
        // δ4: half the dual of a T-blossom.
        let mut m4: Option<(W, u32)> = None;
        for &b in &self.t_blossoms {
            let bi = b as usize;
            if self.t_top_blossom(bi) {
                least(&mut m4, &mut ties4, self.decode_z(self.z[bi], T).half(), b);
            }
        }
        // δ1: an S-vertex dual reaching zero.
        let (key, v) = self.min_s;
        let d1 = (sub(key, dsum), v);
        // The least of them, earlier kinds first on equal values.
        let mut delta = None;
        let mut kind = 0u8;
        let mut arg = NONE;
        for (k, m) in [(2u8, d2), (3, d3), (4, m4), (1, Some(d1))] {
            if let Some((x, a)) = m
                && delta.is_none_or(|d| x < d)
            {
                delta = Some(x);
                kind = k;
                arg = a;
            }
        }
        let d = delta.expect("a search always has an S-vertex");
        // Events tied with the chosen one need no step of their own.
        if kind != 1 {
            for (k, m, ties) in [(2u8, d2, &ties2), (3, d3, &ties3), (4, m4, &ties4)] {
                if let Some((x, a)) = m
                    && x == d
                {
                    self.zero_events
                        .extend(ties.iter().map(|&t| Reverse((k, t))));
                    if k != kind {
                        self.zero_events.push(Reverse((k, a)));
                    }
                }
            }
        }
        self.ties = [ties2, ties3, ties4];
        self.delta_sum = add(dsum, d);
        self.take_event(kind, arg)
    }

    /// Handles an event of kind 1-4 (the δ it comes from) on vertex or blossom `x`. Returns
    /// true when the search is over.
    fn take_event(&mut self, kind: u8, x: u32) -> bool {
        match kind {
            1 => {
                self.spent
                    .push(self.tree[self.tops.get(x as usize) as usize]);
                self.augment_side(x, NONE);
                true
            }
            2 => self.tight_unlabeled(self.sbest[x as usize], x),
            3 => {
                let (a, c) = self.best[x as usize];
                self.tight_ss(a, c)
            }
            _ => {
                self.expand_t(x);
                false
            }
        }
    }

    /// Top-level S-blossom with a least-slack edge to another S-blossom (a δ3 candidate).
    #[inline]
    fn s_top_with_edge(&self, b: usize) -> bool {
        self.parent[b] == NONE && self.label[b] == S && self.best[b] != NO_EDGE
    }

    /// Top-level non-trivial T-blossom (a δ4 candidate).
    #[inline]
    fn t_top_blossom(&self, b: usize) -> bool {
        self.parent[b] == NONE && self.label[b] == T && !self.childs[b].is_empty()
    }

    /// Unlabeled vertex whose least-slack edge from an S-vertex is tight.
    #[inline]
    fn tight_unlabeled_vertex(&self, x: usize) -> bool {
        self.vlabel[x] == UNLABELED
            && self.sbest[x] != NONE
            && add(self.sbest_key[x], self.y[x]) == add(self.key_offset, self.delta_sum)
    }

    // ----------------------------------------------------------------------------------------
    // Certificate.

    /// Checks that the current matching is provably maximum: it is a valid matching on positive
    /// edges, and the dual solution kept by the matcher is feasible and complementary to it
    /// (every edge has non-negative slack, matched and blossom edges have zero slack, free
    /// vertices have zero dual, blossoms are full). Meaningful after [`solve`](Self::solve) with
    /// no weight changed since. `O(n² · blossom depth)`.
    pub fn verify(&self) -> Result<(), String> {
        let n = self.n;
        for v in 0..n {
            let m = self.mate[v];
            if m == NONE {
                if !self.y[v].is_zero() {
                    return Err(format!("free vertex {v} has dual {:?}", self.y[v]));
                }
            } else {
                let mi = m as usize;
                if mi >= n || mi == v || self.mate[mi] != v as u32 {
                    return Err(format!("mate of {v} is {m}, not symmetric"));
                }
                if self.w[v * n + mi] == 0 {
                    return Err(format!("matched pair ({v}, {mi}) has weight 0"));
                }
            }
        }
        // Ancestor chains (outermost first) and prefix sums of their duals.
        let mut chains: Vec<Vec<u32>> = Vec::with_capacity(n);
        let mut zsums: Vec<Vec<W>> = Vec::with_capacity(n);
        for v in 0..n {
            let mut chain = Vec::new();
            let mut b = self.parent[v];
            while b != NONE {
                chain.push(b);
                b = self.parent[b as usize];
            }
            chain.reverse();
            let expected_top = chain.first().copied().unwrap_or(v as u32);
            if self.tops.get(v) != expected_top {
                return Err(format!(
                    "top of {v} is {}, expected {expected_top}",
                    self.tops.get(v)
                ));
            }
            let mut sums = vec![W::ZERO];
            for &b in &chain {
                let last = *sums.last().expect("non-empty");
                sums.push(
                    last.checked_add(self.z[b as usize])
                        .ok_or("dual sum overflow")?,
                );
            }
            chains.push(chain);
            zsums.push(sums);
        }
        let slack = |a: usize, b: usize| -> Result<W, String> {
            let ca = &chains[a];
            let cb = &chains[b];
            let common = ca.iter().zip(cb).take_while(|(x, y)| x == y).count();
            let wt = self.wt(a, b);
            let lhs = self.y[a]
                .checked_add(self.y[b])
                .and_then(|s| s.checked_add(zsums[a][common]))
                .ok_or("dual sum overflow")?;
            let rhs = wt.checked_add(wt).ok_or("weight overflow")?;
            lhs.checked_sub(rhs)
                .ok_or_else(|| format!("edge ({a}, {b}) is not dual-feasible"))
        };
        for a in 0..n {
            for b in a + 1..n {
                if self.w[a * n + b] == 0 {
                    continue;
                }
                let s = slack(a, b)?;
                if self.mate[a] == b as u32 && !s.is_zero() {
                    return Err(format!("matched edge ({a}, {b}) has slack {s:?}"));
                }
            }
        }
        // Blossoms.
        let mut leaves = Vec::new();
        for b in n..2 * n {
            let ch = &self.childs[b];
            if ch.is_empty() {
                continue;
            }
            let k = ch.len();
            if k < 3 || k.is_multiple_of(2) || self.cedges[b].len() != k {
                return Err(format!("blossom {b} has {k} children"));
            }
            if self.z[b].is_odd() {
                return Err(format!("blossom {b} has odd dual"));
            }
            for &c in ch {
                if self.parent[c as usize] != b as u32 {
                    return Err(format!("child {c} of {b} has another parent"));
                }
            }
            let lv = &self.leaves;
            if lv.first[b] != lv.first[ch[0] as usize]
                || lv.last[b] != lv.last[ch[k - 1] as usize]
                || ch
                    .windows(2)
                    .any(|p| lv.next[lv.last[p[0] as usize] as usize] != lv.first[p[1] as usize])
            {
                return Err(format!(
                    "blossom {b}'s vertices are not its children's in order"
                ));
            }
            if self.base[b] != self.base[ch[0] as usize] {
                return Err(format!(
                    "base of blossom {b} differs from its first child's"
                ));
            }
            let child_of = |x: u32| {
                let mut c = x;
                while self.parent[c as usize] != b as u32 {
                    c = self.parent[c as usize];
                    if c == NONE {
                        return NONE;
                    }
                }
                c
            };
            for i in 0..k {
                let (x, y) = self.cedges[b][i];
                if child_of(x) != ch[i] || child_of(y) != ch[(i + 1) % k] {
                    return Err(format!("blossom {b} edge {i} does not join its children"));
                }
                if !slack(x as usize, y as usize)?.is_zero() {
                    return Err(format!("blossom {b} edge {i} is not tight"));
                }
                let matched = self.mate[x as usize] == y;
                if matched != (i % 2 == 1) {
                    return Err(format!("blossom {b} edge {i} has the wrong matched state"));
                }
            }
            leaves.clear();
            self.leaves.collect(b as u32, &mut leaves);
            let outside = leaves
                .iter()
                .filter(|&&x| {
                    let m = self.mate[x as usize];
                    m == NONE || !leaves.contains(&m)
                })
                .count();
            if outside != 1 {
                return Err(format!("blossom {b} is not full"));
            }
            let bb = self.base[b];
            let m = self.mate[bb as usize];
            if m != NONE && leaves.contains(&m) {
                return Err(format!("base of blossom {b} is matched inside it"));
            }
        }
        Ok(())
    }
}
