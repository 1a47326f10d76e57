//! Rust names for tools and generated types. Deterministic: the same declared names, in
//! the same order, always give the same Rust names.
//!
//! # Rules
//!
//! 1. **Transliteration.** Non-ASCII characters are made ASCII first: the Latin-1 letters
//!    lose their diacritics (`é` → `e`, `ß` → `ss`, `Æ` → `AE`, `ø` → `o`), and any other
//!    character becomes its code point as a separate word, `u` followed by at least four
//!    lowercase hex digits (`天` → `u5929`).
//! 2. **Words.** Every character other than an ASCII letter or digit (`-`, `.`, `/`,
//!    space, `_`, ...) separates words; so do case changes (`getUser` is `get`, `user`).
//!    This is [`heck`]'s segmentation, the one `typify` applies to type names, so a name
//!    chosen here survives `typify` unchanged.
//! 3. **Case.** UpperCamelCase for traits and types (`analyze_game` → `AnalyzeGame`),
//!    snake_case for methods (`analyze-game` → `analyze_game`).
//! 4. **Leading digit or nothing left.** A name that starts with a digit is prefixed with
//!    `Tool` / `tool_` (`3d-view` → `Tool3dView`, `tool_3d_view`); a name with no letter
//!    or digit at all becomes `Tool` / `tool`.
//! 5. **Keywords.** A name that is a Rust keyword gets a trailing underscore (`type` →
//!    `type_`, `Self` → `Self_`). Raw identifiers are not used: `r#Self`, `r#self` and
//!    `r#crate` do not exist, and one rule for every keyword is easier to predict.
//! 6. **Types.** The input and output types of a tool are `{Tool}Input` and
//!    `{Tool}Output`, built from the UpperCamelCase name before rule 5 (`Self` →
//!    `SelfInput`).
//! 7. **Collisions.** Tools are named in declaration order. A tool whose trait, method or
//!    type names are already taken (by an earlier tool, or by a name the generated module
//!    reserves, such as the `Server` trait) gets the smallest numeric suffix from 2 up that
//!    makes all of them free: `get-user` and `get_user` become `GetUser` / `get_user` and
//!    `GetUser2` / `get_user_2`, with types `GetUser2Input`, `GetUser2Output`.
//!    The method names also avoid [`RESERVED_METHODS`] (the typed client's own methods)
//!    and each other's `{method}_with_content` ([`ToolNames::content_method`], claimed
//!    for every tool), because the typed `Client` has them all in one `impl`.
//!    Other generated types (shared component schemas, hoisted `$defs`, prompt
//!    `{Prompt}Arguments`, template `{Template}Variables`, and the types typify derives
//!    itself, see [`super::typespace::build`]) go through the one [`NameAllocator`] of the
//!    module, which applies the same suffix rule. The search for a free suffix resumes
//!    where the last one for the same base stopped (`NextSuffix`), so `n` names that
//!    all collide cost O(n) checks. Reserved are every name the
//!    generated code uses without a path ([`RESERVED_TRAITS`]: `T`, `S`, `Send`, `Sync`,
//!    prelude names), the client's methods and the generated modules
//!    ([`RESERVED_METHODS`]), and the prelude types ([`RESERVED_TYPES`]). The content
//!    method of a keyword tool is built without the keyword underscore
//!    (`type_with_content`, never `type__with_content`).
//! 8. **Fields and variants.** typify names fields and variants itself
//!    ([`typify_sanitize`]). Where two properties of one object (or two string values of
//!    one enum) would get the same Rust name, or a property name has no letter or digit
//!    (its type would be named like its parent), the schema preparation hands typify a
//!    *placeholder* for it ([`NameAllocator::property_keys`],
//!    [`NameAllocator::enum_values`]): the wanted Rust name followed by private-use marker
//!    characters (a marker the description's text does not contain), which typify drops
//!    from the name but writes as the serde name; the
//!    final token pass ([`super::escape`]) puts the JSON name back everywhere. A property
//!    whose JSON name already is its field name keeps it; the others take, in declaration
//!    order, the smallest free `{field}_{n}` from 2 up (`a-b` beside `a_b` → `a_b_2`).
//!    Enum values that collide are spelled with `+` as `plus` and a sign `-` as `minus`
//!    before the same suffix rule (`reactions-+1` → `ReactionsPlus1`, `ok` beside `Ok` →
//!    `Ok2`).

use std::collections::{BTreeMap, BTreeSet, HashMap};

use heck::{ToPascalCase, ToSnakeCase};

use super::escape::Placeholders;

/// Trait names the generated module keeps for itself, all in the module root's type
/// namespace: the umbrella server trait, the example mock, the typed client, the
/// authenticator trait and the umbrella of handler traits of a description with
/// security requirements (reserved whether or not it has any, so that adding security
/// to a description renames nothing).
///
/// Also the names the generated code uses without a path beside the traits: the generic
/// parameters `T` and `S` of the blanket impls and `router`, the marker traits of the
/// bounds (`Send`, `Sync`, `Sized`, `Unpin`), and the prelude names a trait bound or
/// signature may spell (`Result`, `Option`, `Future`, `Box`, `Vec`, `String`, ...): a
/// trait with one of these names would shadow it (`send` → `Send` breaks
/// `Server: Send + Sync`).
pub const RESERVED_TRAITS: [&str; 27] = [
    "Server",
    "ExampleServer",
    "Client",
    "Authenticator",
    "Handlers",
    "T",
    "S",
    "Send",
    "Sync",
    "Sized",
    "Unpin",
    "Future",
    "Result",
    "Option",
    "Box",
    "Vec",
    "String",
    "Ok",
    "Err",
    "Some",
    "None",
    "Clone",
    "Copy",
    "Default",
    "Debug",
    "Fn",
    "Drop",
];

/// Method names a tool's method must not take: the inherent methods of the generated
/// `Client` (`Client::new(session)`, `session()`, `validate_inputs(bool)`), which share
/// one `impl` block with a method per tool. `new` also keeps a tool from shadowing
/// `ExampleServer::new`.
///
/// Also the generated modules a tool's or primitive's module sits in (`tools::{method}`,
/// `examples::{method}`, `prompts::{snake}`, ...): a module named like its parent trips
/// clippy's `module_inception`.
pub const RESERVED_METHODS: [&str; 14] = [
    "new",
    "session",
    "validate_inputs",
    "tools",
    "examples",
    "prompts",
    "resources",
    "resource_templates",
    "prompt_examples",
    "resource_examples",
    "resource_template_examples",
    "types",
    "info",
    "error",
];

/// Type names a generated type must not take: the prelude names that typify's output
/// uses without a path, which a type of the same name would shadow.
pub const RESERVED_TYPES: [&str; 22] = [
    "Box",
    "Clone",
    "Copy",
    "Default",
    "Drop",
    "Eq",
    "Err",
    "Fn",
    "From",
    "Into",
    "Iterator",
    "None",
    "Ok",
    "Option",
    "Ord",
    "PartialEq",
    "PartialOrd",
    "Result",
    "Send",
    "Some",
    "String",
    "Vec",
];

/// The Rust keywords (strict, reserved and edition 2024's `gen`): names that cannot be
/// identifiers as they are.
const KEYWORDS: [&str; 52] = [
    "_", "abstract", "as", "async", "await", "become", "box", "break", "const", "continue",
    "crate", "do", "dyn", "else", "enum", "extern", "false", "final", "fn", "for", "gen", "if",
    "impl", "in", "let", "loop", "macro", "match", "mod", "move", "mut", "override", "priv", "pub",
    "ref", "return", "Self", "self", "static", "struct", "super", "trait", "true", "try", "type",
    "typeof", "unsafe", "unsized", "use", "virtual", "where", "while",
];

/// Whether `name` is a Rust keyword (rule 5).
pub fn is_keyword(name: &str) -> bool {
    KEYWORDS.contains(&name) || name == "yield"
}

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
fn fixpoint(mut text: String, convert: impl Fn(&str) -> String) -> String {
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
fn camel_words(name: &str) -> String {
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

/// The Rust names of one tool.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolNames {
    /// The trait name (UpperCamelCase, keyword-safe).
    pub trait_name: String,
    /// The method name (snake_case, keyword-safe).
    pub method_name: String,
    /// `{Tool}Input`.
    pub input_type: String,
    /// `{Tool}Output`.
    pub output_type: String,
    /// `{method}_with_content`: the handler method the router calls, and the client
    /// method that returns the content blocks beside the typed output (for a tool with
    /// an `outputSchema`). Claimed for every tool, so that no other tool's method takes
    /// it.
    pub content_method: String,
}

/// Names every tool (rules 1–7): one [`ToolNames`] per declared name, in the same order.
/// `taken` holds names other parts of the module already use; the tools' type names are
/// added to it.
///
/// ```
/// use mcpdesc_codegen::generate::naming::{tool_names, NameAllocator};
/// let mut types = NameAllocator::new();
/// let names = tool_names(&["get-user", "get_user"], &mut types);
/// assert_eq!(names[0].trait_name, "GetUser");
/// assert_eq!(names[1].trait_name, "GetUser2");
/// assert_eq!(names[1].method_name, "get_user_2");
/// assert_eq!(names[1].input_type, "GetUser2Input");
/// ```
pub fn tool_names(declared: &[&str], types: &mut NameAllocator) -> Vec<ToolNames> {
    tool_names_counted(declared, types, &mut NextSuffix::default())
}

/// [`tool_names`], its work counted in `next`.
fn tool_names_counted(
    declared: &[&str],
    types: &mut NameAllocator,
    next: &mut NextSuffix,
) -> Vec<ToolNames> {
    let mut traits: BTreeSet<String> = RESERVED_TRAITS.iter().map(|s| s.to_string()).collect();
    let mut methods: BTreeSet<String> = RESERVED_METHODS.iter().map(|s| s.to_string()).collect();
    declared
        .iter()
        .map(|name| {
            let camel = camel_words(name);
            let snake = snake_case(name);
            let candidate = |n: usize| {
                let (camel_n, snake_n) = if n == 1 {
                    (camel.clone(), snake.clone())
                } else {
                    (
                        fixpoint(format!("{camel}{n}"), |s| s.to_pascal_case()),
                        format!("{}_{n}", snake.trim_end_matches('_')),
                    )
                };
                let trait_name = if is_keyword(&camel_n) {
                    format!("{camel_n}_")
                } else {
                    camel_n.clone()
                };
                // From the name without its keyword underscore: `type_` → `type_with_content`
                // (`type__with_content` would break `non_snake_case`).
                let content_method = format!("{}_with_content", snake_n.trim_end_matches('_'));
                ToolNames {
                    trait_name,
                    input_type: type_name(&camel_n, "Input"),
                    output_type: type_name(&camel_n, "Output"),
                    method_name: snake_n,
                    content_method,
                }
            };
            let free = |c: &ToolNames| {
                !traits.contains(&c.trait_name)
                    && !methods.contains(&c.method_name)
                    && !methods.contains(&c.content_method)
                    && types.is_free(&c.input_type)
                    && types.is_free(&c.output_type)
            };
            let n = next.find(&format!("{camel} {snake}"), 1, |n| free(&candidate(n)));
            let names = candidate(n);
            traits.insert(names.trait_name.clone());
            methods.insert(names.method_name.clone());
            methods.insert(names.content_method.clone());
            types.take(&names.input_type);
            types.take(&names.output_type);
            names
        })
        .collect()
}

/// Where the search for a free numeric suffix resumes, per base name: a name found
/// taken stays taken (names are only ever added), so each search starts after the last
/// suffix tried for the same base, and naming `n` colliding names costs O(n) checks,
/// not O(n²), while still giving each the smallest free suffix.
#[derive(Debug, Clone, Default)]
pub(crate) struct NextSuffix {
    next: HashMap<String, usize>,
    /// How many candidates were checked in all: the work, which tests bound.
    checks: usize,
}

impl NextSuffix {
    /// The smallest `n` from `first` up (from where the last search for `base` stopped)
    /// for which `free(n)` holds.
    pub(crate) fn find(
        &mut self,
        base: &str,
        first: usize,
        mut free: impl FnMut(usize) -> bool,
    ) -> usize {
        let next = self.next.entry(base.to_owned()).or_insert(first);
        loop {
            self.checks += 1;
            if free(*next) {
                break;
            }
            *next += 1;
        }
        let found = *next;
        *next += 1;
        found
    }
}

/// Hands out unique type names: the first claim of a name gets it, later claims get the
/// smallest numeric suffix from 2 up that is free (rule 7). Starts with
/// [`RESERVED_TYPES`] taken.
#[derive(Debug, Clone)]
pub struct NameAllocator {
    taken: BTreeSet<String>,
    /// The stand-in names given to properties and enum values (rule 8).
    placeholders: Placeholders,
    /// Where [`NameAllocator::claim`] resumes per candidate.
    next: NextSuffix,
}

impl Default for NameAllocator {
    fn default() -> Self {
        NameAllocator {
            taken: RESERVED_TYPES.iter().map(|s| s.to_string()).collect(),
            placeholders: Placeholders::default(),
            next: NextSuffix::default(),
        }
    }
}

impl NameAllocator {
    /// An allocator with only the reserved names taken.
    pub fn new() -> Self {
        Self::default()
    }

    /// An allocator for the description whose text is `source` (see
    /// [`Placeholders::new`]).
    pub fn for_source(source: &str) -> Self {
        NameAllocator {
            placeholders: Placeholders::new(source),
            ..Self::default()
        }
    }

    /// The placeholders handed out so far, for the final substitution.
    pub fn placeholders(&self) -> &Placeholders {
        &self.placeholders
    }

    /// Rule 8 for the properties of one object: the JSON name each property must be
    /// given in typify's copy of the schema (the name itself, or a placeholder) so that
    /// the struct's field names, and the names of the types typify derives from them,
    /// are unique. `None` when nothing needs renaming.
    pub fn property_keys(&mut self, keys: &[&str]) -> Option<Vec<String>> {
        let natural: Vec<String> = keys
            .iter()
            .map(|k| typify_sanitize(k, Case::Snake))
            .collect();
        // typify names a property's own type `{Parent}{Name}`: a name without letters or
        // digits (`""`, `-`) would give the parent's name again.
        let wordless = |key: &str| key.to_snake_case().is_empty();
        if is_unique(&natural) && !keys.iter().any(|k| wordless(k)) {
            return None;
        }
        // A property whose name already is its field name keeps it; then the others in
        // declaration order take `{field}`, `{field}_2`, `{field}_3`, ...
        let mut taken: BTreeSet<String> = BTreeSet::new();
        let mut wanted: Vec<Option<String>> = vec![None; keys.len()];
        for (i, key) in keys.iter().enumerate() {
            if natural[i] == *key && taken.insert(natural[i].clone()) {
                wanted[i] = Some(natural[i].clone());
            }
        }
        let mut out = Vec::with_capacity(keys.len());
        // Where each field name's suffix search resumes (see `NextSuffix`).
        let mut resume: HashMap<String, usize> = HashMap::new();
        for (i, key) in keys.iter().enumerate() {
            if wanted[i].is_some() {
                out.push((*key).to_owned());
                continue;
            }
            let base = natural[i].trim_end_matches('_').to_owned();
            let mut n = resume.get(&natural[i]).copied().unwrap_or(1);
            loop {
                let candidate = if n == 1 {
                    natural[i].clone()
                } else {
                    format!("{base}_{n}")
                };
                n += 1;
                if taken.contains(&candidate) {
                    continue;
                }
                if candidate == natural[i] && !wordless(key) {
                    taken.insert(candidate);
                    out.push((*key).to_owned());
                    break;
                }
                let placeholder = self.placeholders.claim(&candidate, key);
                if typify_sanitize(&placeholder, Case::Snake) == candidate {
                    taken.insert(candidate);
                    out.push(placeholder);
                    break;
                }
            }
            resume.insert(natural[i].clone(), n);
        }
        Some(out)
    }

    /// Rule 8 for the string values of one enum: the value each must be given in
    /// typify's copy so that the variant names are unique (`reactions-+1` and
    /// `reactions--1` become `ReactionsPlus1` and `ReactionsMinus1`; `Ok` and `ok`
    /// become `Ok` and `Ok2`). `None` when typify's own names are unique.
    pub fn enum_values(&mut self, values: &[&str]) -> Option<Vec<String>> {
        let natural: Vec<String> = values
            .iter()
            .map(|v| typify_sanitize(v, Case::Pascal))
            .collect();
        if is_unique(&natural) {
            return None;
        }
        let counts = natural.iter().fold(BTreeMap::new(), |mut m, n| {
            *m.entry(n.as_str()).or_insert(0usize) += 1;
            m
        });
        let mut taken: BTreeSet<String> = natural
            .iter()
            .filter(|n| counts[n.as_str()] == 1)
            .cloned()
            .collect();
        let mut out = Vec::with_capacity(values.len());
        // Where each variant name's suffix search resumes (see `NextSuffix`).
        let mut resume: HashMap<String, usize> = HashMap::new();
        for (i, value) in values.iter().enumerate() {
            if counts[natural[i].as_str()] == 1 {
                out.push((*value).to_owned());
                continue;
            }
            let base = typify_sanitize(&spell_signs(value), Case::Pascal);
            let base = fixpoint(base.trim_end_matches('_').to_owned(), |s| {
                s.to_pascal_case()
            });
            let mut n = resume.get(&base).copied().unwrap_or(1);
            loop {
                let candidate = if n == 1 {
                    base.clone()
                } else {
                    fixpoint(format!("{base}{n}"), |s| s.to_pascal_case())
                };
                n += 1;
                if taken.contains(&candidate) || !accept_as_ident(&candidate) {
                    continue;
                }
                let placeholder = self.placeholders.claim(&candidate, value);
                if typify_sanitize(&placeholder, Case::Pascal) == candidate {
                    taken.insert(candidate);
                    out.push(placeholder);
                    break;
                }
            }
            resume.insert(base, n);
        }
        Some(out)
    }

    /// Whether `name` is still free.
    pub fn is_free(&self, name: &str) -> bool {
        !self.taken.contains(name)
    }

    /// Marks `name` as taken.
    pub fn take(&mut self, name: &str) {
        self.taken.insert(name.to_owned());
    }

    /// Claims `candidate` (a typify-stable UpperCamelCase name) or, when taken, the first
    /// free `{candidate}{n}`.
    pub fn claim(&mut self, candidate: &str) -> String {
        let candidate = type_name(candidate, "");
        let candidate = if candidate.is_empty() {
            "Type".to_owned()
        } else {
            candidate
        };
        let named = |n: usize| {
            if n == 1 {
                candidate.clone()
            } else {
                type_name(&format!("{candidate}{n}"), "")
            }
        };
        let taken = &self.taken;
        let n = self
            .next
            .find(&candidate, 1, |n| !taken.contains(&named(n)));
        let name = named(n);
        self.take(&name);
        name
    }
}

/// Whether every name of `names` is different.
fn is_unique(names: &[String]) -> bool {
    let mut seen = BTreeSet::new();
    names.iter().all(|n| seen.insert(n))
}

/// `+` and a `-` that starts a number written as words, so that `reactions-+1` and
/// `reactions--1` give different names.
fn spell_signs(value: &str) -> String {
    let chars: Vec<char> = value.chars().collect();
    let mut out = String::with_capacity(value.len() + 8);
    for (i, &c) in chars.iter().enumerate() {
        let starts_number = chars.get(i + 1).is_some_and(char::is_ascii_digit)
            && (i == 0 || !chars[i - 1].is_alphanumeric());
        match c {
            '+' => out.push_str(" plus "),
            '-' if starts_number => out.push_str(" minus "),
            c => out.push(c),
        }
    }
    out
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
fn accept_as_ident(ident: &str) -> bool {
    !is_keyword(ident) && syn::parse_str::<syn::Ident>(ident).is_ok()
}

/// Which kind of non-tool primitive a name is for, and the suffixes of its Rust names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PrimitiveKind {
    /// A prompt: trait `{Name}Prompt`, type `{Name}Arguments`.
    Prompt,
    /// A resource: trait `{Name}Resource`, no type.
    Resource,
    /// A resource template: trait `{Name}Template`, type `{Name}Variables`.
    ResourceTemplate,
}

impl PrimitiveKind {
    fn trait_suffix(self) -> &'static str {
        match self {
            PrimitiveKind::Prompt => "Prompt",
            PrimitiveKind::Resource => "Resource",
            PrimitiveKind::ResourceTemplate => "Template",
        }
    }

    fn type_suffix(self) -> Option<&'static str> {
        match self {
            PrimitiveKind::Prompt => Some("Arguments"),
            PrimitiveKind::Resource => None,
            PrimitiveKind::ResourceTemplate => Some("Variables"),
        }
    }
}

/// The Rust names of one prompt, resource or resource template.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PrimitiveNames {
    /// The trait name: `{Name}Prompt`, `{Name}Resource` or `{Name}Template`.
    pub trait_name: String,
    /// The snake_case base of the module (`prompts::{base}`) and of the methods
    /// (`get_{base}`, `read_{base}`, `complete_{base}`); unique within its kind.
    pub snake: String,
    /// `{Name}Arguments` (prompts) or `{Name}Variables` (templates).
    pub type_name: Option<String>,
}

/// Names the prompts, resources or resource templates of a module with rules 1–7, from
/// their declared `name`s: trait and type names get the kind's suffix
/// ([`PrimitiveKind`]); a name taken by any earlier trait (`traits`: tools, reserved
/// names, earlier primitives, all of which it updates) or type (`types`) gets the
/// smallest numeric suffix from 2 up before the kind suffix, and so does a snake base
/// already used by the same kind.
///
/// ```
/// use std::collections::{BTreeMap, BTreeSet, HashMap};
/// use mcpdesc_codegen::generate::naming::{primitive_names, NameAllocator, PrimitiveKind};
///
/// let mut traits: BTreeSet<String> = ["AnalyzeGame".to_owned()].into();
/// let mut types = NameAllocator::new();
/// let names = primitive_names(&["analyze_game", "analyze-game"], PrimitiveKind::Prompt, &mut traits, &mut types);
/// assert_eq!(names[0].trait_name, "AnalyzeGamePrompt");
/// assert_eq!(names[0].type_name.as_deref(), Some("AnalyzeGameArguments"));
/// assert_eq!((names[1].trait_name.as_str(), names[1].snake.as_str()), ("AnalyzeGame2Prompt", "analyze_game_2"));
/// ```
pub fn primitive_names(
    declared: &[&str],
    kind: PrimitiveKind,
    traits: &mut BTreeSet<String>,
    types: &mut NameAllocator,
) -> Vec<PrimitiveNames> {
    primitive_names_counted(declared, kind, traits, types, &mut NextSuffix::default())
}

/// [`primitive_names`], its work counted in `next`.
fn primitive_names_counted(
    declared: &[&str],
    kind: PrimitiveKind,
    traits: &mut BTreeSet<String>,
    types: &mut NameAllocator,
    next: &mut NextSuffix,
) -> Vec<PrimitiveNames> {
    let mut snakes: BTreeSet<String> = RESERVED_METHODS.iter().map(|s| s.to_string()).collect();
    declared
        .iter()
        .map(|name| {
            let camel = camel_words(name);
            let snake = snake_case(name);
            let candidate = |n: usize| {
                let (camel_n, snake_n) = if n == 1 {
                    (camel.clone(), snake.clone())
                } else {
                    (
                        fixpoint(format!("{camel}{n}"), |s| s.to_pascal_case()),
                        format!("{}_{n}", snake.trim_end_matches('_')),
                    )
                };
                PrimitiveNames {
                    trait_name: type_name(&camel_n, kind.trait_suffix()),
                    type_name: kind.type_suffix().map(|suffix| type_name(&camel_n, suffix)),
                    snake: snake_n,
                }
            };
            let free = |c: &PrimitiveNames| {
                !traits.contains(&c.trait_name)
                    && !snakes.contains(&c.snake)
                    && c.type_name.as_ref().is_none_or(|t| types.is_free(t))
            };
            let n = next.find(&format!("{camel} {snake}"), 1, |n| free(&candidate(n)));
            let names = candidate(n);
            traits.insert(names.trait_name.clone());
            snakes.insert(names.snake.clone());
            if let Some(t) = &names.type_name {
                types.take(t);
            }
            names
        })
        .collect()
}

/// Field names for the string members of a generated struct (prompt arguments, template
/// variables): rules 1–5 in snake_case, made unique with `_2`, `_3`, ... in order.
///
/// ```
/// use mcpdesc_codegen::generate::naming::field_names;
/// assert_eq!(field_names(&["city", "type", "City", "a.b"]), ["city", "type_", "city_2", "a_b"]);
/// ```
pub fn field_names(declared: &[&str]) -> Vec<String> {
    let mut taken: BTreeSet<String> = BTreeSet::new();
    let mut next = NextSuffix::default();
    declared
        .iter()
        .map(|name| {
            let base = snake_case(name);
            let named = |n: usize| {
                if n == 1 {
                    base.clone()
                } else {
                    format!("{}_{n}", base.trim_end_matches('_'))
                }
            };
            let n = next.find(&base, 1, |n| !taken.contains(&named(n)));
            let candidate = named(n);
            taken.insert(candidate.clone());
            candidate
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn camel_snake(name: &str) -> (String, String) {
        (upper_camel(name), snake_case(name))
    }

    #[test]
    fn punctuation_separates_words() {
        assert_eq!(
            camel_snake("analyze_game"),
            ("AnalyzeGame".into(), "analyze_game".into())
        );
        assert_eq!(camel_snake("get-env"), ("GetEnv".into(), "get_env".into()));
        assert_eq!(
            camel_snake("fs.read/text file"),
            ("FsReadTextFile".into(), "fs_read_text_file".into())
        );
        assert_eq!(
            camel_snake("getPlayerRating"),
            ("GetPlayerRating".into(), "get_player_rating".into())
        );
        assert_eq!(camel_snake("--"), ("Tool".into(), "tool".into()));
    }

    #[test]
    fn leading_digits_get_a_prefix() {
        assert_eq!(
            camel_snake("3d-view"),
            ("Tool3dView".into(), "tool_3d_view".into())
        );
        assert_eq!(camel_snake("42"), ("Tool42".into(), "tool_42".into()));
    }

    #[test]
    fn keywords_get_a_trailing_underscore() {
        assert_eq!(snake_case("type"), "type_");
        assert_eq!(snake_case("self"), "self_");
        assert_eq!(snake_case("async"), "async_");
        assert_eq!(snake_case("gen"), "gen_");
        assert_eq!(upper_camel("Self"), "Self_");
        assert_eq!(upper_camel("self"), "Self_");
        // Types never need the underscore: the suffix makes them ordinary words.
        let mut types = NameAllocator::new();
        let names = tool_names(&["self", "type"], &mut types);
        assert_eq!(names[0].trait_name, "Self_");
        assert_eq!(names[0].method_name, "self_");
        assert_eq!(names[0].input_type, "SelfInput");
        assert_eq!(names[1].trait_name, "Type");
        assert_eq!(names[1].method_name, "type_");
    }

    #[test]
    fn non_ascii_is_transliterated_or_escaped() {
        assert_eq!(
            camel_snake("café_crème"),
            ("CafeCreme".into(), "cafe_creme".into())
        );
        assert_eq!(upper_camel("天気"), "U5929u6c17");
        assert_eq!(snake_case("天気"), "u5929_u6c17");
        assert_eq!(upper_camel("météo-天"), "MeteoU5929");
    }

    #[test]
    fn colliding_tools_get_numeric_suffixes_in_declaration_order() {
        let mut types = NameAllocator::new();
        let names = tool_names(&["get_user", "get-user", "getUser", "server"], &mut types);
        let traits: Vec<&str> = names.iter().map(|n| n.trait_name.as_str()).collect();
        let methods: Vec<&str> = names.iter().map(|n| n.method_name.as_str()).collect();
        assert_eq!(traits, ["GetUser", "GetUser2", "GetUser3", "Server2"]);
        assert_eq!(
            methods,
            ["get_user", "get_user_2", "get_user_3", "server_2"]
        );
        assert_eq!(names[2].output_type, "GetUser3Output");
    }

    #[test]
    fn type_names_are_stable_under_typify_casing() {
        let mut types = NameAllocator::new();
        let declared = [
            "HTTPServer",
            "a_b_c",
            "x1y",
            "天気",
            "3d",
            "v2.api",
            "ABCDef",
            "get__x",
            "Résumé",
        ];
        for names in tool_names(&declared, &mut types) {
            for t in [&names.input_type, &names.output_type] {
                assert_eq!(&t.to_pascal_case(), t, "{t} is not stable");
            }
        }
    }

    #[test]
    fn colliding_properties_get_placeholders_for_unique_fields() {
        let mut names = NameAllocator::for_source("");
        assert_eq!(names.property_keys(&["a", "b-c"]), None);
        let keys = names.property_keys(&["a-b", "a_b", "", " "]).unwrap();
        // `a_b` is its own field name and keeps it; the others take the next free one.
        assert_eq!(keys[1], "a_b");
        let fields: Vec<String> = keys
            .iter()
            .map(|k| typify_sanitize(k, Case::Snake))
            .collect();
        assert_eq!(fields, ["a_b_2", "a_b", "x", "x_2"]);
        let p = names.placeholders();
        assert_eq!(p.restore_plain(&keys[0]), "a-b");
        assert_eq!(p.restore_plain(&keys[2]), "");
        // A description that contains the marker characters still gets placeholders
        // (another marker), and its own text is never taken for one.
        let first = keys[0].clone();
        let mut other = NameAllocator::for_source(&first);
        let keys = other.property_keys(&["a-b", "a_b", &first]).unwrap();
        assert_eq!(typify_sanitize(&keys[0], Case::Snake), "a_b_2");
        assert_eq!(other.placeholders().restore_plain(&keys[0]), "a-b");
        assert_eq!(other.placeholders().restore_plain(&first), first);
    }

    #[test]
    fn colliding_enum_values_get_distinct_variants() {
        let mut names = NameAllocator::for_source("");
        assert_eq!(names.enum_values(&["asc", "desc"]), None);
        let values = names
            .enum_values(&[
                "reactions",
                "reactions-+1",
                "reactions--1",
                "Ok",
                "ok",
                "a.b",
                "a_b",
            ])
            .unwrap();
        let variants: Vec<String> = values
            .iter()
            .map(|v| typify_sanitize(v, Case::Pascal))
            .collect();
        assert_eq!(
            variants,
            [
                "Reactions",
                "ReactionsPlus1",
                "ReactionsMinus1",
                "Ok",
                "Ok2",
                "Ab",
                "Ab2"
            ]
        );
        assert_eq!(values[0], "reactions");
        assert_eq!(
            names.placeholders().restore_plain(&values[2]),
            "reactions--1"
        );
    }

    #[test]
    fn reserved_and_keyword_tool_names() {
        let mut types = NameAllocator::new();
        let names = tool_names(
            &["t", "T", "send", "type", "a", "a_with_content"],
            &mut types,
        );
        let traits: Vec<&str> = names.iter().map(|n| n.trait_name.as_str()).collect();
        assert_eq!(traits, ["T2", "T3", "Send2", "Type", "A", "AWithContent2"]);
        assert_eq!(names[3].content_method, "type_with_content");
        assert_eq!(names[5].method_name, "a_with_content_2");
    }

    /// Naming `n` names that all collide after conversion checks O(n) candidates (it
    /// used to check O(n²): 8,000 such prompts took over a minute).
    #[test]
    fn colliding_names_cost_linear_work() {
        let separators = ['-', '_', '.', ' ', '/', ':'];
        let declared: Vec<String> = (1..=8000usize)
            .map(|mut i| {
                let mut name = String::from("x");
                while i > 0 {
                    name.push(separators[i % 6]);
                    i /= 6;
                }
                name
            })
            .collect();
        let declared: Vec<&str> = declared.iter().map(String::as_str).collect();
        let mut next = NextSuffix::default();
        let mut types = NameAllocator::new();
        let mut traits = BTreeSet::new();
        let names = primitive_names_counted(
            &declared,
            PrimitiveKind::Prompt,
            &mut traits,
            &mut types,
            &mut next,
        );
        assert_eq!(names[7999].trait_name, "X8000Prompt");
        assert!(next.checks <= 2 * declared.len(), "{} checks", next.checks);
        let mut next = NextSuffix::default();
        let tools = tool_names_counted(&declared, &mut NameAllocator::new(), &mut next);
        assert_eq!(tools[7999].input_type, "X8000Input");
        assert!(next.checks <= 2 * declared.len(), "{} checks", next.checks);
        let mut types = NameAllocator::new();
        for _ in 0..8000 {
            types.claim("Point");
        }
        assert!(types.next.checks <= 8000, "{} checks", types.next.checks);
    }

    #[test]
    fn allocator_suffixes_and_reserves() {
        let mut types = NameAllocator::new();
        assert_eq!(types.claim("Point"), "Point");
        assert_eq!(types.claim("Point"), "Point2");
        assert_eq!(types.claim("Point"), "Point3");
        assert_eq!(types.claim("Result"), "Result2");
        assert_eq!(types.claim("String"), "String2");
    }
}
