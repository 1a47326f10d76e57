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
//!         // `check_example` for a tool without outputSchema; panics with the message
//!         examples::analyze_game::ALL.check_example_with_output(0usize);
//!     }
//!     #[test]
//!     fn prepare_release_interaction_approved_release() {
//!         let router = ExampleServer::new().router();
//!         ::mcpdesc::testing::expect(::mcpdesc::testing::check_interaction(&router,
//!             &examples::prepare_release::ALL.tool, &examples::prepare_release::ALL.interaction_examples[0]));
//!     }
//! }
//! ```
//!
//! The tests need only the generated module and the runtime: not the user's handlers.
//!
//! With a test server ([`Settings::test_server`]), every test also runs its example
//! against the implementation, on a fresh server built by the expression, through the
//! real router (`super::router(EXPR)`, or `super::router_behind_gateway(EXPR)` when the description's
//! security needs an authenticator), and compares the answer with the example's result;
//! `Compare::Shape` when the example has `"x-mcpdesc-compare": "shape"`:
//!
//! ```text
//!     #[test]
//!     fn analyze_game_example_basic() {
//!         examples::analyze_game::ALL.check_example_with_output(0usize);
//!         ::mcpdesc::testing::expect(::mcpdesc::implementation::check_example(
//!             &super::router(crate::ChessServer::new()),
//!             &examples::analyze_game::ALL.tool, &examples::analyze_game::ALL.examples[0],
//!             ::mcpdesc::implementation::Compare::Exact));
//!     }
//! ```
//!
//! Interaction examples call `check_interaction_example` with the router expression as a
//! closure (`|| super::router(EXPR)`: a fresh server in each version of the tool's
//! scope), prompt, resource, template and
//! completion examples `check_prompt_example`, `check_resource_example`,
//! `check_template_example` and `check_completion_example` of `mcpdesc::implementation`.

use std::collections::BTreeSet;

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use serde_json::Value;

use super::ir::{ModuleIr, ToolIr};
use super::naming;
use super::primitives::{
    CommonIr, PromptIr, RequestExampleIr, ResourceIr, TemplateIr, COMPARE_EXTENSION,
};
use super::runtime::runtime;
use crate::settings::Settings;
use mcpdesc_description::diagnostic::{Diagnostic, Severity};
use mcpdesc_description::pointer::Pointer;
use mcpdesc_description::rules;
use mcpdesc_description::view;

/// How the implementation tests reach the user's server: the router expression built
/// from the test server expression, and the runtime path.
struct Implementation {
    rt: TokenStream,
    router: TokenStream,
}

impl Implementation {
    /// The implementation test of one example: `check(&router(EXPR), args..., compare)`
    /// with its `Err` turned into a panic.
    fn check(&self, function: &str, args: TokenStream, compare: TokenStream) -> TokenStream {
        let rt = &self.rt;
        let router = &self.router;
        let function = format_ident!("{}", function);
        quote! {
            #rt::testing::expect(#rt::implementation::#function(&#router, #args, #compare));
        }
    }

    /// The implementation test of one interaction example: a fresh server per
    /// version of the tool's scope, so the check gets the router expression as a
    /// closure.
    fn check_each_version(&self, args: TokenStream, compare: TokenStream) -> TokenStream {
        let rt = &self.rt;
        let router = &self.router;
        quote! {
            #rt::testing::expect(#rt::implementation::check_interaction_example(|| #router, #args, #compare));
        }
    }
}

/// The implementation settings: `None` without a test server (or on the client side,
/// which `check_settings` refuses). The expression was parsed by `check_settings`.
fn implementation(ir: &ModuleIr, settings: &Settings) -> Option<Implementation> {
    let expr: syn::Expr = syn::parse_str(settings.test_server_expr()?).ok()?;
    if !settings.generated_side().server() {
        return None;
    }
    // Authentication is beside the point in process, as in the contract check. The
    // path goes through `super::`: a test's local `router` (the mock's) shadows the
    // function's name.
    let router = if ir.security.needs_authenticator() {
        quote!(super::router_behind_gateway(#expr))
    } else {
        quote!(super::router(#expr))
    };
    Some(Implementation {
        rt: runtime(settings),
        router,
    })
}

/// `Compare::Exact` or `Compare::Shape` from an example's `x-mcpdesc-compare` (at
/// `at`); another value is a warning, and the example is compared exactly.
fn compare_mode(
    rt: &TokenStream,
    value: Option<&Value>,
    at: &Pointer,
    diagnostics: &mut Vec<Diagnostic>,
) -> TokenStream {
    match value.and_then(Value::as_str) {
        Some("shape") => quote!(#rt::implementation::Compare::Shape),
        None if value.is_none() => quote!(#rt::implementation::Compare::Exact),
        Some("exact") => quote!(#rt::implementation::Compare::Exact),
        _ => {
            diagnostics.push(Diagnostic::new(
                Severity::Warning,
                rules::CODEGEN,
                "unknown-compare-mode",
                &at.key(COMPARE_EXTENSION),
                format!(
                    "`{COMPARE_EXTENSION}` is {}; the implementation test compares this example exactly (use \"exact\" or \"shape\")",
                    value.map_or_else(String::new, Value::to_string)
                ),
            ));
            quote!(#rt::implementation::Compare::Exact)
        }
    }
}

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
                let tool = view::variant_name(&t.name, t.variant);
                let base = naming::snake_case(&format!("{tool} {kind} {name}"));
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
/// `diagnostics` receives a warning per unknown `x-mcpdesc-compare` value (with a test
/// server only).
pub fn emit(ir: &ModuleIr, settings: &Settings, diagnostics: &mut Vec<Diagnostic>) -> TokenStream {
    if !settings.emits_tests() {
        return TokenStream::new();
    }
    let rt = runtime(settings);
    let imp = implementation(ir, settings);
    let mut taken = BTreeSet::new();
    let names = test_names(ir, &mut taken);
    let mut tests = Vec::new();
    for (tool, (ex_names, ix_names)) in ir.tools.iter().zip(&names) {
        tests.extend(example_tests(
            &rt,
            tool,
            ex_names,
            imp.as_ref(),
            diagnostics,
        ));
        // The interaction and primitive tests replay the `ExampleServer` mock, a server.
        if !settings.generated_side().server() {
            continue;
        }
        tests.extend(interaction_tests(
            &rt,
            tool,
            ix_names,
            imp.as_ref(),
            diagnostics,
        ));
    }
    if settings.generated_side().server() {
        tests.extend(primitive_tests(
            &rt,
            ir,
            &mut taken,
            imp.as_ref(),
            diagnostics,
        ));
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

/// The `x-mcpdesc-compare` of the example `name` in the `member` map of a tool's
/// declaration.
fn compare_of(tool: &ToolIr, member: &str, name: &str) -> Option<Value> {
    tool.declaration
        .get(member)
        .and_then(|m| m.get(name))
        .and_then(|e| e.get(COMPARE_EXTENSION))
        .cloned()
}

/// One test per Tool Example of `tool`, named `names` (in example order).
fn example_tests(
    rt: &TokenStream,
    tool: &ToolIr,
    names: &[String],
    imp: Option<&Implementation>,
    diagnostics: &mut Vec<Diagnostic>,
) -> Vec<TokenStream> {
    let module = format_ident!("{}", tool.module);
    let check = match &tool.output {
        Some(_) => quote!(check_example_with_output),
        None => quote!(check_example),
    };
    let mut tests = Vec::new();
    for (i, name) in names.iter().enumerate() {
        let f = format_ident!("{}", name);
        let example = &tool.examples[i].name;
        let mut doc = format!("Tool Example `{example}` of `{}`.", tool.name);
        let against = imp.map(|imp| {
            doc.push_str(" Also run against the implementation.");
            let compare = compare_mode(
                rt,
                compare_of(tool, "examples", example).as_ref(),
                &tool.pointer.key("examples").key(example),
                diagnostics,
            );
            imp.check(
                "check_example",
                quote!(&examples::#module::ALL.tool, &examples::#module::ALL.examples[#i]),
                compare,
            )
        });
        tests.push(quote! {
            #[doc = #doc]
            #[test]
            fn #f() {
                examples::#module::ALL.#check(#i);
                #against
            }
        });
    }
    tests
}

/// One test per Interaction Example of `tool`, named `names`: the mock replays it
/// through a scripted client.
fn interaction_tests(
    rt: &TokenStream,
    tool: &ToolIr,
    names: &[String],
    imp: Option<&Implementation>,
    diagnostics: &mut Vec<Diagnostic>,
) -> Vec<TokenStream> {
    let module = format_ident!("{}", tool.module);
    let mut tests = Vec::new();
    for (i, name) in names.iter().enumerate() {
        let f = format_ident!("{}", name);
        let example = &tool.interaction_examples[i].name;
        let mut doc = format!(
            "Interaction example `{example}` of `{}`, replayed by the mock through a scripted client.",
            tool.name
        );
        let against = imp.map(|imp| {
            doc.push_str(
                " Also replayed against the implementation, on a fresh server in each version of the tool's scope.",
            );
            let compare = compare_mode(
                rt,
                compare_of(tool, "interactionExamples", example).as_ref(),
                &tool.pointer.key("interactionExamples").key(example),
                diagnostics,
            );
            imp.check_each_version(
                quote!(&examples::#module::ALL.tool, &examples::#module::ALL.interaction_examples[#i]),
                compare,
            )
        });
        tests.push(quote! {
            #[doc = #doc]
            #[test]
            fn #f() {
                let router = ExampleServer::new().router();
                #rt::testing::expect(#rt::testing::check_interaction(
                    &router,
                    &examples::#module::ALL.tool,
                    &examples::#module::ALL.interaction_examples[#i],
                ));
                #against
            }
        });
    }
    tests
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
    imp: Option<&Implementation>,
    diagnostics: &mut Vec<Diagnostic>,
) -> Vec<TokenStream> {
    let mut writer = PrimitiveTests {
        rt,
        taken,
        imp,
        diagnostics,
        tests: Vec::new(),
    };
    for p in &ir.primitives.prompts {
        writer.prompt(p);
    }
    for r in &ir.primitives.resources {
        writer.resource(r);
    }
    for t in &ir.primitives.resource_templates {
        writer.template(t);
    }
    writer.tests
}

/// How one primitive example test selects its example and checks it.
struct ExampleCheck {
    /// The `mock::Target` the `ExampleServer` selects the example for.
    target: TokenStream,
    /// The check against the mock.
    check: TokenStream,
    /// The implementation check's function and its arguments before the comparison
    /// mode.
    against: (&'static str, TokenStream),
}

/// The example tests of prompts, resources and templates as they are written: test
/// names are claimed from `taken` in the order the tests are pushed.
struct PrimitiveTests<'a> {
    rt: &'a TokenStream,
    taken: &'a mut BTreeSet<String>,
    imp: Option<&'a Implementation>,
    diagnostics: &'a mut Vec<Diagnostic>,
    tests: Vec<TokenStream>,
}

impl PrimitiveTests<'_> {
    /// One test of the example `e` (`what`: `example` or `completion`) of the `kind`
    /// primitive `c`.
    fn push(
        &mut self,
        kind: &str,
        what: &str,
        c: &CommonIr,
        e: &RequestExampleIr,
        how: ExampleCheck,
    ) {
        let rt = self.rt;
        let ExampleCheck {
            target,
            check,
            against,
        } = how;
        let f = format_ident!(
            "{}",
            unique(
                self.taken,
                naming::snake_case(&format!(
                    "{kind} {} {what} {}",
                    view::variant_name(&c.name, c.variant),
                    e.name
                ))
            )
        );
        let name = &c.name;
        let mut doc = format!(
            "{} `{}` of the {kind} `{name}`.",
            if what == "example" {
                "Example"
            } else {
                "Completion example"
            },
            e.name
        );
        let diagnostics = &mut *self.diagnostics;
        let against = self.imp.map(|imp| {
            doc.push_str(" Also run against the implementation.");
            let compare = compare_mode(rt, e.compare.as_ref(), &e.pointer, diagnostics);
            imp.check(against.0, against.1, compare)
        });
        let example_name = &e.name;
        self.tests.push(quote! {
            #[doc = #doc]
            #[test]
            fn #f() {
                let server = ExampleServer::new()
                    .select_example(#target, #example_name)
                    .unwrap_or_else(|e| panic!("{e}"));
                #rt::testing::expect(#check);
                #against
            }
        });
    }

    /// The tests of a prompt's examples and completion examples.
    fn prompt(&mut self, p: &PromptIr) {
        let rt = self.rt;
        let c = &p.common;
        let m = format_ident!("{}", c.names.snake);
        let ty = format_ident!("{}", c.names.type_name.as_deref().unwrap_or("Arguments"));
        for (i, e) in p.examples.iter().enumerate() {
            self.push(
                "prompt",
                "example",
                c,
                e,
                ExampleCheck {
                    target: quote!(#rt::mock::Target::Prompt(::std::string::String::from(prompts::#m::NAME))),
                    check: quote!(#rt::testing::check_prompt_example::<types::#ty>(&router(server), prompts::#m::NAME, prompts::#m::SPEC.scope, &prompt_examples::#m::ALL.examples[#i])),
                    against: ("check_prompt_example", quote!(prompts::#m::NAME, prompts::#m::SPEC.scope, &prompt_examples::#m::ALL.examples[#i])),
                },
            );
        }
        for (i, e) in p.completion_examples.iter().enumerate() {
            self.push(
                "prompt",
                "completion",
                c,
                e,
                ExampleCheck {
                    target: quote!(#rt::mock::Target::Completion(#rt::CompletionTarget::prompt(prompts::#m::NAME))),
                    check: quote!(#rt::testing::check_completion_example(&router(server), &#rt::CompletionTarget::prompt(prompts::#m::NAME), prompts::#m::SPEC.scope, &prompt_examples::#m::ALL.completion_examples[#i])),
                    against: ("check_completion_example", quote!(&#rt::CompletionTarget::prompt(prompts::#m::NAME), prompts::#m::SPEC.scope, &prompt_examples::#m::ALL.completion_examples[#i])),
                },
            );
        }
    }

    /// The tests of a resource's examples.
    fn resource(&mut self, r: &ResourceIr) {
        let rt = self.rt;
        let c = &r.common;
        let m = format_ident!("{}", c.names.snake);
        for (i, e) in r.examples.iter().enumerate() {
            self.push(
                "resource",
                "example",
                c,
                e,
                ExampleCheck {
                    target: quote!(#rt::mock::Target::Resource(::std::string::String::from(resources::#m::URI))),
                    check: quote!(#rt::testing::check_resource_example(&router(server), resources::#m::URI, resources::#m::SPEC.scope, &resource_examples::#m::ALL.examples[#i])),
                    against: ("check_resource_example", quote!(resources::#m::URI, resources::#m::SPEC.scope, &resource_examples::#m::ALL.examples[#i])),
                },
            );
        }
    }

    /// The tests of a resource template's examples and completion examples.
    fn template(&mut self, t: &TemplateIr) {
        let rt = self.rt;
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
            self.push(
                "template",
                "example",
                c,
                e,
                ExampleCheck {
                    target: quote!(#rt::mock::Target::ResourceTemplate(::std::string::String::from(resource_templates::#m::URI_TEMPLATE))),
                    check: quote!(#rt::testing::check_template_example::<#ty>(&router(server), resource_templates::#m::URI_TEMPLATE, resource_templates::#m::SPEC.scope, &resource_template_examples::#m::ALL.examples[#i])),
                    against: ("check_template_example", quote!(resource_templates::#m::URI_TEMPLATE, resource_templates::#m::SPEC.scope, &resource_template_examples::#m::ALL.examples[#i])),
                },
            );
        }
        for (i, e) in t.completion_examples.iter().enumerate() {
            self.push(
                "template",
                "completion",
                c,
                e,
                ExampleCheck {
                    target: quote!(#rt::mock::Target::Completion(#rt::CompletionTarget::resource_template(resource_templates::#m::URI_TEMPLATE))),
                    check: quote!(#rt::testing::check_completion_example(&router(server), &#rt::CompletionTarget::resource_template(resource_templates::#m::URI_TEMPLATE), resource_templates::#m::SPEC.scope, &resource_template_examples::#m::ALL.completion_examples[#i])),
                    against: ("check_completion_example", quote!(&#rt::CompletionTarget::resource_template(resource_templates::#m::URI_TEMPLATE), resource_templates::#m::SPEC.scope, &resource_template_examples::#m::ALL.completion_examples[#i])),
                },
            );
        }
    }
}
