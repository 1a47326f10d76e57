//! The prompts, resources, resource templates and completions of the [`Router`]
//! served: listed per protocol version, and `prompts/get`, `resources/read` and
//! `completion/complete` checked and dispatched, handler panics contained.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;

use futures::FutureExt;
use serde_json::{Map, Value};

use crate::protocol::completions::{CompletionRequest, CompletionResult, CompletionTarget};
use crate::protocol::error::{ProtocolError, RequestError};
use crate::protocol::futures::BoxFuture;
use crate::protocol::prompts::{native_prompt, PromptResult};
use crate::protocol::resources::{native_resource, native_resource_template, ResourceResult};
use crate::protocol::version::{ProtocolVersion, VersionSet};
use crate::server::context::Context;
use crate::server::panic::panic_message;
use crate::server::router::Router;

/// Runs a handler with panics contained: a panic becomes an internal error naming
/// `what` (the panic message goes to stderr only).
async fn contained<T>(
    what: &str,
    run: impl FnOnce() -> BoxFuture<'static, Result<T, RequestError>>,
) -> Result<T, RequestError> {
    let outcome = match catch_unwind(AssertUnwindSafe(run)) {
        Ok(future) => AssertUnwindSafe(future).catch_unwind().await,
        Err(payload) => Err(payload),
    };
    match outcome {
        Ok(result) => result,
        Err(payload) => {
            eprintln!(
                "mcpdesc: the handler of {what} panicked: {}",
                panic_message(payload.as_ref())
            );
            Err(RequestError::new(format!(
                "{} failed: its handler panicked",
                capitalize(what)
            )))
        }
    }
}

fn capitalize(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

fn list(names: impl Iterator<Item = String>) -> String {
    let names: Vec<String> = names.map(|n| format!("`{n}`")).collect();
    if names.is_empty() {
        "none".to_owned()
    } else {
        names.join(", ")
    }
}

impl Router {
    /// The native MCP `Prompt` values for `version`, in registration order (see
    /// [`prompts`](crate::protocol::prompts) for the members).
    pub fn list_prompts(&self, version: ProtocolVersion) -> Vec<Value> {
        self.primitives()
            .prompts
            .iter()
            .filter(|p| p.scope.contains(version))
            .map(|p| native_prompt(&p.declaration, version))
            .collect()
    }

    /// The native MCP `Resource` values for `version`, in registration order.
    pub fn list_resources(&self, version: ProtocolVersion) -> Vec<Value> {
        self.primitives()
            .resources
            .iter()
            .filter(|r| r.scope.contains(version))
            .map(|r| native_resource(&r.declaration, version))
            .collect()
    }

    /// The native MCP `ResourceTemplate` values for `version`, in registration order.
    pub fn list_resource_templates(&self, version: ProtocolVersion) -> Vec<Value> {
        self.primitives()
            .templates
            .iter()
            .filter(|t| t.scope.contains(version))
            .map(|t| native_resource_template(&t.declaration, version))
            .collect()
    }

    /// Answers `prompts/get` (see the [module docs] for the checks
    /// and errors). The result is version-independent; [`PromptResult::to_wire`]
    /// shapes it.
    ///
    /// [module docs]: crate::server::primitives
    pub async fn get_prompt(
        &self,
        name: &str,
        arguments: Option<Map<String, Value>>,
        cx: Context,
    ) -> Result<PromptResult, ProtocolError> {
        let version = cx.protocol_version();
        let primitives = self.primitives();
        let Some(entry) = primitives
            .prompts
            .iter()
            .find(|p| p.name == name && p.scope.contains(version))
        else {
            return Err(self.missing_prompt(name, version));
        };
        crate::protocol::client_requirements::check(
            &entry.declaration,
            cx.client_capabilities(),
            version,
            &format!("prompt `{name}`"),
        )?;
        let arguments = arguments.unwrap_or_default();
        let mut problems = Vec::new();
        for (argument, required) in &entry.arguments {
            if *required && !arguments.contains_key(argument) {
                problems.push(format!("the required argument `{argument}` is missing"));
            }
        }
        for (argument, value) in &arguments {
            if !value.is_string() {
                problems.push(format!(
                    "the argument `{argument}` is not a string (prompt arguments are strings)"
                ));
            }
        }
        if !problems.is_empty() {
            return Err(ProtocolError::invalid_params(format!(
                "Invalid arguments for prompt `{name}`: {}",
                problems.join("; ")
            )));
        }
        let handler = Arc::clone(&entry.handler);
        contained(&format!("prompt `{name}`"), move || handler(arguments, cx))
            .await
            .map_err(|e| e.into_protocol_error(version))
    }

    fn missing_prompt(&self, name: &str, version: ProtocolVersion) -> ProtocolError {
        let primitives = self.primitives();
        let scopes = primitives
            .prompts
            .iter()
            .filter(|p| p.name == name)
            .fold(VersionSet::default(), |all, p| all.union(p.scope));
        if scopes != VersionSet::default() {
            return ProtocolError::invalid_params(format!(
                "Prompt `{name}` is not available in MCP protocol version {version} (it is declared for {scopes})"
            ));
        }
        if let Some(error) = self
            .errors()
            .iter()
            .find(|e| e.kind == "prompt" && e.name == name)
        {
            return ProtocolError::internal(format!(
                "Prompt `{name}` could not be registered: {}",
                error.message
            ));
        }
        ProtocolError::invalid_params(format!(
            "Unknown prompt: `{name}` (available: {})",
            list(
                primitives
                    .prompts
                    .iter()
                    .filter(|p| p.scope.contains(version))
                    .map(|p| p.name.clone())
            )
        ))
    }

    /// Answers `resources/read`: the resource with this URI, else the first template
    /// (in registration order) the URI is an expansion of (see the
    /// [module docs](crate::server::primitives) for the errors).
    pub async fn read_resource(
        &self,
        uri: &str,
        cx: Context,
    ) -> Result<ResourceResult, ProtocolError> {
        let version = cx.protocol_version();
        let primitives = self.primitives();
        if let Some(entry) = primitives
            .resources
            .iter()
            .find(|r| r.uri == uri && r.scope.contains(version))
        {
            crate::protocol::client_requirements::check(
                &entry.declaration,
                cx.client_capabilities(),
                version,
                &format!("resource `{uri}`"),
            )?;
            let handler = Arc::clone(&entry.handler);
            let owned = uri.to_owned();
            return contained(&format!("resource `{uri}`"), move || handler(owned, cx))
                .await
                .map_err(|e| e.into_protocol_error(version));
        }
        for entry in primitives
            .templates
            .iter()
            .filter(|t| t.scope.contains(version))
        {
            let Some(matched) = entry.template.match_uri(uri) else {
                continue;
            };
            let variables = matched.map_err(|why| {
                ProtocolError::invalid_params(format!(
                    "Invalid URI `{uri}` for the resource template `{}`: {why}",
                    entry.template.as_str()
                ))
            })?;
            crate::protocol::client_requirements::check(
                &entry.declaration,
                cx.client_capabilities(),
                version,
                &format!("resource template `{}`", entry.template.as_str()),
            )?;
            let handler = Arc::clone(&entry.handler);
            let owned = uri.to_owned();
            return contained(
                &format!("resource template `{}`", entry.template.as_str()),
                move || handler(owned, variables, cx),
            )
            .await
            .map_err(|e| e.into_protocol_error(version));
        }
        let templates: Vec<&str> = primitives
            .templates
            .iter()
            .filter(|t| t.scope.contains(version))
            .map(|t| t.template.as_str())
            .collect();
        let in_other_versions = primitives.resources.iter().any(|r| r.uri == uri)
            || primitives
                .templates
                .iter()
                .any(|t| t.template.match_uri(uri).is_some());
        let why = if in_other_versions {
            format!("it is not available in MCP protocol version {version}")
        } else if templates.is_empty() {
            "it is not a resource of this server".to_owned()
        } else {
            format!(
                "it is neither a resource of this server nor an expansion of its resource templates ({})",
                templates.join(", ")
            )
        };
        let error = RequestError::resource_not_found(uri);
        let message = format!("{}: {why}", error.message());
        Err(error.with_message(message).into_protocol_error(version))
    }

    /// Answers `completion/complete` for `target` (a prompt name, or a resource
    /// template's `uriTemplate`; a concrete URI is accepted for the template it is an
    /// expansion of). See the [module docs](crate::server::primitives) for the checks.
    pub async fn complete(
        &self,
        target: &CompletionTarget,
        request: CompletionRequest,
        cx: Context,
    ) -> Result<CompletionResult, ProtocolError> {
        let version = cx.protocol_version();
        let primitives = self.primitives();
        let (resolved, names): (CompletionTarget, Vec<String>) = match target {
            CompletionTarget::Prompt(name) => {
                let Some(prompt) = primitives
                    .prompts
                    .iter()
                    .find(|p| p.name == *name && p.scope.contains(version))
                else {
                    return Err(self.missing_prompt(name, version));
                };
                (
                    target.clone(),
                    prompt.arguments.iter().map(|(n, _)| n.clone()).collect(),
                )
            }
            CompletionTarget::ResourceTemplate(uri) => {
                let in_version = || {
                    primitives
                        .templates
                        .iter()
                        .filter(|t| t.scope.contains(version))
                };
                let found = in_version()
                    .find(|t| t.template.as_str() == *uri)
                    .or_else(|| in_version().find(|t| t.template.match_uri(uri).is_some()));
                let Some(template) = found else {
                    return Err(ProtocolError::invalid_params(format!(
                        "Unknown resource template: `{uri}` (available: {})",
                        list(in_version().map(|t| t.template.as_str().to_owned()))
                    )));
                };
                (
                    CompletionTarget::ResourceTemplate(template.template.as_str().to_owned()),
                    template.template.variables().to_vec(),
                )
            }
        };
        if !names.contains(&request.argument) {
            return Err(ProtocolError::invalid_params(format!(
                "`{}` is not an argument of the {} `{}` (its arguments: {})",
                request.argument,
                resolved.kind(),
                resolved.id(),
                list(names.into_iter())
            )));
        }
        let Some(entry) = primitives
            .completions
            .iter()
            .find(|c| c.target == resolved && c.scope.contains(version))
        else {
            return Ok(CompletionResult::default());
        };
        let handler = Arc::clone(&entry.handler);
        contained(
            &format!("the completion of {} `{}`", resolved.kind(), resolved.id()),
            move || handler(request, cx),
        )
        .await
        .map_err(|e| e.into_protocol_error(version))
    }
}
