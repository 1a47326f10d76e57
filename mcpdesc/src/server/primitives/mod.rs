//! Prompts, resources, resource templates and completions in the [`Router`]:
//! registration by generated code, listing per protocol version, dispatch of
//! `prompts/get`, `resources/read` and `completion/complete`, and the server
//! capabilities they bring.
//!
//! # Requests and their errors
//!
//! | request | checked by the router before the handler runs | error |
//! |---|---|---|
//! | `prompts/get` | the prompt exists in the version; every `required` argument is given; every argument is a string | -32602 |
//! | `resources/read` | the URI is a resource of the version, else an expansion of one of its templates (static resources first, then templates in registration order) | resource not found: -32002 before 2026-07-28, -32602 from 2026-07-28 on, with `{"uri"}` as data |
//! | `resources/read` of a template | the URI's variable values are well formed (percent-escapes, a repeated variable has one value) | -32602 |
//! | `completion/complete` | the prompt or template exists in the version; the argument is one of its arguments or variables | -32602 |
//!
//! A prompt or template without a completion handler completes to no values. A handler
//! error ([`RequestError`]) becomes its JSON-RPC error; a handler panic is caught and
//! becomes an internal error (-32603) naming the primitive, and the router keeps serving.
//!
//! The capabilities these primitives bring (`prompts`, `resources`, `completions`) are
//! decided with the rest in `capabilities.rs` ([`Router::capabilities`]).

use std::fmt;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;

use futures::FutureExt;
use serde_json::{Map, Value};

use crate::auth::Requirement;
use crate::protocol::prompts::{declared_arguments, native_prompt};
use crate::protocol::resources::{native_resource, native_resource_template};
use crate::protocol::uri_template::UriTemplate;
use crate::protocol::version::VersionSet;
use crate::server::capabilities::Served;
use crate::server::router::panic_message;
use crate::{
    BoxFuture, CompletionRequest, CompletionResult, CompletionTarget, Context, PromptResult,
    PromptSpec, ProtocolError, ProtocolVersion, RequestError, ResourceResult, ResourceSpec,
    ResourceTemplateSpec, Router, RouterError,
};

/// The boxed handler of one prompt: its arguments (checked: every required one present,
/// all strings) and the request's context in.
pub type PromptHandler = Arc<
    dyn Fn(Map<String, Value>, Context) -> BoxFuture<'static, Result<PromptResult, RequestError>>
        + Send
        + Sync,
>;

/// The boxed handler of one resource: the URI read and the request's context in.
pub type ResourceHandler = Arc<
    dyn Fn(String, Context) -> BoxFuture<'static, Result<ResourceResult, RequestError>>
        + Send
        + Sync,
>;

/// The boxed handler of one resource template: the URI read, its variables (a JSON
/// object of strings for a level-1 template, one raw string beyond level 1; see
/// [`UriTemplate::match_uri`]) and the request's context in.
pub type ResourceTemplateHandler = Arc<
    dyn Fn(String, Value, Context) -> BoxFuture<'static, Result<ResourceResult, RequestError>>
        + Send
        + Sync,
>;

/// The boxed completion handler of one prompt or resource template.
pub type CompletionHandler = Arc<
    dyn Fn(CompletionRequest, Context) -> BoxFuture<'static, Result<CompletionResult, RequestError>>
        + Send
        + Sync,
>;

struct PromptEntry {
    name: String,
    scope: VersionSet,
    declaration: Map<String, Value>,
    /// Its own `security`, when it states one.
    security: Option<Requirement>,
    arguments: Vec<(String, bool)>,
    handler: PromptHandler,
}

struct ResourceEntry {
    uri: String,
    scope: VersionSet,
    declaration: Map<String, Value>,
    security: Option<Requirement>,
    handler: ResourceHandler,
}

struct TemplateEntry {
    template: UriTemplate,
    scope: VersionSet,
    declaration: Map<String, Value>,
    security: Option<Requirement>,
    handler: ResourceTemplateHandler,
}

struct CompletionEntry {
    target: CompletionTarget,
    scope: VersionSet,
    handler: CompletionHandler,
}

/// The prompts, resources, templates and completion handlers of
/// a [`Router`].
#[derive(Default)]
pub(crate) struct Primitives {
    prompts: Vec<PromptEntry>,
    resources: Vec<ResourceEntry>,
    templates: Vec<TemplateEntry>,
    completions: Vec<CompletionEntry>,
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
    /// (the routing of [`Router::read_resource`]).
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
    let security = crate::auth::declared_requirement(router, &declaration).map_err(fail)?;
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

    /// Answers `prompts/get` (see the [module docs](crate::server::primitives) for the checks
    /// and errors). The result is version-independent; [`PromptResult::to_wire`]
    /// shapes it.
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
