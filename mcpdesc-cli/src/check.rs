//! `mcpdesc check`: a live MCP server against its description (the engine is the
//! `mcpdesc-check` crate; this module parses the options, connects and prints).
//!
//! # Contract
//! `mcpdesc check DESCRIPTION (-- COMMAND [ARGS...] | --url URL) [--examples SEL]
//! [--generate SEL] [--cases N] [--seed S] [--strict] [--protocol-version V]
//! [--format human|json] [--header 'Name: value']... [--timeout SECONDS]`
//! - connects as an MCP client to the server started by COMMAND (stdio; it runs in its
//!   own process group and is always terminated) or at URL (streamable HTTP;
//!   `https://` needs the crate's `https` feature, without it exits 2 saying so);
//! - compares the listings, replays the `--examples` selected, calls the `--generate`
//!   selected tools with `--cases` generated inputs (default 20, seed `--seed`, default
//!   0); SEL is a comma-separated list of tool (prompt, resource, template) names,
//!   `NAME/EXAMPLE`, `read-only` or `all`. By default nothing is called; an item
//!   that names nothing the description declares in any version exits 2 before
//!   connecting;
//! - offers the versions the description declares (or only `--protocol-version V`);
//! - `--timeout` bounds the connection and each request (default 30 s);
//! - `human`: one diagnostic per finding (`failure[kind]: tool `x`, example `e`: ...`),
//!   the calls made and a summary line on stdout; `json`: one object
//!   (`findings`: `kind`, `severity`, `primitive`, `tool`, `example`, `message`;
//!   `calls`; `counts`);
//! - exit 0 no failure (warnings and skipped allowed), 1 at least one failure, 2 the
//!   check could not run: usage, an unreadable or invalid description, a server that
//!   would not start, exited, wrote garbage or did not complete the handshake in time,
//!   or an interruption (Ctrl-C stops the spawned server too, which runs in its own
//!   process group). A server that refuses the connection with HTTP 401 gets a message
//!   that names `--header 'Authorization: Bearer …'`;
//! - a call refused with HTTP 401 or 403 is an `unauthorized` or `forbidden` finding
//!   (a failure; `forbidden` names the scopes the server's challenge asks for).

use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

use clap::Args;
use mcpdesc::client::{ConnectError, Options};
use mcpdesc_check::{Config, Selection};
use mcpdesc_codegen::{Description, Limits, ProtocolVersion};

use crate::exit::{EXIT_INVALID, EXIT_OK, EXIT_USAGE};
use crate::output::OutputFormat;

/// A connection error, with what to do about a refused one: a 401 names `--header`.
fn connect_error(e: &ConnectError, sent_headers: bool) -> String {
    match e {
        ConnectError::Unauthorized { .. } if sent_headers => format!(
            "{e}; the credentials of --header were refused: check the token"
        ),
        ConnectError::Unauthorized { .. } => format!(
            "{e}; pass credentials with --header 'Authorization: Bearer …' (or the header of the description's API key scheme)"
        ),
        ConnectError::Forbidden { .. } => format!(
            "{e}; the credentials of --header do not grant access to the endpoint"
        ),
        e => e.to_string(),
    }
}

/// The longest `--timeout` accepted (a day): longer is a typo, and tokio's timers
/// have a limit of their own.
const MAX_TIMEOUT: Duration = Duration::from_secs(24 * 60 * 60);

/// The options of `mcpdesc check`.
#[derive(Debug, Args)]
pub struct CheckArgs {
    /// The description file (`.mcpdesc.json`, `.mcpdesc.yaml`).
    pub description: PathBuf,
    /// The server's streamable HTTP endpoint (such as http://127.0.0.1:8080/mcp),
    /// instead of a command after `--`.
    #[arg(long, value_name = "URL")]
    pub url: Option<String>,
    /// Replay these examples (NAME, NAME/EXAMPLE, read-only, all; comma-separated).
    #[arg(long, value_name = "SEL", value_parser = Selection::parse)]
    pub examples: Option<Selection>,
    /// Call these tools with inputs generated from their inputSchema (NAME, read-only,
    /// all; comma-separated).
    #[arg(long, value_name = "SEL", value_parser = Selection::parse)]
    pub generate: Option<Selection>,
    /// Generated inputs per tool.
    #[arg(long, value_name = "N", default_value_t = 20)]
    pub cases: usize,
    /// The seed of the generated inputs.
    #[arg(long, value_name = "S", default_value_t = 0)]
    pub seed: u64,
    /// Results that differ from their examples are failures, not warnings.
    #[arg(long)]
    pub strict: bool,
    /// Offer only this MCP protocol version (default: every version the description
    /// declares).
    #[arg(long, value_name = "V", value_parser = crate::values::parse_protocol_version)]
    pub protocol_version: Option<ProtocolVersion>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = OutputFormat::Human)]
    pub format: OutputFormat,
    /// An HTTP header sent with every request (repeatable; with --url), such as
    /// 'Authorization: Bearer TOKEN'.
    #[arg(long = "header", value_name = "NAME: VALUE", value_parser = parse_header)]
    pub headers: Vec<(String, String)>,
    /// Seconds the connection and each request may take.
    #[arg(long, value_name = "SECONDS", default_value_t = 30.0)]
    pub timeout: f64,
    /// The command that starts the server on stdio, after `--`.
    #[arg(last = true, value_name = "COMMAND")]
    pub command: Vec<String>,
}

/// Parses `Name: value`.
fn parse_header(text: &str) -> Result<(String, String), String> {
    let (name, value) = text
        .split_once(':')
        .ok_or_else(|| "expected `Name: value`".to_owned())?;
    let name = name.trim();
    if name.is_empty() || name.contains(char::is_whitespace) {
        return Err("the header name is empty or holds spaces (expected `Name: value`)".into());
    }
    Ok((name.to_owned(), value.trim().to_owned()))
}

/// Runs `mcpdesc check`; returns the exit code.
pub fn run(args: &CheckArgs, out: &mut dyn Write, err: &mut dyn Write) -> u8 {
    let mut fail = |message: String| {
        let _ = writeln!(err, "error: {message}");
        EXIT_USAGE
    };
    match (&args.url, args.command.is_empty()) {
        (Some(_), false) => {
            return fail("give either `-- COMMAND [ARGS...]` or `--url URL`, not both".into())
        }
        (None, true) => {
            return fail(
                "no server: give `-- COMMAND [ARGS...]` (stdio) or `--url URL` (streamable HTTP)"
                    .into(),
            )
        }
        _ => {}
    }
    let timeout = match Duration::try_from_secs_f64(args.timeout) {
        Ok(t) if !t.is_zero() && t <= MAX_TIMEOUT => t,
        _ => {
            return fail(format!(
                "--timeout {} is not a number of seconds above 0 and at most {}",
                args.timeout,
                MAX_TIMEOUT.as_secs()
            ))
        }
    };
    if !args.headers.is_empty() && args.url.is_none() {
        return fail("--header needs --url (a stdio server gets no HTTP headers)".into());
    }
    let desc = match Description::from_path(&args.description, &Limits::default()) {
        Ok(desc) => desc,
        Err(e) => return fail(format!("cannot read {}: {e}", args.description.display())),
    };
    if !desc.is_valid() {
        let _ = err.write_all(desc.render_diagnostics().as_bytes());
        let _ = writeln!(err, "error: {} is invalid; nothing checked", desc.name);
        return EXIT_USAGE;
    }
    let described = mcpdesc_check::described_versions(&desc);
    let versions: Vec<mcpdesc::ProtocolVersion> = match args.protocol_version {
        None => described,
        Some(v) => match described.iter().find(|d| d.as_str() == v.as_str()) {
            Some(d) => vec![*d],
            None => {
                let list: Vec<&str> = described.iter().map(|d| d.as_str()).collect();
                return fail(format!(
                    "{} does not describe MCP {} (its protocolVersions are {})",
                    desc.name,
                    v.as_str(),
                    list.join(", ")
                ));
            }
        },
    };
    let config = Config {
        examples: args.examples.clone().unwrap_or_default(),
        generate: args.generate.clone().unwrap_or_default(),
        cases: args.cases,
        seed: args.seed,
        strict: args.strict,
        call_timeout: timeout,
    };
    // A selection item that names nothing of any version is a typo that would call
    // nothing and pass: the check does not run.
    let unknown = config.unknown_selections(&desc);
    if !unknown.is_empty() {
        let items: Vec<String> = unknown
            .iter()
            .map(|(option, item)| format!("{option} names `{item}`"))
            .collect();
        return fail(format!(
            "{}, which {} does not declare in any protocol version (names: tools, prompts, resource URIs or names, templates; NAME/EXAMPLE for an example); nothing checked",
            items.join(", "),
            desc.name
        ));
    }
    // The capabilities the selected interaction examples and tools need, no more.
    let capabilities =
        mcpdesc_check::client_capabilities(&desc, &config.examples, &config.generate);
    let mut options = Options::new()
        .protocol_versions(&versions)
        .client_capabilities(capabilities)
        .connect_timeout(timeout)
        .request_timeout(timeout)
        .close_grace(Duration::from_secs(2));
    for (name, value) in &args.headers {
        options = options.header(name.clone(), value.clone());
    }
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(e) => return fail(format!("cannot start the async runtime: {e}")),
    };
    let work = async {
        let session = match &args.url {
            Some(url) => options.http(url).await,
            None => {
                let mut command = tokio::process::Command::new(&args.command[0]);
                command.args(&args.command[1..]);
                options.stdio(command).await
            }
        };
        let session = session.map_err(|e| connect_error(&e, !args.headers.is_empty()))?;
        let report = mcpdesc_check::check(&desc, &session, &config).await;
        session.close().await;
        Ok::<_, String>(report)
    };
    // The server runs in its own process group, which the terminal's Ctrl-C does not
    // reach: on Ctrl-C the check is dropped, and with it the session, which kills the
    // server's process group (while connecting too).
    let outcome = runtime.block_on(async {
        tokio::select! {
            outcome = work => outcome,
            _ = tokio::signal::ctrl_c() => Err("interrupted; the server was stopped".to_owned()),
        }
    });
    // A server that ignores its closed stdin is killed by `close`; nothing of the
    // session may keep the process waiting.
    runtime.shutdown_timeout(Duration::from_secs(1));
    let report = match outcome {
        Ok(report) => report,
        Err(e) => return fail(format!("the check could not run: {e}")),
    };
    let text = match args.format {
        OutputFormat::Human => report.render(),
        OutputFormat::Json => {
            serde_json::to_string_pretty(&report.to_json()).unwrap_or_default() + "\n"
        }
    };
    let _ = out.write_all(text.as_bytes());
    if report.fails() {
        EXIT_INVALID
    } else {
        EXIT_OK
    }
}
