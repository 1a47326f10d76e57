//! The generated `#[cfg(test)] mod example_tests` (only with [`Settings::emits_tests`]).
//!
//! One `#[test]` per Tool Example, named `{tool}_example_{name}` in snake_case, and one
//! per Tool Interaction Example, named `{tool}_interaction_{name}`; names are sanitized
//! with the generator's [`naming::snake_case`] and made unique with a `_2`, `_3`, ...
//! suffix in declaration order. Each test calls one check of `mcpdesc::testing` and
//! panics with its message (tool, example, JSON pointer):
//!
//! ```text
//! #[cfg(test)]
//! mod example_tests {
//!     use super::*;
//!     #[test]
//!     fn analyze_game_example_basic() {
//!         if let Err(e) = ::mcpdesc::testing::check_example_with_output::<types::AnalyzeGameInput, types::AnalyzeGameOutput>(
//!             &examples::analyze_game::TOOL, &examples::analyze_game::EXAMPLES[0]) { panic!("{e}") }
//!     }
//!     #[test]
//!     fn prepare_release_interaction_approved_release() {
//!         let router = ExampleServer::new().router();
//!         if let Err(e) = ::mcpdesc::testing::check_interaction(&router, &examples::prepare_release::TOOL,
//!             &examples::prepare_release::INTERACTION_EXAMPLES[0]) { panic!("{e}") }
//!     }
//! }
//! ```
//!
//! The tests need only the generated module and the runtime: not the user's handlers.

use std::collections::BTreeSet;

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::ir::ModuleIr;
use super::naming;
use super::server::runtime;
use crate::settings::Settings;

/// `name`, or `name_2`, `name_3`, ... when taken.
fn unique(taken: &mut BTreeSet<String>, name: String) -> String {
    let mut candidate = name.clone();
    let mut n = 2;
    while taken.contains(&candidate) {
        candidate = format!("{name}_{n}");
        n += 1;
    }
    taken.insert(candidate.clone());
    candidate
}

/// The test function names, per tool: (example tests, interaction tests).
pub fn test_names(ir: &ModuleIr) -> Vec<(Vec<String>, Vec<String>)> {
    let mut taken = BTreeSet::new();
    ir.tools
        .iter()
        .map(|t| {
            let mut per = |kind: &str, name: &str| {
                let base = naming::snake_case(&format!("{} {kind} {name}", t.name));
                unique(&mut taken, base)
            };
            let ex = t.examples.iter().map(|e| per("example", &e.name)).collect();
            let ix = t
                .interaction_examples
                .iter()
                .map(|e| per("interaction", &e.name))
                .collect();
            (ex, ix)
        })
        .collect()
}

/// Emits the test module, or nothing when tests are off or there is no example.
pub fn emit(ir: &ModuleIr, settings: &Settings) -> TokenStream {
    if !settings.emits_tests() {
        return TokenStream::new();
    }
    let rt = runtime(settings);
    let names = test_names(ir);
    let mut tests = Vec::new();
    for (tool, (ex_names, ix_names)) in ir.tools.iter().zip(&names) {
        let module = format_ident!("{}", tool.names.method_name);
        let input = format_ident!("{}", tool.input.type_name);
        let check = match &tool.output {
            Some(o) => {
                let output = format_ident!("{}", o.type_name);
                quote!(#rt::testing::check_example_with_output::<types::#input, types::#output>)
            }
            None => quote!(#rt::testing::check_example::<types::#input>),
        };
        for (i, name) in ex_names.iter().enumerate() {
            let f = format_ident!("{}", name);
            let doc = format!(
                "Tool Example `{}` of `{}`.",
                tool.examples[i].name, tool.name
            );
            tests.push(quote! {
                #[doc = #doc]
                #[test]
                fn #f() {
                    if let ::core::result::Result::Err(e) = #check(&examples::#module::TOOL, &examples::#module::EXAMPLES[#i]) {
                        panic!("{e}");
                    }
                }
            });
        }
        for (i, name) in ix_names.iter().enumerate() {
            let f = format_ident!("{}", name);
            let doc = format!(
                "Interaction example `{}` of `{}`, replayed by the mock through a scripted client.",
                tool.interaction_examples[i].name, tool.name
            );
            tests.push(quote! {
                #[doc = #doc]
                #[test]
                fn #f() {
                    let router = ExampleServer::new().router();
                    if let ::core::result::Result::Err(e) = #rt::testing::check_interaction(
                        &router,
                        &examples::#module::TOOL,
                        &examples::#module::INTERACTION_EXAMPLES[#i],
                    ) {
                        panic!("{e}");
                    }
                }
            });
        }
    }
    if tests.is_empty() {
        return TokenStream::new();
    }
    quote! {
        /// Tests generated from the description's examples.
        #[cfg(test)]
        mod example_tests {
            use super::*;
            #(#tests)*
        }
    }
}
