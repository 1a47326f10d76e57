//! The import graph of one target: files, and which file names items of which, where.

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::path::PathBuf;

/// Where a file names an item of another: one path as written.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Site {
    /// The line of the path in the naming file.
    pub line: usize,
    /// The path as written (`crate::report::Finding`, `super::*`, a doc link's target).
    pub text: String,
}

/// Files and edges; an edge `a -> b` holds every site of `a` that names an item of `b`.
#[derive(Default)]
pub struct Graph {
    /// The files, by index.
    pub files: Vec<PathBuf>,
    /// The edges, by (from, to), with their sites in line order.
    pub edges: BTreeMap<(usize, usize), BTreeSet<Site>>,
}

impl Graph {
    /// Notes that `from` names an item of `to` at `site` (nothing when they are one file).
    pub fn add(&mut self, from: usize, to: usize, site: Site) {
        if from != to {
            self.edges.entry((from, to)).or_default().insert(site);
        }
    }

    /// The files each file names items of.
    fn successors(&self) -> Vec<Vec<usize>> {
        let mut next = vec![Vec::new(); self.files.len()];
        for &(from, to) in self.edges.keys() {
            next[from].push(to);
        }
        next
    }

    /// The circles: strongly connected components of two or more files, each sorted
    /// by path, in the order of their first file.
    pub fn circles(&self) -> Vec<Vec<usize>> {
        let mut circles: Vec<Vec<usize>> = self
            .components()
            .into_iter()
            .filter(|component| component.len() >= 2)
            .map(|mut component| {
                component.sort_by(|a, b| self.files[*a].cmp(&self.files[*b]));
                component
            })
            .collect();
        circles.sort_by(|a, b| self.files[a[0]].cmp(&self.files[b[0]]));
        circles
    }

    /// Tarjan's strongly connected components, iteratively (no recursion depth bound).
    fn components(&self) -> Vec<Vec<usize>> {
        let next = self.successors();
        let n = self.files.len();
        let (mut index, mut low) = (vec![usize::MAX; n], vec![0; n]);
        let (mut on_stack, mut stack) = (vec![false; n], Vec::new());
        let (mut counter, mut components) = (0, Vec::new());
        for root in 0..n {
            if index[root] != usize::MAX {
                continue;
            }
            // (node, position in its successors)
            let mut work = vec![(root, 0)];
            index[root] = counter;
            low[root] = counter;
            counter += 1;
            stack.push(root);
            on_stack[root] = true;
            while let Some(&mut (node, ref mut position)) = work.last_mut() {
                if let Some(&child) = next[node].get(*position) {
                    *position += 1;
                    if index[child] == usize::MAX {
                        index[child] = counter;
                        low[child] = counter;
                        counter += 1;
                        stack.push(child);
                        on_stack[child] = true;
                        work.push((child, 0));
                    } else if on_stack[child] {
                        low[node] = low[node].min(index[child]);
                    }
                    continue;
                }
                work.pop();
                if let Some(&(parent, _)) = work.last() {
                    low[parent] = low[parent].min(low[node]);
                }
                if low[node] == index[node] {
                    let mut component = Vec::new();
                    while let Some(member) = stack.pop() {
                        on_stack[member] = false;
                        component.push(member);
                        if member == node {
                            break;
                        }
                    }
                    components.push(component);
                }
            }
        }
        components
    }

    /// A shortest cycle through the first file of a circle, as the files in order (the
    /// first not repeated at the end).
    pub fn cycle(&self, circle: &[usize]) -> Vec<usize> {
        let members: BTreeSet<usize> = circle.iter().copied().collect();
        let next = self.successors();
        let start = circle[0];
        let mut previous = vec![usize::MAX; self.files.len()];
        let mut queue = VecDeque::from([start]);
        while let Some(node) = queue.pop_front() {
            for &child in &next[node] {
                if !members.contains(&child) {
                    continue;
                }
                if child == start {
                    let mut cycle = vec![node];
                    while *cycle.last().unwrap() != start {
                        cycle.push(previous[*cycle.last().unwrap()]);
                    }
                    cycle.reverse();
                    return cycle;
                }
                if previous[child] == usize::MAX {
                    previous[child] = node;
                    queue.push_back(child);
                }
            }
        }
        vec![start]
    }
}
