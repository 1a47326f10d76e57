//! The `mcpdesc` command line: `validate`, `generate`, `serve-mock`, `migrate`, `diff`,
//! `pull`, `check` and `docs`.
//!
//! The command's behaviour lives here, as functions over explicit writers, so tests can
//! run it without a process; `main.rs` only forwards `std::env::args`.
//!
//! # Contract
//! `mcpdesc validate [--format human|json] FILE...`
//! - exit 0 when every file is valid (warnings allowed), 1 when any file has an error,
//!   2 for usage or I/O errors;
//! - `human`: rustc-style diagnostics on stdout, one summary line per file;
//! - `json`: one JSON array on stdout, one object per file:
//!   `{"file", "valid", "mcpdesc", "diagnostics": [{"severity", "rule", "code", "pointer",
//!   "line", "column", "message"}]}`.
//!
//! `mcpdesc generate FILE [-o OUT.rs] [--protocol-version V] [--no-tests]
//! [--test-server EXPR] [--side server|client|both] [--replace KEY=PATH]...
//! [--format-type FORMAT=PATH]... [--crate NAME=VERSION]...`
//! - writes the generated Rust code to OUT (only when its content changed) or stdout;
//! - an invalid description: its diagnostics on stderr (as `validate` prints them),
//!   nothing generated, exit 1;
//! - warnings of the description and of generation go to stderr and generation
//!   continues; when a schema made the type generator fail, the code is still written
//!   (that type holds a `serde_json::Value`) and the exit code is 1;
//! - a description with protocol-scoped variants generates one module serving each
//!   version its own variant (a trait per variant), or with `--protocol-version` the
//!   Effective Protocol View of that version;
//! - usage and I/O errors exit 2.
//!
//! `mcpdesc migrate IN [-o OUT] [--to 0.8.0|0.9.0] [--protocol-version V]`
//! - rewrites a 0.7.x (or 0.8.0) description as a valid 0.9.0 (or 0.8.0) one (see
//!   [`mcpdesc_contract::migrate`], `docs/migrate.md`); the document to OUT (format from
//!   its extension) or stdout (the input's format), the report on stderr;
//! - exit 0 migrated; 1 the author must decide (each place listed, nothing written); 2
//!   unreadable, unparseable or not a document to migrate.
//!
//! `mcpdesc diff OLD NEW [--format human|json] [--fail-on breaking|warning]
//! [--perspective client|server]`
//! - every change classified under a rule id of [`mcpdesc_contract::diff::rules`]
//!   (`docs/diff.md` has the table and the JSON shape) on stdout;
//! - exit 0 when no change reaches `--fail-on` from the perspective, 1 when one does, 2
//!   when a file is unreadable or invalid (its diagnostics on stderr).
//!
//! `mcpdesc pull (-- COMMAND [ARGS...] | --url URL) [-o OUT] [--timeout SECONDS]`
//! - connects to a live server and writes a valid MCP Description 0.9.0 of what it
//!   lists (see [`mod@pull`]): to OUT (`.json`, `.yaml`/`.yml`) or stdout (JSON);
//!   everything dropped or fixed is a warning on stderr;
//! - exit 0 written; 2 when no description could be produced (the server did not
//!   start, crashed, hung past the timeout, wrote garbage; an invalid result) or for
//!   usage errors.
//!
//! `mcpdesc serve-mock FILE [--protocol-version V] [--select TARGET=EXAMPLE]... [--http ADDR [--token TOKEN:SCOPE,SCOPE]... [--transport URL]]`
//! - serves the description as a **mock** MCP server on stdin/stdout until the client
//!   ends the session (see [`mod@serve_mock`] for the replay policy); it never runs a live
//!   tool and does not predict live behaviour;
//! - with `--http ADDR` (say `127.0.0.1:8080`; port 0 picks a free one) it serves
//!   streamable HTTP at `http://ADDR/mcp` instead, until it is stopped, and prints
//!   `mcpdesc: serving ... at http://HOST:PORT/mcp` on stderr once it listens; it
//!   answers loopback `Host`s only;
//! - `--token TOKEN[:SCOPE,SCOPE...]` (repeatable, with `--http`) enforces the
//!   description's security with these static test credentials (see
//!   [`mod@serve_mock`]); no token value is ever printed; `--transport URL` serves as
//!   the description's HTTP transport with that `url` (whose `security` primitives
//!   inherit);
//! - diagnostics and status lines go to stderr (stdout is the MCP channel);
//! - exit 0 when the session ends normally; 1 for an invalid description, a version it
//!   does not describe, a declaration the runtime refuses or a failed session; 2 for
//!   usage or I/O errors, including a `--select` that names no example.
//!
//! `mcpdesc check DESCRIPTION (-- COMMAND [ARGS...] | --url URL) ...`: see [`mod@check`].
//!
//! `mcpdesc init DIR [--description FILE] [--http] [--mcpdesc-path PATH]`
//! - writes a new server crate into DIR (created if missing; see
//!   [`mcpdesc_codegen::scaffold`]): `Cargo.toml`, the description (FILE, else a
//!   commented sample), `build.rs`, `src/main.rs` (stdio; `--http ADDR` too with
//!   `--http`), `src/handlers.rs` (every generated trait, "not implemented" bodies);
//! - exit 0 written; 1 when the description is invalid or generates nothing (its
//!   diagnostics on stderr, nothing written); 2 when DIR is not empty or for usage and
//!   I/O errors.
//!
//! `mcpdesc stubs FILE [--protocol-version V]`
//! - prints the impl blocks of every generated handler trait (for `src/handlers.rs` of
//!   a crate whose description grew); exit codes as `generate`.
//!
//! `mcpdesc docs FILE [-o OUT.html] [--protocol-version V]`: one self-contained HTML page
//! of the description ([`mcpdesc_docs`]), to OUT or stdout; like `generate`, an invalid
//! description is refused with its diagnostics on stderr (exit 1), warnings are shown
//! and the page is written (exit 0), a version it does not describe exits 1, usage and
//! I/O errors exit 2.

use std::io::Write;
use std::path::PathBuf;

use clap::{Parser, Subcommand, ValueEnum};

pub mod check;
pub mod init;
pub mod own_types;
pub mod pull;
pub mod serve_mock;
use mcpdesc_codegen::source::{self, Format};
use mcpdesc_codegen::validate::SpecVersion;
use mcpdesc_codegen::{Description, GenerateError, Limits, ProtocolVersion, Settings, Side};
use mcpdesc_contract::diff::{self as changes, DiffError, FailOn, Perspective};
use mcpdesc_contract::migrate::{self, MigrateError};

/// Exit code: everything valid.
pub const EXIT_OK: u8 = 0;
/// Exit code: at least one description has an error.
pub const EXIT_INVALID: u8 = 1;
/// Exit code: usage or I/O error.
pub const EXIT_USAGE: u8 = 2;

/// Validate MCP Description documents and generate Rust code from them.
#[derive(Debug, Parser)]
#[command(name = "mcpdesc", version, about)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Validate descriptions and print their diagnostics.
    Validate {
        /// Output format.
        #[arg(long, value_enum, default_value_t = OutputFormat::Human)]
        format: OutputFormat,
        /// Description files (`.mcpdesc.json`, `.mcpdesc.yaml`).
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// Generate Rust code (types of every tool's input and output) from a description.
    Generate {
        /// The description file (`.mcpdesc.json`, `.mcpdesc.yaml`).
        file: PathBuf,
        /// Write the code to this file instead of stdout.
        #[arg(short, long, value_name = "OUT.rs")]
        output: Option<PathBuf>,
        /// Generate the Effective Protocol View of this MCP protocol version
        /// (default: every version, protocol-scoped variants side by side).
        #[arg(long, value_name = "V", value_parser = parse_protocol_version)]
        protocol_version: Option<ProtocolVersion>,
        /// Do not generate unit tests from the Tool Examples.
        #[arg(long)]
        no_tests: bool,
        /// A Rust expression that builds a fresh server (such as
        /// `crate::Greeter::for_examples()`): the generated example tests then call that
        /// implementation through the router and compare its answers with the examples.
        #[arg(long, value_name = "EXPR")]
        test_server: Option<String>,
        /// The side to generate: `server` (handler traits, router, mock), `client` (the
        /// typed `Client`, nothing to implement) or `both`.
        #[arg(long, value_name = "SIDE", default_value = "both", value_parser = parse_side)]
        side: Side,
        /// The user's own types (`--replace`, `--format-type`, `--crate`).
        #[command(flatten)]
        own_types: own_types::OwnTypeFlags,
    },
    /// Rewrite an MCP Description 0.7.x document (or a 0.8.0 one) as a valid document of
    /// a newer format version, following the specification's migration guide.
    Migrate {
        /// The description to migrate.
        input: PathBuf,
        /// Write the migrated description here (format from its extension) instead of
        /// stdout (format of the input).
        #[arg(short, long, value_name = "OUT")]
        output: Option<PathBuf>,
        /// The format version to produce.
        #[arg(long, value_name = "VERSION", default_value = "0.9.0", value_parser = parse_spec_version)]
        to: SpecVersion,
        /// The MCP protocol version the server implements, when the input does not say
        /// (`info.protocolVersion`) or says something else.
        #[arg(long, value_name = "V", value_parser = parse_protocol_version)]
        protocol_version: Option<ProtocolVersion>,
    },
    /// Classify every change between two descriptions as breaking, warning or
    /// compatible (rule ids: docs/diff.md).
    Diff {
        /// The old description.
        old: PathBuf,
        /// The new description.
        new: PathBuf,
        /// Output format.
        #[arg(long, value_enum, default_value_t = OutputFormat::Human)]
        format: OutputFormat,
        /// The lowest level that makes the command fail (exit 1).
        #[arg(long, value_enum, default_value_t = FailOnArg::Breaking)]
        fail_on: FailOnArg,
        /// Whose point of view classifies the changes.
        #[arg(long, value_enum, default_value_t = PerspectiveArg::Client)]
        perspective: PerspectiveArg,
    },
    /// Connect to a live MCP server and write a description of what it lists (tools,
    /// prompts, resources, resource templates; no examples are invented).
    Pull {
        /// The server's command line, after `--` (its stdio is the MCP channel).
        #[arg(last = true, value_name = "COMMAND")]
        command: Vec<String>,
        /// The server's streamable HTTP endpoint instead of a command.
        #[arg(long, value_name = "URL", conflicts_with = "command")]
        url: Option<String>,
        /// Write the description here (format from the extension: .json, .yaml, .yml)
        /// instead of stdout (JSON).
        #[arg(short, long, value_name = "OUT")]
        output: Option<PathBuf>,
        /// The bound of each step (handshake, each listing request), in seconds.
        #[arg(long, value_name = "SECONDS", default_value_t = pull::DEFAULT_TIMEOUT_SECONDS,
              value_parser = clap::value_parser!(u64).range(1..=3600))]
        timeout: u64,
    },
    /// Serve a description as a mock MCP server (stdio, or HTTP with --http) that replays its example results
    /// (a mock for clients' tests, never a prediction of live behaviour).
    ServeMock {
        /// The description file (`.mcpdesc.json`, `.mcpdesc.yaml`).
        file: PathBuf,
        /// Speak only this MCP protocol version (default: every version the description
        /// declares, protocol-scoped tool variants side by side).
        #[arg(long, value_name = "V", value_parser = parse_protocol_version)]
        protocol_version: Option<ProtocolVersion>,
        /// Answer every request of a target with the example EXAMPLE, whatever its
        /// arguments (repeatable; other targets answer by matching request). TARGET is a
        /// tool name, or `tool:NAME`, `prompt:NAME`, `resource:URI`,
        /// `template:URI_TEMPLATE`, `completion:prompt:NAME`,
        /// `completion:template:URI_TEMPLATE`.
        #[arg(long = "select", value_name = "TARGET=EXAMPLE", value_parser = serve_mock::parse_selection)]
        selections: Vec<mcpdesc::mock::Selection>,
        /// Serve streamable HTTP at http://ADDR/mcp instead of stdio (ADDR such as
        /// 127.0.0.1:8080; port 0 picks a free port, printed on stderr).
        #[arg(long, value_name = "ADDR")]
        http: Option<String>,
        /// A static test credential granting SCOPEs (repeatable; needs --http): the
        /// description's security is enforced with these tokens as the only valid
        /// credentials (bearer token, API key, or HTTP Basic password).
        #[arg(long = "token", value_name = "TOKEN:SCOPE,SCOPE", requires = "http", value_parser = serve_mock::parse_token)]
        tokens: Vec<serve_mock::MockToken>,
        /// Serve as the description's HTTP transport whose `url` is URL: its
        /// `security` is what primitives without their own inherit (default: the
        /// first streamable-http transport of each protocol version).
        #[arg(long = "transport", value_name = "URL", requires = "http")]
        transport: Option<String>,
    },
    /// Check a live MCP server (a command on stdio, or a URL) against its description:
    /// listings always, examples and generated inputs only when selected.
    Check(check::CheckArgs),
    /// Write a new server crate for a description (a sample one by default) that
    /// builds at once: `cargo run` serves it, `cargo test` runs its examples.
    Init {
        /// The new crate's directory (created if missing; must be empty).
        dir: PathBuf,
        /// The description to serve (copied into the crate) instead of the sample.
        #[arg(long, value_name = "FILE")]
        description: Option<PathBuf>,
        /// Serve streamable HTTP too (`cargo run -- --http ADDR`).
        #[arg(long)]
        http: bool,
        /// A local mcpdesc-rs checkout to depend on by path instead of this release.
        #[arg(long, value_name = "PATH")]
        mcpdesc_path: Option<PathBuf>,
    },
    /// Print the impl blocks of every handler trait generated from a description,
    /// with "not implemented" bodies (for `src/handlers.rs` of an `init` crate).
    Stubs {
        /// The description file (`.mcpdesc.json`, `.mcpdesc.yaml`).
        file: PathBuf,
        /// Generate the Effective Protocol View of this MCP protocol version.
        #[arg(long, value_name = "V", value_parser = parse_protocol_version)]
        protocol_version: Option<ProtocolVersion>,
    },
    /// Render the description as one self-contained HTML page for people to read.
    Docs {
        /// The description file (`.mcpdesc.json`, `.mcpdesc.yaml`).
        file: PathBuf,
        /// Write the page to this file instead of stdout.
        #[arg(short, long, value_name = "OUT.html")]
        output: Option<PathBuf>,
        /// Render only the Effective Protocol View of this MCP protocol version
        /// (default: every version, with a switcher when declarations are scoped).
        #[arg(long, value_name = "V", value_parser = parse_protocol_version)]
        protocol_version: Option<ProtocolVersion>,
    },
}

fn parse_side(text: &str) -> Result<Side, String> {
    text.parse()
}

fn parse_protocol_version(text: &str) -> Result<ProtocolVersion, String> {
    ProtocolVersion::parse(text).ok_or_else(|| {
        let known: Vec<&str> = ProtocolVersion::ALL.iter().map(|v| v.as_str()).collect();
        format!(
            "unknown protocol version (expected one of {})",
            known.join(", ")
        )
    })
}

fn parse_spec_version(text: &str) -> Result<SpecVersion, String> {
    SpecVersion::parse(text).ok_or_else(|| "expected 0.8.0 or 0.9.0".to_owned())
}

/// `--fail-on` of `diff`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FailOnArg {
    /// Fail on breaking changes.
    Breaking,
    /// Fail on breaking changes and warnings.
    Warning,
}

/// `--perspective` of `diff`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum PerspectiveArg {
    /// A client of the server.
    Client,
    /// An implementer of the server.
    Server,
}

/// Diagnostic output formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum OutputFormat {
    /// rustc-style text.
    Human,
    /// JSON (`validate`: one array, an object per file; `diff`: one object, see docs/diff.md).
    Json,
}

/// Runs the command line `args` (including the program name), writing to `out` and
/// `err`; returns the exit code.
pub fn run<I, T>(args: I, out: &mut dyn Write, err: &mut dyn Write) -> u8
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() { EXIT_USAGE } else { EXIT_OK };
            let text = e.render().to_string();
            let _ = if e.use_stderr() {
                err.write_all(text.as_bytes())
            } else {
                out.write_all(text.as_bytes())
            };
            return code;
        }
    };
    match cli.command {
        Command::Validate { format, files } => validate(&files, format, out, err),
        Command::Generate {
            file,
            output,
            protocol_version,
            no_tests,
            test_server,
            side,
            own_types,
        } => {
            let mut settings = own_types.apply(Settings::new().tests(!no_tests).side(side));
            if let Some(expr) = test_server {
                settings = settings.test_server(expr);
            }
            if let Some(v) = protocol_version {
                settings = settings.protocol_version(v);
            }
            generate(&file, output.as_deref(), &settings, out, err)
        }
        Command::ServeMock {
            file,
            protocol_version,
            selections,
            http,
            tokens,
            transport,
        } => serve_mock(
            &file,
            protocol_version,
            &selections,
            http.as_deref(),
            &MockSecurity {
                tokens: &tokens,
                transport: transport.as_deref(),
            },
            err,
        ),
        Command::Check(args) => check::run(&args, out, err),
        Command::Init {
            dir,
            description,
            http,
            mcpdesc_path,
        } => init::init(
            &dir,
            description.as_deref(),
            http,
            mcpdesc_path.as_deref(),
            out,
            err,
        ),
        Command::Stubs {
            file,
            protocol_version,
        } => init::stubs(&file, protocol_version, out, err),
        Command::Docs {
            file,
            output,
            protocol_version,
        } => docs(&file, output.as_deref(), protocol_version, out, err),
        Command::Diff {
            old,
            new,
            format,
            fail_on,
            perspective,
        } => {
            let fail_on = match fail_on {
                FailOnArg::Breaking => FailOn::Breaking,
                FailOnArg::Warning => FailOn::Warning,
            };
            let perspective = match perspective {
                PerspectiveArg::Client => Perspective::Client,
                PerspectiveArg::Server => Perspective::Server,
            };
            diff(&old, &new, format, fail_on, perspective, out, err)
        }
        Command::Pull {
            command,
            url,
            output,
            timeout,
        } => {
            let server = match (url, command.is_empty()) {
                (Some(url), _) => pull::Server::Url(url),
                (None, false) => pull::Server::Command(command),
                (None, true) => {
                    let _ = writeln!(
                        err,
                        "error: name the server: `mcpdesc pull -- COMMAND [ARGS...]` or `mcpdesc pull --url URL`"
                    );
                    return EXIT_USAGE;
                }
            };
            let timeout = std::time::Duration::from_secs(timeout);
            pull::pull(&server, output.as_deref(), timeout, out, err)
        }
        Command::Migrate {
            input,
            output,
            to,
            protocol_version,
        } => {
            let options = migrate::Options {
                target: to,
                protocol_version,
            };
            migrate(&input, output.as_deref(), &options, out, err)
        }
    }
}

/// Reads and validates `file`, writing its diagnostics to `err`; `None` (after saying
/// why on `err`) when it cannot be read.
pub(crate) fn load_reporting(file: &std::path::Path, err: &mut dyn Write) -> Option<Description> {
    match Description::from_path(file, &Limits::default()) {
        Ok(desc) => {
            let _ = err.write_all(desc.render_diagnostics().as_bytes());
            Some(desc)
        }
        Err(e) => {
            let _ = writeln!(err, "error: cannot read {}: {e}", file.display());
            None
        }
    }
}

/// The security options of `serve-mock` (HTTP only).
#[derive(Debug, Clone, Copy, Default)]
pub struct MockSecurity<'a> {
    /// `--token`: the static test credentials; none: security is not enforced.
    pub tokens: &'a [serve_mock::MockToken],
    /// `--transport`: the `url` of the description's HTTP transport served.
    pub transport: Option<&'a str>,
}

/// `mcpdesc serve-mock`: validates the description, then serves its mock on stdio,
/// or over streamable HTTP at `http://ADDR/mcp` when `http` is `Some(ADDR)`,
/// enforcing the description's security with `security.tokens` when there are any.
pub fn serve_mock(
    file: &std::path::Path,
    version: Option<ProtocolVersion>,
    selections: &[mcpdesc::mock::Selection],
    http: Option<&str>,
    security: &MockSecurity<'_>,
    err: &mut dyn Write,
) -> u8 {
    let tokens = security.tokens;
    let Some(desc) = load_reporting(file, err) else {
        return EXIT_USAGE;
    };
    let router = match serve_mock::mock_router(&desc, version, selections) {
        Ok(router) => router,
        Err(e @ serve_mock::MockError::Selection(_)) => {
            let _ = writeln!(err, "error: {e}");
            return EXIT_USAGE;
        }
        Err(e) => {
            let _ = writeln!(err, "error: {e}");
            return EXIT_INVALID;
        }
    };
    let declares = router.declares_requirements();
    let router = match (tokens.is_empty(), declares) {
        (false, true) => serve_mock::with_tokens(router, tokens),
        (false, false) => {
            let _ = writeln!(
                err,
                "warning: --token given, but {} declares no security requirement: nothing is enforced",
                desc.name
            );
            router
        }
        (true, true) if http.is_some() => {
            let _ = writeln!(
                err,
                "note: {} declares security requirements; the mock does not enforce them without --token TOKEN:SCOPE,SCOPE",
                desc.name
            );
            router
        }
        (true, _) => router,
    };
    let enforcing = !tokens.is_empty() && declares;
    let outcome = match http {
        Some(addr) => serve_mock::serve_http(router, addr, security.transport, |url| {
            let _ = writeln!(
                err,
                "mcpdesc: serving {} as a mock MCP server at {url} (replays example results; not live behaviour)",
                desc.name
            );
            if enforcing {
                let _ = writeln!(
                    err,
                    "mcpdesc: enforcing the description's security with {} static token(s); Protected Resource Metadata at {}",
                    tokens.len(),
                    mcpdesc::auth::metadata::metadata_url(url).unwrap_or_default()
                );
            }
            let _ = err.flush();
        }),
        None => {
            let _ = writeln!(
                err,
                "mcpdesc: serving {} as a mock MCP server on stdio (replays example results; not live behaviour)",
                desc.name
            );
            let _ = err.flush();
            serve_mock::serve_stdio(router).map_err(|e| format!("mock session: {e}"))
        }
    };
    match outcome {
        Ok(()) => EXIT_OK,
        Err(e) => {
            let _ = writeln!(err, "error: {e}");
            EXIT_INVALID
        }
    }
}

/// `mcpdesc generate`.
pub fn generate(
    file: &std::path::Path,
    output: Option<&std::path::Path>,
    settings: &Settings,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> u8 {
    // The description's diagnostics first (errors refuse generation, warnings do not).
    let Some(desc) = load_reporting(file, err) else {
        return EXIT_USAGE;
    };
    let generated = match mcpdesc_codegen::generate(&desc, settings) {
        Ok(generated) => generated,
        Err(GenerateError::Invalid { errors }) => {
            let _ = writeln!(
                err,
                "error: {} is invalid ({} error{}); nothing generated",
                desc.name,
                errors.len(),
                plural(errors.len())
            );
            return EXIT_INVALID;
        }
        Err(e) => {
            let _ = writeln!(err, "error: {}: {e}", desc.name);
            return EXIT_INVALID;
        }
    };
    for d in &generated.diagnostics {
        let _ = writeln!(err, "{}", d.render(&desc.name, Some(&desc.text)));
    }
    let written = match output {
        None => out.write_all(generated.code.as_bytes()),
        Some(path) => write_if_changed(path, &generated.code),
    };
    if let Err(e) = written {
        let target = output.map_or("stdout".to_owned(), |p| p.display().to_string());
        let _ = writeln!(err, "error: cannot write {target}: {e}");
        return EXIT_USAGE;
    }
    if generated.has_errors() {
        EXIT_INVALID
    } else {
        EXIT_OK
    }
}

/// `mcpdesc docs`: the page to `output` or `out`; the description's diagnostics on `err`.
pub fn docs(
    file: &std::path::Path,
    output: Option<&std::path::Path>,
    protocol_version: Option<ProtocolVersion>,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> u8 {
    let Some(desc) = load_reporting(file, err) else {
        return EXIT_USAGE;
    };
    let options = mcpdesc_docs::Options { protocol_version };
    let page = match mcpdesc_docs::render(&desc, &options) {
        Ok(page) => page,
        Err(e) => {
            let _ = writeln!(err, "error: {}: {e}", desc.name);
            return EXIT_INVALID;
        }
    };
    let written = match output {
        None => out.write_all(page.as_bytes()),
        Some(path) => write_if_changed(path, &page),
    };
    if let Err(e) = written {
        let target = output.map_or("stdout".to_owned(), |p| p.display().to_string());
        let _ = writeln!(err, "error: cannot write {target}: {e}");
        return EXIT_USAGE;
    }
    EXIT_OK
}

/// Writes `content` unless the file already holds exactly it (so that builds depending
/// on the file do not rerun for nothing).
fn write_if_changed(path: &std::path::Path, content: &str) -> std::io::Result<()> {
    if std::fs::read(path).is_ok_and(|old| old == content.as_bytes()) {
        return Ok(());
    }
    std::fs::write(path, content)
}

/// `mcpdesc diff`: the classified changes on `out`; exit 0 when nothing reaches the
/// `--fail-on` level from the chosen perspective, 1 when something does, 2 when a file
/// cannot be read or is not a valid description (its diagnostics on `err`).
pub fn diff(
    old: &std::path::Path,
    new: &std::path::Path,
    format: OutputFormat,
    fail_on: FailOn,
    perspective: Perspective,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> u8 {
    let limits = Limits::default();
    let mut loaded = Vec::new();
    for file in [old, new] {
        match Description::from_path(file, &limits) {
            Ok(desc) => loaded.push(desc),
            Err(e) => {
                let _ = writeln!(err, "error: cannot read {}: {e}", file.display());
                return EXIT_USAGE;
            }
        }
    }
    let report = match changes::diff(&loaded[0], &loaded[1]) {
        Ok(report) => report,
        Err(e @ DiffError::Invalid { .. }) => {
            for desc in loaded.iter().filter(|d| !d.is_valid()) {
                let _ = err.write_all(desc.render_diagnostics().as_bytes());
            }
            let _ = writeln!(err, "error: {e}; nothing compared");
            return EXIT_USAGE;
        }
    };
    let text = match format {
        OutputFormat::Human => report.render(perspective),
        OutputFormat::Json => {
            let value = report.to_json(perspective, fail_on);
            serde_json::to_string_pretty(&value).unwrap_or_default() + "\n"
        }
    };
    let _ = out.write_all(text.as_bytes());
    if report.fails(perspective, fail_on) {
        EXIT_INVALID
    } else {
        EXIT_OK
    }
}

/// `mcpdesc migrate`: the migrated document to OUT or stdout; the report (every change,
/// every warning, or the places that need the author) to `err`.
pub fn migrate(
    input: &std::path::Path,
    output: Option<&std::path::Path>,
    options: &migrate::Options,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> u8 {
    let limits = Limits::default();
    let desc = match Description::from_path(input, &limits) {
        Ok(desc) => desc,
        Err(e) => {
            let _ = writeln!(err, "error: cannot read {}: {e}", input.display());
            return EXIT_USAGE;
        }
    };
    let Some(loaded) = &desc.loaded else {
        let _ = err.write_all(desc.render_diagnostics().as_bytes());
        let _ = writeln!(
            err,
            "error: {} cannot be parsed; nothing to migrate",
            desc.name
        );
        return EXIT_USAGE;
    };
    let format = output.and_then(Format::from_path).unwrap_or(loaded.format);
    let migration = match migrate::migrate(loaded, options) {
        Ok(m) => m,
        Err(MigrateError::NotApplicable(why)) => {
            let _ = writeln!(err, "error: {}: {why}", desc.name);
            return EXIT_USAGE;
        }
        Err(MigrateError::NeedsAuthor { items, .. }) => {
            for d in &items {
                let _ = writeln!(err, "{}", d.render(&desc.name, Some(&desc.text)));
            }
            let _ = writeln!(
                err,
                "error: {} needs the author at {} place{} (listed above); nothing was written",
                desc.name,
                items.len(),
                plural(items.len())
            );
            return EXIT_INVALID;
        }
    };
    let text = source::emit(&migration.value, format);
    let written = match output {
        Some(path) => std::fs::write(path, &text),
        None => out.write_all(text.as_bytes()),
    };
    if let Err(e) = written {
        let target = output.map_or("stdout".to_owned(), |p| p.display().to_string());
        let _ = writeln!(err, "error: cannot write {target}: {e}");
        return EXIT_USAGE;
    }
    // The data model has no place for comments; say so rather than drop them quietly.
    let comment = match loaded.format {
        Format::Yaml => source::yaml_comment(&desc.text, &limits),
        Format::Json => None,
    };
    let warnings = migration.warnings.len() + usize::from(comment.is_some());
    let _ = writeln!(
        err,
        "migrated {} from MCP Description {} to {}{}: {} change{}, {warnings} warning{}",
        desc.name,
        migration.from_version,
        migration.target.as_str(),
        output.map_or(String::new(), |p| format!(" ({})", p.display())),
        migration.changes.len(),
        plural(migration.changes.len()),
        plural(warnings),
    );
    for change in &migration.changes {
        let _ = writeln!(err, "  change: {}", change.render(&desc.name));
    }
    if let Some(pos) = comment {
        let _ = writeln!(
            err,
            "warning: {}:{}:{}: the input's YAML comments are not carried over (the data model has no place for them)",
            desc.name, pos.line, pos.column
        );
    }
    for d in &migration.warnings {
        let _ = writeln!(err, "{}", d.render(&desc.name, Some(&desc.text)));
    }
    EXIT_OK
}

/// `mcpdesc validate`.
pub fn validate(
    files: &[PathBuf],
    format: OutputFormat,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> u8 {
    let limits = Limits::default();
    let mut code = EXIT_OK;
    let mut reports = Vec::new();
    for file in files {
        let desc = match Description::from_path(file, &limits) {
            Ok(desc) => desc,
            Err(e) => {
                let _ = writeln!(err, "error: cannot read {}: {e}", file.display());
                code = EXIT_USAGE;
                continue;
            }
        };
        if !desc.is_valid() && code == EXIT_OK {
            code = EXIT_INVALID;
        }
        match format {
            OutputFormat::Human => {
                let _ = out.write_all(desc.render_diagnostics().as_bytes());
                let errors = desc.errors().count();
                let warnings = desc.warnings().count();
                let verdict = if desc.is_valid() { "valid" } else { "invalid" };
                let _ = writeln!(
                    out,
                    "{}: {verdict} ({errors} error{}, {warnings} warning{})",
                    desc.name,
                    plural(errors),
                    plural(warnings)
                );
            }
            OutputFormat::Json => reports.push(serde_json::json!({
                "file": desc.name,
                "valid": desc.is_valid(),
                "mcpdesc": desc.mcpdesc_version(),
                "diagnostics": desc.diagnostics,
            })),
        }
    }
    if format == OutputFormat::Json {
        let text = serde_json::to_string_pretty(&reports).unwrap_or_else(|_| "[]".into());
        let _ = writeln!(out, "{text}");
    }
    code
}

pub(crate) fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}
