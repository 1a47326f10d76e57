//! The `types` module: every tool's input and output type, from one `typify::TypeSpace`.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::ir::{ModuleIr, Role, TypeSource};
use super::prepare;
use super::typespace::{self, Unit};
use crate::settings::Settings;
use mcpdesc_description::diagnostic::Diagnostic;

/// The lints the `types` module allows, each with the reason, in the order emitted.
///
/// The generated code must compile under `#![deny(warnings)]` (and `clippy -D warnings`)
/// in the user's crate. The test suite compiles and lints every snapshot, so an entry is
/// added here only for a lint that generated code actually triggers.
pub const ALLOWED_LINTS: [(&str, &str); 9] = [
    (
        "dead_code",
        "a crate rarely uses every generated type, field or helper",
    ),
    (
        "missing_docs",
        "fields and variants are documented only where the schema has a description",
    ),
    (
        "clippy::derivable_impls",
        "typify writes some `Default` impls by hand",
    ),
    (
        "clippy::wrong_self_convention",
        "a builder's setter is named after its field, `is_dst` as any other",
    ),
    (
        "clippy::unit_arg",
        "a builder holds a `null` field's `()` like any other value",
    ),
    (
        "clippy::large_enum_variant",
        "enum variants are as large as the schemas make them",
    ),
    (
        "clippy::pedantic",
        "for crates that enable pedantic lints: the style is typify's",
    ),
    (
        "unreachable_pub",
        "the types are public so that handlers and tests can name them",
    ),
    (
        "unused_qualifications",
        "generated code names everything by absolute path on purpose",
    ),
];

/// Emits the `types` module, after running typify over every prepared schema of `ir`
/// (which is updated with the outcome: fallbacks and renamed definitions).
///
/// ```text
/// /// Input and output types of the tools, generated from their JSON Schemas.
/// pub mod types {
///     // <why>
///     #![allow(dead_code)]
///     ...
///     /// Arguments of the `analyze_game` tool (Analyze Chess Game).
///     #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Debug)]
///     pub struct AnalyzeGameInput {
///         /// Analysis depth in half-moves
///         #[serde(default, skip_serializing_if = "::std::option::Option::is_none")]
///         pub depth: ::std::option::Option<i64>,
///         /// Game in Portable Game Notation (PGN) format
///         pub pgn: ::std::string::String,
///     }
///     // ...one type per tool schema, and the types typify derives from them...
///
///     /// Arguments of the `b` tool: the shared component type [`Query`].
///     pub type BInput = Query;
///
///     /// Error types.
///     pub mod error { /* ConversionError, used by typify's TryFrom impls */ }
/// }
/// ```
pub fn emit(
    ir: &mut ModuleIr,
    settings: &Settings,
    diagnostics: &mut Vec<Diagnostic>,
) -> TokenStream {
    let units: Vec<Unit> = ir
        .prepared_mut()
        .map(|(pointer, prepared)| {
            let mut prepared = prepared.clone();
            prepare::strip_marks(&mut prepared);
            Unit { pointer, prepared }
        })
        .collect();
    let placeholders = ir.type_names.placeholders().clone();
    let built = typespace::build(
        settings,
        &ir.own.definitions.clone(),
        units,
        placeholders,
        &mut ir.type_names,
        diagnostics,
    );
    for ((_, prepared), unit) in ir.prepared_mut().zip(built.units) {
        *prepared = unit.prepared;
    }
    ir.refresh_type_names(settings);

    let typify_items: TokenStream = built.code.parse().unwrap_or_default();
    // Parsing the types into syn is the costly part of the pass; without the attribute
    // there is nothing to remove.
    let typify_items = if built.code.contains("deserialize_with") {
        plain_options(typify_items)
    } else {
        typify_items
    };
    let typify_items = constructible_inputs(ir, typify_items);
    let allows = ALLOWED_LINTS.iter().map(|(lint, _)| {
        let path: syn::Path = syn::parse_str(lint).expect("lint names are paths");
        quote! { #![allow(#path)] }
    });
    let aliases = aliases(ir);
    let primitive_types = super::primitive_server::emit_types(ir, settings);
    let own_checks = super::own_checks::emit(&ir.own.checks, &ir.source);
    quote! {
        #[doc = " Input and output types of the tools, generated from their JSON Schemas, and the arguments of the prompts and variables of the resource templates."]
        pub mod types {
            #(#allows)*
            #own_checks
            #typify_items
            #aliases
            #primitive_types
        }
    }
}

/// Removes typify's `#[serde(deserialize_with = "::std::option::Option::deserialize")]`
/// from struct fields, leaving plain `Option<T>` fields.
///
/// typify writes it on a *required* property of a nullable type, to make the member
/// mandatory. Optional nullable properties are listed as required in typify's copy of the
/// schema ([`super::prepare`]), so that `None` is written as `null` (no
/// `skip_serializing_if`); without the attribute, serde reads an absent `Option` member as
/// `None`, so the field reads absent and `null` alike:
///
/// ```text
/// #[serde(deserialize_with = "::std::option::Option::deserialize")]   // removed
/// pub x: ::std::option::Option<::std::string::String>,
/// ```
///
/// A property that is required in the original schema is then also read as `None` when
/// absent: whether required members are present is checked against the original schema
/// (router, typed client), like every other assertion the types do not express.
fn plain_options(items: TokenStream) -> TokenStream {
    let Ok(mut file) = syn::parse2::<syn::File>(items.clone()) else {
        return items;
    };
    let own_default = hand_written_defaults(&file);
    for item in &mut file.items {
        let syn::Item::Struct(item) = item else {
            continue;
        };
        let mut changed = false;
        for field in &mut item.fields {
            let before = field.attrs.len();
            field.attrs.retain(|attr| !is_option_deserialize_with(attr));
            changed |= field.attrs.len() != before;
        }
        // typify derives `Default` for a struct of optional fields only; one whose
        // fields are all plain `Option`s again gets it back.
        let all_options = item.fields.iter().all(|f| {
            is_option(&f.ty)
                && !f
                    .attrs
                    .iter()
                    .any(|a| a.path().is_ident("serde") && attr_text(a).contains("default"))
        });
        if changed && all_options && !own_default.contains(&item.ident.to_string()) {
            add_default_derive(&mut item.attrs);
        }
    }
    quote! { #file }
}

/// The input types of tools whose `inputSchema` has no properties, made to implement
/// `Default` and to construct with `Input::new()`.
///
/// typify writes `{"type": "object"}` (any members) as a `#[serde(transparent)]`
/// newtype of a `serde_json::Map` without `Default`, and a closed object without
/// properties as an empty struct: a caller of such a tool had to write
/// `Input(serde_json::Map::new())`. Parsed only when some tool's own input schema has
/// no properties (parsing is the costly part of the pass).
fn constructible_inputs(ir: &ModuleIr, items: TokenStream) -> TokenStream {
    let names: Vec<&str> = ir
        .tools
        .iter()
        .filter(|t| matches!(t.input.source, TypeSource::Own(_)))
        .filter(|t| {
            t.input
                .original
                .get("properties")
                .and_then(serde_json::Value::as_object)
                .is_none_or(serde_json::Map::is_empty)
        })
        .map(|t| t.input.type_name.as_str())
        .collect();
    if names.is_empty() {
        return items;
    }
    let Ok(mut file) = syn::parse2::<syn::File>(items.clone()) else {
        return items;
    };
    let own_default = hand_written_defaults(&file);
    let mut news = Vec::new();
    for item in &mut file.items {
        let syn::Item::Struct(item) = item else {
            continue;
        };
        if !names.contains(&item.ident.to_string().as_str()) {
            continue;
        }
        // An empty struct, or a newtype of a map: both have an empty value.
        let empty = match &item.fields {
            syn::Fields::Named(f) => f.named.is_empty(),
            syn::Fields::Unnamed(f) => {
                f.unnamed.len() == 1 && quote!(#f).to_string().contains(":: serde_json :: Map <")
            }
            syn::Fields::Unit => true,
        };
        if !empty {
            continue;
        }
        if !own_default.contains(&item.ident.to_string()) {
            add_default_derive(&mut item.attrs);
        }
        let ident = &item.ident;
        news.push(quote! {
            impl #ident {
                /// The input without arguments (the schema has no properties).
                pub fn new() -> Self {
                    ::core::default::Default::default()
                }
            }
        });
    }
    quote! { #file #(#news)* }
}

/// Types with a hand-written `Default` (typify writes one for an object-level default).
fn hand_written_defaults(file: &syn::File) -> Vec<String> {
    file.items
        .iter()
        .filter_map(|item| match item {
            syn::Item::Impl(imp) => {
                let is_default = imp.trait_.as_ref().is_some_and(|(_, path, _)| {
                    path.segments.last().is_some_and(|s| s.ident == "Default")
                });
                match &*imp.self_ty {
                    syn::Type::Path(p) if is_default => {
                        p.path.segments.last().map(|s| s.ident.to_string())
                    }
                    _ => None,
                }
            }
            _ => None,
        })
        .collect()
}

/// Whether `ty` is an `Option<..>` path.
fn is_option(ty: &syn::Type) -> bool {
    matches!(ty, syn::Type::Path(p) if p.path.segments.last().is_some_and(|s| s.ident == "Option"))
}

/// The tokens of an attribute, as text.
fn attr_text(attr: &syn::Attribute) -> String {
    quote!(#attr).to_string()
}

/// Adds `Default` to the `#[derive(..)]` of `attrs` when it is not there.
fn add_default_derive(attrs: &mut [syn::Attribute]) {
    use syn::punctuated::Punctuated;
    for attr in attrs.iter_mut().filter(|a| a.path().is_ident("derive")) {
        let Ok(mut paths) =
            attr.parse_args_with(Punctuated::<syn::Path, syn::Token![,]>::parse_terminated)
        else {
            continue;
        };
        if paths
            .iter()
            .any(|p| p.segments.last().is_some_and(|s| s.ident == "Default"))
        {
            return;
        }
        paths.push(syn::parse_quote!(Default));
        *attr = syn::parse_quote!(#[derive(#paths)]);
        return;
    }
}

/// Whether `attr` is exactly `#[serde(deserialize_with = "...Option::deserialize")]`.
fn is_option_deserialize_with(attr: &syn::Attribute) -> bool {
    if !attr.path().is_ident("serde") {
        return false;
    }
    let Ok(syn::Meta::NameValue(nv)) = attr.parse_args::<syn::Meta>() else {
        return false;
    };
    let syn::Expr::Lit(syn::ExprLit {
        lit: syn::Lit::Str(with),
        ..
    }) = &nv.value
    else {
        return false;
    };
    nv.path.is_ident("deserialize_with")
        && matches!(
            with.value().as_str(),
            "::std::option::Option::deserialize" | "Option::deserialize"
        )
}

/// One type alias per tool schema whose type is a shared one (a component several
/// tools use, or identical schemas), unless the shared type has the alias's name.
///
/// ```text
/// /// Arguments of the `search` tool: the shared component type [`Query`].
/// pub type SearchInput = Query;
/// ```
fn aliases(ir: &ModuleIr) -> TokenStream {
    let mut out = TokenStream::new();
    for tool in &ir.tools {
        for (schema, role) in std::iter::once((&tool.input, Role::Input))
            .chain(tool.output.as_ref().map(|o| (o, Role::Output)))
        {
            let TypeSource::Shared(k) = schema.source else {
                continue;
            };
            let shared = &ir.shared[k];
            if schema.type_name == shared.type_name || schema.replaced.is_some() {
                continue;
            }
            let what = match role {
                Role::Input => "Arguments of",
                Role::Output => "Structured output of",
            };
            let kind = match shared.component {
                Some(_) => "shared component type",
                None => "shared type",
            };
            let doc = format!(
                " {what} the `{}` tool: the {kind} [`{}`].",
                tool.name, shared.type_name
            );
            let alias = format_ident!("{}", schema.type_name);
            let target = format_ident!("{}", shared.type_name);
            out.extend(quote! {
                #[doc = #doc]
                pub type #alias = #target;
            });
        }
    }
    out
}

/// Puts the reason of each allowed lint, as a comment, above its attribute in the
/// formatted code (token streams cannot carry comments).
pub fn comment_allows(code: &str) -> String {
    let mut out = code.to_owned();
    for (lint, why) in ALLOWED_LINTS {
        let attr = format!("#![allow({lint})]");
        if let Some(at) = out.find(&format!("\n    {attr}\n")) {
            let at = at + 1;
            out.insert_str(at, &format!("    // {why}\n"));
        }
    }
    out
}
