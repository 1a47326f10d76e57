//! The check over a set of targets: circles in each target's graph, files over the
//! size bound, exceptions that no longer apply.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::edges;
use crate::graph::{Graph, Site};
use crate::modules::{Crate, FileCache};
use crate::rule::{SizeException, MAX_LINES};
use crate::targets::Target;

/// One target and its import graph.
pub struct TargetGraph {
    /// The target.
    pub target: Target,
    /// Its graph.
    pub graph: Graph,
}

/// An edge inside a circle, with its sites.
pub struct CircleEdge {
    /// The naming file.
    pub from: PathBuf,
    /// The named file.
    pub to: PathBuf,
    /// Where `from` names items of `to`.
    pub sites: Vec<Site>,
}

/// A circle: files that name each other's items, found in one or more targets.
pub struct Circle {
    /// The targets whose graphs have it (`mcpdesc-check lib mcpdesc_check`).
    pub targets: Vec<String>,
    /// Its files, sorted.
    pub files: Vec<PathBuf>,
    /// A shortest cycle through its first file.
    pub cycle: Vec<PathBuf>,
    /// The cycle's edges, in cycle order, then the circle's other edges.
    pub edges: Vec<CircleEdge>,
}

/// What the check found.
pub struct Outcome {
    /// Every target's graph.
    pub graphs: Vec<TargetGraph>,
    /// The circles, each once however many targets include its files.
    pub circles: Vec<Circle>,
    /// Source files over the bound and not excepted, with their number of lines.
    pub oversize: Vec<(PathBuf, usize)>,
    /// Files over the bound that an exception allows: path, lines, reason.
    pub excepted: Vec<(PathBuf, usize, &'static str)>,
    /// Exceptions for files that are within the bound or not source files.
    pub stale_exceptions: Vec<String>,
    /// Files that cannot be read or parsed, `mod`s without a file.
    pub problems: Vec<String>,
    /// How many distinct source files the targets have.
    pub file_count: usize,
}

impl Outcome {
    /// Whether nothing is wrong.
    pub fn is_clean(&self) -> bool {
        self.circles.is_empty()
            && self.oversize.is_empty()
            && self.stale_exceptions.is_empty()
            && self.problems.is_empty()
    }
}

/// A target's name in reports: `mcpdesc-check lib mcpdesc_check`.
pub fn target_label(target: &Target) -> String {
    format!("{} {} {}", target.package, target.kind, target.name)
}

/// Checks `targets`. `root` is the workspace root, which exception paths are relative
/// to; `complete` says whether `targets` are all of the workspace's (only then is an
/// exception for a file no target has stale).
pub fn check(
    root: &Path,
    targets: &[Target],
    exceptions: &[SizeException],
    complete: bool,
) -> Outcome {
    let mut cache = FileCache::default();
    let mut graphs = Vec::new();
    let mut problems = Vec::new();
    let mut lines: BTreeMap<PathBuf, usize> = BTreeMap::new();
    for target in targets {
        match Crate::load(&target.root, &mut cache) {
            Ok(krate) => {
                for file in &krate.files {
                    lines.insert(file.path.clone(), file.parsed.lines);
                }
                graphs.push(TargetGraph {
                    target: target.clone(),
                    graph: edges::graph(&krate),
                });
            }
            Err(error) => problems.push(format!("{}: {error}", target_label(target))),
        }
    }
    let exception = |path: &Path| {
        exceptions
            .iter()
            .find(|exception| root.join(exception.path) == path)
    };
    let (mut oversize, mut excepted) = (Vec::new(), Vec::new());
    for (path, &count) in lines.iter().filter(|(_, lines)| **lines > MAX_LINES) {
        match exception(path) {
            Some(exception) => excepted.push((path.clone(), count, exception.reason)),
            None => oversize.push((path.clone(), count)),
        }
    }
    let mut stale_exceptions = Vec::new();
    for exception in exceptions {
        match lines.get(&root.join(exception.path)) {
            Some(&count) if count <= MAX_LINES => stale_exceptions.push(format!(
                "{}: {count} lines, within the bound: remove its exception",
                exception.path
            )),
            None if complete => stale_exceptions.push(format!(
                "{}: no target has this file: remove its exception",
                exception.path
            )),
            _ => {}
        }
    }
    Outcome {
        circles: circles(&graphs),
        graphs,
        oversize,
        excepted,
        stale_exceptions,
        problems,
        file_count: lines.len(),
    }
}

/// The circles of every graph; a circle with the same files in several targets (a
/// shared test harness) is reported once, naming them all.
fn circles(graphs: &[TargetGraph]) -> Vec<Circle> {
    let mut found: Vec<Circle> = Vec::new();
    for TargetGraph { target, graph } in graphs {
        for members in graph.circles() {
            let files: Vec<PathBuf> = members.iter().map(|m| graph.files[*m].clone()).collect();
            if let Some(known) = found.iter_mut().find(|circle| circle.files == files) {
                known.targets.push(target_label(target));
                continue;
            }
            let cycle = graph.cycle(&members);
            let mut pairs: Vec<(usize, usize)> = (0..cycle.len())
                .map(|i| (cycle[i], cycle[(i + 1) % cycle.len()]))
                .collect();
            for &(from, to) in graph.edges.keys() {
                let inside = members.contains(&from) && members.contains(&to);
                if inside && !pairs.contains(&(from, to)) {
                    pairs.push((from, to));
                }
            }
            let edges = pairs
                .into_iter()
                .map(|(from, to)| CircleEdge {
                    from: graph.files[from].clone(),
                    to: graph.files[to].clone(),
                    sites: graph.edges[&(from, to)].iter().cloned().collect(),
                })
                .collect();
            found.push(Circle {
                targets: vec![target_label(target)],
                cycle: cycle.iter().map(|m| graph.files[*m].clone()).collect(),
                files,
                edges,
            });
        }
    }
    found
}
