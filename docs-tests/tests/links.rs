//! Every relative link of README.md and docs/*.md resolves: the file (or folder) it
//! names exists, and its `#anchor`, if any, is a heading of that page as GitHub
//! spells heading anchors. Links inside code (fenced blocks, `code spans`) are not
//! links; absolute URLs (`https:`, `mailto:`) are not checked (no network in tests).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// README.md and every page of docs/.
fn pages() -> Vec<PathBuf> {
    let mut pages = vec![repo().join("README.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(repo().join("docs"))
        .expect("docs/")
        .map(|entry| entry.expect("a docs/ entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "md"))
        .collect();
    docs.sort();
    pages.extend(docs);
    pages
}

/// The lines of `markdown` outside fenced code blocks, with their line numbers.
fn prose_lines(markdown: &str) -> Vec<(usize, &str)> {
    let mut fence: Option<&str> = None;
    let mut lines = Vec::new();
    for (index, line) in markdown.lines().enumerate() {
        let trimmed = line.trim_start();
        match fence {
            Some(open) => {
                if trimmed.starts_with(open)
                    && trimmed.trim_end().trim_start_matches(open).is_empty()
                {
                    fence = None;
                }
            }
            None if trimmed.starts_with("```") => fence = Some("```"),
            None if trimmed.starts_with("~~~") => fence = Some("~~~"),
            None => lines.push((index + 1, line)),
        }
    }
    lines
}

/// `line` without its code spans (each replaced by a space).
fn without_code_spans(line: &str) -> String {
    let mut out = String::new();
    let mut rest = line;
    while let Some(start) = rest.find('`') {
        out.push_str(&rest[..start]);
        let ticks = rest[start..].chars().take_while(|c| *c == '`').count();
        let delimiter = &rest[start..start + ticks];
        let after = &rest[start + ticks..];
        match after.find(delimiter) {
            Some(end) => {
                out.push(' ');
                rest = &after[end + ticks..];
            }
            None => {
                out.push_str(&rest[start..]);
                rest = "";
            }
        }
    }
    out.push_str(rest);
    out
}

/// The targets of the inline links and link reference definitions of one line.
fn link_targets(line: &str) -> Vec<String> {
    let line = without_code_spans(line);
    let mut targets = Vec::new();
    let trimmed = line.trim_start();
    if trimmed.starts_with('[')
        && let Some(close) = trimmed.find("]:")
    {
        let target = trimmed[close + 2..].split_whitespace().next().unwrap_or("");
        targets.push(target.trim_matches(['<', '>']).to_string());
        return targets;
    }
    let mut rest = line.as_str();
    while let Some(at) = rest.find("](") {
        let after = &rest[at + 2..];
        let end = after.find(')').unwrap_or(after.len());
        let target = after[..end].split_whitespace().next().unwrap_or("");
        targets.push(target.trim_matches(['<', '>']).to_string());
        rest = &after[end..];
    }
    targets
}

/// GitHub's anchor of a heading: lower case, punctuation dropped (letters, digits,
/// `-`, `_` and spaces kept), spaces as `-`.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | ' '))
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// The anchors of a page's headings; a repeated heading gets `-1`, `-2`, ... as on GitHub.
fn anchors(markdown: &str) -> BTreeSet<String> {
    let mut anchors = BTreeSet::new();
    for (_, line) in prose_lines(markdown) {
        let hashes = line.chars().take_while(|c| *c == '#').count();
        if hashes == 0 || hashes > 6 || !line[hashes..].starts_with(' ') {
            continue;
        }
        let base = slug(&line[hashes..]);
        let mut anchor = base.clone();
        let mut n = 0;
        while anchors.contains(&anchor) {
            n += 1;
            anchor = format!("{base}-{n}");
        }
        anchors.insert(anchor);
    }
    anchors
}

#[test]
fn every_relative_link_resolves_to_a_file_and_heading() {
    let mut broken = Vec::new();
    let mut checked = 0;
    for page in pages() {
        let text = std::fs::read_to_string(&page).expect("a page");
        let dir = page.parent().expect("a page's folder");
        for (number, line) in prose_lines(&text) {
            for target in link_targets(line) {
                if target.is_empty() || target.contains("://") || target.starts_with("mailto:") {
                    continue;
                }
                checked += 1;
                let (path, anchor) = match target.split_once('#') {
                    Some((path, anchor)) => (path, Some(anchor)),
                    None => (target.as_str(), None),
                };
                let file = if path.is_empty() {
                    page.clone()
                } else {
                    dir.join(path)
                };
                let at = format!(
                    "{}:{number}: `{target}`",
                    page.strip_prefix(repo()).unwrap_or(&page).display()
                );
                if !file.exists() {
                    broken.push(format!("{at}: no file {}", file.display()));
                    continue;
                }
                if let Some(anchor) = anchor {
                    let Ok(linked) = std::fs::read_to_string(&file) else {
                        broken.push(format!("{at}: an anchor into something that is not a page"));
                        continue;
                    };
                    if !anchors(&linked).contains(anchor) {
                        broken.push(format!("{at}: no heading with the anchor `#{anchor}`"));
                    }
                }
            }
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
    assert!(
        checked > 50,
        "only {checked} relative links found: is the link scanner broken?"
    );
}

#[test]
fn the_link_scanner_reads_markdown_as_github_does() {
    assert_eq!(
        slug("Tools as tasks: `{method}_as_task`"),
        "tools-as-tasks-method_as_task"
    );
    assert_eq!(slug("Tasks (MCP 2025-11-25)"), "tasks-mcp-2025-11-25");
    assert_eq!(
        link_targets("see [a](a.md#x), `[b](not-a-link.md)` and ![c](c.png)"),
        ["a.md#x", "c.png"]
    );
    assert_eq!(link_targets("[docs]: docs/README.md"), ["docs/README.md"]);
    assert_eq!(
        anchors("# A\n```\n# not a heading\n```\n## A\n")
            .into_iter()
            .collect::<Vec<_>>(),
        ["a", "a-1"]
    );
}
