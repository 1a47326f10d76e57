//! The IR of Elicitation Declarations: each tool's, prompt's, resource's and resource
//! template's declarations, their form schemas prepared for typify like tool inputs.
//! The `elicitations` emitter writes them out.

use std::collections::BTreeSet;

use serde_json::Value;

use super::tool::ToolIr;
use crate::generate::naming::{self, NameAllocator};
use crate::generate::prepare::{self, Options, PreparedSchema};
use crate::generate::primitives::{CommonIr, PrimitivesIr};
use mcpdesc_description::diagnostic::Diagnostic;
use mcpdesc_description::pointer::Pointer;

/// The kind of primitive an Elicitation Declaration belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum OwnerKind {
    /// A tool: its module is directly in `elicitations`.
    Tool,
    /// A prompt: `elicitations::prompts::<name>`.
    Prompt,
    /// A resource: `elicitations::resources::<name>`.
    Resource,
    /// A resource template: `elicitations::resource_templates::<name>`.
    Template,
}

impl OwnerKind {
    /// The kind's module in `elicitations` (`None` for tools).
    pub(crate) fn module(self) -> Option<&'static str> {
        match self {
            OwnerKind::Tool => None,
            OwnerKind::Prompt => Some("prompts"),
            OwnerKind::Resource => Some("resources"),
            OwnerKind::Template => Some("resource_templates"),
        }
    }

    /// How documentation names the kind (`the `x` prompt`).
    pub(crate) fn noun(self) -> &'static str {
        match self {
            OwnerKind::Tool => "tool",
            OwnerKind::Prompt => "prompt",
            OwnerKind::Resource => "resource",
            OwnerKind::Template => "resource template",
        }
    }
}

/// One Elicitation Declaration of a tool, prompt, resource or resource template.
#[derive(Debug, Clone)]
pub struct ElicitationIr {
    /// The kind of primitive that declares it.
    pub kind: OwnerKind,
    /// The primitive's name.
    pub owner: String,
    /// The primitive's module in `elicitations` (or in its kind's module there): the
    /// tool's method name, or the prompt's, resource's or template's snake name.
    pub owner_module: String,
    /// The declaration's `name`.
    pub name: String,
    /// Its module (snake_case, unique in the primitive's module).
    pub module: String,
    /// `message`.
    pub message: String,
    /// The static `url` of a URL-mode declaration.
    pub url: Option<String>,
    /// Form mode: the `requestedSchema` as JSON and its content type.
    pub form: Option<FormIr>,
}

/// The form of a form-mode declaration.
#[derive(Debug, Clone)]
pub struct FormIr {
    /// The resolved `requestedSchema`.
    pub schema: Value,
    /// Its use site (`/tools/0/elicitations/1/requestedSchema`).
    pub pointer: Pointer,
    /// The Rust type name code uses.
    pub type_name: String,
    /// typify's copy.
    pub prepared: PreparedSchema,
}

/// Who declares elicitations: kind, name, module, pointer, trait name and the
/// resolved declaration.
struct Owner<'a> {
    kind: OwnerKind,
    name: &'a str,
    module: &'a str,
    pointer: &'a Pointer,
    trait_name: &'a str,
    declaration: &'a Value,
}

impl<'a> Owner<'a> {
    fn primitive(kind: OwnerKind, c: &'a CommonIr) -> Self {
        Owner {
            kind,
            name: &c.name,
            module: &c.names.snake,
            pointer: &c.pointer,
            trait_name: &c.names.trait_name,
            declaration: &c.declaration,
        }
    }
}

/// The declarations of every tool, prompt, resource and resource template (in that
/// order, each in document order), their form schemas prepared for typify (type names
/// claimed from `types`).
pub fn build(
    tools: &[ToolIr],
    primitives: &PrimitivesIr,
    options: Options<'_>,
    types: &mut NameAllocator,
    diagnostics: &mut Vec<Diagnostic>,
) -> Vec<ElicitationIr> {
    let mut out = Vec::new();
    for owner in owners(tools, primitives) {
        let Some(list) = owner
            .declaration
            .get("elicitations")
            .and_then(Value::as_array)
        else {
            continue;
        };
        let mut modules = BTreeSet::new();
        for (k, declaration) in list.iter().enumerate() {
            let text = |m: &str| declaration.get(m).and_then(Value::as_str);
            let Some(name) = text("name") else {
                continue;
            };
            let mut module = naming::snake_case(name);
            while !modules.insert(module.clone()) {
                module.push('_');
            }
            let form = match (text("mode"), declaration.get("requestedSchema")) {
                (Some("form"), Some(schema)) => Some(form_ir(
                    &owner,
                    k,
                    name,
                    schema,
                    options,
                    types,
                    diagnostics,
                )),
                _ => None,
            };
            out.push(ElicitationIr {
                kind: owner.kind,
                owner: owner.name.to_owned(),
                owner_module: owner.module.to_owned(),
                name: name.to_owned(),
                module,
                message: text("message").unwrap_or_default().to_owned(),
                url: text("url").map(str::to_owned),
                form,
            });
        }
    }
    out
}

/// Every tool, prompt, resource and resource template, in that order, as an owner of
/// elicitations.
fn owners<'a>(
    tools: &'a [ToolIr],
    primitives: &'a PrimitivesIr,
) -> impl Iterator<Item = Owner<'a>> {
    tools
        .iter()
        .map(|t| Owner {
            kind: OwnerKind::Tool,
            name: &t.name,
            module: &t.names.method_name,
            pointer: &t.pointer,
            trait_name: &t.names.trait_name,
            declaration: &t.declaration,
        })
        .chain(
            primitives
                .prompts
                .iter()
                .map(|p| Owner::primitive(OwnerKind::Prompt, &p.common)),
        )
        .chain(
            primitives
                .resources
                .iter()
                .map(|r| Owner::primitive(OwnerKind::Resource, &r.common)),
        )
        .chain(
            primitives
                .resource_templates
                .iter()
                .map(|t| Owner::primitive(OwnerKind::Template, &t.common)),
        )
}

/// The form of the `k`th declaration (`name`) of `owner`: its `requestedSchema`
/// prepared for typify as `{Trait}{Name}Elicitation`.
fn form_ir(
    owner: &Owner<'_>,
    k: usize,
    name: &str,
    schema: &Value,
    options: Options<'_>,
    types: &mut NameAllocator,
    diagnostics: &mut Vec<Diagnostic>,
) -> FormIr {
    let pointer = owner
        .pointer
        .key("elicitations")
        .index(k)
        .key("requestedSchema");
    let wanted = naming::type_name(
        &format!("{}{}", owner.trait_name, naming::upper_camel(name)),
        "Elicitation",
    );
    let type_name = types.claim(&wanted);
    let doc = format!(
        "Form content of the `{name}` elicitation of the `{}` {}.",
        owner.name,
        owner.kind.noun()
    );
    let prepared = prepare::prepare(
        schema,
        &pointer,
        &type_name,
        Some(&doc),
        options,
        types,
        diagnostics,
    );
    FormIr {
        schema: schema.clone(),
        pointer,
        type_name,
        prepared,
    }
}
