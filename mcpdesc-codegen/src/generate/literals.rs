//! Rust literals for the JSON the generated code embeds: raw strings that survive any
//! content, and a primitive's or tool's declaration as the router serves it.
//!
//! Shared by the server-side emitters (declarations) and the example emitters (example
//! data), which is why it sits below both.

use proc_macro2::{Literal, TokenStream};
use quote::ToTokens;

/// `r#"..."#` with enough `#`s for `text`.
pub fn raw_str(text: &str) -> TokenStream {
    // Enough `#`s that no `"###` inside the text ends the literal early.
    let mut hashes = String::from("#");
    while text.contains(&format!("\"{hashes}")) {
        hashes.push('#');
    }
    format!("r{hashes}\"{text}\"{hashes}")
        .parse()
        .unwrap_or_else(|_| Literal::string(text).into_token_stream())
}

/// The declaration as a raw string literal, without the example maps (the router does
/// not serve them; the `examples` items carry them), compact JSON on one line.
pub fn declaration_literal(declaration: &serde_json::Value) -> TokenStream {
    let mut served = declaration.clone();
    if let Some(map) = served.as_object_mut() {
        map.remove("examples");
        map.remove("interactionExamples");
    }
    raw_str(&served.to_string())
}
