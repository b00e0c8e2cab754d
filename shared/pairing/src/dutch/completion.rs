//! The completion test of A.9: can every remaining player be paired, except at most one who
//! can receive the pairing-allocated bye, without breaking an absolute criterion?
//!
//! A maximum-cardinality matching (Edmonds' blossom algorithm) on the compatibility graph,
//! with one dummy vertex joined to the bye-eligible players when the count is odd. Pairs made
//! by earlier brackets are fixed; the previous matching is kept and only repaired, so each
//! test after the first costs a few augmentations.

use crate::state::RoundState;
use std::collections::VecDeque;

/// Columns `64·w ..` of row `u` of an `n × n` bit matrix (zero past column `n`).
fn row_word(adj: &[u64], n: usize, u: usize, w: usize) -> u64 {
    let start = u * n + 64 * w;
    let (i, sh) = (start / 64, start % 64);
    let mut bits = adj[i] >> sh;
    if sh != 0 && i + 1 < adj.len() {
        bits |= adj[i + 1] << (64 - sh);
    }
    bits & columns_in_word(n, w)
}

/// The bits of word `w` of an `n`-bit row that are columns (all but the last word's tail).
fn columns_in_word(n: usize, w: usize) -> u64 {
    let left = n - 64 * w;
    if left < 64 {
        (1u64 << left) - 1
    } else {
        u64::MAX
    }
}

/// The vertices a search from unfixed `v` may step to, in increasing order: its compatible
/// unfixed neighbours, read 64 columns at a time.
fn neighbours<'a>(
    adj: &'a [u64],
    n: usize,
    unfixed: &'a [u64],
    v: usize,
) -> impl Iterator<Item = usize> + 'a {
    (0..unfixed.len()).flat_map(move |w| {
        let mut bits = row_word(adj, n, v, w) & unfixed[w];
        std::iter::from_fn(move || {
            (bits != 0).then(|| {
                let b = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                64 * w + b
            })
        })
    })
}

fn bit(set: &[u64], v: usize) -> bool {
    set[v / 64] >> (v % 64) & 1 == 1
}

/// The vertices `v` may step to: the unfixed ones, and only those outside the restricted set
/// when `v` is in it.
fn allowed<'a>(restricted: &[u64], outside: &'a [u64], unfixed: &'a [u64], v: usize) -> &'a [u64] {
    if bit(restricted, v) { outside } else { unfixed }
}

pub(crate) struct Completion {
    n: usize,
    /// Bit `v` set for the vertices that may be matched only outside this set (a dutch-2025
    /// bracket's players not in its tentative pairs: see [`Completion::realize`]); empty
    /// otherwise.
    restricted: Vec<u64>,
    /// `unfixed` less `restricted`: where a restricted vertex may step.
    outside: Vec<u64>,
    /// The vertices [`Completion::realize`] fixed for the time being.
    tentative: Vec<usize>,
    /// Adjacency bits (n x n, dummy last when present): bits, as the largest fields have
    /// 10⁸ pairs.
    adj: Vec<u64>,
    mate: Vec<Option<usize>>,
    fixed: Vec<Option<usize>>,
    /// Bit `v` set while `v` is not in a fixed pair: the only vertices a search can reach
    /// (a fixed vertex is adjacent to its partner alone, which is its mate).
    unfixed: Vec<u64>,
    scratch: Scratch,
}

impl Completion {
    pub fn new(st: &RoundState) -> Completion {
        Completion::with_bye_candidates(st, |i| st.players[i].bye_eligible)
    }

    /// The test whose one unpaired player (odd fields) must be a `candidate`.
    pub fn with_bye_candidates(st: &RoundState, candidate: impl Fn(usize) -> bool) -> Completion {
        let players = st.len();
        let n = players + (players & 1);
        let mut adj = vec![0u64; (n * n).div_ceil(64)];
        let mut set = |k: usize| adj[k / 64] |= 1 << (k % 64);
        for i in 0..players {
            for j in 0..players {
                if st.compatible(i, j) {
                    set(i * n + j);
                }
            }
        }
        if n > players {
            let d = players;
            for i in 0..players {
                if candidate(i) {
                    set(i * n + d);
                    set(d * n + i);
                }
            }
        }
        Completion::with_adjacency(n, adj)
    }

    /// The test over `n` vertices with adjacency bits `adj` (row-major, symmetric).
    fn with_adjacency(n: usize, adj: Vec<u64>) -> Completion {
        let unfixed: Vec<u64> = (0..n.div_ceil(64)).map(|w| columns_in_word(n, w)).collect();
        let mut c = Completion {
            n,
            adj,
            mate: vec![None; n],
            fixed: vec![None; n],
            restricted: vec![0; unfixed.len()],
            outside: unfixed.clone(),
            tentative: Vec::new(),
            unfixed,
            scratch: Scratch::default(),
        };
        // Greedy start, then augment.
        for u in 0..n {
            if c.mate[u].is_none() {
                if let Some(v) = (u + 1..n).find(|&v| c.mate[v].is_none() && c.edge(u, v)) {
                    c.mate[u] = Some(v);
                    c.mate[v] = Some(u);
                }
            }
        }
        c.augment_all();
        c
    }

    fn edge(&self, u: usize, v: usize) -> bool {
        let k = u * self.n + v;
        self.adj[k / 64] >> (k % 64) & 1 == 1
    }

    fn is_restricted(&self, v: usize) -> bool {
        bit(&self.restricted, v)
    }

    /// Whether the pairs a dutch-2025 bracket's matching makes among its `group` (player
    /// indices) leave the rest of the round completable with every other player of `group`
    /// paired outside it: with the pairs `pairs` fixed for now, each player of `group` not in
    /// them matched to a player outside `group`, and all others (and the bye dummy) matched.
    /// The pairs fixed by earlier calls are released first; [`Completion::settle`] ends a
    /// bracket. A `true` is a proof (the matching found is one); `false` may also mean that
    /// the rest could only be completed by pairing two players of `group` outside `pairs`.
    pub fn realize(&mut self, group: &[usize], pairs: &[(usize, usize)]) -> bool {
        self.release();
        for &u in group {
            self.restricted[u / 64] |= 1 << (u % 64);
        }
        for &(a, b) in pairs {
            self.fix_pair(a, b);
            self.tentative.extend([a, b]);
        }
        for &u in group {
            if self.fixed[u].is_none()
                && let Some(m) = self.mate[u]
                && self.is_restricted(m)
            {
                self.mate[u] = None;
                self.mate[m] = None;
            }
        }
        for (w, o) in self.outside.iter_mut().enumerate() {
            *o = self.unfixed[w] & !self.restricted[w];
        }
        self.complete()
    }

    /// How many of the players outside `group` (and the bye dummy) stay unpaired when they are
    /// paired as far as they can be among themselves, with no player of `group`: the players
    /// of `group` the rest needs at least. When they are many, a matching of the group's own
    /// graph is realized only if it happens to leave unpaired the very players the rest
    /// needs, so a group graph is not worth trying.
    pub fn rest_deficiency(&mut self, group: &[usize]) -> usize {
        self.release();
        for &u in group {
            self.restricted[u / 64] |= 1 << (u % 64);
        }
        // The group's players are fixed to themselves for the test: no step reaches them.
        for &u in group {
            if let Some(m) = self.mate[u] {
                self.mate[m] = None;
            }
            self.mate[u] = Some(u);
            self.fixed[u] = Some(u);
            self.unfixed[u / 64] &= !(1 << (u % 64));
            self.tentative.push(u);
        }
        for (w, o) in self.outside.iter_mut().enumerate() {
            *o = self.unfixed[w];
        }
        self.complete();
        let unpaired = self.mate.iter().filter(|m| m.is_none()).count();
        // Back to a matching: the group's players free again.
        for &u in group {
            self.mate[u] = None;
        }
        unpaired
    }

    /// Releases what [`Completion::realize`] fixed for the time being and fixes `pairs` (a
    /// bracket's, for good).
    pub fn settle(&mut self, pairs: &[(usize, usize)]) {
        self.release();
        for &(a, b) in pairs {
            self.fix_pair(a, b);
        }
        self.outside.copy_from_slice(&self.unfixed);
    }

    fn release(&mut self) {
        for u in std::mem::take(&mut self.tentative) {
            self.fixed[u] = None;
            self.unfixed[u / 64] |= 1 << (u % 64);
        }
        self.restricted.fill(0);
    }

    /// Fixes the pair (u, v) made by a bracket.
    pub fn fix_pair(&mut self, u: usize, v: usize) {
        for x in [u, v] {
            if let Some(m) = self.mate[x] {
                self.mate[m] = None;
                self.mate[x] = None;
            }
        }
        self.fixed[u] = Some(v);
        self.fixed[v] = Some(u);
        for x in [u, v] {
            self.unfixed[x / 64] &= !(1 << (x % 64));
            self.outside[x / 64] &= !(1 << (x % 64));
        }
        self.mate[u] = Some(v);
        self.mate[v] = Some(u);
    }

    /// True when every vertex (the dummy included) is matched.
    pub fn complete(&mut self) -> bool {
        self.augment_all();
        self.mate.iter().all(|m| m.is_some())
    }

    fn augment_all(&mut self) {
        let mut sc = std::mem::take(&mut self.scratch);
        sc.ensure(self.n);
        for root in 0..self.n {
            if self.mate[root].is_none() && !self.augment_short(root) {
                self.augment_from(root, &mut sc);
            }
        }
        self.scratch = sc;
    }

    /// Augments from free `root` along a path of one or three edges, if there is one: to a
    /// free neighbour, or to a neighbour whose mate has another free neighbour. A full search
    /// in a dense graph reaches almost every vertex before it finds even such a path (the
    /// vertices a bracket frees often share an absolute colour preference, so none is the
    /// other's neighbour); this finds it in `O(n/64)` per free vertex and per neighbour.
    /// Which augmenting path is taken never changes the test's answer.
    fn augment_short(&mut self, root: usize) -> bool {
        let (n, words) = (self.n, self.unfixed.len());
        let mut free = vec![0u64; words];
        for v in (0..n).filter(|&v| v != root && self.mate[v].is_none()) {
            free[v / 64] |= 1 << (v % 64);
        }
        if free.iter().all(|&w| w == 0) {
            return false;
        }
        let free_neighbour = |c: &Completion, v: usize| {
            let allowed = allowed(&c.restricted, &c.outside, &c.unfixed, v);
            (0..words).find_map(|w| {
                let bits = row_word(&c.adj, n, v, w) & allowed[w] & free[w];
                (bits != 0).then(|| 64 * w + bits.trailing_zeros() as usize)
            })
        };
        if let Some(v) = free_neighbour(self, root) {
            self.mate[root] = Some(v);
            self.mate[v] = Some(root);
            return true;
        }
        // The vertices next to some other free vertex: only a mate among them can end a path.
        let mut near_free = vec![0u64; words];
        for v in (0..n).filter(|&v| free[v / 64] >> (v % 64) & 1 == 1) {
            for (w, near) in near_free.iter_mut().enumerate() {
                *near |= row_word(&self.adj, n, v, w);
            }
        }
        let from_root = allowed(&self.restricted, &self.outside, &self.unfixed, root);
        for a in neighbours(&self.adj, n, from_root, root) {
            let Some(b) = self.mate[a] else { continue };
            if b == root || near_free[b / 64] >> (b % 64) & 1 == 0 {
                continue;
            }
            if let Some(v) = free_neighbour(self, b) {
                self.mate[root] = Some(a);
                self.mate[a] = Some(root);
                self.mate[b] = Some(v);
                self.mate[v] = Some(b);
                return true;
            }
        }
        false
    }

    /// One search for an augmenting path from `root` (Edmonds, with blossom contraction by
    /// base labels). Only the vertices the tree reaches are visited or reset, so a search
    /// costs what it explores, not `n` per blossom.
    fn augment_from(&mut self, root: usize, sc: &mut Scratch) -> bool {
        let n = self.n;
        let found = 'search: {
            sc.reach(root);
            sc.used[root] = true;
            sc.queue.push_back(root);
            while let Some(v) = sc.queue.pop_front() {
                // A fixed vertex's one neighbour is its mate, never a step.
                if self.fixed[v].is_some() {
                    continue;
                }
                let from_v = allowed(&self.restricted, &self.outside, &self.unfixed, v);
                for to in neighbours(&self.adj, n, from_v, v) {
                    if to == v || sc.base[v] == sc.base[to] || self.mate[v] == Some(to) {
                        continue;
                    }
                    if to == root || self.mate[to].is_some_and(|m| sc.parent[m].is_some()) {
                        // Odd cycle: contract the blossom. The vertices of each base on it
                        // join the group of the new base (its own group is never on it).
                        let cur_base = lca(&self.mate, sc, v, to);
                        mark_path(&self.mate, sc, v, cur_base, to);
                        mark_path(&self.mate, sc, to, cur_base, v);
                        for k in 0..sc.marked.len() {
                            let x = sc.marked[k];
                            sc.in_blossom[x] = false;
                            let mut i = x;
                            loop {
                                sc.base[i] = cur_base;
                                if !sc.used[i] {
                                    sc.used[i] = true;
                                    sc.queue.push_back(i);
                                }
                                if i == sc.tail[x] {
                                    break;
                                }
                                i = sc.next[i];
                            }
                            let t = sc.tail[cur_base];
                            sc.next[t] = x;
                            sc.tail[cur_base] = sc.tail[x];
                        }
                        sc.marked.clear();
                    } else if sc.parent[to].is_none() {
                        sc.reach(to);
                        sc.parent[to] = Some(v);
                        match self.mate[to] {
                            None => {
                                // Augment along the path ending at `to`.
                                let mut u = Some(to);
                                while let Some(x) = u {
                                    let pv = sc.parent[x].expect("path vertex has a parent");
                                    let ppv = self.mate[pv];
                                    self.mate[x] = Some(pv);
                                    self.mate[pv] = Some(x);
                                    u = ppv;
                                }
                                break 'search true;
                            }
                            Some(m) => {
                                sc.reach(m);
                                sc.used[m] = true;
                                sc.queue.push_back(m);
                            }
                        }
                    }
                }
            }
            false
        };
        sc.reset();
        found
    }
}

/// A search's working state, kept between searches and reset through the list of the
/// vertices it reached.
#[derive(Default)]
struct Scratch {
    parent: Vec<Option<usize>>,
    base: Vec<usize>,
    used: Vec<bool>,
    queue: VecDeque<usize>,
    /// Vertices reached (their entries may differ from the reset state), each once.
    tree: Vec<usize>,
    in_tree: Vec<bool>,
    /// The vertices of each base's group, chained: from the base through `next` to `tail`.
    next: Vec<usize>,
    tail: Vec<usize>,
    /// Bases on the blossom being contracted, and the list of those set.
    in_blossom: Vec<bool>,
    marked: Vec<usize>,
    seen: Vec<bool>,
    seen_list: Vec<usize>,
}

impl Scratch {
    fn ensure(&mut self, n: usize) {
        if self.base.len() != n {
            *self = Scratch {
                parent: vec![None; n],
                base: (0..n).collect(),
                next: vec![usize::MAX; n],
                tail: (0..n).collect(),
                used: vec![false; n],
                in_tree: vec![false; n],
                in_blossom: vec![false; n],
                seen: vec![false; n],
                ..Scratch::default()
            };
        }
    }

    fn reach(&mut self, v: usize) {
        if !self.in_tree[v] {
            self.in_tree[v] = true;
            self.tree.push(v);
        }
    }

    fn reset(&mut self) {
        for &v in &self.tree {
            self.parent[v] = None;
            self.base[v] = v;
            self.next[v] = usize::MAX;
            self.tail[v] = v;
            self.used[v] = false;
            self.in_tree[v] = false;
        }
        self.tree.clear();
        self.queue.clear();
    }
}

/// The base where the tree paths from `a` and `b` meet.
fn lca(mate: &[Option<usize>], sc: &mut Scratch, mut a: usize, mut b: usize) -> usize {
    loop {
        a = sc.base[a];
        sc.seen[a] = true;
        sc.seen_list.push(a);
        match mate[a] {
            None => break,
            Some(m) => match sc.parent[m] {
                Some(p) => a = p,
                None => break,
            },
        }
    }
    let found = loop {
        b = sc.base[b];
        if sc.seen[b] {
            break b;
        }
        let m = mate[b].expect("inner vertex is matched");
        b = sc.parent[m].expect("tree vertex has a parent");
    };
    for &x in &sc.seen_list {
        sc.seen[x] = false;
    }
    sc.seen_list.clear();
    found
}

/// Marks the bases on the path from `v` down to base `b` as in the blossom, pointing the
/// parents of its outer vertices back along the cycle.
fn mark_path(mate: &[Option<usize>], sc: &mut Scratch, mut v: usize, b: usize, mut child: usize) {
    while sc.base[v] != b {
        let m = mate[v].expect("blossom vertex is matched");
        for x in [sc.base[v], sc.base[m]] {
            if !sc.in_blossom[x] {
                sc.in_blossom[x] = true;
                sc.marked.push(x);
            }
        }
        sc.parent[v] = Some(child);
        child = m;
        v = sc.parent[m].expect("blossom path has parents");
    }
}

#[cfg(feature = "test-support")]
pub mod checks {
    use super::*;
    use proptest::prelude::*;

    /// Whether the vertices can all be matched, fixed ones to their partners only (brute force).
    fn perfect(n: usize, edge: &dyn Fn(usize, usize) -> bool, fixed: &[Option<usize>]) -> bool {
        fn go(
            free: &mut Vec<bool>,
            edge: &dyn Fn(usize, usize) -> bool,
            fixed: &[Option<usize>],
        ) -> bool {
            let Some(u) = free.iter().position(|&f| f) else {
                return true;
            };
            free[u] = false;
            for v in u + 1..free.len() {
                let ok = match (fixed[u], fixed[v]) {
                    (None, None) => edge(u, v),
                    (a, b) => a == Some(v) && b == Some(u),
                };
                if free[v] && ok {
                    free[v] = false;
                    if go(free, edge, fixed) {
                        return true;
                    }
                    free[v] = true;
                }
            }
            free[u] = true;
            false
        }
        go(&mut vec![true; n], edge, fixed)
    }

    /// After every fixed pair, the test answers as an exhaustive search does.
    pub fn completion_agrees_with_brute_force() {
        proptest!(ProptestConfig::with_cases(400), |(
            half in 1usize..6,
            bits in proptest::collection::vec(any::<bool>(), 100),
            fixes in proptest::collection::vec((0usize..12, 0usize..12), 0..4),
        )| {
            let n = 2 * half;
            let edge = |u: usize, v: usize| u != v && bits[u.min(v) * 10 + u.max(v)];
            let mut adj = vec![0u64; (n * n).div_ceil(64)];
            for u in 0..n {
                for v in 0..n {
                    if edge(u, v) {
                        let k = u * n + v;
                        adj[k / 64] |= 1 << (k % 64);
                    }
                }
            }
            let mut c = Completion::with_adjacency(n, adj);
            let mut fixed = vec![None; n];
            prop_assert_eq!(c.complete(), perfect(n, &edge, &fixed));
            for (u, v) in fixes {
                let (u, v) = (u % n, v % n);
                if u == v || fixed[u].is_some() || fixed[v].is_some() || !edge(u, v) {
                    continue;
                }
                c.fix_pair(u, v);
                fixed[u] = Some(v);
                fixed[v] = Some(u);
                prop_assert_eq!(c.complete(), perfect(n, &edge, &fixed));
            }
        });
    }
}
