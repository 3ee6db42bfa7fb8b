//! Which potentials can imply which, on a grid that does not change: the
//! transitive closure of the implication graph, through its strongly
//! connected components (Tarjan) and one reach set per component.
//!
//! A forcing-chain search from a candidate ends on the candidate's opposite
//! exactly when the opposite is reachable, so a search whose conclusion is
//! unreachable can be skipped: it would explore everything it reaches and
//! find nothing. Most candidates can be proved neither false nor true.

use super::super::board::digits;
use super::net::{key, off_to_on, on_to_off, OnConsequence, Work, KEYS};

/// A link of the implication graph: the potential it leads to, why, and
/// whether it is a cell link (one value per cell; else a region link).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Link {
    /// The potential implied.
    pub key: u16,
    /// SE's cause of the implication.
    pub cause: super::net::Cause,
    /// A link inside one cell (SE's "Y" links) rather than a region.
    pub cell_link: bool,
}

/// The closure of the implication graph of one link set, and the graph
/// itself: each potential's links in SE's order ([`on_to_off`],
/// [`off_to_on`]), so that searches on a fixed grid read them instead of
/// working them out again.
pub struct Reach {
    /// Compact index of each key present, or `u32::MAX`.
    index: Vec<u32>,
    /// Start of each compact node's links in `links`, plus the end.
    start: Vec<u32>,
    /// The links, grouped by node.
    links: Vec<Link>,
    /// Component of each compact node.
    comp: Vec<u32>,
    /// Reach sets, `words` u64s per component (bit = compact node).
    sets: Vec<u64>,
    words: usize,
}

impl Reach {
    /// The closure of the graph whose edges are [`on_to_off`] (with `y`)
    /// and [`off_to_on`] (with `y`, `x`) on `work`.
    pub fn build(work: &Work, y: bool, x: bool) -> Reach {
        let mut index = vec![u32::MAX; KEYS];
        let mut keys: Vec<u16> = Vec::with_capacity(512);
        for c in 0..81 {
            for v in digits(work.cands[c]) {
                for on in [false, true] {
                    let k = key(c, v, on);
                    index[k as usize] = keys.len() as u32;
                    keys.push(k);
                }
            }
        }
        let n = keys.len();
        // Adjacency in CSR form.
        let mut start = Vec::with_capacity(n + 1);
        let mut edges: Vec<u32> = Vec::with_capacity(n * 8);
        let mut links: Vec<Link> = Vec::with_capacity(n * 8);
        let mut out = [OnConsequence {
            key: 0,
            cause: super::net::Cause::None,
            hidden_digits: 0,
            hidden_cells: 0,
        }; 4];
        for &k in &keys {
            start.push(edges.len() as u32);
            let (cell, value) = (super::net::cell_of(k), super::net::value_of(k));
            if k & 1 != 0 {
                on_to_off(work, cell, value, y, |t, cause| {
                    edges.push(index[t as usize]);
                    links.push(Link {
                        key: t,
                        cause,
                        cell_link: cause == super::net::Cause::NakedSingle,
                    });
                });
            } else {
                let count = off_to_on(work, work, cell, value, y, x, &mut out);
                for o in &out[..count] {
                    edges.push(index[o.key as usize]);
                    links.push(Link {
                        key: o.key,
                        cause: o.cause,
                        cell_link: o.cause == super::net::Cause::NakedSingle,
                    });
                }
            }
        }
        start.push(edges.len() as u32);
        // Tarjan's strongly connected components, iteratively. Components
        // come out sinks first, so each one's successors are done before it.
        const UNSEEN: u32 = u32::MAX;
        let mut order = vec![UNSEEN; n];
        let mut low = vec![0u32; n];
        let mut on_stack = vec![false; n];
        let mut stack: Vec<u32> = Vec::new();
        let mut comp = vec![UNSEEN; n];
        let mut ncomp = 0u32;
        let mut counter = 0u32;
        let mut call: Vec<(u32, u32)> = Vec::new();
        let words = n.div_ceil(64).max(1);
        let mut sets: Vec<u64> = Vec::new();
        for root in 0..n as u32 {
            if order[root as usize] != UNSEEN {
                continue;
            }
            call.push((root, start[root as usize]));
            order[root as usize] = counter;
            low[root as usize] = counter;
            counter += 1;
            stack.push(root);
            on_stack[root as usize] = true;
            while let Some(&mut (v, ref mut next)) = call.last_mut() {
                if *next < start[v as usize + 1] {
                    let w = edges[*next as usize];
                    *next += 1;
                    if order[w as usize] == UNSEEN {
                        order[w as usize] = counter;
                        low[w as usize] = counter;
                        counter += 1;
                        stack.push(w);
                        on_stack[w as usize] = true;
                        call.push((w, start[w as usize]));
                    } else if on_stack[w as usize] {
                        low[v as usize] = low[v as usize].min(order[w as usize]);
                    }
                    continue;
                }
                call.pop();
                if let Some(&(parent, _)) = call.last() {
                    low[parent as usize] = low[parent as usize].min(low[v as usize]);
                }
                if low[v as usize] == order[v as usize] {
                    // Pop the component and build its reach set.
                    let base = sets.len();
                    sets.resize(base + words, 0);
                    let first = stack.len();
                    let mut at = first;
                    loop {
                        at -= 1;
                        let w = stack[at];
                        on_stack[w as usize] = false;
                        comp[w as usize] = ncomp;
                        if w == v {
                            break;
                        }
                    }
                    for &w in &stack[at..first] {
                        sets[base + w as usize / 64] |= 1 << (w % 64);
                        for e in start[w as usize]..start[w as usize + 1] {
                            let t = edges[e as usize];
                            let tc = comp[t as usize];
                            if tc != ncomp && tc != UNSEEN {
                                let tb = tc as usize * words;
                                for i in 0..words {
                                    sets[base + i] |= sets[tb + i];
                                }
                            }
                        }
                    }
                    stack.truncate(at);
                    ncomp += 1;
                }
            }
        }
        Reach {
            index,
            start,
            links,
            comp,
            sets,
            words,
        }
    }

    /// The links from potential `from` (none if it is not a candidate).
    #[inline]
    pub fn links(&self, from: u16) -> &[Link] {
        let f = self.index[from as usize];
        if f == u32::MAX {
            return &[];
        }
        &self.links[self.start[f as usize] as usize..self.start[f as usize + 1] as usize]
    }

    /// Whether some potential follows from every one of `froms` (a key
    /// absent from the graph follows from nothing but itself).
    pub fn share_a_consequence(&self, froms: impl IntoIterator<Item = u16>) -> bool {
        let mut acc = vec![!0u64; self.words];
        for from in froms {
            let f = self.index[from as usize];
            if f == u32::MAX {
                return false;
            }
            let base = self.comp[f as usize] as usize * self.words;
            let mut any = 0;
            for (a, &w) in acc.iter_mut().zip(&self.sets[base..base + self.words]) {
                *a &= w;
                any |= *a;
            }
            if any == 0 {
                return false;
            }
        }
        true
    }

    /// Whether potential `to` can follow from potential `from`.
    pub fn reaches(&self, from: u16, to: u16) -> bool {
        let (f, t) = (self.index[from as usize], self.index[to as usize]);
        if f == u32::MAX || t == u32::MAX {
            return false;
        }
        let base = self.comp[f as usize] as usize * self.words;
        self.sets[base + t as usize / 64] >> (t % 64) & 1 != 0
    }
}
