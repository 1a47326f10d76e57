//! `WWW-Authenticate` challenges (RFC 9110 §11.6.1, RFC 6750 §3): what a server that
//! refused a request with `401` or `403` asks for.
//!
//! ```
//! use mcpdesc::client::Challenge;
//!
//! let header = r#"Bearer realm="mcp", error="insufficient_scope", scope="notes:write notes:read", resource_metadata="http://127.0.0.1:1/.well-known/oauth-protected-resource/mcp""#;
//! let challenges = Challenge::parse_all(header);
//! assert_eq!(challenges.len(), 1);
//! let bearer = &challenges[0];
//! assert_eq!(bearer.scheme, "Bearer");
//! assert_eq!(bearer.param("error"), Some("insufficient_scope"));
//! assert_eq!(bearer.scopes(), ["notes:write", "notes:read"]);
//! assert!(bearer.param("resource_metadata").unwrap().ends_with("/mcp"));
//! ```

use std::fmt;

/// One challenge: an authentication scheme and its parameters, in header order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Challenge {
    /// The scheme as the server wrote it (`Bearer`, `Basic`, `ApiKey`, ...).
    pub scheme: String,
    /// The `name=value` parameters (names lowercased, quoted values unescaped).
    pub params: Vec<(String, String)>,
}

impl Challenge {
    /// The value of parameter `name` (case-insensitive).
    pub fn param(&self, name: &str) -> Option<&str> {
        self.params
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// The scopes of the `scope` parameter (space-separated, RFC 6750 §3).
    pub fn scopes(&self) -> Vec<String> {
        self.param("scope")
            .map(|s| s.split_whitespace().map(str::to_owned).collect())
            .unwrap_or_default()
    }

    /// Every challenge of a `WWW-Authenticate` value: `Scheme k=v, k="v", Other k=v`.
    /// What does not parse is skipped rather than refused: the challenges are advice
    /// for the error message, never a reason to fail.
    pub fn parse_all(header: &str) -> Vec<Challenge> {
        let mut out: Vec<Challenge> = Vec::new();
        let mut rest = header.trim();
        while !rest.is_empty() {
            rest = rest.trim_start_matches([',', ' ', '\t']);
            let token_end = rest
                .find(|c: char| c == '=' || c == ',' || c.is_whitespace())
                .unwrap_or(rest.len());
            let (token, after) = rest.split_at(token_end);
            if token.is_empty() {
                break;
            }
            let after_ws = after.trim_start();
            if let Some(value_text) = after_ws.strip_prefix('=') {
                // `name=value` of the current challenge (or a token68 `abc==`).
                let (value, remaining) = parse_value(value_text.trim_start());
                match out.last_mut() {
                    Some(challenge) => challenge.params.push((token.to_ascii_lowercase(), value)),
                    None => break,
                }
                rest = remaining;
            } else {
                out.push(Challenge {
                    scheme: token.to_owned(),
                    params: Vec::new(),
                });
                rest = after;
            }
        }
        out
    }
}

/// A parameter value (a quoted string with `\` escapes, or a token) and the rest.
fn parse_value(text: &str) -> (String, &str) {
    if let Some(quoted) = text.strip_prefix('"') {
        let mut value = String::new();
        let mut chars = quoted.char_indices();
        while let Some((i, c)) = chars.next() {
            match c {
                '\\' => {
                    if let Some((_, escaped)) = chars.next() {
                        value.push(escaped);
                    }
                }
                '"' => return (value, &quoted[i + 1..]),
                c => value.push(c),
            }
        }
        (value, "")
    } else {
        let end = text
            .find(|c: char| c == ',' || c.is_whitespace())
            .unwrap_or(text.len());
        (text[..end].to_owned(), &text[end..])
    }
}

impl fmt::Display for Challenge {
    /// `Bearer error="insufficient_scope", scope="a b"`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.scheme)?;
        for (i, (name, value)) in self.params.iter().enumerate() {
            let sep = if i == 0 { " " } else { ", " };
            write!(f, "{sep}{name}=\"{}\"", value.replace('"', "\\\""))?;
        }
        Ok(())
    }
}

/// A `401` or `403` answer to an HTTP request, as the transport saw it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct AuthRefusal {
    /// `401` or `403`.
    pub(crate) status: u16,
    /// The challenges of its `WWW-Authenticate` header.
    pub(crate) challenges: Vec<Challenge>,
}

impl AuthRefusal {
    /// The scopes the challenges ask for, in order, without repeats.
    pub(crate) fn scopes(&self) -> Vec<String> {
        let mut scopes: Vec<String> = Vec::new();
        for scope in self.challenges.iter().flat_map(Challenge::scopes) {
            if !scopes.contains(&scope) {
                scopes.push(scope);
            }
        }
        scopes
    }
}

/// `; the server asks for: Bearer ..., Basic ...` when there are challenges.
pub(crate) fn challenges_note(challenges: &[Challenge]) -> String {
    if challenges.is_empty() {
        return String::new();
    }
    let list: Vec<String> = challenges.iter().map(Challenge::to_string).collect();
    format!(" (WWW-Authenticate: {})", list.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn several_challenges_tokens_and_escapes() {
        let all = Challenge::parse_all(
            r#"Bearer error="invalid_token", error_description="bad \"one\"", Basic realm=mcp, ApiKey"#,
        );
        let schemes: Vec<&str> = all.iter().map(|c| c.scheme.as_str()).collect();
        assert_eq!(schemes, ["Bearer", "Basic", "ApiKey"]);
        assert_eq!(all[0].param("ERROR_description"), Some("bad \"one\""));
        assert_eq!(all[1].param("realm"), Some("mcp"));
        assert!(all[2].params.is_empty());
        assert!(Challenge::parse_all("").is_empty());
        assert!(Challenge::parse_all("=x").is_empty());
        let refusal = AuthRefusal {
            status: 403,
            challenges: Challenge::parse_all(r#"Bearer scope="a b", Bearer scope="b c""#),
        };
        assert_eq!(refusal.scopes(), ["a", "b", "c"]);
    }
}
