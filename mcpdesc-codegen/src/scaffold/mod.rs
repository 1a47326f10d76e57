//! A new server crate from a description (`mcpdesc init`) and handler stubs
//! (`mcpdesc stubs`).
//!
//! ```text
//! DIR/
//!   Cargo.toml            mcpdesc (+ `http`, `axum`, `rate-limit`, `redis`, `telemetry`
//!                         with --http), serde,
//!                         serde_json, tokio (+ tracing-subscriber with --http);
//!                         build: mcpdesc-codegen (paths to a checkout, or this release)
//!   NAME.mcpdesc.yaml     the sample description (or the given one, under its own name)
//!   build.rs              Builder::new(description).test_server("crate::handlers::Service::default()")
//!   src/main.rs           `mod contract` (the generated code), stdio; with --http also
//!                         `--http ADDR` with /healthz, /readyz, /metrics, drain on
//!                         SIGTERM, text or JSON logs, OTLP export, flags for hosts,
//!                         origins, stateless mode, rate limit, Redis (HTTP_MAIN)
//!   deploy/nginx.conf     with --http: nginx in front of two instances (NGINX_CONF)
//!   src/handlers.rs       `Service` and one impl per generated trait (stubs.rs)
//!   .gitignore            /target
//! ```
//!
//! [`files`] only computes the files (deterministically: same options, same bytes);
//! the command writes them.

pub mod stubs;

use std::path::{Path, PathBuf};

use crate::generate::GenerateError;
use crate::settings::Settings;
use mcpdesc_description::description::Description;

/// The sample description written when none is given: a tool with input and output
/// schemas and an example, a prompt, a resource, with comments. `NAME` stands for the
/// crate name.
pub const SAMPLE: &str = include_str!("sample.mcpdesc.yaml");

/// `src/main.rs` of an `--http` crate: `NAME`, `DESCRIPTION` and the `SECURITY`
/// line stand for the crate name, the description file and the security note. It
/// is kept as a file of its own, not a `format!` string, so that it reads (and is
/// reviewed) as the Rust it becomes. It names the generated module `contract`
/// ([`MODULE`]) and the handlers' type `Service` ([`SELF_TYPE`]).
pub const HTTP_MAIN: &str = include_str!("http_main.rs.tmpl");

/// `deploy/nginx.conf` of an `--http` crate (`NAME`: the crate name).
pub const NGINX_CONF: &str = include_str!("nginx.conf");

/// The type implementing the handler traits in `src/handlers.rs`.
pub const SELF_TYPE: &str = "Service";
/// The module holding the generated code in `src/main.rs`.
pub const MODULE: &str = "contract";
/// Where the stubs live in the new crate.
pub const HANDLERS_FILE: &str = "src/handlers.rs";

/// What `mcpdesc init` is asked for.
#[derive(Debug, Clone)]
pub struct InitOptions {
    /// The crate's package name (see [`package_name`]).
    pub name: String,
    /// The description to serve: its file name and text; `None` for [`SAMPLE`].
    pub description: Option<(String, String)>,
    /// Serve streamable HTTP too (`--http ADDR` of the new binary).
    pub http: bool,
    /// A local mcpdesc-rs checkout for path dependencies; `None` for this release's
    /// version requirements.
    pub mcpdesc_path: Option<PathBuf>,
}

/// One file of the new crate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScaffoldFile {
    /// The path relative to the crate's directory.
    pub path: PathBuf,
    /// The content.
    pub text: String,
}

/// Why no crate could be made.
#[derive(Debug, Clone, thiserror::Error)]
pub enum ScaffoldError {
    /// The description has errors (listed on the description), or generation failed.
    #[error(transparent)]
    Generate(#[from] GenerateError),
}

/// A package name from a directory name: lowercase ASCII letters, digits and `-`
/// (other characters become `-`), starting with a letter (`mcp-` is put in front
/// otherwise). The sample's URIs use it as their scheme, which takes the same
/// characters.
pub fn package_name(dir: &Path) -> String {
    let raw = dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut name: String = raw
        .chars()
        .map(|c| match c {
            'a'..='z' | '0'..='9' | '-' => c,
            'A'..='Z' => c.to_ascii_lowercase(),
            _ => '-',
        })
        .collect();
    name = name.trim_matches('-').to_owned();
    if !name.starts_with(|c: char| c.is_ascii_lowercase()) {
        name = format!("mcp-{name}").trim_end_matches('-').to_owned();
    }
    name
}

/// The description file name and text of the new crate.
pub fn description_of(options: &InitOptions) -> (String, String) {
    match &options.description {
        Some((file, text)) => (file.clone(), text.clone()),
        None => (
            format!("{}.mcpdesc.yaml", options.name),
            SAMPLE.replace("NAME", &options.name),
        ),
    }
}

/// Every file of the new crate, given the description loaded from
/// [`description_of`]'s text; refuses a description that does not generate.
pub fn files(
    options: &InitOptions,
    desc: &Description,
) -> Result<Vec<ScaffoldFile>, ScaffoldError> {
    let (description_file, description_text) = description_of(options);
    let stub = stubs::Stub {
        self_type: SELF_TYPE,
        module: MODULE,
        location: HANDLERS_FILE,
    };
    let impls = stubs::impl_blocks(desc, &Settings::new(), &stub)?;
    // Schemas the runtime's built-in validator cannot check whole need `jsonschema`.
    let generated = crate::generate(desc, &Settings::new())?;
    let full_validation = !crate::generate::validation::needs(&generated.ir).is_empty();
    let secured = desc
        .document()
        .and_then(|d| d.security_schemes.as_ref())
        .is_some_and(|schemes| !schemes.is_empty());
    let file = |path: &str, text: String| ScaffoldFile {
        path: PathBuf::from(path),
        text,
    };
    let mut files = vec![
        file("Cargo.toml", cargo_toml(options, full_validation)),
        file(&description_file, description_text),
        file("build.rs", build_rs(&description_file)),
        file("src/main.rs", main_rs(options, &description_file, secured)),
        file(HANDLERS_FILE, handlers_rs(&description_file, &impls)),
        file(".gitignore", "/target\n".to_owned()),
    ];
    if options.http {
        files.push(file(
            "deploy/nginx.conf",
            NGINX_CONF.replace("NAME", &options.name),
        ));
    }
    Ok(files)
}

/// `Cargo.toml`: its own workspace (so a crate made inside another workspace builds
/// on its own), path dependencies on a checkout or this release's versions. `mcpdesc`
/// gets its default features, plus `http`, `axum`, `rate-limit`, `redis` and
/// `telemetry` with `--http` and `full-validation` when a tool schema needs it. With
/// `--http`, tokio's signals and tracing-subscriber (text or JSON lines) come too;
/// the versions are those this release builds with.
fn cargo_toml(options: &InitOptions, full_validation: bool) -> String {
    let version = env!("CARGO_PKG_VERSION");
    let source = |krate: &str| match &options.mcpdesc_path {
        Some(root) => format!(
            "path = {}",
            toml_string(&root.join(krate).to_string_lossy())
        ),
        None => format!("version = \"={version}\""),
    };
    let features: Vec<&str> = [
        options
            .http
            .then_some("\"http\", \"axum\", \"rate-limit\", \"redis\", \"telemetry\""),
        full_validation.then_some("\"full-validation\""),
    ]
    .into_iter()
    .flatten()
    .collect();
    let features = format!("[{}]", features.join(", "));
    let tokio_features = if options.http {
        "[\"rt-multi-thread\", \"macros\", \"net\", \"signal\"]"
    } else {
        "[\"rt-multi-thread\", \"macros\"]"
    };
    let logs = if options.http {
        "# Logs on stderr, filtered by RUST_LOG, as text or JSON lines.\n\
         tracing-subscriber = { version = \"0.3.23\", default-features = false, features = [\"fmt\", \"env-filter\", \"std\", \"json\"] }\n"
    } else {
        ""
    };
    format!(
        "[package]\n\
         name = \"{name}\"\n\
         version = \"0.1.0\"\n\
         edition = \"2021\"\n\
         publish = false\n\
         \n\
         # A crate of its own, even inside another workspace.\n\
         [workspace]\n\
         \n\
         [dependencies]\n\
         mcpdesc = {{ {mcpdesc}, features = {features} }}\n\
         # The generated types derive serde's traits and hold serde_json values.\n\
         serde = {{ version = \"1.0.228\", features = [\"derive\"] }}\n\
         serde_json = \"1.0.154\"\n\
         tokio = {{ version = \"1.54.1\", features = {tokio_features} }}\n\
         {logs}\
         \n\
         [build-dependencies]\n\
         # build.rs generates the contract from the description.\n\
         mcpdesc-codegen = {{ {codegen} }}\n",
        name = options.name,
        mcpdesc = source("mcpdesc"),
        codegen = source("mcpdesc-codegen"),
    )
}

/// A TOML basic string.
fn toml_string(text: &str) -> String {
    let mut out = String::from("\"");
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if c.is_control() => out.push_str(&format!("\\u{:04X}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn build_rs(description: &str) -> String {
    format!(
        "//! Generates the server's contract from `{description}` into\n\
         //! `$OUT_DIR/{MODULE}.rs` (included by `src/main.rs`): types, one trait per tool,\n\
         //! prompt, resource and template, `router`, and one test per example.\n\
         //!\n\
         //! `test_server` makes each example test call `src/handlers.rs` through the\n\
         //! router and compare its answer with the example: `cargo test` fails, naming\n\
         //! the example, until the handler gives that answer.\n\
         \n\
         fn main() {{\n    \
             mcpdesc_codegen::Builder::new({description:?})\n        \
                 .file_name(\"{MODULE}.rs\")\n        \
                 .test_server(\"crate::handlers::{SELF_TYPE}::default()\")\n        \
                 .compile_or_exit();\n\
         }}\n"
    )
}

/// `src/main.rs`: [`HTTP_MAIN`] with `--http`, else a stdio server.
fn main_rs(options: &InitOptions, description: &str, secured: bool) -> String {
    let name = &options.name;
    let security = if secured {
        "    // The description declares security: over HTTP the router checks every\n    \
         // request with the `Authenticator` of src/handlers.rs (stdio is trusted).\n"
    } else {
        ""
    };
    if options.http {
        // `SECURITY` first: the others cannot bring it in (a crate name is lowercase,
        // the note holds no placeholder); `NAME` before `DESCRIPTION` likewise.
        return HTTP_MAIN
            .replace("SECURITY", security)
            .replace("NAME", name)
            .replace("DESCRIPTION", description);
    }
    format!(
        "//! `cargo run`: serves {name} (`{description}`) over MCP on stdin/stdout.\n\
         \n\
         mod handlers;\n\
         \n\
         /// The code generated from `{description}` by `build.rs`.\n\
         #[allow(dead_code, clippy::all)]\n\
         mod {MODULE} {{\n    \
             mcpdesc::include_generated!(\"{MODULE}\");\n\
         }}\n\
         \n\
         #[tokio::main]\n\
         async fn main() {{\n    \
             let router = {MODULE}::router(handlers::{SELF_TYPE}::default());\n\
         {security}    \
             if let Err(e) = mcpdesc::serve_stdio(router).await {{\n        \
                 eprintln!(\"{name}: {{e}}\");\n        \
                 std::process::exit(1);\n    \
             }}\n\
         }}\n"
    )
}

fn handlers_rs(description: &str, impls: &str) -> String {
    format!(
        "//! The handlers: one `impl` per trait generated from `{description}`. Each body\n\
         //! returns a \"not implemented\" error until it is written; `cargo test` runs every\n\
         //! example of the description against them. When the description grows,\n\
         //! `mcpdesc stubs {description}` prints the impl blocks of every trait again.\n\
         // Remove once every handler uses its arguments.\n\
         #![allow(unused_variables)]\n\
         \n\
         #[allow(unused_imports)]\n\
         use crate::{MODULE}::{{self, types}};\n\
         \n\
         /// The server's state: add what the handlers share.\n\
         #[derive(Debug, Default)]\n\
         pub struct {SELF_TYPE};\n\
         \n\
         {impls}"
    )
}
