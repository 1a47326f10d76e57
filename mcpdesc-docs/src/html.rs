//! Writing HTML from untrusted text: every string of a description goes through
//! [`text`] (or [`attr`]), so none of it is ever markup.
//!
//! Escaping covers the five HTML-significant characters. On top of that, characters that
//! make text display differently from how it reads are neutralised: bidirectional
//! controls (U+202A–U+202E, U+2066–U+2069, and the marks U+200E, U+200F, U+061C) and the
//! other control characters except tab and line feed are written as a visible
//! `[U+XXXX]` in a `<span class="ctl">`, so a reviewer sees them instead of being
//! misled by them.

use std::fmt::Write as _;

use mcpdesc_description::validate::text::is_bidi_control;

/// Whether `c` is shown as a visible code point instead of itself.
fn is_neutralised(c: char) -> bool {
    is_bidi_control(c)
        || matches!(c, '\u{200E}' | '\u{200F}' | '\u{061C}')
        || (c.is_control() && c != '\n' && c != '\t')
}

/// `s` as HTML text content: escaped, controls shown visibly.
pub fn text(s: &str) -> String {
    escape(s, true)
}

/// An identifier (a tool, prompt or property name) as HTML text: escaped like [`text`],
/// in a `<code class="ident">`, with a `<wbr>` (a line-break opportunity) after every
/// `_` and `-` and before every upper-case letter that follows a lower-case letter or
/// digit. The style (`overflow-wrap: normal; word-break: keep-all`) breaks it there and
/// nowhere else: `get_<wbr>timezone`, never `timezon|e`.
pub fn ident(s: &str) -> String {
    format!("<code class=\"ident\">{}</code>", breakable(s))
}

/// An identifier as escaped text with a `<wbr>` at each of its word boundaries (see
/// [`ident`]), for places that style it themselves (the sidebar).
pub fn breakable(s: &str) -> String {
    let mut segments = Vec::new();
    let mut start = 0;
    let mut prev: Option<char> = None;
    for (i, c) in s.char_indices() {
        let case_boundary =
            c.is_uppercase() && prev.is_some_and(|p| p.is_lowercase() || p.is_ascii_digit());
        if case_boundary && i > start {
            segments.push(&s[start..i]);
            start = i;
        }
        if matches!(c, '_' | '-') {
            let end = i + c.len_utf8();
            segments.push(&s[start..end]);
            start = end;
        }
        prev = Some(c);
    }
    if start < s.len() || segments.is_empty() {
        segments.push(&s[start..]);
    }
    let inner: Vec<String> = segments.iter().map(|seg| text(seg)).collect();
    inner.join("<wbr>")
}

/// `s` as the value of a double-quoted attribute: escaped, controls written as the same
/// visible `[U+XXXX]` (markup is not allowed inside an attribute).
pub fn attr(s: &str) -> String {
    escape(s, false)
}

/// Escapes `s`; a neutralised character in a `<span class="ctl">` when `markup`.
fn escape(s: &str, markup: bool) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c if is_neutralised(c) && markup => {
                let _ = write!(out, "<span class=\"ctl\">[U+{:04X}]</span>", c as u32);
            }
            c if is_neutralised(c) => {
                let _ = write!(out, "[U+{:04X}]", c as u32);
            }
            c => out.push(c),
        }
    }
    out
}

/// The `id` (and fragment) of an item: `prefix` then the identity with every character
/// but `[A-Za-z0-9_.-]` percent-encoded as UTF-8 bytes, so distinct identities get
/// distinct ids, an id never holds a quote, space or `#`, and `#tool-analyze_game`
/// stays readable. Browsers match the fragment against ids literally first, so the
/// encoded form works as written in `href`.
pub fn anchor(prefix: &str, identity: &str) -> String {
    let mut out = String::with_capacity(prefix.len() + identity.len() + 1);
    out.push_str(prefix);
    out.push('-');
    for b in identity.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-') {
            out.push(b as char);
        } else {
            let _ = write!(out, "%{b:02X}");
        }
    }
    out
}

/// A JSON value pretty-printed (two-space indent) as escaped text for a `<pre>`.
pub(crate) fn json(value: &serde_json::Value) -> String {
    text(&serde_json::to_string_pretty(value).unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markup_and_controls_are_inert() {
        assert_eq!(
            text("<script>alert('x')</script> & \"q\""),
            "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;q&quot;"
        );
        assert_eq!(
            text("a\u{202E}b\u{0007}c\nd"),
            "a<span class=\"ctl\">[U+202E]</span>b<span class=\"ctl\">[U+0007]</span>c\nd"
        );
        assert_eq!(attr("x\u{2066}\"y"), "x[U+2066]&quot;y");
    }

    #[test]
    fn identifiers_break_only_at_word_boundaries() {
        assert_eq!(
            ident("get_current_time"),
            "<code class=\"ident\">get_<wbr>current_<wbr>time</code>"
        );
        assert_eq!(ident("timezone"), "<code class=\"ident\">timezone</code>");
        assert_eq!(
            ident("resourceUri-v2X"),
            "<code class=\"ident\">resource<wbr>Uri-<wbr>v2<wbr>X</code>"
        );
        // Runs of capitals stay whole; a trailing separator adds no empty segment.
        assert_eq!(ident("HTTPCode_"), "<code class=\"ident\">HTTPCode_</code>");
        assert_eq!(ident(""), "<code class=\"ident\"></code>");
        // Still escaped, segment by segment.
        assert_eq!(
            ident("a<b_c>"),
            "<code class=\"ident\">a&lt;b_<wbr>c&gt;</code>"
        );
    }

    #[test]
    fn anchors_are_injective_and_safe() {
        assert_eq!(anchor("tool", "analyze_game"), "tool-analyze_game");
        assert_eq!(anchor("tool", "a b"), "tool-a%20b");
        assert_eq!(anchor("tool", "a%20b"), "tool-a%2520b");
        assert_eq!(anchor("tool", "\"><x"), "tool-%22%3E%3Cx");
        assert_eq!(anchor("tool", "é"), "tool-%C3%A9");
    }
}
