//! The prepared schemas sharing works on, taken out of the IR (shared component types
//! first, then each tool's own input and output types) and put back afterwards: a
//! tool schema whose whole schema joined a shared type becomes an alias of it
//! ([`TypeSource::Shared`]).

use serde_json::Value;

use crate::generate::ir::module::patched;
use crate::generate::ir::tool::{Role, SharedSchemaIr, ToolIr, TypeSource};
use crate::generate::prepare::PreparedSchema;
use crate::settings::Settings;
use mcpdesc_description::pointer::Pointer;

/// Where a unit comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Origin {
    /// `shared[k]` of the IR: a component several tool schemas use.
    Shared(usize),
    /// The tool schema of `role` of `tools[i]`, with a type of its own.
    Tool(usize, Role),
}

/// One prepared schema and what sharing decided about its root.
#[derive(Debug, Clone)]
pub(super) struct Unit {
    /// The prepared schema (moved out of the IR while sharing runs).
    pub(super) prepared: PreparedSchema,
    /// Where it comes from.
    pub(super) origin: Origin,
    /// The component its schema is, if any (names a shared type first).
    pub(super) component: Option<String>,
    /// The tools whose types use it, by name (for the shared type's documentation).
    pub(super) tools: Vec<String>,
    /// Its pointer in the description (use site or component).
    pub(super) pointer: Pointer,
    /// The resolved schema, untouched.
    pub(super) original: Value,
    /// Set when its root joined the shared type whose home is the unit `j`: its own
    /// type is then an alias of that one and the unit is left out.
    pub(super) alias_of: Option<usize>,
    /// Whether its root is the home of a type shared with other places (its root type
    /// is then emitted once, under the shared name, and the tool schema is an alias).
    pub(super) home: bool,
    /// The tools that joined its type, when it is a home (documentation).
    pub(super) joined: Vec<String>,
}

impl Unit {
    /// Whether the unit still takes part (its root was not merged into another).
    pub(super) fn live(&self) -> bool {
        self.alias_of.is_none()
    }
}

/// Takes every prepared schema that sharing may change out of the IR: the shared
/// component types, then the tools' own types (input before output), in order.
pub(super) fn take(shared: &mut [SharedSchemaIr], tools: &mut [ToolIr]) -> Vec<Unit> {
    let mut units = Vec::new();
    for (k, s) in shared.iter_mut().enumerate() {
        let users: Vec<String> = tools
            .iter()
            .filter(|t| {
                std::iter::once(&t.input)
                    .chain(t.output.as_ref())
                    .any(|schema| matches!(schema.source, TypeSource::Shared(j) if j == k))
            })
            .map(|t| t.name.clone())
            .collect();
        units.push(Unit {
            prepared: std::mem::replace(&mut s.prepared, empty()),
            origin: Origin::Shared(k),
            component: s.component.clone(),
            tools: users,
            pointer: s.pointer.clone(),
            original: s.original.clone(),
            alias_of: None,
            home: false,
            joined: Vec::new(),
        });
    }
    for (i, t) in tools.iter_mut().enumerate() {
        let name = t.name.clone();
        for (schema, role) in std::iter::once((&mut t.input, Role::Input))
            .chain(t.output.as_mut().map(|o| (o, Role::Output)))
        {
            if let TypeSource::Own(p) = &mut schema.source {
                units.push(Unit {
                    prepared: std::mem::replace(p, empty()),
                    origin: Origin::Tool(i, role),
                    component: schema.component.clone(),
                    tools: vec![name.clone()],
                    pointer: schema.pointer.clone(),
                    original: schema.original.clone(),
                    alias_of: None,
                    home: false,
                    joined: Vec::new(),
                });
            }
        }
    }
    units
}

/// A placeholder while a prepared schema is out of the IR.
fn empty() -> PreparedSchema {
    PreparedSchema {
        root_name: String::new(),
        root: Value::Null,
        defs: Vec::new(),
        def_pointers: Vec::new(),
        own_doc: None,
        rust_type: None,
        own_uses: Vec::new(),
    }
}

/// Puts the units back: the shared component types that remain, then one shared
/// type per tool schema that became a home, in unit order; every tool schema whose
/// root is a shared type becomes its alias.
pub(super) fn put_back(
    units: Vec<Unit>,
    shared: &mut Vec<SharedSchemaIr>,
    tools: &mut [ToolIr],
    settings: &Settings,
) {
    let old: Vec<SharedSchemaIr> = std::mem::take(shared);
    // The new index of each unit that is (or joined) a shared type, and of each old
    // shared component type.
    let mut index: Vec<Option<usize>> = vec![None; units.len()];
    let mut redirect: Vec<Option<usize>> = vec![None; old.len()];
    let mut own: Vec<(usize, Role, TypeSource)> = Vec::new();
    for (u, unit) in units.iter().enumerate() {
        // A home comes before the units that joined it.
        let joined = unit.alias_of.and_then(|home| index[home]);
        match unit.origin {
            Origin::Shared(k) => {
                if joined.is_none() {
                    let mut s = old[k].clone();
                    s.prepared = unit.prepared.clone();
                    s.type_name = patched(settings, &s.prepared.root_name);
                    index[u] = Some(shared.len());
                    shared.push(s);
                }
                redirect[k] = joined.or(index[u]);
            }
            Origin::Tool(i, role) => {
                let source = match joined {
                    Some(to) => TypeSource::Shared(to),
                    None if unit.home => {
                        index[u] = Some(shared.len());
                        shared.push(SharedSchemaIr {
                            component: unit.component.clone(),
                            pointer: unit.pointer.clone(),
                            original: unit.original.clone(),
                            type_name: patched(settings, &unit.prepared.root_name),
                            prepared: unit.prepared.clone(),
                            replaced: None,
                        });
                        TypeSource::Shared(shared.len() - 1)
                    }
                    None => TypeSource::Own(unit.prepared.clone()),
                };
                own.push((i, role, source));
            }
        }
    }
    // The aliases of shared components first (they hold old indexes), then the tool
    // schemas that were units.
    for t in tools.iter_mut() {
        for schema in std::iter::once(&mut t.input).chain(t.output.as_mut()) {
            if let TypeSource::Shared(k) = schema.source {
                if let Some(Some(to)) = redirect.get(k) {
                    schema.source = TypeSource::Shared(*to);
                }
            }
        }
    }
    for (i, role, source) in own {
        *source_of(&mut tools[i], role) = source;
    }
}

/// The type source of a tool's `role` schema.
fn source_of(tool: &mut ToolIr, role: Role) -> &mut TypeSource {
    match role {
        Role::Input => &mut tool.input.source,
        Role::Output => match tool.output.as_mut() {
            Some(o) => &mut o.source,
            None => &mut tool.input.source,
        },
    }
}

/// The documentation of a shared type that several places joined: which component
/// it is, or which tools' schemas, then the schema's own documentation.
pub(super) fn shared_doc(unit: &Unit) -> String {
    let mut tools: Vec<String> = Vec::new();
    for t in unit.tools.iter().chain(&unit.joined) {
        let t = format!("`{t}`");
        if !tools.contains(&t) {
            tools.push(t);
        }
    }
    let list = match tools.as_slice() {
        [] => String::new(),
        [one] => format!(" the tool {one}"),
        [rest @ .., last] => format!(" the tools {} and {last}", rest.join(", ")),
    };
    let mut doc = match &unit.component {
        Some(c) => {
            format!("The `{c}` component schema (`#/components/schemas/{c}`), shared by{list}.")
        }
        None => format!("One type for the identical schemas of{list}."),
    };
    if let Some(own) = &unit.prepared.own_doc {
        doc.push_str("\n\n");
        doc.push_str(own);
    }
    doc
}

/// Sets the root documentation of a home unit's prepared schema.
pub(super) fn set_root_doc(unit: &mut Unit, doc: String) {
    if let Some(map) = unit.prepared.root.as_object_mut() {
        map.insert("description".into(), Value::String(doc));
    }
}
