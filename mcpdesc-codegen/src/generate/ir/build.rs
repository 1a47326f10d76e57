//! Building the IR: the view's tools with their names, original and prepared schemas,
//! shared types, examples, primitives, elicitations and security, in one pass over
//! the description.

use std::collections::BTreeMap;

use serde_json::Value;

use super::module::{patched, ModuleIr, ServerIr};
use super::share::rounds::share_types;
use super::tool::{
    ExampleIr, InteractionExampleIr, Role, SchemaIr, SharedSchemaIr, ToolIr, TypeSource,
};
use super::variants::{handler_groups, same_variant_types, Same};
use super::{elicitation, replace, security};
use crate::generate::naming::{self, NameAllocator, ToolNames};
use crate::generate::prepare::{self, Options};
use crate::generate::primitives;
use crate::settings::Settings;
use mcpdesc_description::description::Description;
use mcpdesc_description::diagnostic::Diagnostic;
use mcpdesc_description::model::{Document, Tool};
use mcpdesc_description::pointer::Pointer;
use mcpdesc_description::protocol::{ProtocolVersion, VersionSet};
use mcpdesc_description::validate::Resolution;
use mcpdesc_description::view::{self, ViewError};

/// Builds the IR of the view `settings` selects. Preparation warnings go to
/// `diagnostics`.
///
/// The steps run in this order because each claims type names from one
/// [`NameAllocator`] and the first claim of a name gets it: tool names, the other
/// primitives, shared component types, variant types, each tool's own types, shared
/// definitions, elicitation forms.
pub fn build(
    desc: &Description,
    doc: &Document,
    settings: &Settings,
    diagnostics: &mut Vec<Diagnostic>,
) -> Result<ModuleIr, ViewError> {
    let chosen = view::select_view(doc, settings.selected_protocol_version())?;
    let selected = &chosen.tools;
    let mut types = NameAllocator::for_source(&desc.text);
    let resolution = desc.validation.as_ref().map(|v| &v.resolution);

    let uses = component_uses(selected, resolution);
    let groups = groups_of(selected, resolution, &uses);
    let (names, modules, all_names) = tool_name_slots(selected, &groups, &mut types);
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
        non_zero: settings.uses_non_zero_integers(),
        own: settings.own_types(),
    };
    let mut names = names;
    let (mut shared, shared_index) = shared_schemas(
        resolution,
        selected,
        &uses,
        options,
        settings,
        &mut types,
        diagnostics,
    );
    let same = same_variant_types(selected, &shared_index, &groups, &mut names, &mut types);

    let mut builder = ToolBuilder {
        selected,
        resolution,
        settings,
        options,
        groups: &groups,
        shared_index: &shared_index,
        same: &same,
        types: &mut types,
        diagnostics: &mut *diagnostics,
    };
    let mut tools: Vec<ToolIr> = Vec::new();
    for (i, names) in names.into_iter().enumerate() {
        let tool = builder.tool_ir(i, names, &modules[i], &tools);
        tools.push(tool);
    }
    deprecate_handler_groups(&mut tools);
    share_types(&mut shared, &mut tools, &mut types, settings);
    let own = replace::resolve(&mut shared, &mut tools, settings, diagnostics);

    // A handler group's elicitations are equal (see `handler_groups`): its head's
    // serve the whole group, under the handler's names.
    let heads: Vec<ToolIr> = tools
        .iter()
        .filter(|t| t.handler_of.is_none())
        .cloned()
        .collect();
    let elicitations = elicitation::build(&heads, &primitives, options, &mut types, diagnostics);

    let null = Value::Null;
    let resolved = resolution.map_or(&null, |r| &r.value);
    let security = security::build(resolved, &tools, &primitives);
    let server = server_ir(doc, settings, security.declaration.clone());

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
        own,
    })
}

/// Per component schema (by pointer): its name and the tool schemas resolved from it
/// (tool index among the selected tools, role).
type ComponentUses = BTreeMap<Pointer, (String, Vec<(usize, Role)>)>;

/// The component schema (name and pointer) a tool schema at `site` was resolved from,
/// if it is a `$componentRef` to `#/components/schemas/...`.
fn component_at(resolution: Option<&Resolution>, site: &Pointer) -> Option<(String, Pointer)> {
    resolution?
        .at(site)
        .filter(|s| {
            s.target
                .starts_with(&Pointer::root().key("components").key("schemas"))
        })
        .map(|s| (s.name.clone(), s.target.clone()))
}

/// The pointer of the `member` schema (`inputSchema`, `outputSchema`) of `role`.
fn schema_member(role: Role) -> &'static str {
    match role {
        Role::Input => "inputSchema",
        Role::Output => "outputSchema",
    }
}

/// Which component each tool schema came from, and which tool schemas use it
/// (tool index among `selected`, role), keyed by the component's pointer.
fn component_uses(
    selected: &[view::Selected<'_>],
    resolution: Option<&Resolution>,
) -> ComponentUses {
    let mut uses: ComponentUses = BTreeMap::new();
    for (i, s) in selected.iter().enumerate() {
        let at = Pointer::root().key("tools").index(s.index);
        for (member, role, present) in [
            ("inputSchema", Role::Input, true),
            ("outputSchema", Role::Output, s.tool.output_schema.is_some()),
        ] {
            if let Some((name, target)) = present
                .then(|| component_at(resolution, &at.key(member)))
                .flatten()
            {
                uses.entry(target)
                    .or_insert_with(|| (name, Vec::new()))
                    .1
                    .push((i, role));
            }
        }
    }
    uses
}

/// The handler groups of the selected tools (see [`handler_groups`]): a schema's type
/// is a shared component's when the component has several users.
fn groups_of(
    selected: &[view::Selected<'_>],
    resolution: Option<&Resolution>,
    uses: &ComponentUses,
) -> Vec<Option<usize>> {
    handler_groups(
        selected,
        |i, role| {
            let site = Pointer::root()
                .key("tools")
                .index(selected[i].index)
                .key(schema_member(role));
            component_at(resolution, &site)
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
    )
}

/// Names every selected tool: per tool its handler names and its module name, and all
/// names claimed. A group's head is named like a tool without variants (its handler
/// names), and every variant also gets a name of its own for its modules.
fn tool_name_slots(
    selected: &[view::Selected<'_>],
    groups: &[Option<usize>],
    types: &mut NameAllocator,
) -> (Vec<ToolNames>, Vec<String>, Vec<ToolNames>) {
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
    let all_names = naming::tool_names(&declared, types);
    let names: Vec<ToolNames> = slots
        .iter()
        .map(|(handler, _)| all_names[*handler].clone())
        .collect();
    let modules: Vec<String> = slots
        .iter()
        .map(|(_, module)| all_names[*module].method_name.clone())
        .collect();
    (names, modules, all_names)
}

/// Shared component types: every component used by several tool schemas, named after
/// the component and prepared once; and which (tool, role) uses which.
fn shared_schemas(
    resolution: Option<&Resolution>,
    selected: &[view::Selected<'_>],
    uses: &ComponentUses,
    options: Options<'_>,
    settings: &Settings,
    types: &mut NameAllocator,
    diagnostics: &mut Vec<Diagnostic>,
) -> (Vec<SharedSchemaIr>, BTreeMap<(usize, Role), usize>) {
    let mut shared = Vec::new();
    let mut shared_index: BTreeMap<(usize, Role), usize> = BTreeMap::new();
    for (target, (component, users)) in uses {
        if users.len() < 2 {
            continue;
        }
        let Some(original) = resolution
            .and_then(|r| r.value.pointer(target.as_str()))
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
            types,
            diagnostics,
        );
        for user in users {
            shared_index.insert(*user, shared.len());
        }
        shared.push(SharedSchemaIr {
            component: Some(component.clone()),
            pointer: target.clone(),
            original,
            type_name: patched(settings, &typify_name),
            prepared,
            replaced: None,
        });
    }
    (shared, shared_index)
}

/// What building one tool's IR reads besides the tool (the selection, the resolved
/// description, the settings and the decisions already made about types and handlers)
/// and what it adds to (the module's type names, the diagnostics).
struct ToolBuilder<'a> {
    selected: &'a [view::Selected<'a>],
    resolution: Option<&'a Resolution>,
    settings: &'a Settings,
    options: Options<'a>,
    groups: &'a [Option<usize>],
    shared_index: &'a BTreeMap<(usize, Role), usize>,
    same: &'a BTreeMap<(usize, Role), Same>,
    types: &'a mut NameAllocator,
    diagnostics: &'a mut Vec<Diagnostic>,
}

impl ToolBuilder<'_> {
    /// The IR of the selected tool `i`, named `names`, its module `module`; `earlier`
    /// are the tools built before it (a variant may reuse their types).
    fn tool_ir(&mut self, i: usize, names: ToolNames, module: &str, earlier: &[ToolIr]) -> ToolIr {
        let s = &self.selected[i];
        let tool = s.tool;
        let at = Pointer::root().key("tools").index(s.index);
        let input = self.schema_ir(i, Role::Input, &tool.input_schema, &names, earlier);
        let output = tool
            .output_schema
            .as_ref()
            .map(|o| self.schema_ir(i, Role::Output, o, &names, earlier));
        let declaration = self
            .resolution
            .and_then(|r| r.value.pointer(at.as_str()))
            .cloned()
            .unwrap_or(Value::Null);
        let scope = match self.settings.selected_protocol_version() {
            Some(v) => s.scope.intersect(VersionSet::only(v)),
            None => s.scope,
        };
        let mut names = names;
        names.input_type = input.type_name.clone();
        if let Some(o) = &output {
            names.output_type = o.type_name.clone();
        }
        let groups = self.groups;
        let handler_scope = match groups[i] {
            Some(head) => (0..self.selected.len())
                .filter(|&k| groups[k] == Some(head))
                .fold(VersionSet::default(), |acc, k| {
                    acc.union(self.selected[k].scope)
                }),
            None => scope,
        };
        ToolIr {
            name: tool.name.clone(),
            index: s.index,
            pointer: at,
            names,
            module: module.to_owned(),
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
            examples: examples_of(tool),
            interaction_examples: interaction_examples_of(tool, &declaration),
            declaration,
            task_support: tool.execution.as_ref().and_then(|e| e.task_support.clone()),
        }
    }

    /// The IR of the `role` schema `original` of the selected tool `i`: a shared
    /// component's type, an earlier variant's identical type, or a type of its own,
    /// prepared here.
    fn schema_ir(
        &mut self,
        i: usize,
        role: Role,
        original: &Value,
        names: &ToolNames,
        earlier: &[ToolIr],
    ) -> SchemaIr {
        let s = &self.selected[i];
        let tool = s.tool;
        let (typify_name, what) = match role {
            Role::Input => (&names.input_type, "Arguments of"),
            Role::Output => (&names.output_type, "Structured output of"),
        };
        let pointer = Pointer::root()
            .key("tools")
            .index(s.index)
            .key(schema_member(role));
        let component = component_at(self.resolution, &pointer).map(|(name, _)| name);
        let mut type_name = patched(self.settings, typify_name);
        let source = match (self.shared_index.get(&(i, role)), self.same.get(&(i, role))) {
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
                let label = match &tool.title {
                    Some(title) => format!("the `{}` tool ({title})", tool.name),
                    None => format!("the `{}` tool", tool.name),
                };
                // A variant's own type names its scope; a type of several
                // variants, theirs together.
                let scope = match same {
                    Some(Same::First(scope)) => Some(*scope),
                    _ => s.variant.map(|_| s.scope),
                };
                let label = match scope {
                    Some(scope) => format!("{label} in {scope}"),
                    None => label,
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
                        ..self.options
                    },
                    self.types,
                    self.diagnostics,
                ))
            }
        };
        SchemaIr {
            pointer,
            original: original.clone(),
            component,
            type_name,
            source,
            replaced: None,
        }
    }
}

/// A tool's `examples`, in declaration order.
fn examples_of(tool: &Tool) -> Vec<ExampleIr> {
    tool.examples
        .iter()
        .flatten()
        .map(|(name, e)| ExampleIr {
            name: name.clone(),
            input: e.input.clone(),
            result: e.result.clone(),
        })
        .collect()
}

/// A tool's `interactionExamples`, their steps as resolved in `declaration`.
fn interaction_examples_of(tool: &Tool, declaration: &Value) -> Vec<InteractionExampleIr> {
    tool.interaction_examples
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
        .collect()
}

/// A handler group's trait (and client method) is deprecated only when every
/// variant is: a handler that still serves a current variant is not.
fn deprecate_handler_groups(tools: &mut [ToolIr]) {
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
}

/// The server's own data: its info, instructions, capabilities, security declaration
/// and the protocol versions the module serves.
fn server_ir(doc: &Document, settings: &Settings, security: Option<String>) -> ServerIr {
    let root: VersionSet = doc
        .protocol_versions
        .iter()
        .filter_map(|v| ProtocolVersion::parse(v))
        .collect();
    ServerIr {
        security,
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
