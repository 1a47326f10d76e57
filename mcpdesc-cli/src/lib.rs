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
//! `mcpdesc generate FILE [-o OUT.rs [--check]] [--protocol-version V] [--no-tests]
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
//! - usage and I/O errors exit 2;
//! - `--check` (with `-o`) writes nothing: exit 0 when OUT holds byte for byte what
//!   would be generated, 1 when it differs or is missing (the message names the first
//!   differing line and says to re-run the command without `--check`), 2 on usage
//!   errors and on an invalid description (the ahead-of-time front end's CI line).
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
//! `mcpdesc serve-mock FILE [--protocol-version V] [--select TARGET=EXAMPLE]... [--http ADDR [--token TOKEN:SCOPE,SCOPE]... [--jwks URL --issuer ISS [--audience AUD]] [--transport URL]]`
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
//!   commented sample), `build.rs`, `src/main.rs` (stdio; with `--http` also
//!   `--http ADDR`: `/healthz`, `/readyz`, drain on SIGTERM, logs, flags for hosts,
//!   origins, stateless mode, rate limit; and `deploy/nginx.conf`), `src/handlers.rs`
//!   (every generated trait, "not implemented" bodies);
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

mod args;
pub mod check;
mod diff;
mod dispatch;
mod docs;
mod exit;
mod generate;
pub mod init;
mod load;
mod migrate;
mod output;
pub mod own_types;
pub mod pull;
pub mod serve_mock;
mod serve_mock_command;
mod validate;
mod values;

pub use args::{Cli, Command, FailOnArg, PerspectiveArg};
pub use diff::diff;
pub use dispatch::run;
pub use docs::docs;
pub use exit::{EXIT_INVALID, EXIT_OK, EXIT_USAGE};
pub use generate::generate;
pub use migrate::migrate;
pub use output::OutputFormat;
pub use serve_mock_command::{serve_mock, MockSecurity};
pub use validate::validate;
