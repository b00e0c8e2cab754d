//! One search: labels, duals as stored, scanning rows and candidates, tight edges.

use super::*;

impl<W: Weight> Matcher<W> {
    /// The least dual of vertex `v` (outside any blossom) that keeps all its edges except the
    /// one to `except` feasible, and the first vertex whose edge needs that much (`NONE` if
    /// none needs more than zero).
    pub(super) fn least_dual(&self, v: usize, except: u32) -> (W, u32) {
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
    pub(super) fn dissolve_chain(&mut self, v: u32) {
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
    pub(super) fn dissolve_top(&mut self, b: u32) {
        let bi = b as usize;
        let ch = std::mem::take(&mut self.childs[bi]);
        for &c in &ch {
            self.parent[c as usize] = NONE;
        }
        self.tops.split(b, &ch, &self.leaves);
        self.release(b, ch);
    }

    pub(super) fn release(&mut self, b: u32, mut ch: Vec<u32>) {
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
    pub(super) fn expand_zero_blossoms(&mut self) {
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

    pub(super) fn reset_search(&mut self) {
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
    pub(super) fn search(&mut self, roots: &[u32]) {
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
    pub(super) fn clear_spent_trees(&mut self) -> bool {
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
    pub(super) fn for_s_neighbours(&self, v: usize, mut f: impl FnMut(u32, u32)) {
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
    pub(super) fn refresh_best(&mut self, b: u32) {
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
    pub(super) fn refresh_sbest(&mut self, u: usize) {
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
    pub(super) fn finish_search(&mut self) {
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
    pub(super) fn decode_y(&self, stored: W, label: u8) -> W {
        match label {
            S => sub(stored, self.delta_sum),
            T => sub(add(stored, self.delta_sum), self.key_offset),
            _ => stored,
        }
    }

    #[inline(always)]
    pub(super) fn encode_y(&self, y: W, label: u8) -> W {
        match label {
            S => add(y, self.delta_sum),
            T => sub(add(y, self.key_offset), self.delta_sum),
            _ => y,
        }
    }

    #[inline(always)]
    pub(super) fn decode_z(&self, stored: W, label: u8) -> W {
        let d2 = add(self.delta_sum, self.delta_sum);
        match label {
            S => sub(add(stored, d2), add(self.key_offset, self.key_offset)),
            T => sub(stored, d2),
            _ => stored,
        }
    }

    #[inline(always)]
    pub(super) fn encode_z(&self, z: W, label: u8) -> W {
        let d2 = add(self.delta_sum, self.delta_sum);
        match label {
            S => sub(add(z, add(self.key_offset, self.key_offset)), d2),
            T => add(z, d2),
            _ => z,
        }
    }

    /// Gives unlabeled top-level blossom `b` label `to` (S or T), re-encoding its duals; new
    /// S-vertices are queued for scanning.
    pub(super) fn relabel(&mut self, b: u32, to: u8) {
        self.relabel_from(b, to, UNLABELED);
    }

    /// [`relabel`](Self::relabel) for a blossom whose vertices' duals are still encoded for
    /// label `from` (a child of an expanded T-blossom keeps its T encoding until it is labeled:
    /// one re-encoding instead of two, none when it stays T).
    pub(super) fn relabel_from(&mut self, b: u32, to: u8, from: u8) {
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
    pub(super) fn shift(&self, from: u8, to: u8) -> W {
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
    pub(super) fn leaf_to(&mut self, x: u32, to: u8, shift: W) {
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
    pub(super) fn raise_by_one(&mut self, f: u32) {
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
    pub(super) fn real_slack(&self, a: u32, b: u32) -> W {
        let wt = self.wt(a as usize, b as usize);
        let ya = self.decode_y(self.y[a as usize], self.vlabel[a as usize]);
        let yb = self.decode_y(self.y[b as usize], self.vlabel[b as usize]);
        sub(add(ya, yb), add(wt, wt))
    }

    pub(super) fn set_s(&mut self, b: u32, le: (u32, u32)) {
        self.labelend[b as usize] = le;
        self.relabel(b, S);
    }

    /// Scans the edges of S-vertex `v`. Returns true when the search is over.
    pub(super) fn scan(&mut self, v: u32) -> bool {
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
    pub(super) fn scan_candidates(&mut self, vi: usize, from: usize) -> Option<(u32, bool, usize)> {
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
    pub(super) fn scan_row(&mut self, vi: usize, from: usize) -> Option<(u32, bool)> {
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
    pub(super) fn cache_members(&mut self, b: u32) {
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
    pub(super) fn split_for_scan(&mut self, vi: usize) -> (Scan<'_, W>, &[u32], &[(u32, u32)]) {
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
    pub(super) fn tight_unlabeled(&mut self, v: u32, u: u32) -> bool {
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
    pub(super) fn tight_ss(&mut self, v: u32, u: u32) -> bool {
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
}
