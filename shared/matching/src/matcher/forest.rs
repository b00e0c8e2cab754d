//! The blossom forest's indexes: each blossom's vertices as one chained run ([`Leaves`]), the
//! top-level blossom of each vertex through shared groups ([`Tops`]), and the last solve's
//! forest indexed for the slack of any edge ([`Chains`]).

use super::*;

/// The vertices of every blossom as one chained run, in the order of a depth-first walk of
/// its children (the order every pass over a blossom's vertices keeps): a blossom's run is its
/// children's runs joined in cycle order. Forming or rotating a blossom relinks only its
/// children's ends, so listing the vertices of a deeply nested blossom (pairing graphs grow
/// chains of thousands of levels, two vertices each) is a walk, not a recursion.
#[derive(Clone)]
pub(super) struct Leaves {
    /// First and last vertex of each blossom's run (a vertex's run is itself).
    pub(super) first: Vec<u32>,
    pub(super) last: Vec<u32>,
    /// The vertex after each one within the runs that hold both.
    pub(super) next: Vec<u32>,
}

impl Leaves {
    pub(super) fn new(n: usize) -> Leaves {
        let ids = (0..2 * n as u32).collect::<Vec<_>>();
        Leaves {
            first: ids.clone(),
            last: ids,
            next: vec![NONE; n],
        }
    }

    /// Joins the runs of `ch` (in order) into the run of blossom `b`.
    pub(super) fn link(&mut self, b: u32, ch: &[u32]) {
        for pair in ch.windows(2) {
            self.next[self.last[pair[0] as usize] as usize] = self.first[pair[1] as usize];
        }
        self.first[b as usize] = self.first[ch[0] as usize];
        self.last[b as usize] = self.last[ch[ch.len() - 1] as usize];
    }

    /// Calls `f` with each vertex of blossom `b`, in order.
    pub(super) fn for_each(&self, b: u32, mut f: impl FnMut(u32)) {
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
    pub(super) fn collect(&self, b: u32, out: &mut Vec<u32>) {
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
pub(super) struct Tops {
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
    pub(super) fn new(n: usize) -> Tops {
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
    pub(super) fn get(&self, v: usize) -> u32 {
        self.top[self.grp[v] as usize]
    }

    /// Vertex `v` alone at the top level.
    pub(super) fn reset_vertex(&mut self, v: usize) {
        self.grp[v] = v as u32;
        self.top[v] = v as u32;
    }

    /// Blossom `id` is formed of children `ch`: it takes over the group of the largest
    /// (the first of equals), whose vertices need no change.
    pub(super) fn form(&mut self, id: u32, ch: &[u32], leaves: &Leaves) {
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
    pub(super) fn rebuild(&mut self, top: &[u32], childs: &[Vec<u32>], leaves: &Leaves) {
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
    pub(super) fn split(&mut self, b: u32, ch: &[u32], leaves: &Leaves) {
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

/// A blossom forest indexed for lowest-common-ancestor queries (binary lifting): every node's
/// depth, the duals summed from it to its top-level blossom, and its ancestors `2^k` levels up.
#[derive(Clone)]
pub(super) struct Chains<W> {
    depth: Vec<u32>,
    pub(super) zsum: Vec<W>,
    up: Vec<Vec<u32>>,
}

impl<W: Weight> Chains<W> {
    pub(super) fn new(parent: &[u32], z: &[W]) -> Chains<W> {
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
    pub(super) fn meet(&self, u: u32, v: u32) -> Option<u32> {
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
