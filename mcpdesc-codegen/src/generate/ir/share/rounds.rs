//! One type per shape: the rounds that make identical schemas one type, and how a
//! group of identical places becomes one.
//!
//! Each round groups every place ([`super::places`]) by its key. A group of places
//! that are not yet one type is shared:
//!
//! - first the groups of roots and definitions only, all at once (renaming one
//!   definition can make others identical: the rounds repeat until nothing changes);
//! - then, when there are none, the groups with inline schemas whose shallowest
//!   inline member is the shallowest of all (an outer schema moves with what is inside
//!   it; inner ones may then be shared in a later round).
//!
//! The shared type's name (see "Names" in `docs/generated-code.md`): a name an earlier
//! round gave the group; else the component's name, when one of the places is a
//! component schema; else the first `title` among the places; else the first place's
//! own name (a root's type name, a `$defs` key, or the name typify would derive for an
//! inline schema). Places are in the order of `places::collect`.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

use super::hoist::hoist;
use super::places::{collect, def_key, Identity, Place, Site};
use super::units::{put_back, set_root_doc, shared_doc, take, Origin, Unit};
use crate::generate::ir::tool::{SharedSchemaIr, ToolIr};
use crate::generate::naming::{self, NameAllocator};
use crate::own_types::ReplaceKey;
use crate::settings::Settings;
use mcpdesc_description::pointer::Pointer;

/// Makes identical schemas of the tool schemas and shared components one type (see
/// the module documentation); tool schemas whose whole schema joined a shared type
/// become aliases of it.
pub fn share_types(
    shared: &mut Vec<SharedSchemaIr>,
    tools: &mut [ToolIr],
    names: &mut NameAllocator,
    settings: &Settings,
) {
    let mut units = take(shared, tools);
    let mut sharing = Sharing {
        units: &mut units,
        names,
        given: BTreeSet::new(),
    };
    sharing.run();
    let wanted: BTreeSet<String> = settings
        .own_types()
        .replacements()
        .keys()
        .filter_map(|k| match ReplaceKey::parse(k) {
            Ok(ReplaceKey::Type(name)) => Some(name),
            _ => None,
        })
        .collect();
    if !wanted.is_empty() {
        hoist(&mut units, &wanted, names);
    }
    let homes: Vec<usize> = (0..units.len()).filter(|&u| units[u].home).collect();
    for u in homes {
        let doc = shared_doc(&units[u]);
        set_root_doc(&mut units[u], doc);
    }
    sync_copies(&mut units);
    put_back(units, shared, tools, settings);
}

/// The state of the rounds.
struct Sharing<'a> {
    units: &'a mut Vec<Unit>,
    names: &'a mut NameAllocator,
    /// The names given to shared types so far.
    given: BTreeSet<String>,
}

impl Sharing<'_> {
    /// Rounds until no group is left to share. Each round makes at least two types
    /// one, so the number of places bounds the rounds.
    fn run(&mut self) {
        let bound = collect(self.units, self.names.placeholders()).len() + 1;
        for _ in 0..bound {
            let places = collect(self.units, self.names.placeholders());
            let groups = groups(&places);
            if groups.is_empty() {
                break;
            }
            let top: Vec<&Vec<usize>> = groups
                .iter()
                .filter(|g| g.iter().all(|&i| places[i].depth == 0))
                .collect();
            let chosen: Vec<&Vec<usize>> = if top.is_empty() {
                let depth = |g: &Vec<usize>| {
                    g.iter()
                        .map(|&i| places[i].depth)
                        .filter(|d| *d > 0)
                        .min()
                        .unwrap_or(0)
                };
                let shallowest = groups.iter().map(depth).min().unwrap_or(0);
                groups.iter().filter(|g| depth(g) == shallowest).collect()
            } else {
                top
            };
            // A group with a place inside a schema another group of this round moved
            // waits for the next round (that place is then in the moved definition).
            let mut moved: Vec<&Place> = Vec::new();
            for group in chosen {
                let members: Vec<&Place> = group.iter().map(|&i| &places[i]).collect();
                if members.iter().any(|m| moved.iter().any(|o| inside(m, o))) {
                    continue;
                }
                self.share(&members);
                moved.extend(members);
            }
        }
    }

    /// Makes the places of one group one type.
    fn share(&mut self, members: &[&Place]) {
        let name = self.name(members);
        self.given.insert(name.clone());
        let home = members
            .iter()
            .find(|p| p.site == Site::Root)
            .map(|p| p.unit);
        if let Some(h) = home {
            let old = self.units[h].prepared.root_name.clone();
            if old != name {
                self.units[h].prepared.rename(&old, &name);
            }
            self.units[h].home = true;
        }
        // The definition every place becomes: the home's root, or the first place.
        let value = match home {
            Some(h) => self.units[h].prepared.root.clone(),
            None => self.value_of(members[0]),
        };
        let reference = serde_json::json!({ "$ref": format!("#/definitions/{name}") });
        // Each unit that uses the type, with where (the first place in it).
        let mut users: BTreeMap<usize, Pointer> = BTreeMap::new();
        for place in members {
            let u = place.unit;
            match &place.site {
                Site::Root if Some(u) == home => {}
                Site::Root => {
                    let h = home.unwrap_or(u);
                    self.join(u, h);
                }
                Site::Def(d) => {
                    let old = self.units[u].prepared.defs[*d].0.clone();
                    if old != name {
                        self.units[u].prepared.rename(&old, &name);
                    }
                    self.units[u].prepared.defs[*d].1 = value.clone();
                    let at = self.units[u].prepared.def_pointers[*d].clone();
                    users.entry(u).or_insert(at);
                    self.note_join(home, u);
                }
                Site::Inline { def, path } => {
                    let prepared = &mut self.units[u].prepared;
                    let schema = match def {
                        None => &mut prepared.root,
                        Some(d) => &mut prepared.defs[*d].1,
                    };
                    if let Some(node) = schema.pointer_mut(path) {
                        *node = reference.clone();
                        let base = match def {
                            None => Pointer::root(),
                            Some(d) => prepared.def_pointers[*d].clone(),
                        };
                        let at = Pointer::parse(&format!("{base}{path}")).unwrap_or(base);
                        users.entry(u).or_insert(at);
                        self.note_join(home, u);
                    }
                }
            }
        }
        // Each unit that uses the type holds the same copy of it, so that every unit
        // stays self-contained and the type space converts it once.
        for (u, at) in users {
            let prepared = &mut self.units[u].prepared;
            if prepared.root_name == name {
                // The home itself: its root is the type.
                let at = prepared.defs.iter().position(|(n, _)| *n == name);
                if let Some(at) = at {
                    prepared.defs.remove(at);
                    prepared.def_pointers.remove(at);
                }
                continue;
            }
            if !prepared.defs.iter().any(|(n, _)| *n == name) {
                prepared.defs.push((name.clone(), value.clone()));
                prepared.def_pointers.push(at);
            }
        }
    }

    /// Makes the root of unit `u` an alias of the type whose home is unit `h` (which
    /// comes first): what joined `u` joins `h`.
    fn join(&mut self, u: usize, h: usize) {
        let mut joined: Vec<String> = self.units[u].tools.clone();
        joined.extend(std::mem::take(&mut self.units[u].joined));
        self.units[h].joined.extend(joined);
        self.units[u].home = false;
        self.units[u].alias_of = Some(h);
        for other in self.units.iter_mut() {
            if other.alias_of == Some(u) {
                other.alias_of = Some(h);
            }
        }
    }

    /// Notes that the tools of unit `u` now use the type whose home is `home`.
    fn note_join(&mut self, home: Option<usize>, u: usize) {
        if let Some(h) = home.filter(|&h| h != u) {
            let joined: Vec<String> = self.units[u].tools.clone();
            self.units[h].joined.extend(joined);
        }
    }

    /// The schema of a place (a definition's or an inline schema's).
    fn value_of(&self, place: &Place) -> Value {
        let p = &self.units[place.unit].prepared;
        match &place.site {
            Site::Root => p.root.clone(),
            Site::Def(d) => p.defs[*d].1.clone(),
            Site::Inline { def, path } => {
                let schema = match def {
                    None => &p.root,
                    Some(d) => &p.defs[*d].1,
                };
                schema.pointer(path).cloned().unwrap_or(Value::Null)
            }
        }
    }

    /// The name of a group's type (see the module documentation).
    fn name(&mut self, members: &[&Place]) -> String {
        let existing = members.iter().find_map(|p| match &p.identity {
            Identity::Type(n) if self.given.contains(n) => Some(n.clone()),
            _ => None,
        });
        if let Some(name) = existing {
            return name;
        }
        // A shared component type already has its component's name.
        let component = members.iter().find_map(|p| {
            let unit = &self.units[p.unit];
            let c = unit.component.clone().filter(|_| p.site == Site::Root)?;
            Some((
                c,
                matches!(unit.origin, Origin::Shared(_)),
                unit.prepared.root_name.clone(),
            ))
        });
        if let Some((component, is_shared, root)) = component {
            return if is_shared {
                root
            } else {
                self.names
                    .claim(naming::upper_camel(&component).trim_end_matches('_'))
            };
        }
        if let Some(title) = members.iter().find_map(|p| p.title.clone()) {
            return self
                .names
                .claim(naming::upper_camel(&title).trim_end_matches('_'));
        }
        let first = members[0];
        match &first.site {
            Site::Root => first.derived.clone(),
            Site::Def(d) => match def_key(&self.units[first.unit], *d) {
                Some(key) => self
                    .names
                    .claim(naming::upper_camel(&key).trim_end_matches('_')),
                None => first.derived.clone(),
            },
            Site::Inline { .. } => self.names.claim(&first.derived),
        }
    }
}

/// Whether the place `inner` is inside the inline place `outer` (or is it).
fn inside(inner: &Place, outer: &Place) -> bool {
    match (&inner.site, &outer.site) {
        (
            Site::Inline { def, path },
            Site::Inline {
                def: outer_def,
                path: outer_path,
            },
        ) => {
            inner.unit == outer.unit
                && def == outer_def
                && (path == outer_path || path.starts_with(&format!("{outer_path}/")))
        }
        _ => false,
    }
}

/// The groups to share: places with one key, of at least two identities, each
/// group's members in place order, the groups in the order of their first member.
fn groups(places: &[Place]) -> Vec<Vec<usize>> {
    let mut by_key: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for (i, p) in places.iter().enumerate() {
        by_key.entry(p.key.as_str()).or_default().push(i);
    }
    let mut out: Vec<Vec<usize>> = by_key
        .into_values()
        .filter(|members| {
            let identities: BTreeSet<&Identity> =
                members.iter().map(|&i| &places[i].identity).collect();
            identities.len() > 1
        })
        .collect();
    out.sort_by_key(|g| g[0]);
    out
}

/// Every copy of a home's type in other units is the home's root, byte for byte (the
/// type space converts identical definitions once).
fn sync_copies(units: &mut [Unit]) {
    let homes: BTreeMap<String, Value> = units
        .iter()
        .filter(|u| u.home && u.live())
        .map(|u| (u.prepared.root_name.clone(), u.prepared.root.clone()))
        .collect();
    for unit in units.iter_mut().filter(|u| u.live()) {
        for (name, value) in &mut unit.prepared.defs {
            if let Some(root) = homes.get(name) {
                *value = root.clone();
            }
        }
    }
}
