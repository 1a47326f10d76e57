//! Handing out unique names: the numeric suffix search (rule 7) and the
//! [`NameAllocator`] of a module's type names, with the placeholders it gives
//! colliding properties and enum values (rule 8).

use std::collections::{BTreeMap, BTreeSet, HashMap};

use heck::{ToPascalCase, ToSnakeCase};

use super::case::{accept_as_ident, fixpoint, type_name, typify_sanitize, Case};
use super::reserved::RESERVED_TYPES;
use crate::generate::escape::Placeholders;

/// Where the search for a free numeric suffix resumes, per base name: a name found
/// taken stays taken (names are only ever added), so each search starts after the last
/// suffix tried for the same base, and naming `n` colliding names costs O(n) checks,
/// not O(n²), while still giving each the smallest free suffix.
#[derive(Debug, Clone, Default)]
pub(crate) struct NextSuffix {
    next: HashMap<String, usize>,
    /// How many candidates were checked in all: the work, which tests bound.
    pub(super) checks: usize,
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
    pub(super) next: NextSuffix,
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
