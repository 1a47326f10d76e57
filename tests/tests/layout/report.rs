//! The check's findings and graphs as text for a developer.

use std::fmt::Write as _;
use std::path::Path;

use crate::check::{target_label, Circle, Outcome};
use crate::rule::MAX_LINES;

/// `path` relative to the workspace root when it is inside it.
fn shown(root: &Path, path: &Path) -> String {
    path.strip_prefix(root)
        .unwrap_or(path)
        .display()
        .to_string()
}

/// How much was checked and what was found, with the files an exception allows over
/// the bound.
pub fn summary(outcome: &Outcome, root: &Path) -> String {
    let edges: usize = outcome.graphs.iter().map(|g| g.graph.edges.len()).sum();
    let mut out = format!(
        "layout: {} targets, {} source files, {edges} edges: {} circle(s), {} file(s) over \
         {MAX_LINES} lines",
        outcome.graphs.len(),
        outcome.file_count,
        outcome.circles.len(),
        outcome.oversize.len(),
    );
    for (path, lines, reason) in &outcome.excepted {
        let _ = write!(
            out,
            "\n  allowed over the bound: {}: {lines} lines ({reason})",
            shown(root, path)
        );
    }
    out
}

/// Everything wrong, with the sites to fix.
pub fn findings(outcome: &Outcome, root: &Path) -> String {
    let mut out = summary(outcome, root);
    out.push('\n');
    for problem in &outcome.problems {
        let _ = writeln!(out, "\nerror: {problem}");
    }
    for (i, circle) in outcome.circles.iter().enumerate() {
        out.push('\n');
        render_circle(&mut out, circle, i + 1, outcome.circles.len(), root);
    }
    if !outcome.oversize.is_empty() {
        let _ = writeln!(
            out,
            "\nfiles over {MAX_LINES} lines (split them by job, one job per file; or list \
             an exception with its reason in tests/tests/layout/rule.rs and ARCHITECTURE.md):"
        );
        for (path, lines) in &outcome.oversize {
            let _ = writeln!(out, "  {}: {lines} lines", shown(root, path));
        }
    }
    if !outcome.stale_exceptions.is_empty() {
        let _ = writeln!(out, "\nstale size exceptions (tests/tests/layout/rule.rs):");
        for stale in &outcome.stale_exceptions {
            let _ = writeln!(out, "  {stale}");
        }
    }
    out
}

fn render_circle(out: &mut String, circle: &Circle, number: usize, of: usize, root: &Path) {
    let files: Vec<String> = circle.files.iter().map(|f| shown(root, f)).collect();
    let _ = writeln!(
        out,
        "circle {number} of {of}: {} files: {}",
        files.len(),
        files.join(", ")
    );
    let _ = writeln!(out, "  in {}", circle.targets.join("; "));
    let mut cycle: Vec<String> = circle.cycle.iter().map(|f| shown(root, f)).collect();
    cycle.push(cycle[0].clone());
    let _ = writeln!(out, "  cycle: {}", cycle.join(" -> "));
    for (i, edge) in circle.edges.iter().enumerate() {
        if i == circle.cycle.len() {
            let _ = writeln!(out, "  other edges inside the circle:");
        }
        let from = shown(root, &edge.from);
        let _ = writeln!(out, "    {from} -> {}", shown(root, &edge.to));
        for site in &edge.sites {
            let _ = writeln!(out, "      {from}:{}: {}", site.line, site.text);
        }
    }
    let _ = writeln!(
        out,
        "  to break it, name items by their defining module's path (not a parent's \
         re-export) and move what both sides need below both"
    );
}

/// Every target's graph: each file, the files it names items of, and where.
pub fn graphs(outcome: &Outcome, root: &Path) -> String {
    let mut out = String::new();
    for target_graph in &outcome.graphs {
        let graph = &target_graph.graph;
        let _ = writeln!(
            out,
            "{}: {} files, {} edges",
            target_label(&target_graph.target),
            graph.files.len(),
            graph.edges.len()
        );
        for (index, file) in graph.files.iter().enumerate() {
            let from = shown(root, file);
            let _ = writeln!(out, "  {from}");
            for ((_, to), sites) in graph.edges.range((index, 0)..(index + 1, 0)) {
                let _ = writeln!(
                    out,
                    "    -> {} ({})",
                    shown(root, &graph.files[*to]),
                    sites.len()
                );
                for site in sites {
                    let _ = writeln!(out, "         {from}:{}: {}", site.line, site.text);
                }
            }
        }
    }
    out
}
