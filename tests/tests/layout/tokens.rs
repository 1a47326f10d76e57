//! Paths inside macro invocations, which `syn` leaves as tokens (`format!`, `vec!`,
//! `assert_eq!`, `macro_rules!` bodies with `$crate::`).

use proc_macro2::{Delimiter, Spacing, TokenStream, TokenTree};

/// Macros whose body is generated code, not code of this crate: paths in it do not
/// count. (`parse_quote_spanned!` is `parse_quote!` with a span.)
pub const GENERATED_CODE_MACROS: [&str; 4] = [
    "quote",
    "quote_spanned",
    "parse_quote",
    "parse_quote_spanned",
];

/// Whether a macro's path names one of [`GENERATED_CODE_MACROS`].
pub fn is_generated_code(path: &syn::Path) -> bool {
    path.segments
        .last()
        .is_some_and(|last| GENERATED_CODE_MACROS.iter().any(|name| last.ident == name))
}

/// A path found in tokens.
#[derive(Debug, PartialEq)]
pub struct TokenPath {
    /// Its segments; `$crate` is one.
    pub segments: Vec<String>,
    /// Whether more follows as a `use` tree would (`::{...}` or `::*`): then every
    /// segment is a module's.
    pub continues: bool,
    /// The line of its first segment.
    pub line: usize,
}

/// The paths of two or more segments in `tokens` (a lone identifier is not a path of
/// anything), nested groups included and the bodies of generated-code macros excluded.
pub fn paths(tokens: TokenStream) -> Vec<TokenPath> {
    let mut found = Vec::new();
    scan(tokens, &mut found);
    found
}

fn scan(tokens: TokenStream, found: &mut Vec<TokenPath>) {
    let trees: Vec<TokenTree> = tokens.into_iter().collect();
    let mut i = 0;
    while i < trees.len() {
        let start = i;
        let mut segments = Vec::new();
        match &trees[i] {
            TokenTree::Group(group) => {
                scan(group.stream(), found);
                i += 1;
                continue;
            }
            TokenTree::Punct(punct)
                if punct.as_char() == '$'
                    && matches!(trees.get(i + 1), Some(TokenTree::Ident(id)) if id == "crate") =>
            {
                segments.push("$crate".to_owned());
                i += 2;
            }
            TokenTree::Ident(ident) if !after_metavariable_or_lifetime(&trees, i) => {
                segments.push(ident.to_string());
                i += 1;
            }
            _ => {
                i += 1;
                continue;
            }
        }
        while is_path_separator(&trees, i) {
            match trees.get(i + 2) {
                Some(TokenTree::Ident(ident)) => {
                    segments.push(ident.to_string());
                    i += 3;
                }
                _ => break,
            }
        }
        let continues = is_path_separator(&trees, i)
            && match trees.get(i + 2) {
                Some(TokenTree::Group(group)) => group.delimiter() == Delimiter::Brace,
                Some(TokenTree::Punct(punct)) => punct.as_char() == '*',
                _ => false,
            };
        let generated = is_punct(trees.get(i), '!')
            && matches!(trees.get(i + 1), Some(TokenTree::Group(_)))
            && segments
                .last()
                .is_some_and(|last| GENERATED_CODE_MACROS.contains(&last.as_str()));
        let inside_longer_path = start >= 2 && is_path_separator(&trees, start - 2);
        if !inside_longer_path && (segments.len() >= 2 || continues) {
            found.push(TokenPath {
                segments,
                continues,
                line: trees[start].span().start().line,
            });
        }
        if generated {
            i += 2;
        }
    }
}

/// Whether `trees[i]`, an identifier, is the name of a `$metavariable` or a `'lifetime`.
fn after_metavariable_or_lifetime(trees: &[TokenTree], i: usize) -> bool {
    i >= 1 && (is_punct(trees.get(i - 1), '$') || is_punct(trees.get(i - 1), '\''))
}

/// Whether `::` starts at `trees[i]`.
fn is_path_separator(trees: &[TokenTree], i: usize) -> bool {
    matches!(trees.get(i), Some(TokenTree::Punct(p)) if p.as_char() == ':' && p.spacing() == Spacing::Joint)
        && is_punct(trees.get(i + 1), ':')
}

fn is_punct(tree: Option<&TokenTree>, c: char) -> bool {
    matches!(tree, Some(TokenTree::Punct(punct)) if punct.as_char() == c)
}
