//! The searches of a solve, and the large-graph path: candidate edges, pricing the others by
//! the duals, repair after a re-solve's changes, and removing settled vertices.

use super::*;

impl<W: Weight> Matcher<W> {
    /// Searches from free vertices with positive duals until there is none.
    pub(super) fn run_searches(&mut self) {
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
    pub(super) fn mark_suspect(&mut self, v: usize) {
        if self.sparse && !self.suspect[v] {
            self.suspect[v] = true;
            self.suspects.push(v as u32);
        }
    }

    #[inline]
    pub(super) fn is_candidate(&self, u: usize, v: usize) -> bool {
        let k = u * self.n + v;
        self.cand_bits[k / 64] >> (k % 64) & 1 == 1
    }

    /// Makes `{u, v}` a candidate edge (no-op if it is one).
    pub(super) fn add_candidate(&mut self, u: usize, v: usize) {
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
    pub(super) fn build_candidates(&mut self) {
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
    pub(super) fn price(&mut self) -> bool {
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
    pub(super) fn violated_edges(
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
    pub(super) fn reset(&mut self, fresh_candidates: bool) {
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
    pub(super) fn add_matched_candidates(&mut self) {
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
    pub(super) fn repair(&mut self) -> bool {
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
}
