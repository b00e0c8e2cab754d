//! The completion test of A.9: can every remaining player be paired, except at most one who
//! can receive the pairing-allocated bye, without breaking an absolute criterion?
//!
//! A maximum-cardinality matching (Edmonds' blossom algorithm) on the compatibility graph,
//! with one dummy vertex joined to the bye-eligible players when the count is odd. Pairs made
//! by earlier brackets are fixed; the previous matching is kept and only repaired, so each
//! test after the first costs a few augmentations.

use crate::state::RoundState;
use std::collections::VecDeque;

pub(crate) struct Completion {
    n: usize,
    /// Adjacency bits (n x n, dummy last when present): bits, as the largest fields have
    /// 10⁸ pairs.
    adj: Vec<u64>,
    mate: Vec<Option<usize>>,
    fixed: Vec<Option<usize>>,
}

impl Completion {
    pub fn new(st: &RoundState) -> Completion {
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
                if st.players[i].bye_eligible {
                    set(i * n + d);
                    set(d * n + i);
                }
            }
        }
        let mut c = Completion {
            n,
            adj,
            mate: vec![None; n],
            fixed: vec![None; n],
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

    fn adjacent(&self, u: usize, v: usize) -> bool {
        match (self.fixed[u], self.fixed[v]) {
            (None, None) => self.edge(u, v),
            (a, b) => a == Some(v) && b == Some(u),
        }
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
        self.mate[u] = Some(v);
        self.mate[v] = Some(u);
    }

    /// True when every vertex (the dummy included) is matched.
    pub fn complete(&mut self) -> bool {
        self.augment_all();
        self.mate.iter().all(|m| m.is_some())
    }

    fn augment_all(&mut self) {
        for root in 0..self.n {
            if self.mate[root].is_none() {
                self.augment_from(root);
            }
        }
    }

    /// One search for an augmenting path from `root` (Edmonds, with blossom contraction by
    /// base labels).
    fn augment_from(&mut self, root: usize) -> bool {
        let n = self.n;
        let mut parent: Vec<Option<usize>> = vec![None; n];
        let mut base: Vec<usize> = (0..n).collect();
        let mut used = vec![false; n];
        let mut queue = VecDeque::new();
        used[root] = true;
        queue.push_back(root);
        while let Some(v) = queue.pop_front() {
            for to in 0..n {
                if to == v || !self.adjacent(v, to) {
                    continue;
                }
                if base[v] == base[to] || self.mate[v] == Some(to) {
                    continue;
                }
                if to == root || self.mate[to].is_some_and(|m| parent[m].is_some()) {
                    // Odd cycle: contract the blossom.
                    let cur_base = self.lca(&base, &parent, v, to);
                    let mut in_blossom = vec![false; n];
                    self.mark_path(&mut base, &mut parent, &mut in_blossom, v, cur_base, to);
                    self.mark_path(&mut base, &mut parent, &mut in_blossom, to, cur_base, v);
                    for i in 0..n {
                        if in_blossom[base[i]] {
                            base[i] = cur_base;
                            if !used[i] {
                                used[i] = true;
                                queue.push_back(i);
                            }
                        }
                    }
                } else if parent[to].is_none() {
                    parent[to] = Some(v);
                    match self.mate[to] {
                        None => {
                            // Augment along the path ending at `to`.
                            let mut u = Some(to);
                            while let Some(x) = u {
                                let pv = parent[x].expect("path vertex has a parent");
                                let ppv = self.mate[pv];
                                self.mate[x] = Some(pv);
                                self.mate[pv] = Some(x);
                                u = ppv;
                            }
                            return true;
                        }
                        Some(m) => {
                            used[m] = true;
                            queue.push_back(m);
                        }
                    }
                }
            }
        }
        false
    }

    fn lca(&self, base: &[usize], parent: &[Option<usize>], mut a: usize, mut b: usize) -> usize {
        let mut seen = vec![false; self.n];
        loop {
            a = base[a];
            seen[a] = true;
            match self.mate[a] {
                None => break,
                Some(m) => match parent[m] {
                    Some(p) => a = p,
                    None => break,
                },
            }
        }
        loop {
            b = base[b];
            if seen[b] {
                return b;
            }
            let m = self.mate[b].expect("inner vertex is matched");
            b = parent[m].expect("tree vertex has a parent");
        }
    }

    fn mark_path(
        &self,
        base: &mut [usize],
        parent: &mut [Option<usize>],
        in_blossom: &mut [bool],
        mut v: usize,
        b: usize,
        mut child: usize,
    ) {
        while base[v] != b {
            let m = self.mate[v].expect("blossom vertex is matched");
            in_blossom[base[v]] = true;
            in_blossom[base[m]] = true;
            parent[v] = Some(child);
            child = m;
            v = parent[m].expect("blossom path has parents");
        }
    }
}
