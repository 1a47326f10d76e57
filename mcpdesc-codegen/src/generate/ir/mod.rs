//! The generator's intermediate representation: everything the emitters need about the
//! chosen tools, and nothing they would have to re-read from raw JSON.
//!
//! ```text
//! Description ──view::select──▶ tools of the view ──build──▶ ModuleIr
//!                                                               ├─ tools: ToolIr (names, scope, docs,
//!                                                               │    original + prepared schemas, examples)
//!                                                               └─ shared: SharedSchemaIr (component
//!                                                                    schemas used by several tools)
//! ```
//!
//! The IR keeps two copies of each schema: the *original* (resolved, untouched; what a
//! server serves and validates against) and the *prepared* one (typify's normalized copy,
//! see [`prepare`]).

use std::collections::BTreeMap;

use serde_json::Value;

use super::elicitations::ElicitationIr;
use super::naming::{self, NameAllocator, ToolNames};
use super::prepare::{self, Options, PreparedSchema};
use super::primitives::{self, PrimitivesIr};
use super::security::{self, SecurityIr};
use super::view::{self, ViewError};
use crate::description::Description;
use crate::diagnostic::Diagnostic;
use crate::model::{Document, ToolAnnotations};
use crate::pointer::Pointer;
use crate::protocol::{ProtocolVersion, VersionSet};
use crate::settings::Settings;

/// Everything one generated module is made from.
#[derive(Debug, Clone)]
pub struct ModuleIr {
    /// The description's file name, without directories (for the header).
    pub source: String,
    /// The protocol version of the Effective Protocol View, if one was chosen.
    pub protocol_version: Option<ProtocolVersion>,
    /// The tools, in document order.
    pub tools: Vec<ToolIr>,
    /// Component schemas that several tool schemas share, by component name.
    pub shared: Vec<SharedSchemaIr>,
    /// Every type name the module uses so far; later items claim theirs here.
    pub type_names: NameAllocator,
    /// The server the description describes (`info`, `instructions`, versions).
    pub server: ServerIr,
    /// The prompts, resources and resource templates.
    pub primitives: PrimitivesIr,
    /// The security schemes the generated `Authenticator` verifies.
    pub security: SecurityIr,
    /// The Elicitation Declarations of the tools, prompts, resources and resource
    /// templates (typed elicitations, `elicitations.rs`).
    pub elicitations: Vec<ElicitationIr>,
}

/// Server-level metadata, for `info` constants and `ServerInfo`.
#[derive(Debug, Clone, PartialEq)]
pub struct ServerIr {
    /// `info.name`.
    pub name: String,
    /// `info.version`.
    pub version: String,
    /// `info.title`.
    pub title: Option<String>,
    /// `info.description`.
    pub description: Option<String>,
    /// `info.websiteUrl`.
    pub website_url: Option<String>,
    /// `instructions`.
    pub instructions: Option<String>,
    /// The protocol versions served: the root set, or the one chosen view.
    pub protocol_versions: VersionSet,
    /// The root `capabilities` array as compact JSON, when the description declares
    /// one (the runtime picks the object of each version).
    pub capabilities: Option<String>,
    /// The description's security for the runtime (`info::SECURITY`), when it
    /// declares `securitySchemes` (see [`security::declaration_json`]).
    pub security: Option<String>,
}

/// One Tool Interaction Example.
#[derive(Debug, Clone, PartialEq)]
pub struct InteractionExampleIr {
    /// Its name in the tool's `interactionExamples` map.
    pub name: String,
    /// `input`.
    pub input: Value,
    /// `steps` (an array of step objects).
    pub steps: Value,
    /// `result`.
    pub result: Value,
}

/// One tool declaration.
#[derive(Debug, Clone)]
pub struct ToolIr {
    /// The declared name (`analyze_game`).
    pub name: String,
    /// The declaration's index in the document's `tools` array.
    pub index: usize,
    /// Its pointer (`/tools/0`).
    pub pointer: Pointer,
    /// Its Rust names (trait, method, input and output types): those of its handler
    /// trait, which the variants of one handler group share (see `docs/generated-code.md`,
    /// "Protocol-scoped variants").
    pub names: ToolNames,
    /// The name of its modules (`tools::…`, `examples::…`) and of its example tests:
    /// the method name outside variants, else the variant's own
    /// (`analyze_game_v20251125`), since each variant has its own declaration and
    /// examples even when it shares its handler trait.
    pub module: String,
    /// For a variant that shares the handler trait of an earlier variant (same input
    /// and output types, same elicitations): that variant's index in
    /// [`ModuleIr::tools`]. `None` when this declaration's trait is emitted with it.
    pub handler_of: Option<usize>,
    /// The versions its handler trait serves: its scope, or the union of the scopes
    /// of its handler group.
    pub handler_scope: VersionSet,
    /// Whether its handler trait serves several variants (it or an earlier variant
    /// heads a handler group).
    pub shared_handler: bool,
    /// Its effective protocol scope.
    pub scope: VersionSet,
    /// For a protocol-scoped variant (see [`view::Chosen::variant`]): the first
    /// version of its scope, which its Rust names carry.
    pub variant: Option<ProtocolVersion>,
    /// `title`.
    pub title: Option<String>,
    /// `description`.
    pub description: Option<String>,
    /// `annotations`.
    pub annotations: Option<ToolAnnotations>,
    /// `deprecated: true`; for the first variant of a handler group, whether every
    /// variant of the group is (what its trait and client method say).
    pub deprecated: bool,
    /// `inputSchema`.
    pub input: SchemaIr,
    /// `outputSchema`, when declared.
    pub output: Option<SchemaIr>,
    /// The Tool Examples, by name (references already substituted).
    pub examples: Vec<ExampleIr>,
    /// The Tool Interaction Examples, by name.
    pub interaction_examples: Vec<InteractionExampleIr>,
    /// The whole declaration with `$componentRef`s substituted (what the runtime
    /// projects for `tools/list` and validates arguments against).
    pub declaration: Value,
    /// `execution.taskSupport`.
    pub task_support: Option<String>,
}

/// Whether a schema is a tool's input or output.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Role {
    /// `inputSchema`.
    Input,
    /// `outputSchema`.
    Output,
}

/// One tool schema.
#[derive(Debug, Clone)]
pub struct SchemaIr {
    /// Its use site (`/tools/0/inputSchema`).
    pub pointer: Pointer,
    /// The resolved schema, untouched.
    pub original: Value,
    /// The component it came from through `$componentRef`, if any.
    pub component: Option<String>,
    /// The Rust type name code uses (`AnalyzeGameInput`, or a patch's rename).
    pub type_name: String,
    /// Where its type comes from.
    pub source: TypeSource,
}

/// How a tool schema gets its Rust type.
#[derive(Debug, Clone)]
pub enum TypeSource {
    /// Its own typify definition.
    Own(PreparedSchema),
    /// An alias of the shared component type `shared[i]`.
    Shared(usize),
    /// The type of the same role of the earlier variant `tools[i]` of the same tool,
    /// whose schema is identical: one type, no alias.
    Variant(usize),
}

/// A component schema used by several tool schemas: one type, and an alias per use.
#[derive(Debug, Clone)]
pub struct SharedSchemaIr {
    /// The component name.
    pub component: String,
    /// `/components/schemas/<name>`.
    pub pointer: Pointer,
    /// The component schema, untouched.
    pub original: Value,
    /// The Rust type name (from the component name, or a patch's rename).
    pub type_name: String,
    /// typify's copy.
    pub prepared: PreparedSchema,
}

/// One Tool Example.
#[derive(Debug, Clone, PartialEq)]
pub struct ExampleIr {
    /// Its name in the tool's `examples` map.
    pub name: String,
    /// `input` (the `tools/call` arguments).
    pub input: Value,
    /// `result` (the completed Tool Result).
    pub result: Value,
}

impl ModuleIr {
    /// Every prepared schema (shared ones first), for the type emitter.
    pub fn prepared_mut(&mut self) -> impl Iterator<Item = (Pointer, &mut PreparedSchema)> {
        let shared = self
            .shared
            .iter_mut()
            .map(|s| (s.pointer.clone(), &mut s.prepared));
        let own = self.tools.iter_mut().flat_map(|t| {
            std::iter::once(&mut t.input)
                .chain(t.output.as_mut())
                .filter_map(|s| match &mut s.source {
                    TypeSource::Own(p) => Some((s.pointer.clone(), p)),
                    TypeSource::Shared(_) | TypeSource::Variant(_) => None,
                })
        });
        let forms = self
            .elicitations
            .iter_mut()
            .filter_map(|e| e.form.as_mut())
            .map(|f| (f.pointer.clone(), &mut f.prepared));
        shared.chain(own).chain(forms)
    }

    /// Recomputes the Rust type names from the typify names (after the type emitter
    /// renamed a colliding definition) and the settings' patches.
    pub fn refresh_type_names(&mut self, settings: &Settings) {
        for s in &mut self.shared {
            s.type_name = patched(settings, &s.prepared.root_name);
        }
        for i in 0..self.tools.len() {
            let (earlier, rest) = self.tools.split_at_mut(i);
            let t = &mut rest[0];
            for (s, role) in std::iter::once((&mut t.input, Role::Input))
                .chain(t.output.as_mut().map(|o| (o, Role::Output)))
            {
                s.type_name = match &s.source {
                    TypeSource::Own(p) => patched(settings, &p.root_name),
                    // An alias keeps the tool's own name.
                    TypeSource::Shared(_) => patched(
                        settings,
                        match role {
                            Role::Input => &t.names.input_type,
                            Role::Output => &t.names.output_type,
                        },
                    ),
                    // The earlier variant's type, already refreshed.
                    TypeSource::Variant(j) => match role {
                        Role::Input => earlier[*j].input.type_name.clone(),
                        Role::Output => earlier[*j]
                            .output
                            .as_ref()
                            .map_or_else(String::new, |o| o.type_name.clone()),
                    },
                };
            }
            t.names.input_type = t.input.type_name.clone();
            if let Some(o) = &t.output {
                t.names.output_type = o.type_name.clone();
            }
        }
        for f in self.elicitations.iter_mut().filter_map(|e| e.form.as_mut()) {
            f.type_name = patched(settings, &f.prepared.root_name);
        }
    }
}

/// The name code uses for the typify name `name`: a patch's rename, else the name.
fn patched(settings: &Settings, name: &str) -> String {
    settings
        .patches()
        .get(name)
        .and_then(|p| p.new_name())
        .unwrap_or(name)
        .to_owned()
}

/// Builds the IR of the view `settings` selects. Preparation warnings go to
/// `diagnostics`.
pub fn build(
    desc: &Description,
    doc: &Document,
    settings: &Settings,
    diagnostics: &mut Vec<Diagnostic>,
) -> Result<ModuleIr, ViewError> {
    let chosen = view::select_view(doc, settings.selected_protocol_version())?;
    let selected = &chosen.tools;
    let mut types = NameAllocator::for_source(&desc.text);

    // Which component each tool schema came from, and how often each is used.
    let resolution = desc.validation.as_ref().map(|v| &v.resolution);
    let component_at = |site: &Pointer| -> Option<(String, Pointer)> {
        resolution?
            .at(site)
            .filter(|s| {
                s.target
                    .starts_with(&Pointer::root().key("components").key("schemas"))
            })
            .map(|s| (s.name.clone(), s.target.clone()))
    };
    let mut uses: BTreeMap<Pointer, (String, Vec<(usize, Role)>)> = BTreeMap::new();
    for (i, s) in selected.iter().enumerate() {
        let at = Pointer::root().key("tools").index(s.index);
        for (member, role, present) in [
            ("inputSchema", Role::Input, true),
            ("outputSchema", Role::Output, s.tool.output_schema.is_some()),
        ] {
            if let Some((name, target)) = present.then(|| component_at(&at.key(member))).flatten() {
                uses.entry(target)
                    .or_insert_with(|| (name, Vec::new()))
                    .1
                    .push((i, role));
            }
        }
    }

    // Handler groups: a group's head is named like a tool without variants (its
    // handler names), and every variant also gets a name of its own for its modules.
    let groups = handler_groups(
        selected,
        |i, role| {
            let member = match role {
                Role::Input => "inputSchema",
                Role::Output => "outputSchema",
            };
            let site = Pointer::root()
                .key("tools")
                .index(selected[i].index)
                .key(member);
            component_at(&site)
                .filter(|(_, target)| uses.get(target).is_some_and(|(_, u)| u.len() > 1))
                .map(|(_, target)| target)
        },
        |i| {
            resolution.and_then(|r| {
                r.value
                    .pointer(
                        Pointer::root()
                            .key("tools")
                            .index(selected[i].index)
                            .key("elicitations")
                            .as_str(),
                    )
                    .cloned()
            })
        },
    );
    let mut declared: Vec<String> = Vec::new();
    // Per tool: (index of its handler names, index of its module name) in `declared`.
    let mut slots: Vec<(usize, usize)> = Vec::new();
    for (i, s) in selected.iter().enumerate() {
        let own = view::variant_name(&s.tool.name, s.variant);
        match groups[i] {
            Some(head) if head == i => {
                declared.push(s.tool.name.clone());
                declared.push(own);
                slots.push((declared.len() - 2, declared.len() - 1));
            }
            Some(head) => {
                declared.push(own);
                slots.push((slots[head].0, declared.len() - 1));
            }
            None => {
                declared.push(own);
                slots.push((declared.len() - 1, declared.len() - 1));
            }
        }
    }
    let declared: Vec<&str> = declared.iter().map(String::as_str).collect();
    let all_names = naming::tool_names(&declared, &mut types);
    let mut names: Vec<ToolNames> = slots
        .iter()
        .map(|(handler, _)| all_names[*handler].clone())
        .collect();
    let modules: Vec<String> = slots
        .iter()
        .map(|(_, module)| all_names[*module].method_name.clone())
        .collect();
    // Trait names are one namespace across tools and the other primitives.
    let mut traits: std::collections::BTreeSet<String> = naming::RESERVED_TRAITS
        .iter()
        .map(|s| s.to_string())
        .chain(all_names.iter().map(|n| n.trait_name.clone()))
        .collect();
    let primitives = primitives::build(
        desc,
        &chosen,
        settings.selected_protocol_version(),
        &mut traits,
        &mut types,
        diagnostics,
    );
    let options = Options {
        format_types: settings.uses_format_types(),
        defaults: true,
        output: false,
    };

    // Shared component types: named after the component, prepared once.
    let mut shared = Vec::new();
    let mut shared_index: BTreeMap<(usize, Role), usize> = BTreeMap::new();
    for (target, (component, users)) in &uses {
        if users.len() < 2 {
            continue;
        }
        let Some(original) = desc
            .validation
            .as_ref()
            .and_then(|v| v.resolution.value.pointer(target.as_str()))
            .cloned()
        else {
            continue;
        };
        let typify_name = types.claim(naming::upper_camel(component).trim_end_matches('_'));
        let user_names: Vec<String> = users
            .iter()
            .map(|(i, _)| format!("`{}`", selected[*i].tool.name))
            .collect();
        let mut doc = format!(
            "The `{component}` component schema (`#/components/schemas/{component}`), shared by the tools {}.",
            dedup_join(&user_names)
        );
        append_doc(&mut doc, prepare::schema_doc(&original));
        let prepared = prepare::prepare(
            &original,
            target,
            &typify_name,
            Some(&doc),
            options,
            &mut types,
            diagnostics,
        );
        for user in users {
            shared_index.insert(*user, shared.len());
        }
        shared.push(SharedSchemaIr {
            component: component.clone(),
            pointer: target.clone(),
            original,
            type_name: patched(settings, &typify_name),
            prepared,
        });
    }

    let same = same_variant_types(selected, &shared_index, &groups, &mut names, &mut types);

    let mut tools: Vec<ToolIr> = Vec::new();
    for (i, (s, names)) in selected.iter().zip(names).enumerate() {
        let tool = s.tool;
        let at = Pointer::root().key("tools").index(s.index);
        let label = match &tool.title {
            Some(title) => format!("the `{}` tool ({title})", tool.name),
            None => format!("the `{}` tool", tool.name),
        };
        let earlier = &tools;
        let mut schema_ir = |role: Role, original: &Value| {
            let (member, typify_name, what) = match role {
                Role::Input => ("inputSchema", &names.input_type, "Arguments of"),
                Role::Output => ("outputSchema", &names.output_type, "Structured output of"),
            };
            let pointer = at.key(member);
            let component = component_at(&pointer).map(|(name, _)| name);
            let mut type_name = patched(settings, typify_name);
            let source = match (shared_index.get(&(i, role)), same.get(&(i, role))) {
                (Some(&k), _) => TypeSource::Shared(k),
                (None, Some(Same::Earlier(j))) => {
                    let schema = match role {
                        Role::Input => Some(&earlier[*j].input),
                        Role::Output => earlier[*j].output.as_ref(),
                    };
                    type_name = schema.map_or(type_name, |s| s.type_name.clone());
                    TypeSource::Variant(*j)
                }
                (None, same) => {
                    // A variant's own type names its scope; a type of several
                    // variants, theirs together.
                    let scope = match same {
                        Some(Same::First(scope)) => Some(*scope),
                        _ => s.variant.map(|_| s.scope),
                    };
                    let label = match scope {
                        Some(scope) => format!("{label} in {scope}"),
                        None => label.clone(),
                    };
                    let mut doc = format!("{what} {label}.");
                    append_doc(&mut doc, prepare::schema_doc(original));
                    TypeSource::Own(prepare::prepare(
                        original,
                        &pointer,
                        typify_name,
                        Some(&doc),
                        Options {
                            output: role == Role::Output,
                            ..options
                        },
                        &mut types,
                        diagnostics,
                    ))
                }
            };
            SchemaIr {
                pointer,
                original: original.clone(),
                component,
                type_name,
                source,
            }
        };
        let input = schema_ir(Role::Input, &tool.input_schema);
        let output = tool
            .output_schema
            .as_ref()
            .map(|o| schema_ir(Role::Output, o));
        let examples = tool
            .examples
            .iter()
            .flatten()
            .map(|(name, e)| ExampleIr {
                name: name.clone(),
                input: e.input.clone(),
                result: e.result.clone(),
            })
            .collect();
        let declaration = resolution
            .and_then(|r| r.value.pointer(at.as_str()))
            .cloned()
            .unwrap_or(Value::Null);
        let interaction_examples = tool
            .interaction_examples
            .iter()
            .flatten()
            .map(|(name, e)| InteractionExampleIr {
                name: name.clone(),
                input: e.input.clone(),
                steps: declaration
                    .pointer(
                        &Pointer::root()
                            .key("interactionExamples")
                            .key(name)
                            .key("steps")
                            .to_string(),
                    )
                    .cloned()
                    .unwrap_or(Value::Null),
                result: e.result.clone(),
            })
            .collect();
        let scope = match settings.selected_protocol_version() {
            Some(v) => s.scope.intersect(VersionSet::only(v)),
            None => s.scope,
        };
        let mut names = names;
        names.input_type = input.type_name.clone();
        if let Some(o) = &output {
            names.output_type = o.type_name.clone();
        }
        let handler_scope = match groups[i] {
            Some(head) => (0..selected.len())
                .filter(|&k| groups[k] == Some(head))
                .fold(VersionSet::default(), |acc, k| acc.union(selected[k].scope)),
            None => scope,
        };
        tools.push(ToolIr {
            name: tool.name.clone(),
            index: s.index,
            pointer: at,
            names,
            module: modules[i].clone(),
            handler_of: groups[i].filter(|&head| head != i),
            handler_scope,
            shared_handler: groups[i].is_some(),
            scope,
            variant: s.variant,
            title: tool.title.clone(),
            description: tool.description.clone(),
            annotations: tool.annotations.clone(),
            deprecated: tool.deprecated == Some(true),
            input,
            output,
            examples,
            interaction_examples,
            declaration,
            task_support: tool.execution.as_ref().and_then(|e| e.task_support.clone()),
        });
    }

    // A handler group's trait (and client method) is deprecated only when every
    // variant is: a handler that still serves a current variant is not.
    for head in 0..tools.len() {
        if tools[head].shared_handler && tools[head].handler_of.is_none() {
            let all = tools
                .iter()
                .enumerate()
                .filter(|(k, t)| *k == head || t.handler_of == Some(head))
                .all(|(_, t)| t.deprecated);
            tools[head].deprecated = all;
        }
    }

    {
        let mut prepared: Vec<&mut PreparedSchema> =
            shared.iter_mut().map(|s| &mut s.prepared).collect();
        for t in &mut tools {
            for schema in std::iter::once(&mut t.input).chain(t.output.as_mut()) {
                if let TypeSource::Own(p) = &mut schema.source {
                    prepared.push(p);
                }
            }
        }
        share_definitions(&mut prepared, &mut types);
        share_inline(&mut prepared, &mut types);
    }
    // A handler group's elicitations are equal (see `handler_groups`): its head's
    // serve the whole group, under the handler's names.
    let heads: Vec<ToolIr> = tools
        .iter()
        .filter(|t| t.handler_of.is_none())
        .cloned()
        .collect();
    let elicitations =
        super::elicitations::build(&heads, &primitives, options, &mut types, diagnostics);

    let root: VersionSet = doc
        .protocol_versions
        .iter()
        .filter_map(|v| ProtocolVersion::parse(v))
        .collect();
    let null = Value::Null;
    let resolved = resolution.map_or(&null, |r| &r.value);
    let security = security::build(resolved, &tools, &primitives);
    let server = ServerIr {
        security: security.declaration.clone(),
        name: doc.info.name.clone(),
        version: doc.info.version.clone(),
        title: doc.info.title.clone(),
        description: doc.info.description.clone(),
        website_url: doc.info.website_url.clone(),
        instructions: doc.instructions.clone(),
        capabilities: doc
            .capabilities
            .as_ref()
            .map(|list| serde_json::Value::Array(list.clone()).to_string()),
        protocol_versions: match settings.selected_protocol_version() {
            Some(v) => VersionSet::only(v),
            None => root,
        },
    };

    Ok(ModuleIr {
        source: source_name(&desc.name),
        protocol_version: settings.selected_protocol_version(),
        tools,
        shared,
        type_names: types,
        server,
        primitives,
        security,
        elicitations,
    })
}

/// Handler groups of protocol-scoped variants: per selected tool, the index of the
/// first variant of its group, or `None` when it is alone.
///
/// Variants of one tool whose handler signature is the same (the same input type and
/// the same output type after sharing, and equal `elicitations`) form one group: they
/// share one handler trait with the tool's own names (`AnalyzeGame`, `analyze_game`,
/// `AnalyzeGameInput`), since they differ only in what the router serves about them
/// (`description`, `annotations`, `execution`, `security`, examples...). A role's type
/// is the same when both schemas come from one shared component (`component(i, role)`
/// gives its pointer), or when neither does and the schemas are equal (what
/// [`same_variant_types`] then makes one type). `elicitations(i)` is the resolved
/// `elicitations` member.
pub(crate) fn handler_groups(
    selected: &[view::Selected<'_>],
    component: impl Fn(usize, Role) -> Option<Pointer>,
    elicitations: impl Fn(usize) -> Option<Value>,
) -> Vec<Option<usize>> {
    let key = |i: usize| {
        let tool = selected[i].tool;
        let role = |role: Role, schema: Option<&Value>| match (component(i, role), schema) {
            (Some(target), _) => Some(format!("component {target}")),
            (None, Some(schema)) => Some(format!("schema {schema}")),
            (None, None) => None,
        };
        (
            tool.name.clone(),
            role(Role::Input, Some(&tool.input_schema)),
            role(Role::Output, tool.output_schema.as_ref()),
            elicitations(i),
        )
    };
    let keys: Vec<_> = (0..selected.len())
        .map(|i| selected[i].variant.map(|_| key(i)))
        .collect();
    let mut groups = vec![None; selected.len()];
    for i in 0..selected.len() {
        let Some(mine) = &keys[i] else { continue };
        if groups[i].is_some() {
            continue;
        }
        let later: Vec<usize> = (i + 1..selected.len())
            .filter(|&k| groups[k].is_none() && keys[k].as_ref() == Some(mine))
            .collect();
        if later.is_empty() {
            continue;
        }
        groups[i] = Some(i);
        for k in later {
            groups[k] = Some(i);
        }
    }
    groups
}

/// How a tool schema takes part in the types of protocol-scoped variants.
enum Same {
    /// The first of several variants with this schema: its type is named after the
    /// tool (`RunInput`, not `RunV20251125Input`) and documents their scopes together.
    First(VersionSet),
    /// Identical to the schema of the same role of the earlier variant `tools[i]`.
    Earlier(usize),
}

/// Variants of one tool whose input (or output) schemas are identical share one type
/// (unless a shared component type already serves them): the first gets the tool's
/// own type name instead of its variant name (`names` is updated), the others point
/// at it.
fn same_variant_types(
    selected: &[view::Selected<'_>],
    shared_index: &BTreeMap<(usize, Role), usize>,
    groups: &[Option<usize>],
    names: &mut [ToolNames],
    types: &mut NameAllocator,
) -> BTreeMap<(usize, Role), Same> {
    let mut same = BTreeMap::new();
    let schema = |i: usize, role: Role| match role {
        Role::Input => Some(&selected[i].tool.input_schema),
        Role::Output => selected[i].tool.output_schema.as_ref(),
    };
    for role in [Role::Input, Role::Output] {
        for i in 0..selected.len() {
            let own = |k: usize| {
                selected[k].variant.is_some()
                    && !shared_index.contains_key(&(k, role))
                    && !same.contains_key(&(k, role))
            };
            let Some(first) = schema(i, role).filter(|_| own(i)) else {
                continue;
            };
            let later: Vec<usize> = (i + 1..selected.len())
                .filter(|&k| {
                    own(k)
                        && selected[k].tool.name == selected[i].tool.name
                        && schema(k, role) == Some(first)
                })
                .collect();
            if later.is_empty() {
                continue;
            }
            let scope = later
                .iter()
                .fold(selected[i].scope, |acc, &k| acc.union(selected[k].scope));
            let suffix = match role {
                Role::Input => "Input",
                Role::Output => "Output",
            };
            // A handler group among them already holds the tool's own type name.
            let head = std::iter::once(i)
                .chain(later.iter().copied())
                .find(|&k| groups[k] == Some(k));
            let name = match head {
                Some(head) => match role {
                    Role::Input => names[head].input_type.clone(),
                    Role::Output => names[head].output_type.clone(),
                },
                None => types.claim(&naming::type_name(
                    &naming::upper_camel(&selected[i].tool.name),
                    suffix,
                )),
            };
            match role {
                Role::Input => names[i].input_type = name,
                Role::Output => names[i].output_type = name,
            }
            same.insert((i, role), Same::First(scope));
            for k in later {
                same.insert((k, role), Same::Earlier(i));
            }
        }
    }
    same
}

/// Identical `$defs` (or `definitions`) of different schemas become one Rust type,
/// named after the `$defs` key (`IssuePriority`, not `CreateIssueInputIssuePriority`):
/// each schema keeps its copy of the definition under the shared name, and the type
/// space converts it once. Definitions that refer to shared ones become identical in
/// turn, so the grouping repeats until nothing changes (at most once per definition).
///
/// ```text
/// create_issue: $defs/IssuePriority {enum: [low, high]}  ─┐
/// get_issue:    $defs/IssuePriority {enum: [low, high]}  ─┴─▶ types::IssuePriority
/// ```
pub fn share_definitions(prepared: &mut [&mut PreparedSchema], names: &mut NameAllocator) {
    let mut shared_names: std::collections::BTreeSet<String> = std::collections::BTreeSet::new();
    let total: usize = prepared.iter().map(|p| p.defs.len()).sum();
    for _ in 0..=total {
        // Canonical text of each definition not yet shared → (schema, definition).
        let mut groups: BTreeMap<String, Vec<(usize, usize)>> = BTreeMap::new();
        for (u, p) in prepared.iter().enumerate() {
            for (d, (name, value)) in p.defs.iter().enumerate() {
                if shared_names.contains(name) || def_key(p, d).is_none() {
                    continue;
                }
                groups.entry(value.to_string()).or_default().push((u, d));
            }
        }
        let mut changed = false;
        for members in groups.values() {
            let schemas: std::collections::BTreeSet<usize> = members.iter().map(|m| m.0).collect();
            if schemas.len() < 2 {
                continue;
            }
            let (u0, d0) = members[0];
            let key = def_key(prepared[u0], d0).unwrap_or_default();
            let name = names.claim(naming::upper_camel(&key).trim_end_matches('_'));
            for &(u, d) in members {
                let old = prepared[u].defs[d].0.clone();
                prepared[u].rename(&old, &name);
            }
            shared_names.insert(name);
            changed = true;
        }
        if !changed {
            break;
        }
    }
}

/// One inline schema that could become a shared type: a property's (or array item's)
/// enum, or object with properties, in typify's copy of a schema.
struct Inline {
    /// The prepared schema (unit) it is in.
    unit: usize,
    /// `None` for the unit's root, else the index of its definition.
    def: Option<usize>,
    /// Its JSON pointer in that schema.
    path: String,
    /// The type name typify would derive for it (`{Parent}{Property}`).
    derived: String,
}

/// Identical inline enum and object schemas of several tools' schemas become one Rust
/// type, named after the first use (the name typify would have derived for it there,
/// such as `CreateIssueInputState`): the schema moves to a definition of its first unit
/// and every use becomes a `$ref` to it. "Identical" is the same prepared schema
/// (description included, placeholders restored). Uses are taken in the order of the
/// units and of the properties, outer schemas before inner ones, so the result is
/// deterministic; an inline schema used by one tool only is left to typify.
///
/// ```text
/// create_issue: properties/state {enum: [open, closed]} ─┐
/// update_issue: properties/state {enum: [open, closed]} ─┴─▶ types::CreateIssueInputState
/// ```
pub fn share_inline(prepared: &mut [&mut PreparedSchema], names: &mut NameAllocator) {
    // Each round shares the shallowest groups; inner schemas of a shared one are then
    // in its definition once, and another round may share them with other uses.
    let bound = prepared.len() * 4 + 4;
    for _ in 0..bound {
        let mut found = Vec::new();
        for (u, p) in prepared.iter().enumerate() {
            inline_candidates(&p.root, u, None, "", &p.root_name, &mut found);
            for (d, (name, value)) in p.defs.iter().enumerate() {
                inline_candidates(value, u, Some(d), "", name, &mut found);
            }
        }
        let key_of = |p: &PreparedSchema, c: &Inline| -> Option<String> {
            let schema = match c.def {
                None => &p.root,
                Some(d) => &p.defs.get(d)?.1,
            };
            let node = schema.pointer(&c.path)?;
            Some(names.placeholders().restore_plain(&node.to_string()))
        };
        let mut groups: BTreeMap<String, Vec<usize>> = BTreeMap::new();
        for (i, c) in found.iter().enumerate() {
            if let Some(key) = key_of(prepared[c.unit], c) {
                groups.entry(key).or_default().push(i);
            }
        }
        // Shallowest first, then in order of first use.
        let mut chosen: Vec<(String, Vec<usize>)> = groups
            .into_iter()
            .filter(|(_, members)| {
                let units: std::collections::BTreeSet<usize> =
                    members.iter().map(|&i| found[i].unit).collect();
                units.len() > 1
            })
            .collect();
        let Some(depth) = chosen
            .iter()
            .map(|(_, m)| found[m[0]].path.matches('/').count())
            .min()
        else {
            break;
        };
        chosen.retain(|(_, m)| found[m[0]].path.matches('/').count() == depth);
        chosen.sort_by_key(|(_, m)| m[0]);
        for (_, members) in chosen {
            let first = &found[members[0]];
            let name = names.claim(&first.derived);
            let reference = serde_json::json!({ "$ref": format!("#/definitions/{name}") });
            let mut moved = None;
            let mut users = std::collections::BTreeSet::new();
            for &i in &members {
                let c = &found[i];
                let p = &mut *prepared[c.unit];
                let schema = match c.def {
                    None => &mut p.root,
                    Some(d) => &mut p.defs[d].1,
                };
                // A use inside a schema shared earlier in this round is gone.
                if let Some(node) = schema.pointer_mut(&c.path) {
                    let node = std::mem::replace(node, reference.clone());
                    moved.get_or_insert(node);
                    users.insert(c.unit);
                }
            }
            // Every unit using it holds the same copy (as with shared `$defs`), so each
            // unit stays self-contained and the type space converts it once.
            if let Some(node) = moved {
                for u in users {
                    let p = &mut *prepared[u];
                    p.defs.push((name.clone(), node.clone()));
                    p.def_pointers.push(Pointer::root());
                }
            }
        }
    }
}

/// The inline schemas under `properties` chains and array `items` of `schema`.
fn inline_candidates(
    schema: &Value,
    unit: usize,
    def: Option<usize>,
    path: &str,
    parent: &str,
    out: &mut Vec<Inline>,
) {
    let Some(map) = schema.as_object() else {
        return;
    };
    if let Some(Value::Object(props)) = map.get("properties") {
        for (key, value) in props {
            let escaped = key.replace('~', "~0").replace('/', "~1");
            let at = format!("{path}/properties/{escaped}");
            let word = naming::typify_sanitize(key, naming::Case::Pascal);
            let derived = naming::type_name(parent, word.trim_end_matches('_'));
            if shareable(value) {
                out.push(Inline {
                    unit,
                    def,
                    path: at.clone(),
                    derived: derived.clone(),
                });
            }
            inline_candidates(value, unit, def, &at, &derived, out);
        }
    }
    if let Some(items @ Value::Object(_)) = map.get("items") {
        let derived = naming::type_name(parent, "Item");
        let at = format!("{path}/items");
        if shareable(items) {
            out.push(Inline {
                unit,
                def,
                path: at.clone(),
                derived: derived.clone(),
            });
        }
        inline_candidates(items, unit, def, &at, &derived, out);
    }
}

/// Whether typify makes a type of its own for `schema`: an enum, or an object with
/// properties.
fn shareable(schema: &Value) -> bool {
    let Some(node) = schema.as_object() else {
        return false;
    };
    let is_enum = node.contains_key("enum") && !node.contains_key("$ref");
    let is_object = node.get("type") == Some(&Value::String("object".into()))
        && node
            .get("properties")
            .and_then(Value::as_object)
            .is_some_and(|p| !p.is_empty());
    is_enum || is_object
}

/// The `$defs`/`definitions` key of definition `d`, if it is one.
fn def_key(p: &PreparedSchema, d: usize) -> Option<String> {
    let at = p.def_pointers.get(d)?;
    let segments: Vec<String> = at.segments().collect();
    match segments.as_slice() {
        [.., container, key] if container == "$defs" || container == "definitions" => {
            Some(key.clone())
        }
        _ => None,
    }
}

/// The file name of a description path (never a directory, so output does not depend on
/// where the file lives).
fn source_name(name: &str) -> String {
    std::path::Path::new(name)
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| name.to_owned())
}

fn append_doc(doc: &mut String, more: Option<String>) {
    if let Some(more) = more {
        doc.push_str("\n\n");
        doc.push_str(&more);
    }
}

/// `a`, `b` and `c`, each name once.
fn dedup_join(names: &[String]) -> String {
    let mut unique: Vec<&String> = Vec::new();
    for n in names {
        if !unique.contains(&n) {
            unique.push(n);
        }
    }
    match unique.as_slice() {
        [] => String::new(),
        [one] => (*one).clone(),
        [rest @ .., last] => format!(
            "{} and {last}",
            rest.iter()
                .map(|s| s.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}
