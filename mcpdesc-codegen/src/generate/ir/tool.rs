//! The IR of one tool declaration: names, scope, schemas (original and prepared) and
//! examples.

use proc_macro2::TokenStream;
use serde_json::Value;

use crate::generate::naming::ToolNames;
use crate::generate::prepare::PreparedSchema;
use mcpdesc_description::model::ToolAnnotations;
use mcpdesc_description::pointer::Pointer;
use mcpdesc_description::protocol::{ProtocolVersion, VersionSet};

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
    /// `ModuleIr::tools`. `None` when this declaration's trait is emitted with it.
    pub handler_of: Option<usize>,
    /// The versions its handler trait serves: its scope, or the union of the scopes
    /// of its handler group.
    pub handler_scope: VersionSet,
    /// Whether its handler trait serves several variants (it or an earlier variant
    /// heads a handler group).
    pub shared_handler: bool,
    /// Its effective protocol scope.
    pub scope: VersionSet,
    /// For a protocol-scoped variant (see [`mcpdesc_description::view::Chosen::variant`]): the first
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
    /// ([`crate::settings::Settings::replace_type`], or an `x-rust-type` at the
    /// schema's root): the generated code names it instead of `types::{type_name}`.
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
