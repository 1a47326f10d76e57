//! RFC 6570 URI Templates, as far as validation needs them: syntax, variable names, and
//! whether a concrete URI is an expansion of a template.
//!
//! Resource Templates name their URIs with RFC 6570 templates. Validation must reject a
//! malformed template, check that a template example's `uri` could be produced by the
//! template, and check that completion examples name real template variables. Nothing
//! here expands templates; matching is done with one regular expression per template,
//! built from the parsed parts, so matching is linear in the URI length.

use regex::Regex;

/// The operator of one `{...}` expression (RFC 6570 §2.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Operator {
    /// `{var}`: simple string expansion.
    Simple,
    /// `{+var}`: reserved expansion.
    Reserved,
    /// `{#var}`: fragment expansion.
    Fragment,
    /// `{.var}`: label expansion with dot prefix.
    Label,
    /// `{/var}`: path segment expansion.
    Path,
    /// `{;var}`: path-style parameter expansion.
    PathParameter,
    /// `{?var}`: form-style query expansion.
    Query,
    /// `{&var}`: form-style query continuation.
    QueryContinuation,
}

/// One piece of a parsed template.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Part {
    /// Literal text, copied as is.
    Literal(String),
    /// An expression with its operator and variable names.
    Expression(Operator, Vec<String>),
}

/// A syntactically valid RFC 6570 URI Template.
#[derive(Debug, Clone)]
pub struct UriTemplate {
    parts: Vec<Part>,
    /// Whether every expression is a level-1 `{name}`: no operator, one variable, no
    /// modifier.
    level_one: bool,
}

impl UriTemplate {
    /// Parses `text`, or explains the first syntax error.
    pub fn parse(text: &str) -> Result<UriTemplate, String> {
        let mut parts = Vec::new();
        let mut literal = String::new();
        let mut rest = text;
        let mut level_one = true;
        while let Some(ch) = rest.chars().next() {
            match ch {
                '{' => {
                    let Some(end) = rest.find('}') else {
                        return Err(format!("the expression starting at {rest:?} is not closed"));
                    };
                    let body = &rest[1..end];
                    if !literal.is_empty() {
                        parts.push(Part::Literal(std::mem::take(&mut literal)));
                    }
                    let expression = parse_expression(body)?;
                    level_one &= matches!(&expression, Part::Expression(Operator::Simple, names) if names.len() == 1)
                        && !body.contains([':', '*']);
                    parts.push(expression);
                    rest = &rest[end + 1..];
                }
                '}' => return Err("a `}` appears outside an expression".to_owned()),
                '%' => {
                    let escape = rest.get(..3).filter(|s| is_pct_encoded(s));
                    let Some(escape) = escape else {
                        return Err(
                            "a `%` in literal text is not followed by two hex digits".to_owned()
                        );
                    };
                    literal.push_str(escape);
                    rest = &rest[3..];
                }
                _ if is_literal_char(ch) => {
                    literal.push(ch);
                    rest = &rest[ch.len_utf8()..];
                }
                _ => {
                    return Err(format!(
                        "the character {ch:?} is not allowed in literal text"
                    ))
                }
            }
        }
        if !literal.is_empty() {
            parts.push(Part::Literal(literal));
        }
        Ok(UriTemplate { parts, level_one })
    }

    /// Whether the template is RFC 6570 level 1: every expression is `{name}` (simple
    /// string expansion of one variable, no modifier). Generated code gives each
    /// variable of such a template its own field.
    pub fn is_level_one(&self) -> bool {
        self.level_one
    }

    /// The variable names, in order of appearance (a name may repeat).
    pub fn variables(&self) -> impl Iterator<Item = &str> {
        self.parts
            .iter()
            .flat_map(|part| match part {
                Part::Expression(_, names) => names.as_slice(),
                Part::Literal(_) => &[],
            })
            .map(String::as_str)
    }

    /// A matcher for the URIs this template can expand to.
    ///
    /// The match is deliberately generous inside expressions (any characters an
    /// expansion with that operator may produce, including empty and exploded values),
    /// and exact on literal text, which is what distinguishes one route from another.
    pub fn matcher(&self) -> Option<Regex> {
        let mut pattern = String::from("^");
        for part in &self.parts {
            match part {
                Part::Literal(text) => pattern.push_str(&regex::escape(text)),
                Part::Expression(op, _) => pattern.push_str(expansion_pattern(*op)),
            }
        }
        pattern.push('$');
        Regex::new(&pattern).ok()
    }
}

/// Parses the text between `{` and `}`.
fn parse_expression(body: &str) -> Result<Part, String> {
    let mut chars = body.chars();
    let operator = match chars.clone().next() {
        Some('+') => Some(Operator::Reserved),
        Some('#') => Some(Operator::Fragment),
        Some('.') => Some(Operator::Label),
        Some('/') => Some(Operator::Path),
        Some(';') => Some(Operator::PathParameter),
        Some('?') => Some(Operator::Query),
        Some('&') => Some(Operator::QueryContinuation),
        Some(op @ ('=' | ',' | '!' | '@' | '|')) => {
            return Err(format!(
                "the expression {{{body}}} uses the operator {op:?}, which RFC 6570 reserves for future extensions"
            ))
        }
        _ => None,
    };
    if operator.is_some() {
        chars.next();
    }
    let list = chars.as_str();
    let mut names = Vec::new();
    for varspec in list.split(',') {
        names.push(parse_varspec(varspec).ok_or_else(|| {
            format!("the expression {{{body}}} has an invalid variable specification {varspec:?}")
        })?);
    }
    Ok(Part::Expression(
        operator.unwrap_or(Operator::Simple),
        names,
    ))
}

/// Parses `varname [ ":" max-length | "*" ]` and returns the name.
fn parse_varspec(varspec: &str) -> Option<String> {
    let (name, modifier) = match varspec.find([':', '*']) {
        Some(at) => varspec.split_at(at),
        None => (varspec, ""),
    };
    let modifier_ok = match modifier.strip_prefix(':') {
        Some(digits) => {
            (1..=4).contains(&digits.len())
                && digits.bytes().all(|b| b.is_ascii_digit())
                && !digits.starts_with('0')
        }
        None => modifier.is_empty() || modifier == "*",
    };
    (modifier_ok && is_varname(name)).then(|| name.to_owned())
}

/// `varname = varchar *( ["."] varchar )`, `varchar = ALPHA / DIGIT / "_" / pct-encoded`.
fn is_varname(name: &str) -> bool {
    let bytes = name.as_bytes();
    let mut i = 0;
    let mut previous_was_dot = true; // a name may not start with a dot
    while i < bytes.len() {
        match bytes[i] {
            b'.' if !previous_was_dot => {
                previous_was_dot = true;
                i += 1;
            }
            b'%' if name.get(i..i + 3).is_some_and(is_pct_encoded) => {
                previous_was_dot = false;
                i += 3;
            }
            b if b.is_ascii_alphanumeric() || b == b'_' => {
                previous_was_dot = false;
                i += 1;
            }
            _ => return false,
        }
    }
    !bytes.is_empty() && !previous_was_dot
}

/// Whether `text` is exactly one percent-escape such as `%2F`.
fn is_pct_encoded(text: &str) -> bool {
    let b = text.as_bytes();
    b.len() == 3 && b[0] == b'%' && b[1].is_ascii_hexdigit() && b[2].is_ascii_hexdigit()
}

/// RFC 6570 `literals`: printable ASCII except space, `"`, `'`, `%`, `<`, `>`, `\`,
/// `^`, `` ` ``, `{`, `|`, `}`, plus any non-ASCII character (a generous reading of
/// `ucschar` / `iprivate`).
fn is_literal_char(ch: char) -> bool {
    if !ch.is_ascii() {
        return !ch.is_control() && !ch.is_whitespace();
    }
    ch.is_ascii_graphic()
        && !matches!(
            ch,
            '"' | '\'' | '%' | '<' | '>' | '\\' | '^' | '`' | '{' | '|' | '}'
        )
}

/// What an expansion with `op` may produce, as a regular expression fragment.
fn expansion_pattern(op: Operator) -> &'static str {
    // Values are unreserved characters and percent-escapes; reserved characters appear
    // only with `+` and `#`, or as the separators each operator inserts.
    match op {
        Operator::Simple => r"(?:[A-Za-z0-9._~,-]|%[0-9A-Fa-f]{2})*",
        Operator::Reserved => r"(?:[A-Za-z0-9._~:/?#\[\]@!$&'()*+,;=-]|%[0-9A-Fa-f]{2})*",
        Operator::Fragment => r"(?:#(?:[A-Za-z0-9._~:/?#\[\]@!$&'()*+,;=-]|%[0-9A-Fa-f]{2})*)?",
        Operator::Label => r"(?:\.(?:[A-Za-z0-9._~,-]|%[0-9A-Fa-f]{2})*)*",
        Operator::Path => r"(?:/(?:[A-Za-z0-9._~,-]|%[0-9A-Fa-f]{2})*)*",
        Operator::PathParameter => r"(?:;(?:[A-Za-z0-9._~,=-]|%[0-9A-Fa-f]{2})*)*",
        Operator::Query => r"(?:\?(?:[A-Za-z0-9._~,=&-]|%[0-9A-Fa-f]{2})*)?",
        Operator::QueryContinuation => r"(?:&(?:[A-Za-z0-9._~,=&-]|%[0-9A-Fa-f]{2})*)?",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_variables_of_every_operator() {
        let t = UriTemplate::parse("repo://{owner}/{+path}{/seg*}{?q,page:3}{&x}{#frag}{.ext}{;p}")
            .unwrap();
        assert_eq!(
            t.variables().collect::<Vec<_>>(),
            ["owner", "path", "seg", "q", "page", "x", "frag", "ext", "p"]
        );
    }

    #[test]
    fn rejects_malformed_templates() {
        for bad in [
            "test://items/{id",
            "repo://{owner/{repository}/issues/{issue}",
            "a}b",
            "x://{}",
            "x://{=a}",
            "x://{a:0}",
            "x://{a:12345}",
            "x://{a..b}",
            "x://{.a.}",
            "x://a b/{c}",
            "x://%zz/{c}",
        ] {
            assert!(UriTemplate::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn level_one() {
        for (template, one) in [
            ("chess://games/{game_id}", true),
            ("repo://{owner}/{repo}", true),
            ("x://fixed", true),
            ("x://{+path}", false),
            ("x://{a,b}", false),
            ("x://{a:3}", false),
            ("x://{a*}", false),
            ("x://{a}{?q}", false),
        ] {
            assert_eq!(
                UriTemplate::parse(template).unwrap().is_level_one(),
                one,
                "{template}"
            );
        }
    }

    #[test]
    fn matches_expansions_only() {
        let t = UriTemplate::parse("chess://games/{game_id}").unwrap();
        let m = t.matcher().unwrap();
        assert!(m.is_match("chess://games/example-1234"));
        assert!(!m.is_match("chess://players/example-1234"));
        assert!(!m.is_match("chess://games/a/b"));

        let q = UriTemplate::parse("search://{+base}{?q,lang}").unwrap();
        let m = q.matcher().unwrap();
        assert!(m.is_match("search://docs/api?q=mcp&lang=en"));
        assert!(m.is_match("search://docs"));
        assert!(!m.is_match("search:/docs"));
        assert!(!m.is_match("search://a b"));
    }
}
