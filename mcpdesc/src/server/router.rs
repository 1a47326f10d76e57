//! The tool router: registration by generated code, `tools/list` projection per
//! version, and `tools/call` dispatch with argument and output checking.

use std::fmt;
use std::sync::Arc;

use serde_json::{Map, Value};

use super::capabilities::{Capabilities, Served};
use super::context::Context;
use super::primitives::registry::Primitives;
use super::subscriptions::{ChangeNotifier, ListChanged};
use crate::auth::policy::{declared_requirement, RouterSecurity};
use crate::auth::requirement::Requirement;
use crate::protocol::error::{ProtocolError, RouterError, ToolError};
use crate::protocol::futures::BoxFuture;
use crate::protocol::result::ToolResult;
use crate::protocol::version::{ProtocolVersion, VersionSet};
use crate::schema::validator::{self, Validator};
use crate::tasks::support::{capability as tasks_capability, TaskSupport};

/// The boxed handler of one tool: validated arguments and the call's context in, a
/// result or a tool execution error out.
pub type Handler =
    Arc<dyn Fn(Value, Context) -> BoxFuture<'static, Result<ToolResult, ToolError>> + Send + Sync>;

/// The static description of one tool, as generated code passes it to [`Router::tool`].
///
/// ```
/// use mcpdesc::{ProtocolVersion, ToolSpec};
///
/// const ECHO: ToolSpec = ToolSpec::new(
///     "echo",
///     &[ProtocolVersion::V2025_06_18, ProtocolVersion::V2025_11_25],
///     r#"{"name": "echo", "inputSchema": {"type": "object"}}"#,
/// );
/// assert_eq!(ECHO.name, "echo");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ToolSpec {
    /// The tool name; must equal the declaration's `name`.
    pub name: &'static str,
    /// The tool's effective protocol scope (its `protocolVersions`, else the
    /// description's). Empty means every version of the server
    /// ([`ServerInfo::protocol_versions`]).
    pub scope: &'static [ProtocolVersion],
    /// The resolved Tool declaration as JSON: the mcpdesc Tool object with every
    /// `$componentRef` substituted. mcpdesc-only members may stay in it; the router
    /// strips them when listing.
    pub declaration: &'static str,
}

impl ToolSpec {
    /// The declaration as JSON (`Value::Null` if it is not JSON, which
    /// [`Router::tool`] reports). This and the member accessors below parse the text
    /// on each call: they are for reading metadata, not for a hot path.
    pub fn declaration_value(&self) -> Value {
        serde_json::from_str(self.declaration).unwrap_or(Value::Null)
    }

    /// A string member of the declaration at a JSON Pointer (`/title`,
    /// `/annotations/title`, `/execution/taskSupport`).
    pub fn text(&self, pointer: &str) -> Option<String> {
        self.declaration_value()
            .pointer(pointer)
            .and_then(Value::as_str)
            .map(str::to_owned)
    }

    /// A boolean member of the declaration at a JSON Pointer
    /// (`/annotations/readOnlyHint`, `/deprecated`).
    pub fn flag(&self, pointer: &str) -> Option<bool> {
        self.declaration_value()
            .pointer(pointer)
            .and_then(Value::as_bool)
    }

    /// A spec from its three parts.
    pub const fn new(
        name: &'static str,
        scope: &'static [ProtocolVersion],
        declaration: &'static str,
    ) -> Self {
        ToolSpec {
            name,
            scope,
            declaration,
        }
    }
}

/// Who the server is: the description's `info`, `instructions`, root
/// `protocolVersions` and `capabilities` declaration.
///
/// ```
/// use mcpdesc::{ProtocolVersion, ServerInfo};
///
/// let info = ServerInfo {
///     name: "chess".into(),
///     version: "1.0.0".into(),
///     instructions: Some("Analyze games, then record results.".into()),
///     protocol_versions: &[ProtocolVersion::V2025_06_18, ProtocolVersion::V2025_11_25],
///     ..Default::default()
/// };
/// assert_eq!(info.title, None);
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct ServerInfo {
    /// `info.name` (MCP `Implementation.name`).
    pub name: String,
    /// `info.version`.
    pub version: String,
    /// `info.title`.
    pub title: Option<String>,
    /// `info.description`.
    pub description: Option<String>,
    /// `info.websiteUrl`.
    pub website_url: Option<String>,
    /// The description's `instructions`.
    pub instructions: Option<String>,
    /// The description's root `protocolVersions`: the versions this server speaks.
    pub protocol_versions: &'static [ProtocolVersion],
    /// The description's root `capabilities` array as JSON text (each object with
    /// its optional `protocolVersions`), or `None` when it declares none. The router
    /// advertises from it what the runtime implements ([`Router::capabilities`]); a
    /// declared `logging` turns [`Context::log`] on.
    pub capabilities: Option<&'static str>,
}

impl ServerInfo {
    /// Info with a name and a version, every protocol version, and nothing else.
    pub fn new(name: impl Into<String>, version: impl Into<String>) -> Self {
        ServerInfo {
            name: name.into(),
            version: version.into(),
            ..Default::default()
        }
    }
}

impl Default for ServerInfo {
    /// Name `mcpdesc-server`, version `0.0.0`, every protocol version.
    fn default() -> Self {
        ServerInfo {
            name: "mcpdesc-server".into(),
            version: "0.0.0".into(),
            title: None,
            description: None,
            website_url: None,
            instructions: None,
            protocol_versions: ProtocolVersion::ALL,
            capabilities: None,
        }
    }
}

pub(super) struct ToolEntry {
    pub(super) name: String,
    pub(super) scope: VersionSet,
    pub(super) declaration: Map<String, Value>,
    /// Its own `security`, when it states one.
    pub(super) security: Option<Requirement>,
    pub(super) input: Validator,
    pub(super) output: Option<Validator>,
    pub(super) handler: Handler,
}

/// Serves the tools of one description: lists them per protocol version and dispatches
/// calls to their handlers.
///
/// Generated code builds it like this (one `.tool(...)` per tool):
///
/// ```
/// use mcpdesc::{Context, ProtocolVersion, Router, ServerInfo, ToolResult, ToolSpec};
/// use serde_json::json;
///
/// const ECHO: ToolSpec = ToolSpec::new("echo", &[], r#"{
///     "name": "echo",
///     "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]},
///     "tags": ["demo"]
/// }"#);
///
/// let router = Router::new(ServerInfo::new("demo", "1.0.0")).tool(ECHO, |args, _cx| {
///     Box::pin(async move { Ok(ToolResult::text(args["text"].as_str().unwrap_or_default())) })
/// });
/// assert!(router.errors().is_empty());
/// assert_eq!(router.list_tools(ProtocolVersion::V2025_06_18)[0].get("tags"), None);
///
/// let cx = Context::new(ProtocolVersion::V2025_06_18);
/// let result = futures::executor::block_on(router.call_tool("echo", Some(json!({"text": "hi"})), cx)).unwrap();
/// assert_eq!(result, ToolResult::text("hi"));
/// ```
///
/// # Registration errors
///
/// [`Router::tool`] never panics. A spec whose declaration is not a JSON object, whose
/// `name` differs, whose schemas do not compile (for example an external `$ref`, which
/// this runtime never fetches), whose scope leaves the server's versions or overlaps a
/// same-name tool is not registered; the problem is kept in [`Router::errors`], calls to
/// that tool get a JSON-RPC internal error, and `serve_stdio` refuses to start.
///
/// A tool served only in versions before MCP 2025-11-25, which define no schema dialect,
/// is not refused for a schema that is not JSON Schema 2020-12 (say a draft-04
/// `"exclusiveMinimum": true`): its arguments are then checked only for the shape those
/// versions define, an object with the `required` members.
///
/// # Output checking
///
/// With [`Router::validate_output`] on (the default in debug builds, off in release
/// builds), a successful result of a tool with an `outputSchema` must carry
/// `structuredContent` valid against it; otherwise the caller gets an `isError` result
/// naming each failing pointer instead of the bad output.
pub struct Router {
    info: ServerInfo,
    server_versions: VersionSet,
    capabilities: Capabilities,
    pub(super) tools: Vec<ToolEntry>,
    primitives: Primitives,
    security: RouterSecurity,
    pub(super) errors: Vec<RouterError>,
    pub(super) validate_output: bool,
    /// The served sessions, for change notifications.
    changes: ChangeNotifier,
}

impl fmt::Debug for Router {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Router")
            .field("info", &self.info)
            .field(
                "tools",
                &self.tools.iter().map(|t| &t.name).collect::<Vec<_>>(),
            )
            .field("primitives", &self.primitives)
            .field("security", &self.security)
            .field("errors", &self.errors)
            .field("validate_output", &self.validate_output)
            .finish()
    }
}

impl Router {
    /// An empty router for a server.
    ///
    /// A `capabilities` declaration in `info` that does not parse is kept in
    /// [`Router::errors`] (as a problem of `capabilities`) and ignored.
    pub fn new(info: ServerInfo) -> Self {
        let server_versions = VersionSet::of(info.protocol_versions);
        let mut errors = Vec::new();
        let capabilities =
            Capabilities::parse(info.capabilities, server_versions).unwrap_or_else(|message| {
                errors.push(RouterError {
                    kind: "capabilities",
                    name: "capabilities".into(),
                    message,
                });
                Capabilities::default()
            });
        Router {
            info,
            server_versions,
            capabilities,
            tools: Vec::new(),
            primitives: Primitives::default(),
            security: RouterSecurity::default(),
            errors,
            validate_output: cfg!(debug_assertions),
            changes: ChangeNotifier::default(),
        }
    }

    /// Registers a tool (see the type's docs for what happens to a bad spec).
    ///
    /// The handler receives the arguments after they passed the tool's `inputSchema`
    /// (`{}` when the call had none).
    pub fn tool<H>(mut self, spec: ToolSpec, handler: H) -> Self
    where
        H: Fn(Value, Context) -> BoxFuture<'static, Result<ToolResult, ToolError>>
            + Send
            + Sync
            + 'static,
    {
        if let Err(error) = self.add_tool(spec, Arc::new(handler)) {
            self.errors.push(error);
        }
        self
    }

    /// Registers a tool, or says why it cannot be registered (nothing is recorded in
    /// [`Router::errors`] then).
    pub fn add_tool(&mut self, spec: ToolSpec, handler: Handler) -> Result<(), RouterError> {
        let fail = |message: String| RouterError {
            kind: "tool",
            name: spec.name.to_owned(),
            message,
        };
        let declaration = match serde_json::from_str::<Value>(spec.declaration) {
            Ok(Value::Object(map)) => map,
            Ok(_) => return Err(fail("the declaration is not a JSON object".into())),
            Err(e) => return Err(fail(format!("the declaration is not valid JSON: {e}"))),
        };
        match declaration.get("name") {
            Some(Value::String(name)) if name == spec.name => {}
            other => {
                return Err(fail(format!(
                    "the declaration's `name` is {}, not \"{}\"",
                    other.map_or("missing".to_owned(), Value::to_string),
                    spec.name
                )))
            }
        }
        let scope = if spec.scope.is_empty() {
            self.server_versions
        } else {
            VersionSet::of(spec.scope)
        };
        if !scope.is_subset_of(self.server_versions) {
            return Err(fail(format!(
                "its scope ({scope}) is not within the server's protocol versions ({})",
                self.server_versions
            )));
        }
        if let Some(declared) = declaration.get("protocolVersions") {
            let parsed: Result<Vec<ProtocolVersion>, _> = serde_json::from_value(declared.clone());
            match parsed {
                Ok(list) if VersionSet::of(&list) == scope => {}
                Ok(list) => {
                    return Err(fail(format!(
                        "the declaration's `protocolVersions` ({}) differ from the spec's scope ({scope})",
                        VersionSet::of(&list)
                    )))
                }
                Err(e) => return Err(fail(format!("bad `protocolVersions`: {e}"))),
            }
        }
        if let Some(other) = self
            .tools
            .iter()
            .find(|t| t.name == spec.name && t.scope.intersects(scope))
        {
            return Err(fail(format!(
                "its scope ({scope}) overlaps another declaration of the same name ({})",
                other.scope
            )));
        }
        // Versions before 2025-11-25 define no schema dialect: a tool served only in
        // them gets the legacy shape check when its schema is not JSON Schema 2020-12.
        let legacy = scope.iter().all(|v| v < ProtocolVersion::V2025_11_25);
        let compile = if legacy {
            validator::compile_legacy
        } else {
            validator::compile
        };
        let input = match declaration.get("inputSchema") {
            Some(schema) => compile(schema)
                .map_err(|e| fail(format!("its `inputSchema` does not compile: {e}")))?,
            None => return Err(fail("the declaration has no `inputSchema`".into())),
        };
        let output = match declaration.get("outputSchema") {
            Some(schema) => Some(
                compile(schema)
                    .map_err(|e| fail(format!("its `outputSchema` does not compile: {e}")))?,
            ),
            None => None,
        };
        let security =
            declared_requirement(self.security.declaration(), &declaration).map_err(fail)?;
        self.tools.push(ToolEntry {
            name: spec.name.to_owned(),
            scope,
            declaration,
            security,
            input,
            output,
            handler,
        });
        Ok(())
    }

    /// Turns output checking on or off (see the type's docs).
    pub fn validate_output(mut self, enabled: bool) -> Self {
        self.validate_output = enabled;
        self
    }

    /// Whether output checking is on.
    pub fn validates_output(&self) -> bool {
        self.validate_output
    }

    /// The server's info.
    pub fn info(&self) -> &ServerInfo {
        &self.info
    }

    /// The native MCP `ServerCapabilities` object the server advertises in `version`:
    /// from the description's `capabilities` declaration what this runtime
    /// implements, and `tools`, `prompts`, `resources` and `completions` whenever the
    /// router serves one in `version` (the rules are in the `capabilities` module docs).
    ///
    /// ```
    /// use mcpdesc::{ProtocolVersion, Router, ServerInfo};
    ///
    /// let info = ServerInfo {
    ///     capabilities: Some(r#"[{"logging": {}, "tools": {"listChanged": true}}]"#),
    ///     ..ServerInfo::new("demo", "1.0.0")
    /// };
    /// let router = Router::new(info);
    /// let v = ProtocolVersion::V2025_11_25;
    /// assert_eq!(
    ///     router.capabilities(v),
    ///     serde_json::json!({"tools": {"listChanged": true}, "logging": {}})
    /// );
    /// assert!(router.logging(v));
    /// ```
    pub fn capabilities(&self, version: ProtocolVersion) -> Value {
        let served = Served {
            tools: self.serves_tools(version),
            ..self.primitives.served(version)
        };
        let mut advertised = self.capabilities.advertised(version, served);
        // Core tasks (MCP 2025-11-25): advertised when a tool of the version runs as
        // a task; the declaration's own `tasks` is not what decides it.
        if self.serves_tasks(version) {
            advertised["tasks"] = tasks_capability();
        }
        advertised
    }

    /// The `execution.taskSupport` of the tool `name` in `version` (always
    /// [`TaskSupport::Forbidden`](TaskSupport) outside MCP 2025-11-25); an
    /// unknown tool is the error a call of it would get.
    pub fn task_support(
        &self,
        name: &str,
        version: ProtocolVersion,
    ) -> Result<TaskSupport, ProtocolError> {
        let entry = self.find(name, version)?;
        Ok(TaskSupport::of(&entry.declaration, version))
    }

    /// Whether a tool of `version` runs as a task (`optional` or `required`): the
    /// server then serves `tasks/*` and advertises the `tasks` capability.
    pub fn serves_tasks(&self, version: ProtocolVersion) -> bool {
        self.tools.iter().any(|t| {
            t.scope.contains(version) && TaskSupport::of(&t.declaration, version).allows_task()
        })
    }

    /// Whether the description declares the `logging` capability for `version`
    /// (otherwise [`Context::log`] sends nothing and `logging/setLevel` is unknown).
    pub fn logging(&self, version: ProtocolVersion) -> bool {
        self.capabilities.logging(version)
    }

    /// The handle that sends `notifications/resources/updated` and
    /// `notifications/*/list_changed` to the sessions serving this router (see
    /// [`ChangeNotifier`]); take it before the router is served to notify from
    /// outside a request. Handlers have it as [`Context::changes`].
    pub fn changes(&self) -> ChangeNotifier {
        self.changes.clone()
    }

    /// Which lists announce their changes in `version`.
    #[cfg_attr(not(feature = "rmcp"), allow(dead_code))]
    pub(crate) fn list_changed(&self, version: ProtocolVersion) -> ListChanged {
        self.capabilities.list_changed(version)
    }

    /// Whether `resources/subscribe` is served in `version`.
    #[cfg_attr(not(feature = "rmcp"), allow(dead_code))]
    pub(crate) fn subscribe(&self, version: ProtocolVersion) -> bool {
        self.capabilities.subscribe(version)
    }

    /// Whether `version` is one of the server's protocol versions.
    pub fn speaks(&self, version: ProtocolVersion) -> bool {
        self.server_versions.contains(version)
    }

    /// The problems found while registering tools, prompts, resources, templates,
    /// completions and capabilities; empty for a healthy router.
    pub fn errors(&self) -> &[RouterError] {
        &self.errors
    }

    pub(crate) fn push_error(&mut self, error: RouterError) {
        self.errors.push(error);
    }

    pub(crate) fn server_versions(&self) -> VersionSet {
        self.server_versions
    }

    pub(crate) fn primitives(&self) -> &Primitives {
        &self.primitives
    }

    pub(crate) fn primitives_mut(&mut self) -> &mut Primitives {
        &mut self.primitives
    }

    pub(crate) fn security_setup(&self) -> &RouterSecurity {
        &self.security
    }

    pub(crate) fn security_setup_mut(&mut self) -> &mut RouterSecurity {
        &mut self.security
    }

    /// The own `security` of the tool `name` in `version`: `None` when there is no
    /// such tool, `Some(None)` when it states none.
    pub(crate) fn tool_security(
        &self,
        name: &str,
        version: ProtocolVersion,
    ) -> Option<Option<&Requirement>> {
        self.tools
            .iter()
            .find(|t| t.name == name && t.scope.contains(version))
            .map(|t| t.security.as_ref())
    }

    /// Each tool of `version` with its own `security`.
    pub(crate) fn tool_securities(
        &self,
        version: ProtocolVersion,
    ) -> impl Iterator<Item = (String, Option<&Requirement>)> {
        self.tools
            .iter()
            .filter(move |t| t.scope.contains(version))
            .map(|t| (format!("tool `{}`", t.name), t.security.as_ref()))
    }

    /// Every tool's own `security` of every version (what
    /// [`Self::all_tool_securities`] gives, without the names it formats).
    pub(crate) fn all_tool_requirements(&self) -> impl Iterator<Item = &Requirement> {
        self.tools.iter().filter_map(|t| t.security.as_ref())
    }

    /// Every stated tool `security` of every version, with the tool.
    pub(crate) fn all_tool_securities(&self) -> impl Iterator<Item = (String, &Requirement)> {
        self.tools
            .iter()
            .filter_map(|t| Some((format!("tool `{}`", t.name), t.security.as_ref()?)))
    }

    /// Whether a tool is served in `version`.
    pub(crate) fn serves_tools(&self, version: ProtocolVersion) -> bool {
        self.tools.iter().any(|t| t.scope.contains(version))
    }
}
