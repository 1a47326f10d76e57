//! Intra-doc links written with a path, in doc comments.
//!
//! rustdoc resolves a link whose target is a path: `[`crate::a::B`]` (the text is the
//! target), `[text](super::B)`, `[text][crate::a]` and `[label]: self::c::D`. Code spans
//! and fenced code blocks are not links; neither are URLs or single names (`[`B`]`
//! names an item in scope, already imported by a `use` that is an edge of its own).
//! Disambiguators (`struct@`), call suffixes (`()`, `!`) and generic arguments are
//! stripped as rustdoc does.

/// A link target that is a path of two or more segments.
#[derive(Debug, PartialEq)]
pub struct DocLink {
    /// Its segments.
    pub segments: Vec<String>,
    /// The line it is written on.
    pub line: usize,
}

/// Reads the doc attributes of a file in order, keeping track of fenced code blocks
/// across the lines of one doc comment (consecutive lines).
#[derive(Default)]
pub struct DocReader {
    /// The fence that opened the code block we are in (```` ``` ```` or `~~~`).
    fence: Option<&'static str>,
    /// The line after the previous doc attribute; another line starts a new comment.
    next_line: usize,
}

impl DocReader {
    /// The links of one doc attribute's text, which starts at `line`.
    pub fn read(&mut self, text: &str, line: usize) -> Vec<DocLink> {
        if line != self.next_line {
            self.fence = None;
        }
        let mut links = Vec::new();
        let mut at = line;
        for text_line in text.split('\n') {
            let trimmed = text_line.trim_start();
            let opens = ["```", "~~~"].into_iter().find(|f| trimmed.starts_with(f));
            match (self.fence, opens) {
                (None, Some(fence)) => self.fence = Some(fence),
                (Some(open), Some(fence)) if open == fence => self.fence = None,
                (Some(_), _) => {}
                (None, None) => links.extend(
                    link_targets(text_line)
                        .iter()
                        .filter_map(|target| path_of(target))
                        .map(|segments| DocLink { segments, line: at }),
                ),
            }
            at += 1;
        }
        self.next_line = at;
        links
    }
}

/// The link targets of one line of Markdown (outside code blocks).
pub fn link_targets(line: &str) -> Vec<String> {
    if let Some(target) = definition(line) {
        return vec![target];
    }
    let chars: Vec<char> = line.chars().collect();
    let text = |from: usize, to: usize| chars[from..to].iter().collect::<String>();
    let mut targets = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        match chars[i] {
            '\\' => i += 2,
            '`' => i = after_code_span(&chars, i),
            '[' => {
                let Some(close) = closing(&chars, i, '[', ']') else {
                    break;
                };
                let after = close + 1;
                match chars.get(after) {
                    Some('(') => {
                        let Some(end) = closing(&chars, after, '(', ')') else {
                            break;
                        };
                        let inside = text(after + 1, end);
                        let target = inside.split_whitespace().next().unwrap_or("");
                        targets.push(target.trim_matches(['<', '>']).to_owned());
                        i = end + 1;
                    }
                    Some('[') => {
                        let Some(end) = closing(&chars, after, '[', ']') else {
                            break;
                        };
                        let label = text(after + 1, end);
                        // `[text][]` is a collapsed reference: the text is the label.
                        targets.push(if label.is_empty() {
                            text(i + 1, close)
                        } else {
                            label
                        });
                        i = end + 1;
                    }
                    _ => {
                        targets.push(text(i + 1, close));
                        i = after;
                    }
                }
            }
            _ => i += 1,
        }
    }
    targets
}

/// The target of a reference definition line, `[label]: target`.
fn definition(line: &str) -> Option<String> {
    let rest = line.trim_start().strip_prefix('[')?;
    let (label, rest) = rest.split_once("]:")?;
    if label.contains(['[', ']']) {
        return None;
    }
    let target = rest.split_whitespace().next()?;
    Some(target.trim_matches(['<', '>']).to_owned())
}

/// The index after the code span opening at `chars[start]`, or after its backticks
/// when it never closes.
fn after_code_span(chars: &[char], start: usize) -> usize {
    let run = chars[start..].iter().take_while(|c| **c == '`').count();
    let mut i = start + run;
    while i < chars.len() {
        let here = chars[i..].iter().take_while(|c| **c == '`').count();
        if here == run {
            return i + run;
        }
        i += here.max(1);
    }
    start + run
}

/// The index of the bracket closing the one at `chars[open]` (code spans skipped).
fn closing(chars: &[char], open: usize, left: char, right: char) -> Option<usize> {
    let mut depth = 0;
    let mut i = open;
    while i < chars.len() {
        match chars[i] {
            '\\' => i += 1,
            '`' => {
                i = after_code_span(chars, i);
                continue;
            }
            c if c == left => depth += 1,
            c if c == right => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// The segments of a link target that is a Rust path of two or more segments.
pub fn path_of(target: &str) -> Option<Vec<String>> {
    let mut target = target.trim().trim_matches('`').trim();
    if let Some((kind, rest)) = target.split_once('@') {
        if kind.chars().all(|c| c.is_ascii_alphabetic()) {
            target = rest;
        }
    }
    for suffix in ["!()", "![]", "!{}", "()", "!"] {
        if let Some(rest) = target.strip_suffix(suffix) {
            target = rest;
            break;
        }
    }
    let mut path = String::new();
    let mut depth = 0usize;
    for c in target.chars() {
        match c {
            '<' => depth += 1,
            '>' => depth = depth.checked_sub(1)?,
            c if depth == 0 => path.push(c),
            _ => {}
        }
    }
    let segments: Vec<String> = path.split("::").map(str::to_owned).collect();
    let identifier = |segment: &String| {
        let mut chars = segment.chars();
        chars
            .next()
            .is_some_and(|first| first.is_alphabetic() || first == '_')
            && chars.all(|c| c.is_alphanumeric() || c == '_')
    };
    (depth == 0 && segments.len() >= 2 && segments.iter().all(identifier)).then_some(segments)
}
