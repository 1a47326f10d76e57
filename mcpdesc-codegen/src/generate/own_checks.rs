//! Compile-time checks of the user's own types: each Rust type that stands where a
//! generated type would be (a replaced type, a format type, an `x-rust-type`) must
//! implement what the generated code asks of every type it holds. Without them, the
//! build fails with one error that names the type, what it stands for and where in the
//! description, before the errors of the derives that use it.
//!
//! ```text
//! mod own_checks {
//!     #[diagnostic::on_unimplemented(
//!         message = "`{Self}` stands for the component `#/components/schemas/Issue` \
//!                    (issues.mcpdesc.json /tools/0/outputSchema), so it must implement ...",
//!         label = "...", note = "...")]
//!     trait Check0 {}
//!     impl<T: ::serde::Serialize + ::serde::de::DeserializeOwned + Clone + Debug> Check0 for T {}
//!     fn check0() -> impl Sized {
//!         fn holds<T: Check0>() {}
//!         holds::<crate::model::Issue>()
//!     }
//! }
//! ```

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::ir::own::OwnCheck;

/// The checks of the `types` module (nothing when no type of the user's is there).
/// `source` is the description's file name.
pub fn emit(checks: &[OwnCheck], source: &str) -> TokenStream {
    let items: Vec<TokenStream> = checks
        .iter()
        .enumerate()
        .filter_map(|(i, check)| one(i, check, source))
        .collect();
    if items.is_empty() {
        return TokenStream::new();
    }
    quote! {
        /// Compile-time checks of the types the settings put in place of generated ones.
        mod own_checks {
            #(#items)*
        }
    }
}

/// The check of one type.
fn one(i: usize, check: &OwnCheck, source: &str) -> Option<TokenStream> {
    let path: syn::TypePath = syn::parse_str(&check.path).ok()?;
    let places: Vec<String> = check.pointers.iter().map(|p| p.to_string()).collect();
    let at = if places.is_empty() {
        source.to_owned()
    } else {
        format!("{source} {}", places.join(", "))
    };
    let message = format!(
        "`{{Self}}` stands for {} ({at}), so it must implement `serde::Serialize`, `serde::Deserialize`, `Clone` and `Debug`",
        check.stands_for
    );
    let label = format!("the type given for {}", check.stands_for);
    let note = "the generated types that hold it derive `Serialize`, `Deserialize`, `Clone` and `Debug`: derive them on it (`#[derive(serde::Serialize, serde::Deserialize, Clone, Debug)]`) or give a type that has them";
    let name = format_ident!("Check{}", i);
    let check = format_ident!("check{}", i);
    // A function returning `impl Trait`: rustc checks its body with the items (to know
    // the hidden type), before the other bodies where the derives' errors are, so this
    // error comes first.
    Some(quote! {
        #[diagnostic::on_unimplemented(message = #message, label = #label, note = #note)]
        trait #name {}
        impl<T: ::serde::Serialize + ::serde::de::DeserializeOwned + ::core::clone::Clone + ::core::fmt::Debug> #name for T {}
        fn #check() -> impl ::core::marker::Sized {
            fn holds<T: #name>() {}
            holds::<#path>()
        }
    })
}
