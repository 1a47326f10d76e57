//! A crate written to a temporary folder for one test, removed afterwards.

use std::collections::BTreeSet;
use std::path::PathBuf;

use crate::check::{check, Outcome};
use crate::report::findings;
use crate::rule::SizeException;
use crate::targets::Target;

/// A folder of source files.
pub struct Fixture {
    /// The folder.
    pub dir: PathBuf,
}

impl Fixture {
    /// Writes `files` (path, text) into a fresh folder named after the test.
    pub fn new(test: &str, files: &[(&str, &str)]) -> Fixture {
        let dir =
            std::env::temp_dir().join(format!("mcpdesc-layout-{}-{test}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        for (path, text) in files {
            let path = dir.join(path);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
        Fixture { dir }
    }

    /// The check of the target rooted at `root` (relative to the folder).
    pub fn check(&self, root: &str) -> Outcome {
        self.check_with(root, &[])
    }

    /// The check with size exceptions (paths relative to the folder).
    pub fn check_with(&self, root: &str, exceptions: &[SizeException]) -> Outcome {
        let target = Target {
            package: "fixture".into(),
            name: "fixture".into(),
            kind: "lib".into(),
            root: self.dir.join(root),
        };
        let outcome = check(&self.dir, &[target], exceptions, true);
        assert!(outcome.problems.is_empty(), "{:?}", outcome.problems);
        outcome
    }

    /// The report of `outcome`, with paths relative to the folder.
    pub fn findings(&self, outcome: &Outcome) -> String {
        findings(outcome, &self.dir)
    }

    /// The graph's files, relative to the folder.
    pub fn files(&self, outcome: &Outcome) -> BTreeSet<String> {
        let graph = &outcome.graphs[0].graph;
        graph.files.iter().map(|file| self.relative(file)).collect()
    }

    /// The graph's edges as (from, to, `line: path` of each site).
    pub fn edges(&self, outcome: &Outcome) -> BTreeSet<(String, String, Vec<String>)> {
        let graph = &outcome.graphs[0].graph;
        graph
            .edges
            .iter()
            .map(|((from, to), sites)| {
                let sites = sites
                    .iter()
                    .map(|site| format!("{}: {}", site.line, site.text))
                    .collect();
                let from = self.relative(&graph.files[*from]);
                (from, self.relative(&graph.files[*to]), sites)
            })
            .collect()
    }

    fn relative(&self, path: &std::path::Path) -> String {
        path.strip_prefix(&self.dir).unwrap().display().to_string()
    }
}

impl Drop for Fixture {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// An edge for comparisons with [`Fixture::edges`].
pub fn edge(from: &str, to: &str, sites: &[&str]) -> (String, String, Vec<String>) {
    let sites = sites.iter().map(|site| site.to_string()).collect();
    (from.to_owned(), to.to_owned(), sites)
}
