//! `mcpdesc serve-mock`: any valid description served as a **mock** MCP server over
//! stdio or streamable HTTP (`--http ADDR`, at `http://ADDR/mcp`), with no generated
//! or handwritten code.
//!
//! The mock is the runtime's [`ExampleBook`] router, built here at run time from the
//! description instead of from generated constants: `tools/list` lists every tool
//! declaration (mcpdesc-only members stripped per negotiated version, as a generated
//! server lists them) and `tools/call` replays example results by the documented policy
//! of [`mcpdesc::mock`]: an example selected with `--select TOOL=EXAMPLE`, else the first
//! example whose `input` equals the arguments, else a tool error naming the available
//! examples. Interaction examples make their steps' requests to the client first.
//!
//! It replays exactly what the description shows (the result JSON verbatim); it never
//! runs a live tool and does not predict live behaviour (MCP Description §9.3).
//!
//! # Decisions
//! - Without `--protocol-version` the server speaks every root protocol version and
//!   serves protocol-scoped variants of a tool side by side (the router keeps their
//!   scopes apart); with it, only that version and the declarations whose scope has it.
//! - Everything the command prints goes to stderr: stdout is the MCP channel.
//! - The runtime's `ToolSpec` holds `'static` text (generated code stores it in
//!   constants); the mock leaks the few strings of one description once per process,
//!   which lives as long as the server anyway.

use mcpdesc::mock::{BookEntry, ExampleBook};
use mcpdesc::{Router, ServerInfo, ToolSpec};
use mcpdesc_codegen::generate::view;
use mcpdesc_codegen::{Description, ProtocolVersion, VersionSet};
use serde_json::Value;

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
    /// `--select` names a tool or example the description does not have.
    #[error("--select {0}")]
    Selection(String),
    /// The runtime refused a tool declaration.
    #[error("the runtime cannot serve tool `{tool}`: {message}")]
    Router {
        /// The tool name.
        tool: String,
        /// The runtime's reason.
        message: String,
    },
}

/// Builds the mock router of a valid description: every tool declaration (of `version`
/// only, when given) answered from its examples, with `selections` (`(tool, example)`)
/// applied as explicit selections.
pub fn mock_router(
    desc: &Description,
    version: Option<ProtocolVersion>,
    selections: &[(String, String)],
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
    let resolved = &validation.resolution.value;

    let mut book = ExampleBook::new();
    let mut specs = Vec::new();
    for (index, tool) in doc.tools.iter().flatten().enumerate() {
        let scope = view::scope_of(tool, root).intersect(served);
        if scope.is_empty() {
            continue;
        }
        // The resolved declaration: every `$componentRef` (schemas, examples) substituted.
        let declaration = resolved
            .pointer(&format!("/tools/{index}"))
            .cloned()
            .unwrap_or(Value::Null);
        let runtime_scope = runtime_versions(scope);
        book.add_tool(&tool.name, runtime_scope.to_vec(), entries(&declaration));
        specs.push(ToolSpec::new(
            leak(tool.name.clone()),
            runtime_scope,
            leak(declaration.to_string()),
        ));
    }
    for (tool, example) in selections {
        book = book.select(tool, example).map_err(MockError::Selection)?;
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
    let router = book.router(server, &specs);
    match router.errors().first() {
        Some(e) => Err(MockError::Router {
            tool: e.tool.clone(),
            message: e.message.clone(),
        }),
        None => Ok(router),
    }
}

/// The Tool Examples, then the interaction examples, of a resolved declaration, each in
/// name order (the order of the generated `examples` module, so that the mock and
/// `ExampleServer` pick the same example).
fn entries(declaration: &Value) -> Vec<BookEntry> {
    let member = |key: &str| -> Vec<(String, Value)> {
        let mut list: Vec<(String, Value)> = declaration
            .get(key)
            .and_then(Value::as_object)
            .map(|map| map.iter().map(|(k, v)| (k.clone(), v.clone())).collect())
            .unwrap_or_default();
        list.sort_by(|a, b| a.0.cmp(&b.0));
        list
    };
    let field = |example: &Value, key: &str| example.get(key).cloned().unwrap_or(Value::Null);
    let examples = member("examples").into_iter().map(|(name, e)| BookEntry {
        input: field(&e, "input"),
        result: field(&e, "result"),
        steps: None,
        name,
    });
    let interactions = member("interactionExamples")
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

/// Parses a `--select` value, `TOOL=EXAMPLE`.
pub fn parse_selection(text: &str) -> Result<(String, String), String> {
    match text.split_once('=') {
        Some((tool, example)) if !tool.is_empty() && !example.is_empty() => {
            Ok((tool.to_owned(), example.to_owned()))
        }
        _ => Err(format!("expected TOOL=EXAMPLE, got {text:?}")),
    }
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
/// port chosen for port 0).
pub fn serve_http(router: Router, addr: &str, listening: impl FnOnce(&str)) -> Result<(), String> {
    runtime()?.block_on(async {
        let server = mcpdesc::http::HttpServer::new(router)
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
