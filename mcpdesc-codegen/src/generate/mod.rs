//! The code generator: a valid description in, one formatted Rust file out.
//!
//! ```text
//! Description ──view──▶ chosen tools ──ir::build──▶ ModuleIr ──emitters──▶ tokens ──▶ prettyplease
//!                        (protocol view)    (names, prepared schemas)   types.rs
//! ```
//!
//! Each family of emitted items has its own module (`types`; `server`: handler traits
//! and the router; `examples`: example data, the `ExampleServer` mock and the contract
//! check; `tests`: the example tests), and every emitter reads the [`ir::ModuleIr`],
//! never raw JSON. The output is deterministic: the same description and settings give
//! byte-identical code (ordered maps only, no time stamps, no absolute paths).
//!
//! ```no_run
//! use mcpdesc_codegen::{generate, Description, Limits, Settings};
//!
//! let desc = Description::from_path("chess.mcpdesc.json".as_ref(), &Limits::default())?;
//! match generate::generate(&desc, &Settings::default()) {
//!     Ok(out) => std::fs::write("chess.rs", out.code)?,
//!     Err(e) => eprintln!("{e}"),
//! }
//! # Ok::<(), std::io::Error>(())
//! ```

pub mod client;
pub mod elicitations;
pub mod escape;
pub mod examples;
pub mod ir;
pub mod isolate;
pub mod literals;
pub mod naming;
pub mod own_checks;
pub mod prepare;
pub mod primitive_examples;
pub mod primitive_server;
pub mod primitives;
pub mod runtime;
pub mod security;
pub mod server;
pub mod tests;
pub mod types;
pub mod typespace;
pub mod validation;
pub use mcpdesc_description::view;

use proc_macro2::TokenStream;
use quote::quote;

use crate::settings::Settings;
use mcpdesc_description::description::Description;
use mcpdesc_description::diagnostic::{self, Diagnostic};
use mcpdesc_description::pointer::Pointer;

pub use ir::ModuleIr;
pub use view::ViewError;

/// Generated code and what the generator found while producing it.
#[derive(Debug, Clone)]
pub struct Generated {
    /// The formatted Rust file.
    pub code: String,
    /// Warnings (and errors for schemas that fell back to `serde_json::Value` because the
    /// type generator failed on them), located in the source. The description's own
    /// diagnostics are not repeated here.
    pub diagnostics: Vec<Diagnostic>,
    /// The IR the code was emitted from (tool names, Rust names, schemas, examples).
    pub ir: ModuleIr,
}

impl Generated {
    /// Whether any generation diagnostic is an error (some type fell back to
    /// `serde_json::Value` because the type generator failed).
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }
}

/// Why nothing was generated.
#[derive(Debug, Clone, thiserror::Error)]
pub enum GenerateError {
    /// The description has errors; they are listed (as `validate` shows them).
    #[error("the description has {} error(s); nothing is generated from an invalid description", .errors.len())]
    Invalid {
        /// The description's errors.
        errors: Vec<Diagnostic>,
    },
    /// No Effective Protocol View could be chosen.
    #[error(transparent)]
    View(#[from] ViewError),
    /// A setting cannot be used.
    #[error("invalid setting: {0}")]
    Settings(String),
    /// The emitted tokens are not a Rust file (a bug of the generator).
    #[error("internal error: the generated code does not parse ({0}); please report this")]
    Internal(String),
}

/// Generates the Rust code of a valid description.
///
/// Refuses a description with errors ([`GenerateError::Invalid`]); warnings of the
/// description are not repeated in [`Generated::diagnostics`], which holds only what
/// generation found.
pub fn generate(desc: &Description, settings: &Settings) -> Result<Generated, GenerateError> {
    generate_as(desc, settings, Rendering::Formatted)
}

/// [`generate`] without formatting: [`Generated::code`] is the token text on one line,
/// for the `mcpdesc!` macro, which hands tokens to the compiler and has no reader
/// (formatting and re-parsing the file was most of the macro's time on large
/// descriptions). Same items, same diagnostics.
pub fn generate_tokens(
    desc: &Description,
    settings: &Settings,
) -> Result<Generated, GenerateError> {
    generate_as(desc, settings, Rendering::Tokens)
}

/// How the emitted tokens become [`Generated::code`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Rendering {
    /// prettyplease, header comment, lint comments: a file for people.
    Formatted,
    /// The token text: for the compiler only.
    Tokens,
}

fn generate_as(
    desc: &Description,
    settings: &Settings,
    rendering: Rendering,
) -> Result<Generated, GenerateError> {
    let doc = match desc.document() {
        Some(doc) if desc.is_valid() => doc,
        _ => {
            return Err(GenerateError::Invalid {
                errors: desc.errors().cloned().collect(),
            })
        }
    };
    check_settings(settings)?;
    let mut diagnostics = Vec::new();
    let mut ir = ir::build(desc, doc, settings, &mut diagnostics)?;
    let types = types::emit(&mut ir, settings, &mut diagnostics);
    let server = server::emit(&ir, settings);
    let examples = examples::emit(&ir, settings);
    let client = client::emit(&ir, settings, &mut diagnostics);
    let tests = tests::emit(&ir, settings, &mut diagnostics);
    let elicitations = elicitations::emit(&ir, settings);
    let items = quote! { #types #server #elicitations #examples #tests };
    let rt = runtime::runtime(settings);
    let code = match rendering {
        Rendering::Formatted => render(&ir, items, client, &rt)?,
        Rendering::Tokens => {
            let client = requires_client(&rt, client);
            escape::sanitize(quote! { #items #client }, ir.type_names.placeholders()).to_string()
        }
    };
    locate(desc, &mut diagnostics);
    Ok(Generated {
        code,
        diagnostics,
        ir,
    })
}

/// Checks the settings that end up in code.
fn check_settings(settings: &Settings) -> Result<(), GenerateError> {
    syn::parse_str::<syn::Path>(settings.runtime_crate_path()).map_err(|e| {
        GenerateError::Settings(format!(
            "runtime crate path {:?} is not a Rust path: {e}",
            settings.runtime_crate_path()
        ))
    })?;
    for derive in settings
        .extra_derives()
        .iter()
        .chain(settings.patches().values().flat_map(|p| p.derives()))
    {
        syn::parse_str::<syn::Path>(derive).map_err(|e| {
            GenerateError::Settings(format!("derive {derive:?} is not a Rust path: {e}"))
        })?;
    }
    if let Some(expr) = settings.test_server_expr() {
        crate::settings::check_test_server(expr)
            .map_err(|e| GenerateError::Settings(format!("test server {e}")))?;
        if !settings.generated_side().server() {
            return Err(GenerateError::Settings(format!(
                "test server {expr:?}: a client-only module has no router to test a server through; \
                 generate the server side (side `server` or `both`)"
            )));
        }
    }
    settings
        .own_types()
        .check()
        .map_err(GenerateError::Settings)?;
    for (name, patch) in settings.patches() {
        if let Some(new) = patch.new_name() {
            syn::parse_str::<syn::Ident>(new).map_err(|e| {
                GenerateError::Settings(format!(
                    "patch of {name} renames it to {new:?}, which is not a Rust identifier: {e}"
                ))
            })?;
        }
    }
    Ok(())
}

/// The file: header comment, then the formatted items, then the typed client inside
/// `requires_client! { ... }`.
///
/// ```text
/// // @generated by mcpdesc from chess.mcpdesc.json. Do not edit by hand: regenerate it
/// // with `mcpdesc generate` (or the build script or macro that produced it).
/// // Tools of every protocol version the description declares.
///
/// /// Input and output types of the tools, generated from their JSON Schemas.
/// pub mod types { ... }
/// ...
/// ::mcpdesc::__private::requires_client! {
///     pub struct Client { ... }
///     impl Client { ... }
/// }
/// ```
fn render(
    ir: &ModuleIr,
    items: TokenStream,
    client: TokenStream,
    rt: &TokenStream,
) -> Result<String, GenerateError> {
    let mut body = format_items(ir, items)?;
    if !client.is_empty() {
        // prettyplease leaves a macro's body as one run of tokens, so the client is
        // formatted as the body of a module, whose head then becomes the macro's.
        let module = format_items(ir, quote! { mod __mcpdesc_client { #client } })?;
        let head = format_items(ir, quote! { #rt::__private::requires_client! {} })?;
        let (Some(head), Some(module)) = (
            head.trim_end().strip_suffix("{}"),
            module.strip_prefix("mod __mcpdesc_client "),
        ) else {
            return Err(GenerateError::Internal(
                "the typed client did not format as one module".to_owned(),
            ));
        };
        body.push('\n');
        body.push_str(head);
        body.push_str(module);
    }
    let view = match ir.protocol_version {
        Some(v) => format!("Effective Protocol View of MCP {v}."),
        None => "Tools of every protocol version the description declares.".to_owned(),
    };
    Ok(format!(
        "// @generated by mcpdesc from {}. Do not edit by hand: regenerate it\n\
         // with `mcpdesc generate` (or the build script or macro that produced it).\n\
         // {view}\n\n{body}",
        escape::doc_text(&ir.source.replace(['\n', '\r'], " "))
    ))
}

/// The typed client's items inside `requires_client! { ... }`: they compile with the
/// runtime's `client` feature, and without it the build stops with one error naming
/// the feature instead of one per path into `mcpdesc::client` (nothing when the
/// client is not generated).
fn requires_client(rt: &TokenStream, client: TokenStream) -> TokenStream {
    if client.is_empty() {
        return client;
    }
    quote! { #rt::__private::requires_client! { #client } }
}

/// Items formatted as a file by prettyplease, with the generator's touches.
fn format_items(ir: &ModuleIr, items: TokenStream) -> Result<String, GenerateError> {
    let items = escape::sanitize(items, ir.type_names.placeholders());
    let file: syn::File = syn::parse2(items).map_err(|e| GenerateError::Internal(e.to_string()))?;
    Ok(types::comment_allows(&space_doc_comments(
        &prettyplease::unparse(&file),
    )))
}

/// Writes `/// text` for typify's `///text` doc lines, the way rustfmt would.
fn space_doc_comments(code: &str) -> String {
    let mut out = String::with_capacity(code.len() + code.len() / 16);
    for line in code.split_inclusive('\n') {
        let trimmed = line.trim_start();
        let indent = &line[..line.len() - trimmed.len()];
        match trimmed.strip_prefix("///") {
            Some(rest) if !rest.starts_with([' ', '/', '\n']) && !rest.is_empty() => {
                out.push_str(indent);
                out.push_str("/// ");
                out.push_str(rest);
            }
            _ => out.push_str(line),
        }
    }
    out
}

/// Gives generation diagnostics their line and column (a pointer inside a substituted
/// component points at the component's text), and sorts them.
fn locate(desc: &Description, diagnostics: &mut [Diagnostic]) {
    if let (Some(loaded), Some(validation)) = (&desc.loaded, &desc.validation) {
        for d in diagnostics.iter_mut() {
            let at = Pointer::parse(&d.pointer).unwrap_or_default();
            if let Some(pos) = loaded
                .positions
                .nearest(&validation.resolution.source_pointer(&at))
            {
                d.line = pos.line;
                d.column = pos.column;
            }
        }
    }
    diagnostic::sort(diagnostics);
}

#[cfg(test)]
mod unit_tests;
