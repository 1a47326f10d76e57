//! Registering prompts, resources, resource templates and completion handlers in the
//! [`Router`]: each spec checked (JSON object, identity, scope, `security`), overlaps
//! refused.

use std::sync::Arc;

use serde_json::{Map, Value};

use super::registry::{CompletionEntry, PromptEntry, ResourceEntry, TemplateEntry};
use super::types::{CompletionHandler, PromptHandler, ResourceHandler, ResourceTemplateHandler};
use crate::auth::policy::declared_requirement;
use crate::auth::requirement::Requirement;
use crate::protocol::completions::{CompletionRequest, CompletionResult, CompletionTarget};
use crate::protocol::error::{RequestError, RouterError};
use crate::protocol::futures::BoxFuture;
use crate::protocol::prompts::{declared_arguments, PromptResult, PromptSpec};
use crate::protocol::resources::{ResourceResult, ResourceSpec, ResourceTemplateSpec};
use crate::protocol::uri_template::UriTemplate;
use crate::protocol::version::{ProtocolVersion, VersionSet};
use crate::server::context::Context;
use crate::server::router::Router;

/// The checked parts of a spec: its declaration object and its effective scope.
/// A spec's declaration, scope and own `security`, checked.
type CheckedSpec = (Map<String, Value>, VersionSet, Option<Requirement>);

fn checked_spec(
    router: &Router,
    kind: &'static str,
    id: &str,
    id_member: &str,
    scope: &[ProtocolVersion],
    declaration: &str,
) -> Result<CheckedSpec, RouterError> {
    let fail = |message: String| RouterError {
        kind,
        name: id.to_owned(),
        message,
    };
    let declaration = match serde_json::from_str::<Value>(declaration) {
        Ok(Value::Object(map)) => map,
        Ok(_) => return Err(fail("the declaration is not a JSON object".into())),
        Err(e) => return Err(fail(format!("the declaration is not valid JSON: {e}"))),
    };
    match declaration.get(id_member) {
        Some(Value::String(value)) if value == id => {}
        other => {
            return Err(fail(format!(
                "the declaration's `{id_member}` is {}, not \"{id}\"",
                other.map_or("missing".to_owned(), Value::to_string)
            )))
        }
    }
    let server = router.server_versions();
    let scope = if scope.is_empty() {
        server
    } else {
        VersionSet::of(scope)
    };
    if !scope.is_subset_of(server) {
        return Err(fail(format!(
            "its scope ({scope}) is not within the server's protocol versions ({server})"
        )));
    }
    let security =
        declared_requirement(router.security_setup().declaration(), &declaration).map_err(fail)?;
    Ok((declaration, scope, security))
}

/// An overlap error when `existing` (same identity) intersects `scope`.
fn overlap(
    kind: &'static str,
    id: &str,
    scope: VersionSet,
    existing: impl Iterator<Item = VersionSet>,
) -> Result<(), RouterError> {
    for other in existing {
        if other.intersects(scope) {
            return Err(RouterError {
                kind,
                name: id.to_owned(),
                message: format!(
                    "its scope ({scope}) overlaps another declaration of the same {} ({other})",
                    if kind == "prompt" { "name" } else { "URI" }
                ),
            });
        }
    }
    Ok(())
}

impl Router {
    /// Registers a prompt; a bad spec is recorded in [`Router::errors`] (see
    /// [`Router::add_prompt`]).
    pub fn prompt<H>(mut self, spec: PromptSpec, handler: H) -> Self
    where
        H: Fn(
                Map<String, Value>,
                Context,
            ) -> BoxFuture<'static, Result<PromptResult, RequestError>>
            + Send
            + Sync
            + 'static,
    {
        if let Err(error) = self.add_prompt(spec, Arc::new(handler)) {
            self.push_error(error);
        }
        self
    }

    /// Registers a prompt, or says why it cannot be: its declaration is not a JSON
    /// object with the spec's `name`, its scope leaves the server's versions, or it
    /// overlaps a same-name prompt.
    pub fn add_prompt(
        &mut self,
        spec: PromptSpec,
        handler: PromptHandler,
    ) -> Result<(), RouterError> {
        let (declaration, scope, security) = checked_spec(
            self,
            "prompt",
            spec.name,
            "name",
            spec.scope,
            spec.declaration,
        )?;
        let primitives = self.primitives_mut();
        overlap(
            "prompt",
            spec.name,
            scope,
            primitives
                .prompts
                .iter()
                .filter(|p| p.name == spec.name)
                .map(|p| p.scope),
        )?;
        let arguments = declared_arguments(&declaration);
        primitives.prompts.push(PromptEntry {
            name: spec.name.to_owned(),
            scope,
            declaration,
            security,
            arguments,
            handler,
        });
        Ok(())
    }

    /// Registers a resource; a bad spec is recorded in [`Router::errors`].
    pub fn resource<H>(mut self, spec: ResourceSpec, handler: H) -> Self
    where
        H: Fn(String, Context) -> BoxFuture<'static, Result<ResourceResult, RequestError>>
            + Send
            + Sync
            + 'static,
    {
        if let Err(error) = self.add_resource(spec, Arc::new(handler)) {
            self.push_error(error);
        }
        self
    }

    /// Registers a resource, or says why it cannot be (as [`Router::add_prompt`], with
    /// the `uri` as identity).
    pub fn add_resource(
        &mut self,
        spec: ResourceSpec,
        handler: ResourceHandler,
    ) -> Result<(), RouterError> {
        let (declaration, scope, security) = checked_spec(
            self,
            "resource",
            spec.uri,
            "uri",
            spec.scope,
            spec.declaration,
        )?;
        let primitives = self.primitives_mut();
        overlap(
            "resource",
            spec.uri,
            scope,
            primitives
                .resources
                .iter()
                .filter(|r| r.uri == spec.uri)
                .map(|r| r.scope),
        )?;
        primitives.resources.push(ResourceEntry {
            uri: spec.uri.to_owned(),
            scope,
            declaration,
            security,
            handler,
        });
        Ok(())
    }

    /// Registers a resource template; a bad spec is recorded in [`Router::errors`].
    pub fn resource_template<H>(mut self, spec: ResourceTemplateSpec, handler: H) -> Self
    where
        H: Fn(String, Value, Context) -> BoxFuture<'static, Result<ResourceResult, RequestError>>
            + Send
            + Sync
            + 'static,
    {
        if let Err(error) = self.add_resource_template(spec, Arc::new(handler)) {
            self.push_error(error);
        }
        self
    }

    /// Registers a resource template, or says why it cannot be (as
    /// [`Router::add_prompt`], with the `uriTemplate` as identity, which must also be a
    /// valid RFC 6570 template).
    pub fn add_resource_template(
        &mut self,
        spec: ResourceTemplateSpec,
        handler: ResourceTemplateHandler,
    ) -> Result<(), RouterError> {
        const KIND: &str = "resource template";
        let (declaration, scope, security) = checked_spec(
            self,
            KIND,
            spec.uri_template,
            "uriTemplate",
            spec.scope,
            spec.declaration,
        )?;
        let template = UriTemplate::parse(spec.uri_template).map_err(|why| RouterError {
            kind: KIND,
            name: spec.uri_template.to_owned(),
            message: format!("not a valid RFC 6570 URI template: {why}"),
        })?;
        let primitives = self.primitives_mut();
        overlap(
            KIND,
            spec.uri_template,
            scope,
            primitives
                .templates
                .iter()
                .filter(|t| t.template.as_str() == spec.uri_template)
                .map(|t| t.scope),
        )?;
        primitives.templates.push(TemplateEntry {
            template,
            scope,
            declaration,
            security,
            handler,
        });
        Ok(())
    }

    /// Registers the completion handler of a prompt or resource template; a bad
    /// registration is recorded in [`Router::errors`].
    pub fn completion<H>(
        mut self,
        target: CompletionTarget,
        scope: &'static [ProtocolVersion],
        handler: H,
    ) -> Self
    where
        H: Fn(
                CompletionRequest,
                Context,
            ) -> BoxFuture<'static, Result<CompletionResult, RequestError>>
            + Send
            + Sync
            + 'static,
    {
        if let Err(error) = self.add_completion(target, scope, Arc::new(handler)) {
            self.push_error(error);
        }
        self
    }

    /// Registers a completion handler for `target` in `scope` (empty: every version of
    /// the server). The target must already be registered for every version of the
    /// scope, and one target has at most one handler per version.
    pub fn add_completion(
        &mut self,
        target: CompletionTarget,
        scope: &[ProtocolVersion],
        handler: CompletionHandler,
    ) -> Result<(), RouterError> {
        let fail = |message: String| RouterError {
            kind: "completion",
            name: format!("{} {}", target.kind(), target.id()),
            message,
        };
        let scope = if scope.is_empty() {
            self.server_versions()
        } else {
            VersionSet::of(scope)
        };
        let primitives = self.primitives_mut();
        let registered = match &target {
            CompletionTarget::Prompt(name) => primitives
                .prompts
                .iter()
                .filter(|p| p.name == *name)
                .fold(VersionSet::default(), |all, p| all.union(p.scope)),
            CompletionTarget::ResourceTemplate(uri_template) => primitives
                .templates
                .iter()
                .filter(|t| t.template.as_str() == *uri_template)
                .fold(VersionSet::default(), |all, t| all.union(t.scope)),
        };
        if !scope.is_subset_of(registered) {
            return Err(fail(format!(
                "the {} is not registered for every version of the completion's scope ({scope}); register it first",
                target.kind()
            )));
        }
        if let Some(other) = primitives
            .completions
            .iter()
            .find(|c| c.target == target && c.scope.intersects(scope))
        {
            return Err(fail(format!(
                "its scope ({scope}) overlaps another completion handler of the same {} ({})",
                target.kind(),
                other.scope
            )));
        }
        primitives.completions.push(CompletionEntry {
            target,
            scope,
            handler,
        });
        Ok(())
    }
}
