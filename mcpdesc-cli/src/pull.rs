//! `mcpdesc pull`: connect to a live MCP server and write a description of what it
//! lists.
//!
//! ```text
//! mcpdesc pull (-- COMMAND [ARGS...] | --url URL) [-o OUT] [--timeout SECONDS]
//!              [--protocol-version V]
//! ```
//!
//! The MCP side is the runtime's client ([`mcpdesc::client`]): a spawned server runs in
//! its own process group and is ended with the session (stdin closed, then `SIGTERM`,
//! then `SIGKILL`), whatever happens. [`observe`] reads the handshake and, for each
//! capability the server declares, every page of its listing (`tools/list`;
//! `prompts/list`; `resources/list` and `resources/templates/list`), as raw JSON.
//! [`mcpdesc_contract::pull::describe`] turns that into an MCP Description 0.9.0 with a
//! warning for each item dropped or fixed; the emitted text is read back and validated
//! once more before anything is written.
//!
//! - OUT's extension chooses the format (`.json`; `.yaml` or `.yml`); without `-o` the
//!   description goes to stdout as JSON. Another extension is a usage error, before
//!   the server is started.
//! - exit 0 written (warnings on stderr); 2 when no description could be produced: the
//!   server did not start, crashed, hung (each step is bounded by `--timeout`, default
//!   30 s), wrote garbage, refused the handshake, or broke a listing; or the result
//!   would not be valid (its diagnostics are printed, nothing is written).
//! - `--protocol-version V` offers only V: a server that also speaks an older version
//!   than its newest is described as a client of V sees it (`protocolVersions: [V]`);
//!   a server that does not speak V fails the handshake (exit 2). Without it the
//!   client offers every version it speaks and the server's newest is described.
//!   Several versions are not pulled into one description: each pull is one
//!   session, and a description of several versions is written by hand from them
//!   (`protocolVersions` per declaration).
//! - a listing answered with a JSON-RPC error (a capability declared but its method
//!   refused) is a warning, and the description has none of that kind.

use std::io::Write;
use std::path::Path;
use std::time::Duration;

use mcpdesc::client::{Options, RequestError, Session};
use mcpdesc_codegen::source::{self, Format};
use mcpdesc_codegen::{Description, Limits, ProtocolVersion};
use mcpdesc_contract::pull::{describe, Kind, Observed, PullError};
use serde_json::Value;

use crate::exit::{EXIT_OK, EXIT_USAGE};
use crate::output::plural;

/// The default bound of each step (handshake, each listing request), in seconds.
pub const DEFAULT_TIMEOUT_SECONDS: u64 = 30;

/// How long a server gets to exit after its stdin closes, and again after `SIGTERM`.
const CLOSE_GRACE: Duration = Duration::from_secs(2);

/// The server to pull from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Server {
    /// A command started with its stdio as the MCP channel (`-- COMMAND ARGS...`).
    Command(Vec<String>),
    /// A streamable HTTP endpoint (`--url URL`).
    Url(String),
}

/// What was read, and the listings refused with a JSON-RPC error (method and error).
#[derive(Debug, Clone)]
pub struct Observation {
    /// The handshake and the listings.
    pub observed: Observed,
    /// `(method, error)` of each listing the server refused.
    pub refused: Vec<(&'static str, String)>,
}

/// How `pull` connects.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PullOptions {
    /// The bound of each step (handshake, each listing request).
    pub timeout: Duration,
    /// The only protocol version offered (`--protocol-version`); `None` offers every
    /// version the client speaks.
    pub protocol_version: Option<ProtocolVersion>,
}

/// `mcpdesc pull`: the description to OUT (or stdout), everything else to `err`.
pub fn pull(
    server: &Server,
    output: Option<&Path>,
    options: &PullOptions,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> u8 {
    let timeout = options.timeout;
    let format = match output {
        None => Format::Json,
        Some(path) => match Format::from_path(path) {
            Some(format) => format,
            None => {
                let _ = writeln!(
                    err,
                    "error: cannot tell the format of {} from its extension (use .json, .yaml or .yml)",
                    path.display()
                );
                return EXIT_USAGE;
            }
        },
    };
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(e) => {
            let _ = writeln!(err, "error: cannot start the async runtime: {e}");
            return EXIT_USAGE;
        }
    };
    let observation = runtime.block_on(async {
        let session = connect(server, timeout, options.protocol_version).await?;
        let observation = observe(&session).await;
        // Ended in every case; a spawned server that ignores its closed stdin is
        // terminated, then killed with its process group.
        session.close().await;
        observation
    });
    drop(runtime);
    let observation = match observation {
        Ok(observation) => observation,
        Err(why) => {
            let _ = writeln!(err, "error: {why}");
            let _ = writeln!(err, "error: nothing was written");
            return EXIT_USAGE;
        }
    };
    write_description(&observation, output, format, out, err)
}

/// Connects with every step bounded by `timeout`, offering only `version` when given.
async fn connect(
    server: &Server,
    timeout: Duration,
    version: Option<ProtocolVersion>,
) -> Result<Session, String> {
    let mut options = Options::new()
        .connect_timeout(timeout)
        .request_timeout(timeout)
        .close_grace(CLOSE_GRACE);
    if let Some(version) = version {
        let runtime: mcpdesc::ProtocolVersion = version
            .as_str()
            .parse()
            .map_err(|_| format!("the client does not speak MCP {}", version.as_str()))?;
        options = options.protocol_versions(&[runtime]);
    }
    let session = match server {
        Server::Command(argv) => {
            let (program, args) = argv
                .split_first()
                .ok_or_else(|| "no command given after `--`".to_owned())?;
            let mut command = tokio::process::Command::new(program);
            command.args(args);
            options.stdio(command).await
        }
        Server::Url(url) => options.http(url).await,
    };
    let session = session.map_err(|e| e.to_string())?;
    if let Some(version) = version {
        // A server must answer with the offered version or fail the handshake; one
        // that answers another is not described as if it spoke V.
        if session.protocol_version().as_str() != version.as_str() {
            let got = session.protocol_version().as_str().to_owned();
            session.close().await;
            return Err(format!(
                "the server answered MCP {got} to an offer of only {}",
                version.as_str()
            ));
        }
    }
    Ok(session)
}

/// Reads the handshake and every listing the server's capabilities declare (all pages;
/// the client refuses a cursor seen before and stops after 10,000 pages).
pub async fn observe(session: &Session) -> Result<Observation, String> {
    let handshake = session.initialize_result().clone();
    let version = ProtocolVersion::parse(session.protocol_version().as_str()).ok_or_else(|| {
        format!(
            "the negotiated protocol version {} is not one MCP Description 0.9.0 describes",
            session.protocol_version()
        )
    })?;
    let declared = |capability: &str| {
        session
            .server_capabilities()
            .and_then(|c| c.get(capability))
            .is_some_and(|c| !c.is_null())
    };
    let mut observation = Observation {
        observed: Observed {
            protocol_version: version,
            handshake,
            tools: None,
            prompts: None,
            resources: None,
            resource_templates: None,
        },
        refused: Vec::new(),
    };
    for kind in Kind::ALL {
        let capability = match kind {
            Kind::Tool => "tools",
            Kind::Prompt => "prompts",
            Kind::Resource | Kind::ResourceTemplate => "resources",
        };
        if !declared(capability) {
            continue;
        }
        let listing = match kind {
            Kind::Tool => session.list_tools().await,
            Kind::Prompt => session.list_prompts().await,
            Kind::Resource => session.list_resources().await,
            Kind::ResourceTemplate => session.list_resource_templates().await,
        };
        let items = match listing {
            Ok(listing) => listing.items,
            Err(RequestError::Protocol { error, .. }) => {
                observation
                    .refused
                    .push((kind.method(), format!("{} ({})", error.message, error.code)));
                continue;
            }
            Err(other) => {
                return Err(format!("the MCP server `{}`: {other}", session.server()));
            }
        };
        let slot = match kind {
            Kind::Tool => &mut observation.observed.tools,
            Kind::Prompt => &mut observation.observed.prompts,
            Kind::Resource => &mut observation.observed.resources,
            Kind::ResourceTemplate => &mut observation.observed.resource_templates,
        };
        *slot = Some(items);
    }
    Ok(observation)
}

/// Builds, checks and writes the description of `observation`; the warnings and a
/// summary go to `err`.
pub fn write_description(
    observation: &Observation,
    output: Option<&Path>,
    format: Format,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> u8 {
    let pulled = match describe(&observation.observed) {
        Ok(pulled) => pulled,
        Err(PullError::Invalid {
            diagnostics,
            warnings,
            ..
        }) => {
            for w in &warnings {
                let _ = writeln!(err, "{}", w.render());
            }
            for d in &diagnostics {
                let _ = writeln!(err, "{}", d.render("the pulled description", None));
            }
            let _ = writeln!(
                err,
                "error: the pulled description is not valid ({} error{}, listed above); nothing was written",
                diagnostics.len(),
                plural(diagnostics.len())
            );
            return EXIT_USAGE;
        }
    };
    let text = source::emit(&pulled.value, format);
    // The file as written must pass `mcpdesc validate`: read it back.
    let name = output.map_or("<stdout>".to_owned(), |p| p.display().to_string());
    let check = Description::from_text(&name, text.clone(), Some(format), &Limits::default());
    if !check.is_valid() {
        let _ = err.write_all(check.render_diagnostics().as_bytes());
        let _ = writeln!(
            err,
            "error: the pulled description does not pass validation (listed above); nothing was written"
        );
        return EXIT_USAGE;
    }
    let written = match output {
        Some(path) => std::fs::write(path, &text),
        None => out.write_all(text.as_bytes()),
    };
    if let Err(e) = written {
        let _ = writeln!(err, "error: cannot write {name}: {e}");
        return EXIT_USAGE;
    }
    for (method, error) in &observation.refused {
        let _ = writeln!(
            err,
            "warning[mcpdesc.pull]: the server declares the capability but refused `{method}`: {error}; the description lists none of them"
        );
    }
    for w in &pulled.warnings {
        let _ = writeln!(err, "{}", w.render());
    }
    let count = |member: &str| {
        pulled
            .value
            .get(member)
            .and_then(Value::as_array)
            .map_or(0, Vec::len)
    };
    let warnings = pulled.warnings.len() + observation.refused.len();
    let _ = writeln!(
        err,
        "pulled {} {} (MCP {}){}: {} tool{}, {} prompt{}, {} resource{}, {} resource template{}; {warnings} warning{}",
        pulled.value["info"]["name"].as_str().unwrap_or("?"),
        pulled.value["info"]["version"].as_str().unwrap_or("?"),
        observation.observed.protocol_version,
        output.map_or(String::new(), |p| format!(" into {}", p.display())),
        count("tools"),
        plural(count("tools")),
        count("prompts"),
        plural(count("prompts")),
        count("resources"),
        plural(count("resources")),
        count("resourceTemplates"),
        plural(count("resourceTemplates")),
        plural(warnings),
    );
    EXIT_OK
}
