//! RFC 6570 URI Templates at run time: whether a `resources/read` URI is an expansion
//! of a resource template, and the values of the template's variables.
//!
//! # Levels
//!
//! RFC 6570 defines four levels. **Level 1** is simple string expansion only: every
//! expression is `{name}`, one variable, no operator and no modifier
//! (`chess://games/{game_id}`, `repo://{owner}/{repo}`). For such a template each
//! variable gets its own value: the text its expression matched, percent-decoded. A
//! variable matches any run of characters other than `/`, `?` and `#` (the RFC
//! encodes every reserved character of a value, so a value never contains those three;
//! other unencoded characters are accepted, as most clients send them).
//!
//! A template **beyond level 1** (operators such as `{+path}`, `{?q,lang}`, lists or
//! modifiers) cannot in general be matched back into separate values without ambiguity.
//! Its variables are given as **one raw string**: the part of the URI from the first
//! expression to the end of the last one, that is the URI without the template's
//! leading and trailing literal text, not decoded (`search://{+base}{?q}` and
//! `search://docs/api?q=mcp` give `docs/api?q=mcp`). The generator warns about such a
//! template and types its variables as `String`.
//!
//! Matching is one regular expression per template, built from the parsed parts, so it
//! is linear in the length of the URI. Literal text must match exactly.

use regex::Regex;
use serde_json::{Map, Value};

/// The operator of one `{...}` expression (RFC 6570 §2.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Operator {
    Simple,
    Reserved,
    Fragment,
    Label,
    Path,
    PathParameter,
    Query,
    QueryContinuation,
}

/// One piece of a parsed template.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Part {
    /// Literal text.
    Literal(String),
    /// An expression: its operator, and its variables with whether each has a modifier
    /// (`:n` or `*`).
    Expression(Operator, Vec<(String, bool)>),
}

/// A parsed RFC 6570 URI Template and its matcher.
///
/// ```
/// use mcpdesc::UriTemplate;
/// use serde_json::json;
///
/// let t = UriTemplate::parse("repo://{owner}/{repo}").unwrap();
/// assert!(t.is_level_one());
/// assert_eq!(t.match_uri("repo://ada/engine%20room"), Some(Ok(json!({"owner": "ada", "repo": "engine room"}))));
/// assert_eq!(t.match_uri("repo://ada"), None);
///
/// let q = UriTemplate::parse("search://{+base}{?q}").unwrap();
/// assert!(!q.is_level_one());
/// assert_eq!(q.match_uri("search://docs/api?q=mcp"), Some(Ok(json!("docs/api?q=mcp"))));
/// ```
#[derive(Debug, Clone)]
pub struct UriTemplate {
    text: String,
    level_one: bool,
    /// Each distinct variable name, in order of first appearance.
    variables: Vec<String>,
    /// Level 1: the variable each capture group `v{i}` holds, in group order.
    captures: Vec<String>,
    matcher: Regex,
    /// The parsed template, for [`UriTemplate::expand`].
    parts: Vec<Part>,
}

impl UriTemplate {
    /// Parses `text`, or explains the first syntax error.
    pub fn parse(text: &str) -> Result<UriTemplate, String> {
        let parts = parse_parts(text)?;
        let level_one = parts.iter().all(|p| match p {
            Part::Literal(_) => true,
            Part::Expression(op, vars) => *op == Operator::Simple && vars.len() == 1 && !vars[0].1,
        });
        let mut variables: Vec<String> = Vec::new();
        for part in &parts {
            if let Part::Expression(_, vars) = part {
                for (name, _) in vars {
                    if !variables.contains(name) {
                        variables.push(name.clone());
                    }
                }
            }
        }
        let mut pattern = String::from("^");
        let mut captures = Vec::new();
        if level_one {
            for part in &parts {
                match part {
                    Part::Literal(lit) => pattern.push_str(&regex::escape(lit)),
                    Part::Expression(_, vars) => {
                        pattern.push_str(&format!("(?P<v{}>[^/?#]*)", captures.len()));
                        captures.push(vars[0].0.clone());
                    }
                }
            }
        } else {
            let first = parts.iter().position(|p| matches!(p, Part::Expression(..)));
            let last = parts
                .iter()
                .rposition(|p| matches!(p, Part::Expression(..)));
            for (i, part) in parts.iter().enumerate() {
                if Some(i) == first {
                    pattern.push_str("(?P<raw>");
                }
                match part {
                    Part::Literal(lit) => pattern.push_str(&regex::escape(lit)),
                    Part::Expression(op, _) => pattern.push_str(expansion_pattern(*op)),
                }
                if Some(i) == last {
                    pattern.push(')');
                }
            }
        }
        pattern.push('$');
        let matcher = Regex::new(&pattern)
            .map_err(|e| format!("the template cannot be compiled into a matcher: {e}"))?;
        Ok(UriTemplate {
            text: text.to_owned(),
            level_one,
            variables,
            captures,
            matcher,
            parts,
        })
    }

    /// The template text.
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// Whether every expression is a level-1 `{name}` (see the module docs).
    pub fn is_level_one(&self) -> bool {
        self.level_one
    }

    /// The distinct variable names, in order of first appearance.
    pub fn variables(&self) -> &[String] {
        &self.variables
    }

    /// Expands a level-1 template with the values of its variables (RFC 6570 simple
    /// string expansion: every character of a value other than an unreserved one,
    /// `A-Z a-z 0-9 - . _ ~`, is percent-encoded as UTF-8). A value may be a string,
    /// number or boolean; a variable without a value (missing or `null`) expands to
    /// nothing, as the RFC says. A template beyond level 1 is refused: the caller
    /// gives the URI itself.
    ///
    /// ```
    /// use mcpdesc::UriTemplate;
    /// use serde_json::json;
    ///
    /// let t = UriTemplate::parse("repo://{owner}/{repo}").unwrap();
    /// let vars = json!({"owner": "ada", "repo": "engine room"});
    /// assert_eq!(t.expand(vars.as_object().unwrap()).unwrap(), "repo://ada/engine%20room");
    /// ```
    pub fn expand(&self, variables: &Map<String, Value>) -> Result<String, String> {
        if !self.level_one {
            return Err(format!(
                "`{}` goes beyond RFC 6570 level 1; give the URI to read instead of its variables",
                self.text
            ));
        }
        let mut uri = String::with_capacity(self.text.len());
        for part in &self.parts {
            match part {
                Part::Literal(text) => uri.push_str(text),
                Part::Expression(_, vars) => {
                    let name = &vars[0].0;
                    let value = match variables.get(name) {
                        None | Some(Value::Null) => String::new(),
                        Some(Value::String(text)) => text.clone(),
                        Some(value @ (Value::Number(_) | Value::Bool(_))) => value.to_string(),
                        Some(_) => {
                            return Err(format!(
                                "the value of `{name}` is not a string, number or boolean"
                            ))
                        }
                    };
                    for byte in value.bytes() {
                        if byte.is_ascii_alphanumeric() || b"-._~".contains(&byte) {
                            uri.push(byte as char);
                        } else {
                            uri.push_str(&format!("%{byte:02X}"));
                        }
                    }
                }
            }
        }
        Ok(uri)
    }

    /// Matches `uri` against the template.
    ///
    /// - `None`: `uri` is not an expansion of the template.
    /// - `Some(Ok(variables))`: for a level-1 template a JSON object of the variables'
    ///   decoded values (strings); beyond level 1 the raw string of the module docs.
    /// - `Some(Err(why))`: the URI has the template's shape but a value is malformed (a
    ///   `%` not followed by two hex digits, percent-escapes that are not UTF-8, or a
    ///   variable used twice with two different values).
    pub fn match_uri(&self, uri: &str) -> Option<Result<Value, String>> {
        let found = self.matcher.captures(uri)?;
        if !self.level_one {
            let raw = found.name("raw").map_or("", |m| m.as_str());
            return Some(Ok(Value::String(raw.to_owned())));
        }
        let mut values = Map::new();
        for (i, name) in self.captures.iter().enumerate() {
            let text = found.name(&format!("v{i}")).map_or("", |m| m.as_str());
            let decoded = match decode(text) {
                Ok(decoded) => decoded,
                Err(why) => {
                    return Some(Err(format!(
                        "the value {text:?} of the variable `{name}` {why}"
                    )))
                }
            };
            match values.get(name) {
                Some(Value::String(earlier)) if *earlier != decoded => {
                    return Some(Err(format!(
                        "the variable `{name}` appears twice with two values, {earlier:?} and {decoded:?}"
                    )));
                }
                _ => {
                    values.insert(name.clone(), Value::String(decoded));
                }
            }
        }
        Some(Ok(Value::Object(values)))
    }
}

/// Percent-decodes a level-1 value; `%` must start a two-hex-digit escape and the bytes
/// must be UTF-8.
fn decode(text: &str) -> Result<String, String> {
    let bytes = text.as_bytes();
    for (i, b) in bytes.iter().enumerate() {
        if *b == b'%' {
            let escape = bytes.get(i + 1..i + 3);
            if !escape.is_some_and(|e| e.iter().all(u8::is_ascii_hexdigit)) {
                return Err("has a `%` that is not followed by two hex digits".to_owned());
            }
        }
    }
    percent_encoding::percent_decode_str(text)
        .decode_utf8()
        .map(|s| s.into_owned())
        .map_err(|_| "has percent-escapes that are not UTF-8".to_owned())
}

/// Splits a template into literal text and expressions.
fn parse_parts(text: &str) -> Result<Vec<Part>, String> {
    let mut parts = Vec::new();
    let mut literal = String::new();
    let mut rest = text;
    while let Some(ch) = rest.chars().next() {
        match ch {
            '{' => {
                let Some(end) = rest.find('}') else {
                    return Err(format!("the expression starting at {rest:?} is not closed"));
                };
                if !literal.is_empty() {
                    parts.push(Part::Literal(std::mem::take(&mut literal)));
                }
                parts.push(parse_expression(&rest[1..end])?);
                rest = &rest[end + 1..];
            }
            '}' => return Err("a `}` appears outside an expression".to_owned()),
            _ => {
                literal.push(ch);
                rest = &rest[ch.len_utf8()..];
            }
        }
    }
    if !literal.is_empty() {
        parts.push(Part::Literal(literal));
    }
    Ok(parts)
}

/// Parses the text between `{` and `}`.
fn parse_expression(body: &str) -> Result<Part, String> {
    let (operator, list) = match body.chars().next() {
        Some('+') => (Operator::Reserved, &body[1..]),
        Some('#') => (Operator::Fragment, &body[1..]),
        Some('.') => (Operator::Label, &body[1..]),
        Some('/') => (Operator::Path, &body[1..]),
        Some(';') => (Operator::PathParameter, &body[1..]),
        Some('?') => (Operator::Query, &body[1..]),
        Some('&') => (Operator::QueryContinuation, &body[1..]),
        Some(op @ ('=' | ',' | '!' | '@' | '|')) => {
            return Err(format!(
                "the expression {{{body}}} uses the operator {op:?}, which RFC 6570 reserves"
            ))
        }
        _ => (Operator::Simple, body),
    };
    let mut vars = Vec::new();
    for varspec in list.split(',') {
        let (name, modifier) = match varspec.find([':', '*']) {
            Some(at) => varspec.split_at(at),
            None => (varspec, ""),
        };
        let valid_name = !name.is_empty()
            && !name.starts_with('.')
            && !name.ends_with('.')
            && !name.contains("..")
            && name
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'.' || b == b'%');
        if !valid_name {
            return Err(format!(
                "the expression {{{body}}} has an invalid variable name {name:?}"
            ));
        }
        vars.push((name.to_owned(), !modifier.is_empty()));
    }
    Ok(Part::Expression(operator, vars))
}

/// What an expansion with `op` may produce (generous: any value, any separators).
fn expansion_pattern(op: Operator) -> &'static str {
    match op {
        Operator::Simple => r"[^/?#]*",
        Operator::Reserved => r".*?",
        Operator::Fragment => r"(?:#.*)?",
        Operator::Label => r"(?:\.[^/?#]*)*",
        Operator::Path => r"(?:/[^?#]*)*?",
        Operator::PathParameter => r"(?:;[^/?#]*)*",
        Operator::Query => r"(?:\?[^#]*)?",
        Operator::QueryContinuation => r"(?:&[^#]*)?",
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn level_one_variables_are_decoded() {
        let t = UriTemplate::parse("chess://games/{game_id}").unwrap();
        assert_eq!(t.variables(), ["game_id"]);
        assert_eq!(
            t.match_uri("chess://games/example-1234"),
            Some(Ok(json!({"game_id": "example-1234"})))
        );
        assert_eq!(
            t.match_uri("chess://games/caf%C3%A9"),
            Some(Ok(json!({"game_id": "café"})))
        );
        assert_eq!(t.match_uri("chess://players/1"), None);
        assert_eq!(t.match_uri("chess://games/a/b"), None);
        // An empty value is an expansion of an empty (or undefined) variable.
        assert_eq!(
            t.match_uri("chess://games/"),
            Some(Ok(json!({"game_id": ""})))
        );
    }

    #[test]
    fn malformed_values_are_errors() {
        let t = UriTemplate::parse("x://{a}").unwrap();
        assert!(t.match_uri("x://%zz").unwrap().is_err());
        assert!(t.match_uri("x://%4").unwrap().is_err());
        assert!(t.match_uri("x://%FF").unwrap().is_err());
        let twice = UriTemplate::parse("x://{a}/{a}").unwrap();
        assert_eq!(twice.match_uri("x://1/1"), Some(Ok(json!({"a": "1"}))));
        let err = twice.match_uri("x://1/2").unwrap().unwrap_err();
        assert!(err.contains("appears twice"), "{err}");
    }

    #[test]
    fn literals_are_exact() {
        let t = UriTemplate::parse("repo://{owner}/{repo}/issues/{n}").unwrap();
        assert_eq!(
            t.match_uri("repo://a/b/issues/12"),
            Some(Ok(json!({"owner": "a", "repo": "b", "n": "12"})))
        );
        assert_eq!(t.match_uri("repo://a/b/pulls/12"), None);
        assert_eq!(t.match_uri("repo://a/b/issues/12?x"), None);
        let dotted = UriTemplate::parse("x://{name}.{ext}").unwrap();
        assert_eq!(
            dotted.match_uri("x://a.b.c"),
            Some(Ok(json!({"name": "a.b", "ext": "c"})))
        );
    }

    #[test]
    fn beyond_level_one_gives_the_raw_string() {
        for (template, uri, raw) in [
            (
                "search://{+base}{?q,lang}",
                "search://docs/api?q=mcp&lang=en",
                "docs/api?q=mcp&lang=en",
            ),
            ("search://{+base}{?q,lang}", "search://docs", "docs"),
            ("file://{/path*}.txt", "file:///a/b.txt", "/a/b"),
            ("x://{a,b}/end", "x://1,2/end", "1,2"),
            ("x://{a:3}", "x://abc", "abc"),
        ] {
            let t = UriTemplate::parse(template).unwrap();
            assert!(!t.is_level_one(), "{template}");
            assert_eq!(t.match_uri(uri), Some(Ok(json!(raw))), "{template} {uri}");
        }
        let t = UriTemplate::parse("search://{+base}{?q}").unwrap();
        assert_eq!(t.match_uri("find://docs"), None);
        assert_eq!(t.variables(), ["base", "q"]);
    }

    #[test]
    fn a_template_without_expressions_matches_itself() {
        let t = UriTemplate::parse("x://fixed").unwrap();
        assert!(t.is_level_one());
        assert_eq!(t.match_uri("x://fixed"), Some(Ok(json!({}))));
        assert_eq!(t.match_uri("x://other"), None);
    }

    #[test]
    fn syntax_errors() {
        for bad in ["x://{a", "x://a}", "x://{}", "x://{=a}", "x://{a..b}"] {
            assert!(UriTemplate::parse(bad).is_err(), "{bad}");
        }
    }
}
