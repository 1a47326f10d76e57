//! Strings for a `pattern`: ones that match it, generated from its syntax tree, and
//! ones that do not, for the pattern-breaking invalid inputs.
//!
//! The pattern is parsed by `regex-syntax` (the parser under the `regex` crate, already
//! in the tree), and its syntax tree is walked with the check's own seeded generator,
//! so that `--seed` still reproduces every input. A crate that samples a regex
//! (`rand_regex`) was weighed: it draws from `rand`'s generators, which would bring a
//! second random source beside the seeded one, for about the same amount of code as
//! this walk. JSON Schema patterns are ECMA-262 regular expressions; what
//! `regex-syntax` cannot parse (look-arounds, back-references) leaves the schema
//! unsupported, as before, and every generated string is verified against the schema
//! anyway (`generator.rs`).
//!
//! Characters are drawn from printable ASCII where a class allows it (`\d` is ASCII
//! digits, as in ECMA-262, not every Unicode digit), so that a report stays readable.
//! Anchors and word boundaries are skipped: a pattern is not anchored in JSON Schema,
//! and a string that happens to break a boundary fails the verification, after which
//! another is drawn.

use regex_syntax::hir::{Class, Hir, HirKind};

use crate::rng::Rng;

/// The most repetitions an open `*`, `+` or `{n,}` adds to its minimum.
const OPEN_REPEAT: u32 = 3;

/// A parsed `pattern`.
pub(super) struct Pattern {
    hir: Hir,
    regex: regex::Regex,
}

impl Pattern {
    /// Parses `pattern`; the error says why it cannot be served.
    pub(super) fn parse(pattern: &str) -> Result<Self, String> {
        let hir = regex_syntax::ParserBuilder::new()
            .build()
            .parse(pattern)
            .map_err(|e| format!("the `pattern` `{pattern}` cannot be parsed: {e}"))?;
        let regex = regex::Regex::new(pattern)
            .map_err(|e| format!("the `pattern` `{pattern}` cannot be compiled: {e}"))?;
        Ok(Pattern { hir, regex })
    }

    /// A string that matches the pattern, of `min..=max` characters when one is found
    /// in a few draws.
    pub(super) fn sample(&self, rng: &mut Rng, min: usize, max: usize) -> Option<String> {
        for _ in 0..16 {
            let mut out = String::new();
            walk(&self.hir, rng, &mut out);
            let len = out.chars().count();
            if (min..=max).contains(&len) && self.regex.is_match(&out) {
                return Some(out);
            }
        }
        None
    }

    /// A string of `len` characters (or close) that does not match the pattern.
    pub(super) fn breaking(&self, len: usize) -> Option<String> {
        let len = len.max(1);
        let candidates = ["~", " ", "0", "a", "Z", "-", "é"]
            .iter()
            .flat_map(|c| [c.repeat(len), c.repeat(len + 1)])
            .chain(std::iter::once(String::new()));
        candidates
            .into_iter()
            .find(|candidate| !self.regex.is_match(candidate))
    }
}

/// Appends a random match of `hir` to `out`.
fn walk(hir: &Hir, rng: &mut Rng, out: &mut String) {
    match hir.kind() {
        HirKind::Empty | HirKind::Look(_) => {}
        HirKind::Literal(literal) => out.push_str(&String::from_utf8_lossy(&literal.0)),
        HirKind::Class(class) => {
            if let Some(c) = pick(class, rng) {
                out.push(c);
            }
        }
        HirKind::Repetition(repetition) => {
            let open = repetition.min.saturating_add(OPEN_REPEAT);
            let max = repetition.max.unwrap_or(open).min(open);
            let times = rng.between(
                i64::from(repetition.min),
                i64::from(max.max(repetition.min)),
            );
            for _ in 0..times {
                walk(&repetition.sub, rng, out);
            }
        }
        HirKind::Capture(capture) => walk(&capture.sub, rng, out),
        HirKind::Concat(parts) => {
            for part in parts {
                walk(part, rng, out);
            }
        }
        HirKind::Alternation(branches) => {
            if !branches.is_empty() {
                walk(&branches[rng.below(branches.len())], rng, out);
            }
        }
    }
}

/// A character of `class`: an ASCII letter or digit where it has some, else printable
/// ASCII, else any of its characters.
fn pick(class: &Class, rng: &mut Rng) -> Option<char> {
    let ranges: Vec<(u32, u32)> = match class {
        Class::Unicode(c) => c
            .ranges()
            .iter()
            .map(|r| (u32::from(r.start()), u32::from(r.end())))
            .collect(),
        Class::Bytes(c) => c
            .ranges()
            .iter()
            .map(|r| (u32::from(r.start()), u32::from(r.end())))
            .collect(),
    };
    let contains = |c: u32| ranges.iter().any(|(lo, hi)| (*lo..=*hi).contains(&c));
    let alnum: Vec<char> = (0x20u32..0x7f)
        .filter_map(char::from_u32)
        .filter(|c| c.is_ascii_alphanumeric() && contains(u32::from(*c)))
        .collect();
    if !alnum.is_empty() {
        return Some(alnum[rng.below(alnum.len())]);
    }
    let printable: Vec<char> = (0x20u32..0x7f)
        .filter_map(char::from_u32)
        .filter(|c| contains(u32::from(*c)))
        .collect();
    if !printable.is_empty() {
        return Some(printable[rng.below(printable.len())]);
    }
    let (lo, hi) = *ranges.get(rng.below(ranges.len()))?;
    (0..8).find_map(|_| char::from_u32(rng.between(i64::from(lo), i64::from(hi)) as u32))
}
