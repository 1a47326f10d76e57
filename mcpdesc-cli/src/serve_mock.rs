//! `mcpdesc serve-mock`: any valid description served as a **mock** MCP server over
//! stdio or streamable HTTP (`--http ADDR`, at `http://ADDR/mcp`), with no generated
//! or handwritten code.
//!
//! The mock is the runtime's [`ExampleBook`] router, built here at run time from the
//! description instead of from generated constants: `tools/list`, `prompts/list`,
//! `resources/list` and `resources/templates/list` list every declaration
//! (mcpdesc-only members stripped per negotiated version, as a generated server lists
//! them), and `tools/call`, `prompts/get`, `resources/read` and `completion/complete`
//! replay example results by the documented policy of [`mcpdesc::mock`]: an example
//! selected with `--select` (syntax: [`mcpdesc::mock::Selection`]), else the first
//! example, in name order, whose request equals the one received, else an error naming
//! the available examples. Interaction examples make their steps' requests to the client
//! first. The capabilities are what the description's `capabilities` declare that the
//! runtime implements, plus those of what it serves (see [`mcpdesc::Router::capabilities`]).
//!
//! It replays exactly what the description shows (the result JSON verbatim); it never
//! runs a live tool and does not predict live behaviour (MCP Description §9.3).
//!
//! # Security
//!
//! The description's security is declared to the router, and enforced over HTTP
//! only with `--token TOKEN:SCOPE,SCOPE` (repeatable; [`with_tokens`]): those are the
//! only valid credentials, whatever the scheme (a bearer token, an API key, the
//! password of HTTP Basic credentials). The HTTP answers are the runtime's (see
//! `mcpdesc::auth`): 401 with challenges, 403 `insufficient_scope`, Protected
//! Resource Metadata at `/.well-known/oauth-protected-resource/mcp` whose `resource`
//! is the URL served. Instead of `--token`, `--jwks URL --issuer ISS [--audience AUD]`
//! enforces it with real JWT bearer tokens ([`with_jwt`]; the audience defaults to the
//! URL served, the metadata's `resource`). Without either nothing is enforced (a note
//! says so), and stdio never enforces.
//!
//! # Decisions
//! - Without `--protocol-version` the server speaks every root protocol version and
//!   serves protocol-scoped variants of a declaration side by side (the router keeps
//!   their scopes apart); with it, only that version and the declarations whose scope
//!   has it.
//! - Everything the command prints goes to stderr: stdout is the MCP channel.
//! - The runtime's specs hold `'static` text (generated code stores it in constants);
//!   the mock leaks the strings of one description once per process, which lives as
//!   long as the server anyway.

use mcpdesc::auth::{Principal, StaticTokens};
use mcpdesc::mock::{
    completion_request, BookEntry, ExampleBook, RequestEntry, Selection, Specs, Target,
};
use mcpdesc::{
    CompletionTarget, PromptSpec, ResourceSpec, ResourceTemplateSpec, Router, ServerInfo, ToolSpec,
};
use mcpdesc_codegen::generate::{security, view};
use mcpdesc_codegen::{Description, ProtocolVersion, VersionSet};
use serde_json::{json, Value};

/// Why no mock router could be built.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MockError {
    /// The description has errors (they were reported by validation).
    #[error("{0} is invalid; a mock is only served from a valid description")]
    Invalid(String),
    /// The chosen version is not one the description describes.
    #[error("the description does not describe MCP {version} (its protocolVersions are {root})")]
    UnknownVersion {
        /// The chosen version.
        version: ProtocolVersion,
        /// The root `protocolVersions`.
        root: VersionSet,
    },
    /// `--select` names a target or example the description does not have.
    #[error("--select {0}")]
    Selection(String),
    /// The runtime refused a declaration.
    #[error("the runtime cannot serve {kind} `{name}`: {message}")]
    Router {
        /// What was refused: `tool`, `prompt`, `resource`, `resource template`,
        /// `completion` or `capabilities`.
        kind: &'static str,
        /// Its identity.
        name: String,
        /// The runtime's reason.
        message: String,
    },
}

/// The resolved declarations of one array that the mock serves: `(resolved JSON,
/// runtime scope)` for each declaration whose scope meets `served`.
fn declarations(
    resolved: &Value,
    array: &str,
    root: VersionSet,
    served: VersionSet,
) -> Vec<(Value, &'static [mcpdesc::ProtocolVersion])> {
    resolved
        .get(array)
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|declaration| {
            let declared: Option<Vec<String>> = declaration
                .get("protocolVersions")
                .and_then(|v| serde_json::from_value(v.clone()).ok());
            let scope = view::scope_in(declared.as_deref(), root).intersect(served);
            (!scope.is_empty()).then(|| (declaration.clone(), runtime_versions(scope)))
        })
        .collect()
}

/// The named examples of `member` of a declaration, in name order, as book entries with
/// the request `request_of` builds.
fn request_entries(
    declaration: &Value,
    member: &str,
    request_of: impl Fn(&Value) -> Value,
) -> Vec<RequestEntry> {
    sorted(declaration, member)
        .into_iter()
        .map(|(name, example)| RequestEntry {
            request: request_of(&example),
            result: example.get("result").cloned().unwrap_or(Value::Null),
            name,
        })
        .collect()
}

/// The declaration without its example maps (the runtime does not serve them).
fn served_declaration(declaration: &Value) -> &'static str {
    let mut value = declaration.clone();
    if let Some(map) = value.as_object_mut() {
        for member in ["examples", "interactionExamples", "completionExamples"] {
            map.remove(member);
        }
    }
    leak(value.to_string())
}

fn text(declaration: &Value, member: &str) -> String {
    declaration
        .get(member)
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_owned()
}

/// Builds the mock router of a valid description: every declaration (of `version`
/// only, when given) answered from its examples, with `selections` applied as explicit
/// selections.
pub fn mock_router(
    desc: &Description,
    version: Option<ProtocolVersion>,
    selections: &[Selection],
) -> Result<Router, MockError> {
    let (Some(doc), Some(validation), true) =
        (desc.document(), desc.validation.as_ref(), desc.is_valid())
    else {
        return Err(MockError::Invalid(desc.name.clone()));
    };
    let root = view::root_versions(doc);
    let served = match version {
        Some(v) if !root.contains(v) => return Err(MockError::UnknownVersion { version: v, root }),
        Some(v) => VersionSet::only(v),
        None => root,
    };
    // Every `$componentRef` (schemas, examples) substituted.
    let resolved = &validation.resolution.value;

    let mut book = ExampleBook::new();
    let mut tools = Vec::new();
    for (declaration, scope) in declarations(resolved, "tools", root, served) {
        let name = text(&declaration, "name");
        book.add_tool(&name, scope.to_vec(), entries(&declaration));
        tools.push(ToolSpec::new(
            leak(name),
            scope,
            served_declaration(&declaration),
        ));
    }
    let mut prompts = Vec::new();
    for (declaration, scope) in declarations(resolved, "prompts", root, served) {
        let name = text(&declaration, "name");
        let examples = request_entries(&declaration, "examples", |e| {
            e.get("arguments").cloned().unwrap_or_else(|| json!({}))
        });
        book.add_target(Target::Prompt(name.clone()), scope.to_vec(), examples);
        let completions = request_entries(&declaration, "completionExamples", completion_request);
        if !completions.is_empty() {
            let target = Target::Completion(CompletionTarget::prompt(name.clone()));
            book.add_target(target, scope.to_vec(), completions);
        }
        prompts.push(PromptSpec::new(
            leak(name),
            scope,
            served_declaration(&declaration),
        ));
    }
    let mut resources = Vec::new();
    for (declaration, scope) in declarations(resolved, "resources", root, served) {
        let uri = text(&declaration, "uri");
        let request = Value::from(uri.clone());
        let examples = request_entries(&declaration, "examples", |_| request.clone());
        book.add_target(Target::Resource(uri.clone()), scope.to_vec(), examples);
        resources.push(ResourceSpec::new(
            leak(uri),
            scope,
            served_declaration(&declaration),
        ));
    }
    let mut templates = Vec::new();
    for (declaration, scope) in declarations(resolved, "resourceTemplates", root, served) {
        let uri_template = text(&declaration, "uriTemplate");
        let examples = request_entries(&declaration, "examples", |e| {
            e.get("uri").cloned().unwrap_or(Value::Null)
        });
        let target = Target::ResourceTemplate(uri_template.clone());
        book.add_target(target, scope.to_vec(), examples);
        let completions = request_entries(&declaration, "completionExamples", completion_request);
        if !completions.is_empty() {
            let target =
                Target::Completion(CompletionTarget::resource_template(uri_template.clone()));
            book.add_target(target, scope.to_vec(), completions);
        }
        templates.push(ResourceTemplateSpec::new(
            leak(uri_template),
            scope,
            served_declaration(&declaration),
        ));
    }
    for selection in selections {
        book = book.apply(selection).map_err(MockError::Selection)?;
    }

    let info = &doc.info;
    let server = ServerInfo {
        name: info.name.clone(),
        version: info.version.clone(),
        title: info.title.clone(),
        description: info.description.clone(),
        website_url: info.website_url.clone(),
        instructions: doc.instructions.clone(),
        protocol_versions: runtime_versions(served),
        capabilities: doc
            .capabilities
            .as_ref()
            .map(|list| leak(Value::Array(list.clone()).to_string())),
    };
    let specs = Specs {
        tools: Box::leak(tools.into_boxed_slice()),
        prompts: Box::leak(prompts.into_boxed_slice()),
        resources: Box::leak(resources.into_boxed_slice()),
        resource_templates: Box::leak(templates.into_boxed_slice()),
    };
    // The description's security; enforced only with test tokens (`with_tokens`).
    let router = book
        .router(server, &specs)
        .security(security::declaration_json(resolved).as_deref())
        .without_authentication();
    match router.errors().first() {
        Some(e) => Err(MockError::Router {
            kind: e.kind,
            name: e.name.clone(),
            message: e.message.clone(),
        }),
        None => Ok(router),
    }
}

/// The members of the object `member` of `declaration`, sorted by name.
fn sorted(declaration: &Value, member: &str) -> Vec<(String, Value)> {
    let mut list: Vec<(String, Value)> = declaration
        .get(member)
        .and_then(Value::as_object)
        .map(|map| map.iter().map(|(k, v)| (k.clone(), v.clone())).collect())
        .unwrap_or_default();
    list.sort_by(|a, b| a.0.cmp(&b.0));
    list
}

/// The Tool Examples, then the interaction examples, of a resolved declaration, each in
/// name order (the order of the generated `examples` module, so that the mock and
/// `ExampleServer` pick the same example).
fn entries(declaration: &Value) -> Vec<BookEntry> {
    let field = |example: &Value, key: &str| example.get(key).cloned().unwrap_or(Value::Null);
    let examples = sorted(declaration, "examples")
        .into_iter()
        .map(|(name, e)| BookEntry {
            input: field(&e, "input"),
            result: field(&e, "result"),
            steps: None,
            name,
        });
    let interactions = sorted(declaration, "interactionExamples")
        .into_iter()
        .map(|(name, e)| BookEntry {
            input: field(&e, "input"),
            result: field(&e, "result"),
            steps: Some(field(&e, "steps")),
            name,
        });
    examples.chain(interactions).collect()
}

/// The runtime's spelling of a set of versions (the two crates each have their own
/// `ProtocolVersion`; they share the wire names).
fn runtime_versions(set: VersionSet) -> &'static [mcpdesc::ProtocolVersion] {
    let list: Vec<mcpdesc::ProtocolVersion> = set
        .iter()
        .filter_map(|v| {
            mcpdesc::ProtocolVersion::ALL
                .iter()
                .copied()
                .find(|r| r.as_str() == v.as_str())
        })
        .collect();
    Box::leak(list.into_boxed_slice())
}

fn leak(text: String) -> &'static str {
    Box::leak(text.into_boxed_str())
}

/// A static test credential of `--token TOKEN[:SCOPE,SCOPE...]`.
#[derive(Clone, PartialEq, Eq)]
pub struct MockToken {
    /// The credential: a bearer token, an API key, or the password of HTTP Basic
    /// credentials (any user name), or the credentials of another HTTP scheme.
    pub token: String,
    /// The scopes it grants.
    pub scopes: Vec<String>,
}

impl std::fmt::Debug for MockToken {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MockToken")
            .field("token", &"<redacted>")
            .field("scopes", &self.scopes)
            .finish()
    }
}

/// Parses a `--token` value: the token up to the first `:`, then the scopes it
/// grants, comma-separated (scopes may hold `:` themselves, as in `games:read`).
///
/// ```
/// use mcpdesc_cli::serve_mock::parse_token;
/// let t = parse_token("reader-token:games:read,games:list").unwrap();
/// assert_eq!(t.token, "reader-token");
/// assert_eq!(t.scopes, ["games:read", "games:list"]);
/// assert!(parse_token("plain").unwrap().scopes.is_empty());
/// assert!(parse_token(":games:read").is_err());
/// ```
pub fn parse_token(text: &str) -> Result<MockToken, String> {
    let (token, scopes) = text.split_once(':').unwrap_or((text, ""));
    if token.is_empty() {
        return Err("the token before `:` is empty (syntax: TOKEN[:SCOPE,SCOPE...])".into());
    }
    if token.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Err("a token cannot hold spaces or control characters".into());
    }
    let scopes = scopes
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
        .collect();
    Ok(MockToken {
        token: token.to_owned(),
        scopes,
    })
}

/// The mock `router` enforcing the description's security with `tokens` as its
/// only valid credentials (each one's principal is `token-N`, N counting from 1,
/// with its scopes); every scheme accepts every token ([`StaticTokens`]).
pub fn with_tokens(router: Router, tokens: &[MockToken]) -> Router {
    let table = tokens
        .iter()
        .enumerate()
        .fold(StaticTokens::new(), |table, (i, t)| {
            table.token(
                t.token.clone(),
                Principal::new(format!("token-{}", i + 1)).with_scopes(t.scopes.iter().cloned()),
            )
        });
    router.authenticator(table)
}

/// `serve-mock --jwks URL --issuer ISS [--audience AUD]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MockJwt {
    /// The JWKS URL.
    pub jwks: String,
    /// The issuer (`iss`) accepted.
    pub issuer: String,
    /// The audience (`aud`) required; none: the URL served (the Protected Resource
    /// Metadata's `resource`).
    pub audience: Option<String>,
}

/// The mock `router` enforcing the description's security with JWT bearer tokens
/// of `jwt.issuer`, verified against the JWKS at `jwt.jwks`
/// ([`mcpdesc::auth::jwt::JwtAuthenticator`]); the audience is `jwt.audience`, else
/// the URL each request reached (the Protected Resource Metadata's `resource`).
pub fn with_jwt(router: Router, jwt: &MockJwt) -> Router {
    let mut authenticator =
        mcpdesc::auth::jwt::JwtAuthenticator::from_jwks_url(&jwt.jwks, &jwt.issuer);
    if let Some(audience) = &jwt.audience {
        authenticator = authenticator.audience([audience.as_str()]);
    }
    router.authenticator(authenticator)
}

/// Parses a `--select` value (the syntax of [`mcpdesc::mock::Selection`]:
/// `TOOL=EXAMPLE`, `prompt:NAME=EXAMPLE`, `resource:URI=EXAMPLE`,
/// `template:URI_TEMPLATE=EXAMPLE`, `completion:prompt:NAME=EXAMPLE`,
/// `completion:template:URI_TEMPLATE=EXAMPLE`).
pub fn parse_selection(text: &str) -> Result<Selection, String> {
    text.parse()
}

/// The runtime `#[tokio::main]` gives a server binary.
fn runtime() -> Result<tokio::runtime::Runtime, String> {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the async runtime: {e}"))
}

/// Serves `router` over streamable HTTP at `http://ADDR/mcp` until the process is
/// stopped; `listening` gets the endpoint's URL once the address is bound (with the
/// port chosen for port 0). `transport` is the `url` of the description's HTTP
/// transport served (whose `security` primitives inherit); by default the first
/// `streamable-http` one of each protocol version.
pub fn serve_http(
    router: Router,
    addr: &str,
    transport: Option<&str>,
    listening: impl FnOnce(&str),
) -> Result<(), String> {
    runtime()?.block_on(async {
        // Local tests: the metadata's `resource` is the URL the client reached.
        let mut server = mcpdesc::http::HttpServer::new(router).served_resource_url();
        if let Some(url) = transport {
            server = server.transport_url(url);
        }
        let server = server
            .bind(addr)
            .await
            .map_err(|e| format!("cannot serve HTTP at {addr}: {e}"))?;
        listening(&server.url());
        server.run().await.map_err(|e| e.to_string())
    })
}

/// Serves `router` on stdin/stdout until the client ends the session.
pub fn serve_stdio(router: Router) -> Result<(), String> {
    // The transport reads stdin and writes stdout on tokio's blocking threads.
    let runtime = runtime()?;
    let outcome = runtime.block_on(mcpdesc::serve_stdio(router));
    // tokio reads stdin on a blocking thread that may still wait for a line; do not
    // wait for it once the session is over.
    runtime.shutdown_background();
    outcome.map_err(|e| e.to_string())
}
