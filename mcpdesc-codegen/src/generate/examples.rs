//! The example side of the generated module: example data, the `ExampleServer` mock and
//! the opt-in contract check.
//!
//! ```text
//! /// The Tool Examples and Tool Interaction Examples of the description, by tool.
//! pub mod examples {
//!     pub mod analyze_game {
//!         // data: ALL.tool (name, declaration, scope), ALL.examples and
//!         // ALL.interaction_examples (name, pointer, JSON texts); the accessors are
//!         // generic, in the runtime: ALL.input(name), ALL.result(name),
//!         // ALL.typed_input(name), ALL.typed_output(name) (outputSchema only)
//!         pub const ALL: ::mcpdesc::testing::ToolExamples<types::AnalyzeGameInput, types::AnalyzeGameOutput> = ...;
//!     }
//!     pub fn book() -> ::mcpdesc::mock::ExampleBook;
//! }
//! /// A mock (not a prediction of live behaviour) ...
//! pub struct ExampleServer { .. }
//! impl ExampleServer { new(), select(tool, example), router() }
//! impl AnalyzeGame for ExampleServer { .. }                           // every tool trait
//! pub fn check_against_examples<S: Server>(server: S, examples: &[(&str, &str)]) -> Result<(), String>;
//! ```
//!
//! The example JSON is stored as text (raw string literals) and parsed on use; the data
//! is the resolved example (a `$componentRef` example is stored like an inline one), and
//! its pointer is the use site in the tool.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::ir::{ModuleIr, ToolIr};
use super::literals::raw_str;
use super::primitive_examples;
use super::runtime::runtime;
use crate::settings::Settings;

/// The pointer of an example of `tool` (`/tools/0/examples/basic`).
pub fn example_pointer(tool: &ToolIr, member: &str, name: &str) -> String {
    tool.pointer.key(member).key(name).to_string()
}

/// Emits `examples`, `ExampleServer`, its trait impls and `check_against_examples`.
pub fn emit(ir: &ModuleIr, settings: &Settings) -> TokenStream {
    let rt = runtime(settings);
    let modules = ir.tools.iter().map(|t| emit_tool_examples(&rt, t));
    let book_tools = ir.tools.iter().map(|t| {
        let m = format_ident!("{}", t.module);
        quote!(.tool(#m::ALL.tool.tool, #m::ALL.tool.scope, #m::ALL.examples, #m::ALL.interaction_examples))
    });
    let book_primitives = primitive_examples::book_entries(ir);
    let primitive_modules = primitive_examples::emit_modules(&rt, ir);
    let mock = if settings.generated_side().server() {
        emit_mock(&rt, ir)
    } else {
        TokenStream::new()
    };
    quote! {
        /// The description's Tool Examples and Tool Interaction Examples, by tool, for
        /// reuse in tests: `examples::<tool>::ALL` holds the tool (`ALL.tool`), its Tool
        /// Examples (`ALL.examples`) and Tool Interaction Examples
        /// (`ALL.interaction_examples`) in the description's order, with accessors:
        /// `ALL.input(name)` / `ALL.result(name)` as JSON values,
        /// `ALL.typed_input(name)` / `ALL.typed_output(name)` typed. Examples are
        /// illustrative, not promises of live behaviour.
        pub mod examples {
            // A crate rarely reads every example.
            #![allow(dead_code)]
            #(#modules)*

            /// Every example of the description (tools, prompts, resources, resource
            /// templates, completions), for the mock and the contract check.
            pub fn book() -> #rt::mock::ExampleBook {
                #rt::mock::ExampleBook::new() #(#book_tools)* #book_primitives
            }
        }

        #primitive_modules

        #mock
    }
}

/// `ExampleServer`, its trait impls and `check_against_examples` (server side).
fn emit_mock(rt: &TokenStream, ir: &ModuleIr) -> TokenStream {
    let specs = primitive_examples::specs(rt, ir);
    // One impl per handler trait: a handler group's serves each variant from the
    // book, which answers each session from its version's examples.
    let impls = ir
        .tools
        .iter()
        .filter(|t| t.handler_of.is_none())
        .map(|t| emit_impl(rt, t));
    let primitive_impls = primitive_examples::emit_impls(rt, ir);
    let authenticator_impl = super::security::emit_example_impl(rt, &ir.security);
    // The contract check calls the handlers in process: authentication is beside the
    // point there.
    let (check_bound, check_router) = if ir.security.needs_authenticator() {
        (quote!(Handlers), quote!(router_behind_gateway(server)))
    } else {
        (quote!(Server), quote!(router(server)))
    };
    quote! {
        /// A deterministic **mock** of the described server that replays the
        /// description's example results. It is not a prediction of live behaviour and
        /// never runs a real tool.
        ///
        /// Policy (see `mcpdesc::mock`): an example selected by name with
        /// [`ExampleServer::select`] or [`ExampleServer::select_example`] answers every
        /// request of its target; otherwise the first example in name order whose request
        /// equals the one received (canonical JSON: a tool's `input`, a prompt's
        /// `arguments`, a template example's `uri`, a completion's argument and context;
        /// any example of a resource) answers; otherwise the request gets an error naming
        /// the available examples. An interaction example first makes its steps' requests
        /// through the `Context`.
        ///
        /// `router(ExampleServer::new())` serves it through the typed traits (a result
        /// with `structuredContent` comes back equivalent: the router writes the JSON text
        /// block itself); [`ExampleServer::router`] replays the exact example results.
        #[derive(Debug, Clone)]
        #[allow(dead_code)]
        pub struct ExampleServer {
            book: #rt::__private::Arc<#rt::mock::ExampleBook>,
        }

        #[allow(dead_code)]
        impl ExampleServer {
            /// The mock with every example of the description and no selection.
            pub fn new() -> Self {
                ExampleServer { book: #rt::__private::Arc::new(examples::book()) }
            }

            /// The same mock with `example` answering every call of `tool` (explicit
            /// selection); an error names the available examples.
            pub fn select(self, tool: &str, example: &str) -> ::core::result::Result<Self, ::std::string::String> {
                let book = (*self.book).clone().select(tool, example)?;
                ::core::result::Result::Ok(ExampleServer { book: #rt::__private::Arc::new(book) })
            }

            /// The same mock with `example` answering every request of `target` (a
            /// tool, prompt, resource, resource template or completion target); an
            /// error names the available examples.
            pub fn select_example(self, target: #rt::mock::Target, example: &str) -> ::core::result::Result<Self, ::std::string::String> {
                let book = (*self.book).clone().select_target(target, example)?;
                ::core::result::Result::Ok(ExampleServer { book: #rt::__private::Arc::new(book) })
            }

            /// A router that answers with the exact example results (what
            /// `mcpdesc serve-mock` serves).
            /// It serves without authentication (the description's security is not
            /// enforced), like `mcpdesc serve-mock` without `--token`.
            pub fn router(self) -> #rt::Router {
                const SPECS: #rt::mock::Specs = #specs;
                (*self.book).clone().router(info::server_info(), &SPECS)
                    .security(info::SECURITY)
                    .without_authentication()
            }
        }

        impl ::core::default::Default for ExampleServer {
            fn default() -> Self {
                Self::new()
            }
        }

        #(#impls)*
        #primitive_impls
        #authenticator_impl

        /// Opt-in contract check: runs `server` through its router on the examples
        /// named in `examples` (`(target, example)` pairs; the target is a tool name, or
        /// `prompt:NAME`, `resource:URI`, `template:URI_TEMPLATE`,
        /// `completion:prompt:NAME`, `completion:template:URI_TEMPLATE`) and compares each
        /// result with the example's: for a tool `structuredContent` equal, `isError`
        /// equal, content blocks of the same kinds (interaction examples run with a
        /// scripted client of their steps); for a prompt the messages' roles and content
        /// kinds; for a resource the contents' URIs, MIME types and kinds; for a
        /// completion the values. Returns a readable diff of every mismatch. It blocks;
        /// call it from a plain `#[test]`.
        #[allow(dead_code)]
        pub fn check_against_examples<S: #check_bound>(
            server: S,
            examples: &[(&str, &str)],
        ) -> ::core::result::Result<(), ::std::string::String> {
            #rt::testing::check_against(&#check_router, &examples::book(), examples)
        }
    }
}

/// `pub mod <tool> { ALL }`: the examples as static data, read through the generic
/// accessors of `ALL` (`mcpdesc::testing::ToolExamples`, typed by the tool's input and
/// output types; `NoOutput` without `outputSchema`).
///
/// ```text
/// pub mod analyze_game {
///     pub const ALL: ::mcpdesc::testing::ToolExamples<super::super::types::AnalyzeGameInput, super::super::types::AnalyzeGameOutput> =
///         ::mcpdesc::testing::ToolExamples::new(
///             &super::super::tools::analyze_game::SPEC,
///             &[::mcpdesc::testing::Example { name, pointer, input: r#"..."#, result: r#"..."# }],
///             &[], // interaction examples
///         );
/// }
/// ```
fn emit_tool_examples(rt: &TokenStream, tool: &ToolIr) -> TokenStream {
    let module = format_ident!("{}", tool.module);
    let input_ty = tool.input.rust_type(quote!(super::super::types));
    let doc = format!("Examples of the `{}` tool.", tool.name);
    let examples = tool.examples.iter().map(|e| {
        let name = &e.name;
        let pointer = example_pointer(tool, "examples", name);
        let input = raw_str(&e.input.to_string());
        let result = raw_str(&e.result.to_string());
        quote!(#rt::testing::Example { name: #name, pointer: #pointer, input: #input, result: #result })
    });
    let interactions = tool.interaction_examples.iter().map(|e| {
        let name = &e.name;
        let pointer = example_pointer(tool, "interactionExamples", name);
        let input = raw_str(&e.input.to_string());
        let steps = raw_str(&e.steps.to_string());
        let result = raw_str(&e.result.to_string());
        quote!(#rt::testing::InteractionExample { name: #name, pointer: #pointer, input: #input, steps: #steps, result: #result })
    });
    let output_ty = match &tool.output {
        Some(o) => o.rust_type(quote!(super::super::types)),
        None => quote!(#rt::testing::NoOutput),
    };
    quote! {
        #[doc = #doc]
        pub mod #module {
            /// The tool's examples, with typed accessors (see `mcpdesc::testing::ToolExamples`).
            pub const ALL: #rt::testing::ToolExamples<#input_ty, #output_ty> =
                #rt::testing::ToolExamples::new(&super::super::tools::#module::SPEC, &[#(#examples),*], &[#(#interactions),*]);
        }
    }
}

/// `impl Tool for ExampleServer`: each method one call of the book's generic
/// `respond_input` / `respond_typed`.
fn emit_impl(rt: &TokenStream, tool: &ToolIr) -> TokenStream {
    let trait_name = format_ident!("{}", tool.names.trait_name);
    let method = format_ident!("{}", tool.names.method_name);
    let module = format_ident!("{}", tool.module);
    let input = tool.input.rust_type(quote!(types));
    match &tool.output {
        Some(output) => {
            let output = output.rust_type(quote!(types));
            let with_content = format_ident!("{}", tool.names.content_method);
            quote! {
                #[allow(deprecated)]
                impl #trait_name for ExampleServer {
                    fn #method(&self, input: #input, cx: #rt::Context) -> impl #rt::ToolFuture<#output> {
                        #rt::__private::output(self.#with_content(input, cx))
                    }

                    fn #with_content(&self, input: #input, cx: #rt::Context) -> impl #rt::ToolFuture<#rt::Typed<#output>> {
                        self.book.respond_typed(tools::#module::NAME, input, cx)
                    }
                }
            }
        }
        None => quote! {
            #[allow(deprecated)]
            impl #trait_name for ExampleServer {
                fn #method(&self, input: #input, cx: #rt::Context) -> impl #rt::ToolFuture<#rt::ToolResult> {
                    self.book.respond_input(tools::#module::NAME, input, cx)
                }
            }
        },
    }
}
