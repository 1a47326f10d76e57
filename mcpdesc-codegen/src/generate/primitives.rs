//! The IR of prompts, resources and resource templates: names, scopes, typed arguments
//! and variables, examples and completion examples, and the resolved declarations the
//! runtime serves.
//!
//! ```text
//! View ──build──▶ PrimitivesIr ─┬─ prompts: PromptIr (arguments → {Name}Arguments)
//!                               ├─ resources: ResourceIr
//!                               └─ resource_templates: TemplateIr (level-1 variables →
//!                                    {Name}Variables; beyond level 1: one raw String)
//! ```
//!
//! Example requests are stored in the form the runtime mock compares (see
//! `mcpdesc::testing::RequestExample`): a prompt example's `arguments` (`{}` when
//! absent), the resource's `uri` or the template example's `uri` as a JSON string, and a
//! completion example's `argument` and `context` without extension members.

use std::collections::BTreeSet;

use serde_json::{json, Value};

use super::naming::{self, NameAllocator, PrimitiveKind, PrimitiveNames};
use mcpdesc_description::description::Description;
use mcpdesc_description::diagnostic::{Diagnostic, Severity};
use mcpdesc_description::model::{Prompt, Resource, ResourceTemplate};
use mcpdesc_description::pointer::Pointer;
use mcpdesc_description::protocol::{ProtocolVersion, VersionSet};
use mcpdesc_description::rules;
use mcpdesc_description::validate::uri_template::UriTemplate;
use mcpdesc_description::view::{variant_name, Chosen, View};

/// The example extension that says how implementation tests compare an example's
/// result (`"exact"`, the default, or `"shape"`; see `mcpdesc::implementation`).
pub const COMPARE_EXTENSION: &str = "x-mcpdesc-compare";

/// The prompts, resources and resource templates of one generated module.
#[derive(Debug, Clone, Default)]
pub struct PrimitivesIr {
    /// The prompts, in document order.
    pub prompts: Vec<PromptIr>,
    /// The resources, in document order.
    pub resources: Vec<ResourceIr>,
    /// The resource templates, in document order.
    pub resource_templates: Vec<TemplateIr>,
}

impl PrimitivesIr {
    /// Whether there is no prompt, resource or template.
    pub fn is_empty(&self) -> bool {
        self.prompts.is_empty() && self.resources.is_empty() && self.resource_templates.is_empty()
    }
}

/// One example of a prompt, resource, template or completion.
#[derive(Debug, Clone, PartialEq)]
pub struct RequestExampleIr {
    /// Its name in the declaration's map.
    pub name: String,
    /// Its use-site pointer (`/prompts/0/examples/default`).
    pub pointer: Pointer,
    /// The request, in the runtime mock's form (see the module docs).
    pub request: Value,
    /// `result`.
    pub result: Value,
    /// The example's `x-mcpdesc-compare` extension (how implementation tests compare
    /// its result), when it has one.
    pub compare: Option<Value>,
}

/// One field of a generated arguments or variables struct.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldIr {
    /// The declared name (argument name or template variable).
    pub name: String,
    /// The Rust field name.
    pub field: String,
    /// Whether the value is always present (`String`) or optional (`Option<String>`).
    pub required: bool,
    /// Documentation: the argument's title and description.
    pub doc: Option<String>,
}

/// Declaration metadata every kind shares.
#[derive(Debug, Clone)]
pub struct CommonIr {
    /// `name`.
    pub name: String,
    /// The index in its array.
    pub index: usize,
    /// Its pointer (`/prompts/0`).
    pub pointer: Pointer,
    /// Its Rust names.
    pub names: PrimitiveNames,
    /// Its effective protocol scope.
    pub scope: VersionSet,
    /// For a protocol-scoped variant: the first version of its scope, which its Rust
    /// names carry (see [`mcpdesc_description::view::variant_name`]).
    pub variant: Option<ProtocolVersion>,
    /// `title`.
    pub title: Option<String>,
    /// `description`.
    pub description: Option<String>,
    /// `deprecated: true`.
    pub deprecated: bool,
    /// The resolved declaration (what the runtime lists, without the example maps).
    pub declaration: Value,
}

/// One prompt.
#[derive(Debug, Clone)]
pub struct PromptIr {
    /// Name, scope, docs, declaration.
    pub common: CommonIr,
    /// The arguments, as fields of `{Name}Arguments`.
    pub arguments: Vec<FieldIr>,
    /// The Prompt Examples, by name.
    pub examples: Vec<RequestExampleIr>,
    /// The completion examples, by name.
    pub completion_examples: Vec<RequestExampleIr>,
}

/// One resource.
#[derive(Debug, Clone)]
pub struct ResourceIr {
    /// Name, scope, docs, declaration.
    pub common: CommonIr,
    /// `uri`.
    pub uri: String,
    /// `mimeType`.
    pub mime_type: Option<String>,
    /// The Resource Examples, by name.
    pub examples: Vec<RequestExampleIr>,
}

/// One resource template.
#[derive(Debug, Clone)]
pub struct TemplateIr {
    /// Name, scope, docs, declaration.
    pub common: CommonIr,
    /// `uriTemplate`.
    pub uri_template: String,
    /// `mimeType`.
    pub mime_type: Option<String>,
    /// The variables as fields of `{Name}Variables`, for a level-1 template; `None`
    /// beyond level 1 (the variables are one raw `String`).
    pub variables: Option<Vec<FieldIr>>,
    /// The Resource Template Examples, by name.
    pub examples: Vec<RequestExampleIr>,
    /// The completion examples, by name.
    pub completion_examples: Vec<RequestExampleIr>,
}

/// The resolved declaration at `at`, without the example maps (which the runtime does
/// not serve; the generated example modules carry them).
fn declaration(desc: &Description, at: &Pointer) -> Value {
    let mut value = desc
        .validation
        .as_ref()
        .and_then(|v| v.resolution.value.pointer(at.as_str()))
        .cloned()
        .unwrap_or(Value::Null);
    if let Some(map) = value.as_object_mut() {
        map.remove("examples");
        map.remove("completionExamples");
    }
    value
}

fn common<T>(
    desc: &Description,
    chosen: &Chosen<'_, T>,
    array: &str,
    names: PrimitiveNames,
    scope: VersionSet,
    fields: (&str, Option<&String>, Option<&String>, Option<bool>),
) -> CommonIr {
    let pointer = Pointer::root().key(array).index(chosen.index);
    let (name, title, description, deprecated) = fields;
    CommonIr {
        name: name.to_owned(),
        index: chosen.index,
        declaration: declaration(desc, &pointer),
        pointer,
        names,
        scope,
        variant: chosen.variant,
        title: title.cloned(),
        description: description.cloned(),
        deprecated: deprecated == Some(true),
    }
}

/// The named examples of a map, in name order, with the request `request_of` builds.
fn examples(
    map: Option<&std::collections::BTreeMap<String, Value>>,
    at: &Pointer,
    request_of: impl Fn(&Value) -> Value,
) -> Vec<RequestExampleIr> {
    map.into_iter()
        .flatten()
        .map(|(name, example)| RequestExampleIr {
            name: name.clone(),
            pointer: at.key(name),
            request: request_of(example),
            result: example.get("result").cloned().unwrap_or(Value::Null),
            compare: example.get(COMPARE_EXTENSION).cloned(),
        })
        .collect()
}

/// A completion example's request without `x-*` members.
fn completion_request(example: &Value) -> Value {
    let text = |p: &str| example.pointer(p).cloned().unwrap_or(Value::from(""));
    let mut request =
        json!({"argument": {"name": text("/argument/name"), "value": text("/argument/value")}});
    if let Some(arguments) = example.pointer("/context/arguments") {
        request["context"] = json!({ "arguments": arguments });
    }
    request
}

fn field_doc(title: Option<&str>, description: Option<&str>) -> Option<String> {
    match (title, description) {
        (Some(t), Some(d)) => Some(format!("{t}: {d}")),
        (Some(t), None) => Some(t.to_owned()),
        (None, Some(d)) => Some(d.to_owned()),
        (None, None) => None,
    }
}

/// Builds the IR of the view's prompts, resources and templates. `traits` holds the
/// trait names already taken (tools, reserved names); `types` the type names.
///
/// Each kind is named before it is built, prompts first, then resources, then
/// templates: names are claimed in that order, so that it decides who gets a suffix.
pub fn build(
    desc: &Description,
    view: &View<'_>,
    selected: Option<ProtocolVersion>,
    traits: &mut BTreeSet<String>,
    types: &mut NameAllocator,
    diagnostics: &mut Vec<Diagnostic>,
) -> PrimitivesIr {
    let narrow = |scope: VersionSet| match selected {
        Some(v) => scope.intersect(VersionSet::only(v)),
        None => scope,
    };

    let prompt_names = names_of(
        &view.prompts,
        |p| &p.name,
        PrimitiveKind::Prompt,
        traits,
        types,
    );
    let prompts = view
        .prompts
        .iter()
        .zip(prompt_names)
        .map(|(chosen, names)| prompt_ir(desc, chosen, names, narrow(chosen.scope), diagnostics))
        .collect();

    let resource_names = names_of(
        &view.resources,
        |r| &r.name,
        PrimitiveKind::Resource,
        traits,
        types,
    );
    let resources = view
        .resources
        .iter()
        .zip(resource_names)
        .map(|(chosen, names)| resource_ir(desc, chosen, names, narrow(chosen.scope)))
        .collect();

    let template_names = names_of(
        &view.resource_templates,
        |t| &t.name,
        PrimitiveKind::ResourceTemplate,
        traits,
        types,
    );
    let resource_templates = view
        .resource_templates
        .iter()
        .zip(template_names)
        .map(|(chosen, names)| template_ir(desc, chosen, names, narrow(chosen.scope), diagnostics))
        .collect();

    PrimitivesIr {
        prompts,
        resources,
        resource_templates,
    }
}

/// The Rust names of the chosen declarations of one kind, from their names and
/// variants (see [`naming::primitive_names`]).
fn names_of<T>(
    chosen: &[Chosen<'_, T>],
    name: impl Fn(&T) -> &String,
    kind: PrimitiveKind,
    traits: &mut BTreeSet<String>,
    types: &mut NameAllocator,
) -> Vec<PrimitiveNames> {
    let declared: Vec<String> = chosen
        .iter()
        .map(|c| variant_name(name(c.decl), c.variant))
        .collect();
    let declared: Vec<&str> = declared.iter().map(String::as_str).collect();
    naming::primitive_names(&declared, kind, traits, types)
}

/// The IR of one prompt.
fn prompt_ir(
    desc: &Description,
    chosen: &Chosen<'_, Prompt>,
    names: PrimitiveNames,
    scope: VersionSet,
    diagnostics: &mut Vec<Diagnostic>,
) -> PromptIr {
    let p = chosen.decl;
    let common = common(
        desc,
        chosen,
        "prompts",
        names,
        scope,
        (
            &p.name,
            p.title.as_ref(),
            p.description.as_ref(),
            p.deprecated,
        ),
    );
    let arguments = prompt_arguments(p, &common.pointer, diagnostics);
    let at = &common.pointer;
    PromptIr {
        examples: examples(p.examples.as_ref(), &at.key("examples"), |e| {
            e.get("arguments").cloned().unwrap_or_else(|| json!({}))
        }),
        completion_examples: examples(
            p.completion_examples.as_ref(),
            &at.key("completionExamples"),
            completion_request,
        ),
        common,
        arguments,
    }
}

/// The fields of a prompt's arguments type. MCP passes prompt arguments as one JSON
/// object, so one name can have only one value: a repeated name is one field, as
/// declared first (warning at the prompt's pointer `at`).
fn prompt_arguments(p: &Prompt, at: &Pointer, diagnostics: &mut Vec<Diagnostic>) -> Vec<FieldIr> {
    let mut seen = BTreeSet::new();
    let mut declared: Vec<&Value> = Vec::new();
    for (i, a) in p.arguments.iter().flatten().enumerate() {
        let name = a.get("name").and_then(Value::as_str).unwrap_or_default();
        if seen.insert(name) {
            declared.push(a);
        } else {
            diagnostics.push(Diagnostic::new(
                Severity::Warning,
                rules::CODEGEN,
                "prompt-argument-repeated",
                &at.key("arguments").index(i),
                format!("the argument `{name}` is declared twice; the generated arguments type has one field for it, as first declared"),
            ));
        }
    }
    let argument_names: Vec<&str> = declared
        .iter()
        .filter_map(|a| a.get("name").and_then(Value::as_str))
        .collect();
    let fields = naming::field_names(&argument_names);
    declared
        .iter()
        .zip(fields)
        .map(|(a, field)| {
            let text = |k: &str| a.get(k).and_then(Value::as_str);
            FieldIr {
                name: text("name").unwrap_or_default().to_owned(),
                field,
                required: a.get("required").and_then(Value::as_bool) == Some(true),
                doc: field_doc(text("title"), text("description")),
            }
        })
        .collect()
}

/// The IR of one resource.
fn resource_ir(
    desc: &Description,
    chosen: &Chosen<'_, Resource>,
    names: PrimitiveNames,
    scope: VersionSet,
) -> ResourceIr {
    let r = chosen.decl;
    let common = common(
        desc,
        chosen,
        "resources",
        names,
        scope,
        (
            &r.name,
            r.title.as_ref(),
            r.description.as_ref(),
            r.deprecated,
        ),
    );
    let uri = Value::from(r.uri.clone());
    ResourceIr {
        examples: examples(r.examples.as_ref(), &common.pointer.key("examples"), |_| {
            uri.clone()
        }),
        common,
        uri: r.uri.clone(),
        mime_type: r.mime_type.clone(),
    }
}

/// The IR of one resource template.
fn template_ir(
    desc: &Description,
    chosen: &Chosen<'_, ResourceTemplate>,
    names: PrimitiveNames,
    scope: VersionSet,
    diagnostics: &mut Vec<Diagnostic>,
) -> TemplateIr {
    let t = chosen.decl;
    let common = common(
        desc,
        chosen,
        "resourceTemplates",
        names,
        scope,
        (
            &t.name,
            t.title.as_ref(),
            t.description.as_ref(),
            t.deprecated,
        ),
    );
    let variables = template_variables(t, &common, diagnostics);
    let at = &common.pointer;
    TemplateIr {
        examples: examples(t.examples.as_ref(), &at.key("examples"), |e| {
            e.get("uri").cloned().unwrap_or(Value::Null)
        }),
        completion_examples: examples(
            t.completion_examples.as_ref(),
            &at.key("completionExamples"),
            completion_request,
        ),
        common,
        uri_template: t.uri_template.clone(),
        mime_type: t.mime_type.clone(),
        variables,
    }
}

/// The fields of a level-1 template's variables type (each variable once, in order);
/// `None` with a warning for a template beyond level 1, whose variables the handler
/// gets as one raw string.
fn template_variables(
    t: &ResourceTemplate,
    common: &CommonIr,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<Vec<FieldIr>> {
    // A valid description has a parseable template (validation checks it).
    let parsed = UriTemplate::parse(&t.uri_template).ok();
    match &parsed {
        Some(parsed) if parsed.is_level_one() => {
            let mut unique: Vec<&str> = Vec::new();
            for v in parsed.variables() {
                if !unique.contains(&v) {
                    unique.push(v);
                }
            }
            let fields = naming::field_names(&unique);
            Some(
                unique
                    .iter()
                    .zip(fields)
                    .map(|(name, field)| FieldIr {
                        name: (*name).to_owned(),
                        field,
                        required: true,
                        doc: Some(format!("The value of `{{{name}}}`, percent-decoded.")),
                    })
                    .collect(),
            )
        }
        _ => {
            diagnostics.push(Diagnostic::new(
                Severity::Warning,
                rules::CODEGEN,
                "uri-template-beyond-level-1",
                &common.pointer.key("uriTemplate"),
                format!(
                    "the URI template {:?} goes beyond RFC 6570 level 1 (operators, lists or modifiers); its variables are given to `{}::read_{}` as one raw string (the URI without the template's leading and trailing literal text), not as a struct",
                    t.uri_template, common.names.trait_name, common.names.snake
                ),
            ));
            None
        }
    }
}
