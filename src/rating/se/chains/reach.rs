//! Which potentials can imply which, on a grid that does not change: the
//! transitive closure of the implication graph, through its strongly
//! connected components (Tarjan) and one reach set per component.
//!
//! A forcing-chain search from a candidate ends on the candidate's opposite
//! exactly when the opposite is reachable, so a search whose conclusion is
//! unreachable can be skipped: it would explore everything it reaches and
//! find nothing. Most candidates can be proved neither false nor true.

use super::super::board::digits;
use super::net::{key, off_to_on, on_to_off, Cause, OnConsequence, Work, KEYS};

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
/// working them out again. [`Reach::rebuild`] reuses the buffers.
#[derive(Default)]
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
    // Scratch of the build.
    keys: Vec<u16>,
    edges: Vec<u32>,
    order: Vec<u32>,
    low: Vec<u32>,
    on_stack: Vec<bool>,
    stack: Vec<u32>,
    call: Vec<(u32, u32)>,
}

impl Reach {
    /// The closure of the graph whose edges are [`on_to_off`] (with `y`)
    /// and [`off_to_on`] (with `y`, `x`) on `work`.
    pub fn build(work: &Work, y: bool, x: bool) -> Reach {
        let mut r = Reach::default();
        r.rebuild(work, y, x);
        r
    }

    /// [`Reach::build`], into this value's buffers.
    pub fn rebuild(&mut self, work: &Work, y: bool, x: bool) {
        self.index.clear();
        self.index.resize(KEYS, u32::MAX);
        self.keys.clear();
        for c in 0..81 {
            for v in digits(work.cands[c]) {
                for on in [false, true] {
                    let k = key(c, v, on);
                    self.index[k as usize] = self.keys.len() as u32;
                    self.keys.push(k);
                }
            }
        }
        let n = self.keys.len();
        // Adjacency in CSR form.
        self.start.clear();
        self.edges.clear();
        self.links.clear();
        let mut out = [OnConsequence {
            key: 0,
            cause: Cause::None,
            hidden_digits: 0,
            hidden_cells: 0,
        }; 4];
        for i in 0..n {
            let k = self.keys[i];
            self.start.push(self.edges.len() as u32);
            let (cell, value) = (super::net::cell_of(k), super::net::value_of(k));
            let (index, edges, links) = (&self.index, &mut self.edges, &mut self.links);
            if k & 1 != 0 {
                on_to_off(work, cell, value, y, |t, cause| {
                    edges.push(index[t as usize]);
                    links.push(Link {
                        key: t,
                        cause,
                        cell_link: cause == Cause::NakedSingle,
                    });
                });
            } else {
                let count = off_to_on(work, work, cell, value, y, x, &mut out);
                for o in &out[..count] {
                    edges.push(index[o.key as usize]);
                    links.push(Link {
                        key: o.key,
                        cause: o.cause,
                        cell_link: o.cause == Cause::NakedSingle,
                    });
                }
            }
        }
        self.start.push(self.edges.len() as u32);
        // Tarjan's strongly connected components, iteratively. Components
        // come out sinks first, so each one's successors are done before it.
        const UNSEEN: u32 = u32::MAX;
        let words = n.div_ceil(64).max(1);
        self.words = words;
        for v in [&mut self.order, &mut self.comp] {
            v.clear();
            v.resize(n, UNSEEN);
        }
        self.low.clear();
        self.low.resize(n, 0);
        self.on_stack.clear();
        self.on_stack.resize(n, false);
        self.stack.clear();
        self.call.clear();
        self.sets.clear();
        let (start, edges) = (&self.start, &self.edges);
        let (order, low, on_stack, comp) = (
            &mut self.order,
            &mut self.low,
            &mut self.on_stack,
            &mut self.comp,
        );
        let (stack, call, sets) = (&mut self.stack, &mut self.call, &mut self.sets);
        let mut ncomp = 0u32;
        let mut counter = 0u32;
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
                            let tc = comp[edges[e as usize] as usize];
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
