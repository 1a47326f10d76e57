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
use super::primitives::RequestExampleIr;
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

/// The test function names, per tool: (example tests, interaction tests). `taken`
/// collects them, for the names of the other primitives' tests.
pub fn test_names(ir: &ModuleIr, taken: &mut BTreeSet<String>) -> Vec<(Vec<String>, Vec<String>)> {
    ir.tools
        .iter()
        .map(|t| {
            let mut per = |kind: &str, name: &str| {
                let base = naming::snake_case(&format!("{} {kind} {name}", t.name));
                unique(taken, base)
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
    let mut taken = BTreeSet::new();
    let names = test_names(ir, &mut taken);
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
    tests.extend(primitive_tests(&rt, ir, &mut taken));
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

/// One test per Prompt, Resource and Resource Template Example and per completion
/// example, named `prompt_{name}_example_{example}`, `resource_{name}_example_{...}`,
/// `template_{name}_example_{...}` and `{prompt|template}_{name}_completion_{...}`. Each
/// runs the example through `router(ExampleServer)` (the generated traits and types)
/// with the example selected, and checks the typed round trip of its request and that
/// the answer is exactly the example's result in every version of the scope.
fn primitive_tests(
    rt: &TokenStream,
    ir: &ModuleIr,
    taken: &mut BTreeSet<String>,
) -> Vec<TokenStream> {
    let mut tests = Vec::new();
    let mut push = |kind: &str,
                    what: &str,
                    name: &str,
                    e: &RequestExampleIr,
                    target: TokenStream,
                    check: TokenStream| {
        let f = format_ident!(
            "{}",
            unique(
                taken,
                naming::snake_case(&format!("{kind} {name} {what} {}", e.name))
            )
        );
        let doc = format!(
            "{} `{}` of the {kind} `{name}`.",
            if what == "example" {
                "Example"
            } else {
                "Completion example"
            },
            e.name
        );
        let example_name = &e.name;
        tests.push(quote! {
            #[doc = #doc]
            #[test]
            fn #f() {
                let server = ExampleServer::new()
                    .select_example(#target, #example_name)
                    .unwrap_or_else(|e| panic!("{e}"));
                if let ::core::result::Result::Err(e) = #check {
                    panic!("{e}");
                }
            }
        });
    };
    for p in &ir.primitives.prompts {
        let c = &p.common;
        let m = format_ident!("{}", c.names.snake);
        let ty = format_ident!("{}", c.names.type_name.as_deref().unwrap_or("Arguments"));
        for (i, e) in p.examples.iter().enumerate() {
            push(
                "prompt",
                "example",
                &c.name,
                e,
                quote!(#rt::mock::Target::Prompt(::std::string::String::from(prompts::#m::NAME))),
                quote!(#rt::testing::check_prompt_example::<types::#ty>(&router(server), prompts::#m::NAME, prompts::#m::SCOPE, &prompt_examples::#m::EXAMPLES[#i])),
            );
        }
        for (i, e) in p.completion_examples.iter().enumerate() {
            push(
                "prompt",
                "completion",
                &c.name,
                e,
                quote!(#rt::mock::Target::Completion(#rt::CompletionTarget::prompt(prompts::#m::NAME))),
                quote!(#rt::testing::check_completion_example(&router(server), &#rt::CompletionTarget::prompt(prompts::#m::NAME), prompts::#m::SCOPE, &prompt_examples::#m::COMPLETION_EXAMPLES[#i])),
            );
        }
    }
    for r in &ir.primitives.resources {
        let c = &r.common;
        let m = format_ident!("{}", c.names.snake);
        for (i, e) in r.examples.iter().enumerate() {
            push(
                "resource",
                "example",
                &c.name,
                e,
                quote!(#rt::mock::Target::Resource(::std::string::String::from(resources::#m::URI))),
                quote!(#rt::testing::check_resource_example(&router(server), resources::#m::URI, resources::#m::SCOPE, &resource_examples::#m::EXAMPLES[#i])),
            );
        }
    }
    for t in &ir.primitives.resource_templates {
        let c = &t.common;
        let m = format_ident!("{}", c.names.snake);
        let ty = match (&t.variables, &c.names.type_name) {
            (Some(_), Some(ty)) => {
                let ty = format_ident!("{}", ty);
                quote!(types::#ty)
            }
            _ => quote!(::std::string::String),
        };
        for (i, e) in t.examples.iter().enumerate() {
            push(
                "template",
                "example",
                &c.name,
                e,
                quote!(#rt::mock::Target::ResourceTemplate(::std::string::String::from(resource_templates::#m::URI_TEMPLATE))),
                quote!(#rt::testing::check_template_example::<#ty>(&router(server), resource_templates::#m::URI_TEMPLATE, resource_templates::#m::SCOPE, &resource_template_examples::#m::EXAMPLES[#i])),
            );
        }
        for (i, e) in t.completion_examples.iter().enumerate() {
            push(
                "template",
                "completion",
                &c.name,
                e,
                quote!(#rt::mock::Target::Completion(#rt::CompletionTarget::resource_template(resource_templates::#m::URI_TEMPLATE))),
                quote!(#rt::testing::check_completion_example(&router(server), &#rt::CompletionTarget::resource_template(resource_templates::#m::URI_TEMPLATE), resource_templates::#m::SCOPE, &resource_template_examples::#m::COMPLETION_EXAMPLES[#i])),
            );
        }
    }
    tests
}
