//! Spelling a declared name as a Rust identifier: transliteration, word splitting,
//! UpperCamelCase and snake_case (rules 1–6), and typify's own spelling of fields and
//! variants (rule 8).

use heck::{ToPascalCase, ToSnakeCase};

use super::reserved::is_keyword;

/// Rule 1: an ASCII-only spelling of `name`.
///
/// ```
/// use mcpdesc_codegen::generate::naming::transliterate;
/// assert_eq!(transliterate("café"), "cafe");
/// assert_eq!(transliterate("Straße"), "Strasse");
/// assert_eq!(transliterate("天気"), "_u5929__u6c17_");
/// ```
pub fn transliterate(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for c in name.chars() {
        if c.is_ascii() {
            out.push(c);
        } else if let Some(ascii) = latin1_letter(c) {
            out.push_str(ascii);
        } else {
            out.push_str(&format!("_u{:04x}_", c as u32));
        }
    }
    out
}

/// The ASCII spelling of a Latin-1 letter, `None` for anything else.
fn latin1_letter(c: char) -> Option<&'static str> {
    Some(match c {
        'À'..='Å' => "A",
        'Æ' => "AE",
        'Ç' => "C",
        'È'..='Ë' => "E",
        'Ì'..='Ï' => "I",
        'Ð' => "D",
        'Ñ' => "N",
        'Ò'..='Ö' | 'Ø' => "O",
        'Ù'..='Ü' => "U",
        'Ý' => "Y",
        'Þ' => "TH",
        'ß' => "ss",
        'à'..='å' => "a",
        'æ' => "ae",
        'ç' => "c",
        'è'..='ë' => "e",
        'ì'..='ï' => "i",
        'ð' => "d",
        'ñ' => "n",
        'ò'..='ö' | 'ø' => "o",
        'ù'..='ü' => "u",
        'ý' | 'ÿ' => "y",
        'þ' => "th",
        _ => return None,
    })
}

/// Applies a case conversion until the result no longer changes, so that converting the
/// result again (as typify does with every type name) is a no-op.
pub(super) fn fixpoint(mut text: String, convert: impl Fn(&str) -> String) -> String {
    // heck's conversions settle after at most two rounds; the bound only guards against
    // a future change of that behaviour.
    for _ in 0..4 {
        let next = convert(&text);
        if next == text {
            break;
        }
        text = next;
    }
    text
}

/// Rules 1–4 in UpperCamelCase: a valid, non-keyword-checked type-like name.
pub(super) fn camel_words(name: &str) -> String {
    let cased = fixpoint(transliterate(name), |s| s.to_pascal_case());
    match cased.chars().next() {
        None => "Tool".to_owned(),
        Some(c) if c.is_ascii_digit() => fixpoint(format!("Tool{cased}"), |s| s.to_pascal_case()),
        Some(_) => cased,
    }
}

/// Rules 1–5 in UpperCamelCase, for traits.
///
/// ```
/// use mcpdesc_codegen::generate::naming::upper_camel;
/// assert_eq!(upper_camel("analyze_game"), "AnalyzeGame");
/// assert_eq!(upper_camel("files/read.v2"), "FilesReadV2");
/// assert_eq!(upper_camel("3d-view"), "Tool3dView");
/// assert_eq!(upper_camel("Self"), "Self_");
/// ```
pub fn upper_camel(name: &str) -> String {
    let camel = camel_words(name);
    if is_keyword(&camel) {
        format!("{camel}_")
    } else {
        camel
    }
}

/// Rules 1–5 in snake_case, for methods and other value-level names.
///
/// ```
/// use mcpdesc_codegen::generate::naming::snake_case;
/// assert_eq!(snake_case("getPlayerRating"), "get_player_rating");
/// assert_eq!(snake_case("3d-view"), "tool_3d_view");
/// assert_eq!(snake_case("type"), "type_");
/// ```
pub fn snake_case(name: &str) -> String {
    let cased = fixpoint(transliterate(name), |s| s.to_snake_case());
    let cased = match cased.chars().next() {
        None => "tool".to_owned(),
        Some(c) if c.is_ascii_digit() => format!("tool_{cased}"),
        Some(_) => cased,
    };
    if is_keyword(&cased) {
        format!("{cased}_")
    } else {
        cased
    }
}

/// A type name built from words (rule 6): `type_name("AnalyzeGame", "Input")`.
///
/// The result is stable under typify's own case conversion.
pub fn type_name(base: &str, suffix: &str) -> String {
    fixpoint(format!("{base}{suffix}"), |s| s.to_pascal_case())
}

/// The two cases typify writes names in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Case {
    /// Field names.
    Snake,
    /// Type and variant names.
    Pascal,
}

/// The name typify 0.8 derives from a JSON name (its `sanitize`): `'` removed, every
/// character that cannot continue an identifier a word break, the case applied, an `x`
/// / `X` before a name that cannot start an identifier (or is empty), and `_` after a
/// keyword. `+1` and `-1` are `plus1` and `minus1`.
///
/// ```
/// use mcpdesc_codegen::generate::naming::{typify_sanitize, Case};
/// assert_eq!(typify_sanitize("a-b", Case::Snake), "a_b");
/// assert_eq!(typify_sanitize("", Case::Snake), "x");
/// assert_eq!(typify_sanitize("type", Case::Snake), "type_");
/// assert_eq!(typify_sanitize("reactions-+1", Case::Pascal), "Reactions1");
/// ```
pub fn typify_sanitize(input: &str, case: Case) -> String {
    let to_case = |s: &str| match case {
        Case::Snake => s.to_snake_case(),
        Case::Pascal => s.to_pascal_case(),
    };
    let out = match input {
        "+1" => "plus1".to_owned(),
        "-1" => "minus1".to_owned(),
        _ => {
            let cleaned: String = input
                .replace('\'', "")
                .chars()
                .map(|c| {
                    if unicode_ident::is_xid_continue(c) {
                        c
                    } else {
                        '-'
                    }
                })
                .collect();
            to_case(&cleaned)
        }
    };
    let out = match out.chars().next() {
        None => to_case("x"),
        Some(c) if unicode_ident::is_xid_start(c) => out,
        Some(_) => format!("{}{out}", to_case("x")),
    };
    if is_keyword(&out) {
        format!("{out}_")
    } else {
        out
    }
}

/// Whether typify accepts `ident` as it is (not a keyword, `gen` included).
pub(super) fn accept_as_ident(ident: &str) -> bool {
    !is_keyword(ident) && syn::parse_str::<syn::Ident>(ident).is_ok()
}
