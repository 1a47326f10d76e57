//! The command line: `clap`'s definition of every subcommand and its arguments.

use std::path::PathBuf;

use clap::{Parser, Subcommand, ValueEnum};
use mcpdesc_codegen::validate::SpecVersion;
use mcpdesc_codegen::{ProtocolVersion, Side};

use crate::output::OutputFormat;
use crate::values::{parse_protocol_version, parse_side, parse_spec_version};
use crate::{check, own_types, pull, serve_mock};

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
        /// Write nothing: exit 0 when the `--output` file holds exactly what would be
        /// generated, 1 when it differs or is missing (for CI, beside checked-in code).
        #[arg(long, requires = "output")]
        check: bool,
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
        /// Offer only this MCP protocol version (default: every version the client
        /// speaks, so the server's newest); the description is of that version.
        #[arg(long, value_name = "V", value_parser = parse_protocol_version)]
        protocol_version: Option<ProtocolVersion>,
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
        /// Enforce the description's security with JWT bearer tokens verified against
        /// the JSON Web Key Set at URL (RS256, ES256, EdDSA; fetched when first needed,
        /// cached, refetched for an unknown `kid`); needs --http and --issuer.
        #[arg(long = "jwks", value_name = "URL", requires_all = ["http", "issuer"], conflicts_with = "tokens")]
        jwks: Option<String>,
        /// The issuer (`iss`) whose tokens --jwks accepts.
        #[arg(long = "issuer", value_name = "ISS", requires = "jwks")]
        issuer: Option<String>,
        /// The audience (`aud`) a token must name (default: the URL served,
        /// http://ADDR/mcp, which the Protected Resource Metadata names as `resource`).
        #[arg(long = "audience", value_name = "AUD", requires = "jwks")]
        audience: Option<String>,
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
        /// Serve streamable HTTP too (`cargo run -- --http ADDR`): /healthz, /readyz,
        /// drain on SIGTERM, logs, deploy/nginx.conf.
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
