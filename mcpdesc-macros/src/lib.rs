//! The `mcpdesc!` macro: generates the Rust code of an MCP Description at compile time.
//! Use it through the runtime crate, as `mcpdesc::mcpdesc!`; see [`mcpdesc!`].

use std::path::{Path, PathBuf};

use mcpdesc_codegen::builder::summary;
use mcpdesc_codegen::{
    generate_tokens, Description, Diagnostic, GenerateError, Limits, ProtocolVersion, Settings,
    Side, TypePatch,
};
use proc_macro2::{Span, TokenStream};
use quote::{quote, quote_spanned, ToTokens};
use syn::ext::IdentExt;
use syn::parse::{Parse, ParseStream};
use syn::punctuated::Punctuated;
use syn::{braced, bracketed, Ident, LitBool, LitStr, Token};

/// Generates the Rust code of an MCP Description in place: the `types`, `info` and
/// `tools` modules, one handler trait per tool, the `Server` trait and
/// `router(server)`, exactly as the `build.rs` helper (`mcpdesc_codegen::Builder`) and
/// `mcpdesc generate` would with the same settings.
///
/// ```ignore
/// mod chess {
///     mcpdesc::mcpdesc!("chess.mcpdesc.json");
/// }
///
/// struct Chess;
/// impl chess::AnalyzeGame for Chess { /* ... */ }
/// // ... one impl per tool ...
/// let router = chess::router(Chess);
/// ```
///
/// The crate needs `serde` (with the `derive` feature) and `serde_json` as dependencies
/// beside `mcpdesc`.
///
/// # Keys
///
/// The short form is the path alone. The key-value form accepts these keys, each at most
/// once, in any order; only `path` is required:
///
/// ```ignore
/// mcpdesc::mcpdesc!(
///     path = "api/chess.mcpdesc.yaml",   // the description, relative to CARGO_MANIFEST_DIR
///     protocol_version = "2025-11-25",   // generate the view of one protocol version
///     derives = [PartialEq, ::schemars::JsonSchema], // extra derives on every type
///     patch = {                          // per type, by generated name
///         AnalyzeGameOutput = { rename = "Analysis", derives = [Default] },
///     },
///     side = "both",                     // "server" (default), "client" or "both"
///     tests = false,                     // no unit tests from the Tool Examples
///     test_server = "crate::Chess::new()", // the example tests call this implementation
///     format_types = false,              // `format`/`pattern` stay `String` (default)
///     non_zero_integers = false,         // `minimum: 1` inputs stay `u64` (default)
///     builders = true,                   // `T::builder()` for every struct (default)
///     replace = {                        // the user's types in place of generated ones
///         Issue = crate::model::Issue,
///         "#/components/schemas/Player" = crate::model::Player,
///     },
///     formats = { uuid = ::uuid::Uuid, "date-time" = ::chrono::DateTime<::chrono::Utc> },
///     crates = { "geo-types" = "0.7.13" }, // crates `x-rust-type` may name
///     crate = ::my_app::mcpdesc,         // where generated code finds the runtime crate
/// );
/// ```
///
/// - `path` (string): the description file (`.json`, `.yaml` or `.yml`), relative to
///   the directory of the crate's `Cargo.toml`. The file is included with
///   `include_bytes!`, so editing it recompiles the crate.
///   (For test harnesses that compile files outside their crate, such as `trybuild`,
///   the environment variable `MCPDESC_MANIFEST_DIR`, when set, replaces
///   `CARGO_MANIFEST_DIR` as the base.)
/// - `protocol_version` (string): a protocol version such as `"2025-11-25"`; see
///   `Settings::protocol_version`. Without it every tool is generated.
/// - `derives` (list of paths): derives added to every generated type.
/// - `patch` (braces of `TypeName = { rename = "...", derives = [...] }`): renames one
///   generated type or adds derives to it alone.
/// - `side` (string, default `"server"`): `"server"` (handler traits, `Server`,
///   `router`, the mock), `"client"` (the typed `Client`; nothing to implement) or
///   `"both"`; see `Settings::side`. The typed `Client` needs `mcpdesc`'s `client`
///   feature.
/// - `tests` (bool, default `true`): whether unit tests are generated from examples.
/// - `test_server` (string): a Rust expression that builds a fresh server; each
///   generated example test then calls that implementation through the router and
///   compares its answer with the example (see `Settings::test_server`). A string that
///   is not a Rust expression is a compile error on the literal.
/// - `format_types` (bool, default `false`): whether `format` and `pattern` produce
///   format-specific types (`chrono`, `uuid`, `regress` then become dependencies).
/// - `non_zero_integers` (bool, default `false`): whether an integer input bounded
///   below by 1 or more is a `NonZero*` type; see `Settings::non_zero_integers`.
/// - `builders` (bool, default `true`): whether every struct gets a builder that holds
///   the schema's defaults; see `Settings::builders`.
/// - `replace` (braces of `Key = path`): puts the user's type in place of a generated
///   type (`Issue`) or of a component schema's type (`"#/components/schemas/Issue"`,
///   written as a string); see `Settings::replace_type`.
/// - `formats` (braces of `format = path`): every schema with that `format` is the
///   user's type (`uuid = ::uuid::Uuid`; a format that is not an identifier, such as
///   `"date-time"`, as a string); see `Settings::format_type`.
/// - `crates` (braces of `name = "version"`): crates whose `x-rust-type` schema
///   extensions are honoured (`"*"` any version, `"!"` never); see
///   `Settings::crate_version`.
/// - `crate` (path, default `::mcpdesc`): the path of the runtime crate.
///
/// # Errors and warnings
///
/// A missing file, a file that does not parse or an invalid description stops the build
/// with one `compile_error!` per problem, pointing at the path literal and reading
/// `file:line:column: [rule] message (pointer /json/pointer)`, and nothing else: the
/// uses of the module that was not generated (`api::types::X`, `impl api::Tool`) are not
/// reported as unresolved names. When the type generator
/// fails on one schema, the code is still emitted (that type falls back to
/// `serde_json::Value`, so editors keep working) together with the error.
///
/// Warnings are shown as deprecation warnings on the path literal (a proc macro cannot
/// emit warnings on stable Rust; using a `#[deprecated]` item is the way to make rustc
/// print one): `use of deprecated unit struct `...`: file:line:column: [rule] message`.
/// `#[allow(deprecated)]` on the enclosing module silences them.
#[proc_macro]
pub fn mcpdesc(input: proc_macro::TokenStream) -> proc_macro::TokenStream {
    let input = match syn::parse::<MacroInput>(input) {
        Ok(input) => input,
        Err(e) => return e.to_compile_error().into(),
    };
    let manifest_dir = std::env::var_os("MCPDESC_MANIFEST_DIR")
        .or_else(|| std::env::var_os("CARGO_MANIFEST_DIR"))
        .map(PathBuf::from);
    expand(&input, manifest_dir.as_deref()).into()
}

/// The macro's input: the description's path and the generator's settings.
struct MacroInput {
    path: LitStr,
    settings: Settings,
}

impl Parse for MacroInput {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        if input.peek(LitStr) {
            let path: LitStr = input.parse()?;
            let _: Option<Token![,]> = input.parse()?;
            if !input.is_empty() {
                return Err(input.error(
                    "expected the path alone, or the key-value form `path = \"...\", ...`",
                ));
            }
            return Ok(MacroInput {
                path,
                settings: Settings::default(),
            });
        }
        let mut path = None;
        let mut settings = Settings::default();
        let mut seen: Vec<String> = Vec::new();
        while !input.is_empty() {
            let key = input.call(Ident::parse_any)?;
            let name = key.to_string();
            if seen.contains(&name) {
                return Err(syn::Error::new(
                    key.span(),
                    format!("`{name}` is given twice"),
                ));
            }
            seen.push(name.clone());
            input.parse::<Token![=]>()?;
            match name.as_str() {
                "path" => path = Some(input.parse::<LitStr>()?),
                "protocol_version" => {
                    let lit: LitStr = input.parse()?;
                    let version = ProtocolVersion::parse(&lit.value()).ok_or_else(|| {
                        let known: Vec<_> =
                            ProtocolVersion::ALL.iter().map(|v| v.as_str()).collect();
                        syn::Error::new(
                            lit.span(),
                            format!(
                                "unknown protocol version {:?}; expected one of {}",
                                lit.value(),
                                known.join(", ")
                            ),
                        )
                    })?;
                    settings = settings.protocol_version(version);
                }
                "derives" => {
                    for derive in parse_paths(input)? {
                        settings = settings.derive(derive);
                    }
                }
                "patch" => {
                    let content;
                    braced!(content in input);
                    while !content.is_empty() {
                        let type_name: Ident = content.parse()?;
                        content.parse::<Token![=]>()?;
                        let patch = parse_patch(&content)?;
                        settings = settings.patch(type_name.to_string(), patch);
                        if !content.is_empty() {
                            content.parse::<Token![,]>()?;
                        }
                    }
                }
                "side" => {
                    let lit: LitStr = input.parse()?;
                    let side = lit
                        .value()
                        .parse::<Side>()
                        .map_err(|e| syn::Error::new(lit.span(), e))?;
                    settings = settings.side(side);
                }
                "tests" => settings = settings.tests(input.parse::<LitBool>()?.value),
                "test_server" => {
                    let lit: LitStr = input.parse()?;
                    mcpdesc_codegen::settings::check_test_server(&lit.value())
                        .map_err(|e| syn::Error::new(lit.span(), format!("test_server {e}")))?;
                    settings = settings.test_server(lit.value());
                }
                "format_types" => settings = settings.format_types(input.parse::<LitBool>()?.value),
                "builders" => settings = settings.builders(input.parse::<LitBool>()?.value),
                "non_zero_integers" => {
                    settings = settings.non_zero_integers(input.parse::<LitBool>()?.value)
                }
                "replace" => {
                    for (key, path) in parse_type_map(input)? {
                        settings = settings.replace_type(key, path);
                    }
                }
                "formats" => {
                    for (format, path) in parse_type_map(input)? {
                        settings = settings.format_type(format, path);
                    }
                }
                "crates" => {
                    for (name, version) in parse_string_map(input)? {
                        settings = settings.crate_version(name, version);
                    }
                }
                "crate" => {
                    let path: syn::Path = input.parse()?;
                    settings = settings.runtime_crate(path_string(&path));
                }
                _ => {
                    return Err(syn::Error::new(
                        key.span(),
                        format!(
                            "unknown key `{name}`; expected path, protocol_version, derives, \
                             patch, side, tests, test_server, format_types, non_zero_integers, \
                             builders, replace, formats, crates or crate"
                        ),
                    ))
                }
            }
            if !input.is_empty() {
                input.parse::<Token![,]>()?;
            }
        }
        let path = path.ok_or_else(|| {
            syn::Error::new(
                Span::call_site(),
                "missing `path = \"...\"`: the description file",
            )
        })?;
        Ok(MacroInput { path, settings })
    }
}

/// `[A, ::b::C]`
fn parse_paths(input: ParseStream) -> syn::Result<Vec<String>> {
    let content;
    bracketed!(content in input);
    let paths = Punctuated::<syn::Path, Token![,]>::parse_terminated(&content)?;
    Ok(paths.iter().map(path_string).collect())
}

/// The key of a map entry: an identifier (keywords too) or a string.
fn parse_key(input: ParseStream) -> syn::Result<(String, Span)> {
    if input.peek(LitStr) {
        let lit: LitStr = input.parse()?;
        Ok((lit.value(), lit.span()))
    } else {
        let ident = input.call(Ident::parse_any)?;
        Ok((ident.to_string(), ident.span()))
    }
}

/// `{ Key = path::To::Type, "key" = ::a::B<::c::D> }`; each path is checked as the
/// generator checks it, with the error on the path.
fn parse_type_map(input: ParseStream) -> syn::Result<Vec<(String, String)>> {
    let content;
    braced!(content in input);
    let mut out = Vec::new();
    while !content.is_empty() {
        let (key, _) = parse_key(&content)?;
        content.parse::<Token![=]>()?;
        let path: syn::TypePath = content.parse()?;
        let text = path_string_of(&path);
        mcpdesc_codegen::own_types::check_path(&text)
            .map_err(|e| syn::Error::new_spanned(&path, e))?;
        out.push((key, text));
        if !content.is_empty() {
            content.parse::<Token![,]>()?;
        }
    }
    Ok(out)
}

/// `{ name = "value", "other-name" = "value" }`
fn parse_string_map(input: ParseStream) -> syn::Result<Vec<(String, String)>> {
    let content;
    braced!(content in input);
    let mut out = Vec::new();
    while !content.is_empty() {
        let (key, _) = parse_key(&content)?;
        content.parse::<Token![=]>()?;
        let value: LitStr = content.parse()?;
        mcpdesc_codegen::own_types::CrateVersion::parse(&value.value())
            .map_err(|e| syn::Error::new(value.span(), format!("crate `{key}`: {e}")))?;
        out.push((key, value.value()));
        if !content.is_empty() {
            content.parse::<Token![,]>()?;
        }
    }
    Ok(out)
}

/// A type path as written in Rust source, without token spacing.
fn path_string_of(path: &syn::TypePath) -> String {
    path.to_token_stream()
        .to_string()
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect()
}

/// `{ rename = "Name", derives = [A, B] }`
fn parse_patch(input: ParseStream) -> syn::Result<TypePatch> {
    let content;
    braced!(content in input);
    let mut patch = TypePatch::new();
    while !content.is_empty() {
        let key: Ident = content.parse()?;
        content.parse::<Token![=]>()?;
        match key.to_string().as_str() {
            "rename" => patch = patch.rename(content.parse::<LitStr>()?.value()),
            "derives" => {
                for derive in parse_paths(&content)? {
                    patch = patch.derive(derive);
                }
            }
            other => {
                return Err(syn::Error::new(
                    key.span(),
                    format!("unknown patch key `{other}`; expected rename or derives"),
                ))
            }
        }
        if !content.is_empty() {
            content.parse::<Token![,]>()?;
        }
    }
    Ok(patch)
}

/// A path as written in Rust source (`::schemars::JsonSchema`), without token spacing.
fn path_string(path: &syn::Path) -> String {
    path.to_token_stream()
        .to_string()
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect()
}

fn expand(input: &MacroInput, manifest_dir: Option<&Path>) -> TokenStream {
    let span = input.path.span();
    let written = input.path.value();
    let path = match manifest_dir {
        Some(dir) => dir.join(&written),
        None => PathBuf::from(&written),
    };
    let error = |message: String| quote_spanned!(span=> ::core::compile_error!(#message););
    let desc = match Description::from_path(&path, &Limits::default()) {
        Ok(desc) => desc,
        Err(e) => {
            let mut out = error(format!(
                "mcpdesc: cannot read {written} (resolved against CARGO_MANIFEST_DIR to {}): {e}",
                path.display()
            ));
            out.extend(silence_cascade());
            return out;
        }
    };
    let absolute = path.display().to_string();
    let track = quote! { const _: &[u8] = ::core::include_bytes!(#absolute); };
    let mut out = track;
    let report = |d: &Diagnostic, out: &mut TokenStream| {
        let text = format!("mcpdesc: {}", summary(d, &written));
        out.extend(if d.is_error() {
            error(text)
        } else {
            warning(&text, span)
        });
    };
    for d in &desc.diagnostics {
        report(d, &mut out);
    }
    // The generator builds token streams on a worker thread of its own (typify runs
    // isolated there), where the compiler's proc-macro API is not available; proc-macro2
    // must use its own implementation meanwhile. The generator returns plain text.
    proc_macro2::fallback::force();
    let generated = generate_tokens(&desc, &input.settings);
    proc_macro2::fallback::unforce();
    match generated {
        Ok(generated) => {
            for d in &generated.diagnostics {
                report(d, &mut out);
            }
            match generated.code.parse::<TokenStream>() {
                Ok(code) => out.extend(code),
                Err(e) => out.extend(error(format!(
                    "mcpdesc: internal error: the generated code does not lex ({e}); please report this"
                ))),
            }
        }
        // Already reported, one error each. Then the code of a recovered description
        // (rustc's practice: report, then go on with a best guess), so that the crate's
        // uses of the generated items, glob imports included, resolve.
        Err(GenerateError::Invalid { .. }) => out.extend(recovered_code(&desc, &input.settings)),
        Err(e) => {
            out.extend(error(format!("mcpdesc: {written}: {e}")));
            out.extend(silence_cascade());
        }
    }
    out
}

/// The code of [`mcpdesc_codegen::recover::recover`]'s description, without its
/// diagnostics (the original's are reported); [`silence_cascade`] when there is none.
fn recovered_code(desc: &Description, settings: &mcpdesc_codegen::Settings) -> TokenStream {
    let Some(recovered) = mcpdesc_codegen::recover::recover(desc) else {
        return silence_cascade();
    };
    proc_macro2::fallback::force();
    let generated = generate_tokens(&recovered, settings);
    proc_macro2::fallback::unforce();
    match generated
        .ok()
        .and_then(|g| g.code.parse::<TokenStream>().ok())
    {
        Some(code) => code,
        None => silence_cascade(),
    }
}

/// What the macro emits in place of the module when nothing is generated: a glob import
/// that cannot resolve. rustc does not report the names the crate then uses from the
/// module (`api::types::X`, `impl api::Tool for ...`, `api::router`), which it cannot
/// know are missing, so the description's own diagnostics are the only errors instead
/// of being followed by one `cannot find` error per use.
fn silence_cascade() -> TokenStream {
    quote! {
        #[allow(unused_imports)]
        pub use self::__mcpdesc_nothing_generated_see_the_errors_above::*;
    }
}

/// A warning rustc prints: the use of a deprecated item, spanned on the path literal.
fn warning(text: &str, span: Span) -> TokenStream {
    let name = Ident::new("McpdescWarning", span);
    quote! {
        const _: () = {
            #[deprecated(note = #text)]
            struct McpdescWarning;
            let _ = #name;
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(tokens: TokenStream) -> MacroInput {
        syn::parse2(tokens).unwrap()
    }

    #[test]
    fn short_form() {
        let input = parse(quote!("chess.mcpdesc.json"));
        assert_eq!(input.path.value(), "chess.mcpdesc.json");
        assert_eq!(input.settings, Settings::default());
    }

    #[test]
    fn key_value_form_reaches_every_setting() {
        let input = parse(quote!(
            path = "chess.mcpdesc.json",
            protocol_version = "2025-11-25",
            derives = [PartialEq, ::schemars::JsonSchema],
            patch = { AnalyzeGameOutput = { rename = "Analysis", derives = [Default] } },
            tests = false,
            format_types = true,
            replace = { Issue = crate::model::Issue, "#/components/schemas/Player" = crate::model::Player },
            formats = { uuid = ::uuid::Uuid, "date-time" = ::chrono::DateTime<::chrono::Utc> },
            crates = { "geo-types" = "0.7.13", std = "*" },
            crate = ::my::runtime,
        ));
        let expected = Settings::new()
            .protocol_version(ProtocolVersion::V2025_11_25)
            .derive("PartialEq")
            .derive("::schemars::JsonSchema")
            .patch(
                "AnalyzeGameOutput",
                TypePatch::new().rename("Analysis").derive("Default"),
            )
            .tests(false)
            .format_types(true)
            .replace_type("Issue", "crate::model::Issue")
            .replace_type("#/components/schemas/Player", "crate::model::Player")
            .format_type("uuid", "::uuid::Uuid")
            .format_type("date-time", "::chrono::DateTime<::chrono::Utc>")
            .crate_version("geo-types", "0.7.13")
            .crate_version("std", "*")
            .runtime_crate("::my::runtime");
        assert_eq!(input.settings, expected);
    }

    /// The macro expands to exactly the file the `build.rs` helper writes (after the
    /// `include_bytes!` that tracks the description), for the same description and
    /// settings.
    #[test]
    fn same_code_as_the_builder() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
        let out = std::env::temp_dir().join(format!("mcpdesc-macros-{}", std::process::id()));
        for (path, tokens, builder) in [
            (
                "examples/chess/chess.mcpdesc.json",
                quote!("examples/chess/chess.mcpdesc.json"),
                mcpdesc_codegen::Builder::new("examples/chess/chess.mcpdesc.json"),
            ),
            (
                "examples/chess/chess.mcpdesc.json",
                quote!(
                    path = "examples/chess/chess.mcpdesc.json",
                    protocol_version = "2025-11-25",
                    derives = [PartialEq],
                    patch = { AnalyzeGameOutput = { rename = "Analysis", derives = [Default] } },
                    tests = false,
                    crate = ::my::runtime,
                ),
                mcpdesc_codegen::Builder::new("examples/chess/chess.mcpdesc.json")
                    .protocol_version(ProtocolVersion::V2025_11_25)
                    .derive("PartialEq")
                    .patch(
                        "AnalyzeGameOutput",
                        TypePatch::new().rename("Analysis").derive("Default"),
                    )
                    .tests(false)
                    .runtime_crate("::my::runtime"),
            ),
            (
                "examples/own-types/issues.mcpdesc.json",
                quote!(
                    path = "examples/own-types/issues.mcpdesc.json",
                    replace = {
                        "#/components/schemas/Issue" = crate::model::Issue,
                        IssueState = crate::model::State,
                    },
                    formats = { uuid = ::uuid::Uuid, "date-time" = ::chrono::DateTime<::chrono::Utc> },
                ),
                mcpdesc_codegen::Builder::new("examples/own-types/issues.mcpdesc.json")
                    .replace_type("#/components/schemas/Issue", "crate::model::Issue")
                    .replace_type("IssueState", "crate::model::State")
                    .format_type("uuid", "::uuid::Uuid")
                    .format_type("date-time", "::chrono::DateTime<::chrono::Utc>"),
            ),
            (
                "examples/memory-server-macro/memory.mcpdesc.yaml",
                quote!(
                    path = "examples/memory-server-macro/memory.mcpdesc.yaml",
                    tests = false
                ),
                mcpdesc_codegen::Builder::new("examples/memory-server-macro/memory.mcpdesc.yaml")
                    .tests(false),
            ),
        ] {
            let expanded = expand(&parse(tokens), Some(root));
            let file = builder
                .manifest_dir(root)
                .out_dir(&out)
                .compile_to(&mut Vec::new())
                .unwrap();
            let built: TokenStream = std::fs::read_to_string(file).unwrap().parse().unwrap();
            let absolute = root.join(path).display().to_string();
            let expected = quote! {
                const _: &[u8] = ::core::include_bytes!(#absolute);
                #built
            };
            // The builder's file is formatted (trailing commas, typify's `///text` doc
            // lines written `/// text`); the macro hands unformatted tokens to the
            // compiler. Formatted alike, the two are the same token for token.
            assert_eq!(
                flat(docs_trimmed(formatted(expanded))),
                flat(docs_trimmed(formatted(expected))),
                "{path}"
            );
        }
        let _ = std::fs::remove_dir_all(out);
    }

    /// The tokens through prettyplease and back (trailing commas and the like as the
    /// formatter writes them).
    fn formatted(tokens: TokenStream) -> TokenStream {
        let file: syn::File = syn::parse2(tokens).expect("the generated code parses");
        prettyplease::unparse(&file)
            .parse()
            .expect("the formatted code lexes")
    }

    /// Each token's text, groups as their delimiters: the comparison ignores the
    /// spacing of punctuation (`#!` joint or not), which the lexer does not keep alike.
    fn flat(tokens: TokenStream) -> Vec<String> {
        use proc_macro2::{Delimiter, TokenTree};
        let mut out = Vec::new();
        for tree in tokens {
            match tree {
                TokenTree::Group(g) => {
                    let (open, close) = match g.delimiter() {
                        Delimiter::Parenthesis => ("(", ")"),
                        Delimiter::Brace => ("{", "}"),
                        Delimiter::Bracket => ("[", "]"),
                        Delimiter::None => ("", ""),
                    };
                    out.push(open.to_owned());
                    out.extend(flat(g.stream()));
                    out.push(close.to_owned());
                }
                other => out.push(other.to_string()),
            }
        }
        out
    }

    /// `tokens` with the text of every `#[doc = "..."]` trimmed at its start.
    fn docs_trimmed(tokens: TokenStream) -> TokenStream {
        use proc_macro2::{Group, Literal, TokenTree};
        let mut out = Vec::new();
        for tree in tokens {
            out.push(match tree {
                TokenTree::Group(g) => {
                    let inner: Vec<TokenTree> = g.stream().into_iter().collect();
                    let stream = match inner.as_slice() {
                        [TokenTree::Ident(doc), TokenTree::Punct(eq), TokenTree::Literal(text)]
                            if doc == "doc" && eq.as_char() == '=' =>
                        {
                            let value: String = syn::parse_str::<syn::LitStr>(&text.to_string())
                                .map(|l| l.value())
                                .unwrap_or_default();
                            let trimmed = Literal::string(value.trim_start());
                            quote!(#doc #eq #trimmed)
                        }
                        _ => docs_trimmed(g.stream()),
                    };
                    TokenTree::Group(Group::new(g.delimiter(), stream))
                }
                other => other,
            });
        }
        out.into_iter().collect()
    }

    /// A generation warning (here a type patched to the name of another, which the
    /// generator then renames) becomes a deprecated item, beside the code.
    #[test]
    fn generation_warnings_beside_the_code() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
        let expanded = expand(
            &parse(quote!(
                path = "tests/drift/v1.mcpdesc.json",
                patch = { GetNoteOutput = { rename = "AddNoteInput" } },
            )),
            Some(root),
        )
        .to_string();
        assert!(
            expanded.contains("deprecated (note = \"mcpdesc: tests/drift/v1.mcpdesc.json:14:7: [mcpdesc-rs.codegen] the type name AddNoteInput is also derived"),
            "{expanded}"
        );
        assert!(expanded.contains("fn router"), "{expanded}");
    }

    #[test]
    fn bad_inputs_are_errors() {
        for tokens in [
            quote!(tests = false),
            quote!(path = "a", path = "b"),
            quote!(path = "a", colour = "red"),
            quote!(path = "a", protocol_version = "1999-01-01"),
            quote!(path = "a", replace = { Issue = super::Issue }),
            quote!(path = "a", crates = { geo = "latest" }),
            quote!("a" "b"),
        ] {
            assert!(
                syn::parse2::<MacroInput>(tokens.clone()).is_err(),
                "{tokens}"
            );
        }
    }
}
