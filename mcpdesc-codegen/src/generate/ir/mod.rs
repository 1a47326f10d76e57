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
//! see [`super::prepare`]).

use proc_macro2::TokenStream;
use serde_json::Value;

pub mod build;
pub mod elicitation;
pub mod own;
pub mod replace;
pub mod security;
pub mod share;
pub mod variants;

pub use build::build;
pub use elicitation::ElicitationIr;
pub use security::SecurityIr;

use super::naming::{NameAllocator, ToolNames};
use super::prepare::PreparedSchema;
use super::primitives::PrimitivesIr;
use crate::model::ToolAnnotations;
use crate::pointer::Pointer;
use crate::protocol::{ProtocolVersion, VersionSet};
use crate::settings::Settings;
use own::OwnIr;

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
    /// The user's own types: replaced definitions and their compile-time checks.
    pub own: OwnIr,
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
    /// For a protocol-scoped variant (see [`super::view::Chosen::variant`]): the first
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
    /// The user's Rust type in place of the generated one
    /// ([`Settings::replace_type`], or an `x-rust-type` at the schema's root): the
    /// generated code names it instead of `types::{type_name}`.
    pub replaced: Option<String>,
}

impl SchemaIr {
    /// The Rust type code names for this schema: the user's replacement, or
    /// `{types}::{type_name}` where `types` is the path of the `types` module from the
    /// place of use (`types`, `super::super::types`).
    pub fn rust_type(&self, types: TokenStream) -> TokenStream {
        match self
            .replaced
            .as_deref()
            .and_then(|p| syn::parse_str::<syn::TypePath>(p).ok())
        {
            Some(path) => quote::quote!(#path),
            None => {
                let name = quote::format_ident!("{}", self.type_name);
                quote::quote!(#types::#name)
            }
        }
    }
}

/// How a tool schema gets its Rust type.
// One per tool schema, built once: the size of the largest variant costs nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone)]
pub enum TypeSource {
    /// Its own typify definition.
    Own(PreparedSchema),
    /// An alias of the shared type `shared[i]`.
    Shared(usize),
    /// The type of the same role of the earlier variant `tools[i]` of the same tool,
    /// whose schema is identical: one type, no alias.
    Variant(usize),
}

/// A schema several tool schemas have as their whole schema (a component they use, or
/// identical schemas, see the `share` module): one type, and an alias per use.
#[derive(Debug, Clone)]
pub struct SharedSchemaIr {
    /// The component name, when it is a component schema.
    pub component: Option<String>,
    /// `/components/schemas/<name>`, or the first tool schema's pointer.
    pub pointer: Pointer,
    /// The component schema, untouched.
    pub original: Value,
    /// The Rust type name (from the component name, or a patch's rename).
    pub type_name: String,
    /// typify's copy.
    pub prepared: PreparedSchema,
    /// The user's Rust type in place of this one (then not generated).
    pub replaced: Option<String>,
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
    /// Every prepared schema that is generated (shared ones first; not those the
    /// user's types replace), for the type emitter.
    pub fn prepared_mut(&mut self) -> impl Iterator<Item = (Pointer, &mut PreparedSchema)> {
        let shared = self
            .shared
            .iter_mut()
            .filter(|s| s.replaced.is_none())
            .map(|s| (s.pointer.clone(), &mut s.prepared));
        let own = self.tools.iter_mut().flat_map(|t| {
            std::iter::once(&mut t.input)
                .chain(t.output.as_mut())
                .filter(|s| s.replaced.is_none())
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
pub(super) fn patched(settings: &Settings, name: &str) -> String {
    settings
        .patches()
        .get(name)
        .and_then(|p| p.new_name())
        .unwrap_or(name)
        .to_owned()
}
