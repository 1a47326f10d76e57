//! What the router keeps of each prompt, resource, resource template and completion
//! handler, and the lookups of their own `security`.

use std::fmt;

use serde_json::{Map, Value};

use super::types::{CompletionHandler, PromptHandler, ResourceHandler, ResourceTemplateHandler};
use crate::auth::requirement::Requirement;
use crate::protocol::completions::CompletionTarget;
use crate::protocol::uri_template::UriTemplate;
use crate::protocol::version::{ProtocolVersion, VersionSet};
use crate::server::capabilities::Served;

pub(crate) struct PromptEntry {
    pub(crate) name: String,
    pub(crate) scope: VersionSet,
    pub(crate) declaration: Map<String, Value>,
    /// Its own `security`, when it states one.
    pub(crate) security: Option<Requirement>,
    pub(crate) arguments: Vec<(String, bool)>,
    pub(crate) handler: PromptHandler,
}

pub(crate) struct ResourceEntry {
    pub(crate) uri: String,
    pub(crate) scope: VersionSet,
    pub(crate) declaration: Map<String, Value>,
    pub(crate) security: Option<Requirement>,
    pub(crate) handler: ResourceHandler,
}

pub(crate) struct TemplateEntry {
    pub(crate) template: UriTemplate,
    pub(crate) scope: VersionSet,
    pub(crate) declaration: Map<String, Value>,
    pub(crate) security: Option<Requirement>,
    pub(crate) handler: ResourceTemplateHandler,
}

pub(crate) struct CompletionEntry {
    pub(crate) target: CompletionTarget,
    pub(crate) scope: VersionSet,
    pub(crate) handler: CompletionHandler,
}

/// The prompts, resources, templates and completion handlers of
/// a `Router`.
#[derive(Default)]
pub(crate) struct Primitives {
    pub(crate) prompts: Vec<PromptEntry>,
    pub(crate) resources: Vec<ResourceEntry>,
    pub(crate) templates: Vec<TemplateEntry>,
    pub(crate) completions: Vec<CompletionEntry>,
}

impl Primitives {
    /// The own `security` of the prompt `name` in `version`: `None` when there is
    /// no such prompt, `Some(None)` when it states none.
    pub(crate) fn prompt_security(
        &self,
        name: &str,
        version: ProtocolVersion,
    ) -> Option<Option<&Requirement>> {
        self.prompts
            .iter()
            .find(|p| p.name == name && p.scope.contains(version))
            .map(|p| p.security.as_ref())
    }

    /// The own `security` of what `resources/read` of `uri` reaches in `version`
    /// (the routing of `Router::read_resource`).
    pub(crate) fn read_security(
        &self,
        uri: &str,
        version: ProtocolVersion,
    ) -> Option<Option<&Requirement>> {
        if let Some(resource) = self
            .resources
            .iter()
            .find(|r| r.uri == uri && r.scope.contains(version))
        {
            return Some(resource.security.as_ref());
        }
        self.templates
            .iter()
            .filter(|t| t.scope.contains(version))
            .find(|t| t.template.match_uri(uri).is_some())
            .map(|t| t.security.as_ref())
    }

    /// The own `security` of the prompt or template a completion targets in
    /// `version` (a template by its `uriTemplate`, else one the URI expands).
    pub(crate) fn completion_security(
        &self,
        target: &CompletionTarget,
        version: ProtocolVersion,
    ) -> Option<Option<&Requirement>> {
        match target {
            CompletionTarget::Prompt(name) => self.prompt_security(name, version),
            CompletionTarget::ResourceTemplate(uri) => {
                let in_version = || self.templates.iter().filter(|t| t.scope.contains(version));
                in_version()
                    .find(|t| t.template.as_str() == *uri)
                    .or_else(|| in_version().find(|t| t.template.match_uri(uri).is_some()))
                    .map(|t| t.security.as_ref())
            }
        }
    }

    /// Each prompt, resource and template of `version` with its own `security`.
    pub(crate) fn securities(
        &self,
        version: ProtocolVersion,
    ) -> impl Iterator<Item = (String, Option<&Requirement>)> {
        let prompts = self
            .prompts
            .iter()
            .filter(move |p| p.scope.contains(version))
            .map(|p| (format!("prompt `{}`", p.name), p.security.as_ref()));
        let resources = self
            .resources
            .iter()
            .filter(move |r| r.scope.contains(version))
            .map(|r| (format!("resource `{}`", r.uri), r.security.as_ref()));
        let templates = self
            .templates
            .iter()
            .filter(move |t| t.scope.contains(version))
            .map(|t| {
                (
                    format!("resource template `{}`", t.template.as_str()),
                    t.security.as_ref(),
                )
            });
        prompts.chain(resources).chain(templates)
    }

    /// Every stated `security` of every version (what [`Self::all_securities`]
    /// gives, without the names it formats).
    pub(crate) fn all_requirements(&self) -> impl Iterator<Item = &Requirement> {
        let prompts = self.prompts.iter().filter_map(|p| p.security.as_ref());
        let resources = self.resources.iter().filter_map(|r| r.security.as_ref());
        let templates = self.templates.iter().filter_map(|t| t.security.as_ref());
        prompts.chain(resources).chain(templates)
    }

    /// Every stated `security` of every version, with what states it.
    pub(crate) fn all_securities(&self) -> impl Iterator<Item = (String, &Requirement)> {
        let prompts = self
            .prompts
            .iter()
            .filter_map(|p| Some((format!("prompt `{}`", p.name), p.security.as_ref()?)));
        let resources = self
            .resources
            .iter()
            .filter_map(|r| Some((format!("resource `{}`", r.uri), r.security.as_ref()?)));
        let templates = self.templates.iter().filter_map(|t| {
            Some((
                format!("resource template `{}`", t.template.as_str()),
                t.security.as_ref()?,
            ))
        });
        prompts.chain(resources).chain(templates)
    }

    /// Which of these primitives the router serves in `version` (tools aside).
    pub(crate) fn served(&self, version: ProtocolVersion) -> Served {
        Served {
            tools: false,
            prompts: self.prompts.iter().any(|p| p.scope.contains(version)),
            resources: self.resources.iter().any(|r| r.scope.contains(version))
                || self.templates.iter().any(|t| t.scope.contains(version)),
            completions: self.completions.iter().any(|c| c.scope.contains(version)),
        }
    }
}

impl fmt::Debug for Primitives {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Primitives")
            .field(
                "prompts",
                &self.prompts.iter().map(|p| &p.name).collect::<Vec<_>>(),
            )
            .field(
                "resources",
                &self.resources.iter().map(|r| &r.uri).collect::<Vec<_>>(),
            )
            .field(
                "resource_templates",
                &self
                    .templates
                    .iter()
                    .map(|t| t.template.as_str())
                    .collect::<Vec<_>>(),
            )
            .field(
                "completions",
                &self
                    .completions
                    .iter()
                    .map(|c| &c.target)
                    .collect::<Vec<_>>(),
            )
            .finish()
    }
}
