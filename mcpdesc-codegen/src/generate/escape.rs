//! Text that reaches the generated file from the description (titles, descriptions,
//! enum values, defaults, examples, property names) made safe for Rust, on the final
//! token stream, so that no emitter can forget it:
//!
//! - **Doc comments** (`#[doc = "..."]`, printed as `///`): a bare CR or CRLF becomes a
//!   line break (rustc rejects a bare CR in a doc comment), a tab four spaces; the bidirectional controls
//!   U+202A–U+202E and U+2066–U+2069 and every other control character but tab and line
//!   feed are written as visible `\u{..}` text (rustc denies bidi controls in comments,
//!   `text_direction_codepoint_in_comment`); a line opening a Markdown code fence
//!   (three or more backticks or tildes) has its first character escaped with `\`, so
//!   that no description becomes a doctest of the user's crate.
//! - **String literals**: a literal holding a bidi control (denied by
//!   `text_direction_codepoint_in_literal`) or a control character is respelled with
//!   `\u{..}` escapes; its value is unchanged.
//! - **Placeholders** ([`Placeholders`]): names the schema preparation gave properties
//!   and enum values so that typify derives unique Rust names from them are replaced by
//!   the original JSON names in every string literal (serde renames, `Display`/`FromStr`
//!   arms, defaults) and doc comment (typify's JSON schema listings). Their marker is
//!   a private-use character the description does not contain.

use std::collections::HashMap;

use proc_macro2::{Delimiter, Group, Literal, TokenStream, TokenTree};

/// Whether `c` is one of the bidirectional controls rustc's deny-by-default lints reject.
pub use mcpdesc_description::validate::text::is_bidi_control;

/// Characters written as `\u{..}`: bidi controls and other controls (but tab and line
/// feed).
fn needs_escape(c: char) -> bool {
    is_bidi_control(c) || (c.is_control() && c != '\n' && c != '\t')
}

/// Hex digits of the placeholder number: `U+10FF00` + digit.
const MARK_DIGITS: u32 = 0x10FF00;

/// Whether `c` may be a marker character: a private-use character (never part of an
/// identifier, so typify turns it into a word break) that is not a digit character.
fn marker_candidates() -> impl Iterator<Item = char> {
    (0xF0000u32..=0x10FFFD)
        .rev()
        .chain((0xE000u32..=0xF8FF).rev())
        .filter(|&c| !(MARK_DIGITS..MARK_DIGITS + 16).contains(&c))
        .filter_map(char::from_u32)
}

/// A marker that occurs nowhere in `source`: the first private-use character the text
/// does not contain, or, should a text contain every one of them (half a megabyte of
/// private-use characters), the first pair of them that never follows each other in it.
/// Linear in the length of `source`.
fn choose_marker(source: &str) -> String {
    let mut present = std::collections::HashSet::new();
    for c in source.chars() {
        if matches!(c as u32, 0xE000..=0xF8FF | 0xF0000..=0x10FFFD) {
            present.insert(c);
        }
    }
    if let Some(c) = marker_candidates().find(|c| !present.contains(c)) {
        return c.to_string();
    }
    // Every candidate occurs: look for a first character some candidate never follows.
    let mut followers: HashMap<char, std::collections::HashSet<char>> = HashMap::new();
    let chars: Vec<char> = source.chars().collect();
    for pair in chars.windows(2) {
        followers.entry(pair[0]).or_default().insert(pair[1]);
    }
    for first in marker_candidates() {
        let after = followers.get(&first);
        if let Some(second) = marker_candidates().find(|c| after.is_none_or(|f| !f.contains(c))) {
            return format!("{first}{second}");
        }
    }
    // Not reachable: a text holding every pair would be tens of gigabytes long.
    unreachable!("no marker is free")
}

/// Stand-in names for properties and enum values whose typify names would collide.
///
/// A placeholder is the Rust name wanted (`a_b_2`, `ReactionsPlus1`) followed by a
/// marker, the placeholder's number in private-use digit characters and the marker
/// again. typify turns every character that cannot continue an identifier into a word
/// break, so it derives exactly the wanted name from the placeholder, and writes the
/// placeholder as the serde name; [`sanitize`] then puts the original JSON name back.
///
/// The marker is chosen per description among the private-use characters its text does
/// not contain ([`Placeholders::new`]), so no text of the description can be taken for a
/// placeholder, and no text can keep placeholders from being used.
#[derive(Debug, Clone)]
pub struct Placeholders {
    /// The marker (one character, two in the pathological case).
    marker: String,
    /// By number: the wanted name and the original text.
    claimed: Vec<(String, String)>,
}

impl Default for Placeholders {
    fn default() -> Self {
        Placeholders::new("")
    }
}

impl Placeholders {
    /// A registry for a description whose whole text is `source`: its marker is one the
    /// text does not contain.
    pub fn new(source: &str) -> Self {
        Placeholders {
            marker: choose_marker(source),
            claimed: Vec::new(),
        }
    }

    /// A new placeholder for `original` that typify turns into `wanted`.
    pub fn claim(&mut self, wanted: &str, original: &str) -> String {
        let n = self.claimed.len();
        let mut text = String::from(wanted);
        text.push_str(&self.marker);
        for digit in format!("{n:x}").chars() {
            let d = digit.to_digit(16).unwrap_or(0);
            text.extend(char::from_u32(MARK_DIGITS + d));
        }
        text.push_str(&self.marker);
        self.claimed.push((wanted.to_owned(), original.to_owned()));
        text
    }

    /// `text` with every placeholder replaced by its original text.
    pub fn restore_plain(&self, text: &str) -> String {
        self.restore(text, str::to_owned)
    }

    /// `text` with every placeholder replaced by `original` as `render` writes it. One
    /// scan of `text`: a marker opens a number, the next marker closes it.
    fn restore(&self, text: &str, render: impl Fn(&str) -> String) -> String {
        let marker = self.marker.as_str();
        if self.claimed.is_empty() || !text.contains(marker) {
            return text.to_owned();
        }
        let mut out = String::with_capacity(text.len());
        let mut rest = text;
        while let Some(open) = rest.find(marker) {
            let after = &rest[open + marker.len()..];
            let number = after.find(marker).and_then(|close| {
                let digits = &after[..close];
                let n = digits.chars().try_fold(0usize, |n, c| {
                    let d = (c as u32).checked_sub(MARK_DIGITS).filter(|d| *d < 16)?;
                    n.checked_mul(16)?.checked_add(d as usize)
                })?;
                (!digits.is_empty()).then_some((n, close))
            });
            let found = number.and_then(|(n, close)| {
                let (wanted, original) = self.claimed.get(n)?;
                rest[..open]
                    .ends_with(wanted.as_str())
                    .then_some((wanted, original, close))
            });
            match found {
                Some((wanted, original, close)) => {
                    out.push_str(&rest[..open - wanted.len()]);
                    out.push_str(&render(original));
                    rest = &after[close + marker.len()..];
                }
                None => {
                    out.push_str(&rest[..open + marker.len()]);
                    rest = after;
                }
            }
        }
        out.push_str(rest);
        out
    }
}

/// Applies the rules of this module to every literal of `tokens`.
pub fn sanitize(tokens: TokenStream, placeholders: &Placeholders) -> TokenStream {
    let mut out = Vec::new();
    for tree in tokens {
        out.push(match tree {
            TokenTree::Group(g) => {
                let inner = if g.delimiter() == Delimiter::Bracket && is_doc_attribute(&g) {
                    doc_attribute(g.stream(), placeholders)
                } else {
                    sanitize(g.stream(), placeholders)
                };
                let mut group = Group::new(g.delimiter(), inner);
                group.set_span(g.span());
                TokenTree::Group(group)
            }
            TokenTree::Literal(lit) => TokenTree::Literal(literal(lit, placeholders)),
            other => other,
        });
    }
    out.into_iter().collect()
}

/// `doc = "..."`.
fn is_doc_attribute(group: &Group) -> bool {
    let trees: Vec<TokenTree> = group.stream().into_iter().collect();
    matches!(trees.as_slice(),
        [TokenTree::Ident(i), TokenTree::Punct(p), TokenTree::Literal(_)]
            if i == "doc" && p.as_char() == '=')
}

fn doc_attribute(stream: TokenStream, placeholders: &Placeholders) -> TokenStream {
    stream
        .into_iter()
        .map(|tree| match tree {
            // No tab, CR, marker, bidi or control character, no code fence: `doc_text`
            // would return it unchanged.
            TokenTree::Literal(lit)
                if {
                    let text = lit.to_string();
                    plainly_safe(&text) && !text.contains("```") && !text.contains("~~~")
                } =>
            {
                TokenTree::Literal(lit)
            }
            TokenTree::Literal(lit) => match string_value(&lit) {
                Some(value) => {
                    let text = placeholders.restore(&value, json_inner);
                    let text = doc_text(&text);
                    if text == value {
                        TokenTree::Literal(lit)
                    } else {
                        TokenTree::Literal(Literal::string(&text))
                    }
                }
                None => TokenTree::Literal(lit),
            },
            other => other,
        })
        .collect()
}

/// The value of a string literal token, `None` for other literals.
fn string_value(lit: &Literal) -> Option<String> {
    let text = lit.to_string();
    if !(text.starts_with('"') || text.starts_with("r\"") || text.starts_with("r#")) {
        return None;
    }
    match syn::Lit::new(lit.clone()) {
        syn::Lit::Str(s) => Some(s.value()),
        _ => None,
    }
}

/// Whether a literal's source text can need no change: printable ASCII (no marker, no
/// bidi or control character), and no escape sequence that could encode one (raw
/// strings have none). Most literals are such; they skip decoding.
fn plainly_safe(text: &str) -> bool {
    text.bytes().all(|b| (0x20..0x7f).contains(&b))
        && (text.starts_with('r') || !text.contains('\\'))
}

fn literal(lit: Literal, placeholders: &Placeholders) -> Literal {
    if plainly_safe(&lit.to_string()) {
        return lit;
    }
    let Some(value) = string_value(&lit) else {
        return lit;
    };
    let restored = placeholders.restore(&value, str::to_owned);
    if restored == value && !value.chars().any(needs_escape) {
        return lit;
    }
    let mut text = String::with_capacity(restored.len() + 2);
    text.push('"');
    for c in restored.chars() {
        match c {
            '"' => text.push_str("\\\""),
            '\\' => text.push_str("\\\\"),
            '\n' => text.push_str("\\n"),
            '\r' => text.push_str("\\r"),
            '\t' => text.push_str("\\t"),
            c if needs_escape(c) => text.push_str(&format!("\\u{{{:x}}}", c as u32)),
            c => text.push(c),
        }
    }
    text.push('"');
    let mut out: Literal = text.parse().unwrap_or_else(|_| Literal::string(&restored));
    out.set_span(lit.span());
    out
}

/// The inside of a JSON string holding `text` (for placeholders inside typify's JSON
/// listings in doc comments).
fn json_inner(text: &str) -> String {
    let quoted = serde_json::Value::String(text.to_owned()).to_string();
    quoted[1..quoted.len() - 1].to_owned()
}

/// A doc comment's text made safe (see the module documentation).
///
/// ```
/// use mcpdesc_codegen::generate::escape::doc_text;
/// assert_eq!(doc_text("a\rb\r\nc"), "a\nb\nc");
/// assert_eq!(doc_text("evil \u{202e} text"), "evil \\u{202e} text");
/// assert_eq!(doc_text("x\n```\ny"), "x\n\\```\ny");
/// ```
pub fn doc_text(text: &str) -> String {
    // Tabs become spaces (clippy's `tabs_in_doc_comments`).
    let text = text
        .replace("\r\n", "\n")
        .replace('\r', "\n")
        .replace('\t', "    ");
    let mut out = String::with_capacity(text.len());
    for (i, line) in text.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        let trimmed = line.trim_start();
        let fence = trimmed.starts_with("```") || trimmed.starts_with("~~~");
        let indent = &line[..line.len() - trimmed.len()];
        let body = if fence {
            out.push_str(indent);
            out.push('\\');
            trimmed
        } else {
            line
        };
        for c in body.chars() {
            if needs_escape(c) {
                out.push_str(&format!("\\u{{{:x}}}", c as u32));
            } else {
                out.push(c);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use quote::quote;

    #[test]
    fn literals_keep_their_value_and_lose_raw_controls() {
        let tokens = quote! { const A: &str = "x\u{202e}y\r"; };
        let out = sanitize(tokens, &Placeholders::default()).to_string();
        assert!(out.contains(r#""x\u{202e}y\r""#), "{out}");
        assert!(!out.contains('\u{202e}'));
        let lit: syn::LitStr = syn::parse_str(r#""x\u{202e}y\r""#).unwrap();
        assert_eq!(lit.value(), "x\u{202e}y\r");
    }

    #[test]
    fn docs_are_escaped_and_placeholders_restored() {
        let mut p = Placeholders::new("");
        let ph = p.claim("ReactionsPlus1", "reactions-+1");
        let doc = format!("values: \"{ph}\"\u{2066}");
        let tokens = quote! { #[doc = #doc] #[serde(rename = #ph)] A };
        let out = sanitize(tokens, &p).to_string();
        assert!(
            out.contains(r#""values: \"reactions-+1\"\\u{2066}""#),
            "{out}"
        );
        assert!(out.contains(r#"rename = "reactions-+1""#), "{out}");
        // A description holding the marker gets another one.
        assert_ne!(Placeholders::new(&ph).marker, p.marker);
    }
}
