//! The IR of one generated module: its tools, shared schemas, primitives, security and
//! elicitations, and the type names they end up with.

use super::elicitation::ElicitationIr;
use super::own::OwnIr;
use super::security::SecurityIr;
use super::tool::{Role, SharedSchemaIr, ToolIr, TypeSource};
use crate::generate::naming::NameAllocator;
use crate::generate::prepare::PreparedSchema;
use crate::generate::primitives::PrimitivesIr;
use crate::settings::Settings;
use mcpdesc_description::pointer::Pointer;
use mcpdesc_description::protocol::{ProtocolVersion, VersionSet};

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
    /// declares `securitySchemes` (see [`super::security::declaration_json`]).
    pub security: Option<String>,
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
