//! The runtime crate as the emitters name it: its path and its protocol-version lists.
//!
//! Every emitter (`server`, `primitive_server`, `client`, `elicitations`, `examples`,
//! `tests`) writes paths into the runtime crate, so these live below all of them rather
//! than in one emitter the others would have to import.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use crate::settings::Settings;
use mcpdesc_description::protocol::{ProtocolVersion, VersionSet};

/// The runtime crate path as tokens (`::mcpdesc` unless a setting overrides it).
pub fn runtime(settings: &Settings) -> TokenStream {
    settings
        .runtime_crate_path()
        .parse()
        .unwrap_or_else(|_| quote!(::mcpdesc))
}

/// `&[::mcpdesc::ProtocolVersion::V2025_06_18, ...]`.
pub fn versions(rt: &TokenStream, set: VersionSet) -> TokenStream {
    let items = set.iter().map(|v| {
        let variant = format_ident!("{}", variant_name(v));
        quote!(#rt::ProtocolVersion::#variant)
    });
    quote!(&[#(#items),*])
}

/// The runtime's `ProtocolVersion` variant of `v` (`2025-06-18` → `V2025_06_18`).
fn variant_name(v: ProtocolVersion) -> String {
    format!("V{}", v.as_str().replace('-', "_"))
}
