//! Inline schemas the settings replace by the name typify would give them
//! ([`crate::settings::Settings::replace_type`] with a name such as `SearchIssuesOutputItem`):
//! typify replaces definitions only, so each becomes a definition of that name first.

use std::collections::BTreeSet;

use serde_json::Value;

use super::places::{collect, Site};
use super::units::Unit;
use crate::generate::naming::NameAllocator;
use mcpdesc_description::pointer::Pointer;

/// Moves every inline schema whose derived name is in `wanted` (and that no root or
/// definition already has) to a definition of that name, in each unit that has it;
/// places with that name but another schema keep theirs.
pub(super) fn hoist(units: &mut [Unit], wanted: &BTreeSet<String>, names: &mut NameAllocator) {
    let places = collect(units, names.placeholders());
    let defined: BTreeSet<&str> = places
        .iter()
        .filter(|p| matches!(p.site, Site::Root | Site::Def(_)))
        .map(|p| p.derived.as_str())
        .collect();
    let mut moves: Vec<(usize, Option<usize>, String, String)> = Vec::new();
    for name in wanted {
        if defined.contains(name.as_str()) {
            continue;
        }
        let mut matching = places
            .iter()
            .filter(|p| &p.derived == name && matches!(p.site, Site::Inline { .. }));
        let Some(first) = matching.next() else {
            continue;
        };
        if names.claim(name) != *name {
            continue;
        }
        for place in std::iter::once(first).chain(matching.filter(|p| p.key == first.key)) {
            if let Site::Inline { def, path } = &place.site {
                moves.push((place.unit, *def, path.clone(), name.clone()));
            }
        }
    }
    for (u, def, path, name) in moves {
        let prepared = &mut units[u].prepared;
        let schema = match def {
            None => &mut prepared.root,
            Some(d) => &mut prepared.defs[d].1,
        };
        let Some(node) = schema.pointer_mut(&path) else {
            continue;
        };
        let reference = serde_json::json!({ "$ref": format!("#/definitions/{name}") });
        let moved: Value = std::mem::replace(node, reference);
        if !prepared.defs.iter().any(|(n, _)| *n == name) {
            let base = match def {
                None => Pointer::root(),
                Some(d) => prepared.def_pointers[d].clone(),
            };
            let at = Pointer::parse(&format!("{base}{path}")).unwrap_or(base);
            prepared.defs.push((name, moved));
            prepared.def_pointers.push(at);
        }
    }
}
