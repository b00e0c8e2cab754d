//! Blossoms and augmentation: the tree, shrinking, expanding, rotating, the dual steps, and
//! the solution's verification.

use super::*;

impl<W: Weight> Matcher<W> {
    /// The S-blossom above S-blossom `b` in the tree.
    pub(super) fn tree_parent(&self, b: u32) -> Option<u32> {
        let le = self.labelend[b as usize];
        if le == NO_EDGE {
            return None;
        }
        let bt = self.tops.get(le.0 as usize);
        Some(self.tops.get(self.labelend[bt as usize].0 as usize))
    }

    pub(super) fn find_lca(&mut self, v: u32, u: u32) -> Option<u32> {
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
    pub(super) fn add_blossom(&mut self, lca: u32, v: u32, u: u32) {
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
    pub(super) fn augment(&mut self, v: u32, u: u32) {
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
    pub(super) fn augment_side(&mut self, mut s: u32, mut p: u32) {
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
    pub(super) fn rotate(&mut self, b: u32, v: u32) {
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
    pub(super) fn rotate_one(&mut self, b: u32, c: u32, v: u32) {
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
    pub(super) fn expand_t(&mut self, b: u32) {
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
    pub(super) fn zero_event(&mut self) -> Option<bool> {
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
    pub(super) fn dual_step(&mut self) -> bool {
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
    pub(super) fn take_event(&mut self, kind: u8, x: u32) -> bool {
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
    pub(super) fn s_top_with_edge(&self, b: usize) -> bool {
        self.parent[b] == NONE && self.label[b] == S && self.best[b] != NO_EDGE
    }

    /// Top-level non-trivial T-blossom (a δ4 candidate).
    #[inline]
    pub(super) fn t_top_blossom(&self, b: usize) -> bool {
        self.parent[b] == NONE && self.label[b] == T && !self.childs[b].is_empty()
    }

    /// Unlabeled vertex whose least-slack edge from an S-vertex is tight.
    #[inline]
    pub(super) fn tight_unlabeled_vertex(&self, x: usize) -> bool {
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
