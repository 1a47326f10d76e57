//! The Rust names of each tool (trait, method, module, input and output types), of
//! each prompt, resource and template, and of their string fields.

use std::collections::BTreeSet;

use super::allocator::{NameAllocator, NextSuffix};
use heck::ToPascalCase;

use super::case::{camel_words, fixpoint, snake_case, type_name};
use super::reserved::{is_keyword, RESERVED_METHODS, RESERVED_TRAITS};

/// The Rust names of one tool.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolNames {
    /// The trait name (UpperCamelCase, keyword-safe).
    pub trait_name: String,
    /// The method name (snake_case, keyword-safe).
    pub method_name: String,
    /// `{Tool}Input`.
    pub input_type: String,
    /// `{Tool}Output`.
    pub output_type: String,
    /// `{method}_with_content`: the handler method the router calls, and the client
    /// method that returns the content blocks beside the typed output (for a tool with
    /// an `outputSchema`). Claimed for every tool, so that no other tool's method takes
    /// it.
    pub content_method: String,
}

/// Names every tool (rules 1–7): one [`ToolNames`] per declared name, in the same order.
/// `taken` holds names other parts of the module already use; the tools' type names are
/// added to it.
///
/// ```
/// use mcpdesc_codegen::generate::naming::{tool_names, NameAllocator};
/// let mut types = NameAllocator::new();
/// let names = tool_names(&["get-user", "get_user"], &mut types);
/// assert_eq!(names[0].trait_name, "GetUser");
/// assert_eq!(names[1].trait_name, "GetUser2");
/// assert_eq!(names[1].method_name, "get_user_2");
/// assert_eq!(names[1].input_type, "GetUser2Input");
/// ```
pub fn tool_names(declared: &[&str], types: &mut NameAllocator) -> Vec<ToolNames> {
    tool_names_counted(declared, types, &mut NextSuffix::default())
}

/// [`tool_names`], its work counted in `next`.
pub(super) fn tool_names_counted(
    declared: &[&str],
    types: &mut NameAllocator,
    next: &mut NextSuffix,
) -> Vec<ToolNames> {
    let mut traits: BTreeSet<String> = RESERVED_TRAITS.iter().map(|s| s.to_string()).collect();
    let mut methods: BTreeSet<String> = RESERVED_METHODS.iter().map(|s| s.to_string()).collect();
    declared
        .iter()
        .map(|name| {
            let camel = camel_words(name);
            let snake = snake_case(name);
            let candidate = |n: usize| {
                let (camel_n, snake_n) = if n == 1 {
                    (camel.clone(), snake.clone())
                } else {
                    (
                        fixpoint(format!("{camel}{n}"), |s| s.to_pascal_case()),
                        format!("{}_{n}", snake.trim_end_matches('_')),
                    )
                };
                let trait_name = if is_keyword(&camel_n) {
                    format!("{camel_n}_")
                } else {
                    camel_n.clone()
                };
                // From the name without its keyword underscore: `type_` → `type_with_content`
                // (`type__with_content` would break `non_snake_case`).
                let content_method = format!("{}_with_content", snake_n.trim_end_matches('_'));
                ToolNames {
                    trait_name,
                    input_type: type_name(&camel_n, "Input"),
                    output_type: type_name(&camel_n, "Output"),
                    method_name: snake_n,
                    content_method,
                }
            };
            let free = |c: &ToolNames| {
                !traits.contains(&c.trait_name)
                    && !methods.contains(&c.method_name)
                    && !methods.contains(&c.content_method)
                    && types.is_free(&c.input_type)
                    && types.is_free(&c.output_type)
            };
            let n = next.find(&format!("{camel} {snake}"), 1, |n| free(&candidate(n)));
            let names = candidate(n);
            traits.insert(names.trait_name.clone());
            methods.insert(names.method_name.clone());
            methods.insert(names.content_method.clone());
            types.take(&names.input_type);
            types.take(&names.output_type);
            names
        })
        .collect()
}

/// Which kind of non-tool primitive a name is for, and the suffixes of its Rust names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PrimitiveKind {
    /// A prompt: trait `{Name}Prompt`, type `{Name}Arguments`.
    Prompt,
    /// A resource: trait `{Name}Resource`, no type.
    Resource,
    /// A resource template: trait `{Name}Template`, type `{Name}Variables`.
    ResourceTemplate,
}

impl PrimitiveKind {
    fn trait_suffix(self) -> &'static str {
        match self {
            PrimitiveKind::Prompt => "Prompt",
            PrimitiveKind::Resource => "Resource",
            PrimitiveKind::ResourceTemplate => "Template",
        }
    }

    fn type_suffix(self) -> Option<&'static str> {
        match self {
            PrimitiveKind::Prompt => Some("Arguments"),
            PrimitiveKind::Resource => None,
            PrimitiveKind::ResourceTemplate => Some("Variables"),
        }
    }
}

/// The Rust names of one prompt, resource or resource template.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PrimitiveNames {
    /// The trait name: `{Name}Prompt`, `{Name}Resource` or `{Name}Template`.
    pub trait_name: String,
    /// The snake_case base of the module (`prompts::{base}`) and of the methods
    /// (`get_{base}`, `read_{base}`, `complete_{base}`); unique within its kind.
    pub snake: String,
    /// `{Name}Arguments` (prompts) or `{Name}Variables` (templates).
    pub type_name: Option<String>,
}

/// Names the prompts, resources or resource templates of a module with rules 1–7, from
/// their declared `name`s: trait and type names get the kind's suffix
/// ([`PrimitiveKind`]); a name taken by any earlier trait (`traits`: tools, reserved
/// names, earlier primitives, all of which it updates) or type (`types`) gets the
/// smallest numeric suffix from 2 up before the kind suffix, and so does a snake base
/// already used by the same kind.
///
/// ```
/// use std::collections::{BTreeMap, BTreeSet, HashMap};
/// use mcpdesc_codegen::generate::naming::{primitive_names, NameAllocator, PrimitiveKind};
///
/// let mut traits: BTreeSet<String> = ["AnalyzeGame".to_owned()].into();
/// let mut types = NameAllocator::new();
/// let names = primitive_names(&["analyze_game", "analyze-game"], PrimitiveKind::Prompt, &mut traits, &mut types);
/// assert_eq!(names[0].trait_name, "AnalyzeGamePrompt");
/// assert_eq!(names[0].type_name.as_deref(), Some("AnalyzeGameArguments"));
/// assert_eq!((names[1].trait_name.as_str(), names[1].snake.as_str()), ("AnalyzeGame2Prompt", "analyze_game_2"));
/// ```
pub fn primitive_names(
    declared: &[&str],
    kind: PrimitiveKind,
    traits: &mut BTreeSet<String>,
    types: &mut NameAllocator,
) -> Vec<PrimitiveNames> {
    primitive_names_counted(declared, kind, traits, types, &mut NextSuffix::default())
}

/// [`primitive_names`], its work counted in `next`.
pub(super) fn primitive_names_counted(
    declared: &[&str],
    kind: PrimitiveKind,
    traits: &mut BTreeSet<String>,
    types: &mut NameAllocator,
    next: &mut NextSuffix,
) -> Vec<PrimitiveNames> {
    let mut snakes: BTreeSet<String> = RESERVED_METHODS.iter().map(|s| s.to_string()).collect();
    declared
        .iter()
        .map(|name| {
            let camel = camel_words(name);
            let snake = snake_case(name);
            let candidate = |n: usize| {
                let (camel_n, snake_n) = if n == 1 {
                    (camel.clone(), snake.clone())
                } else {
                    (
                        fixpoint(format!("{camel}{n}"), |s| s.to_pascal_case()),
                        format!("{}_{n}", snake.trim_end_matches('_')),
                    )
                };
                PrimitiveNames {
                    trait_name: type_name(&camel_n, kind.trait_suffix()),
                    type_name: kind.type_suffix().map(|suffix| type_name(&camel_n, suffix)),
                    snake: snake_n,
                }
            };
            let free = |c: &PrimitiveNames| {
                !traits.contains(&c.trait_name)
                    && !snakes.contains(&c.snake)
                    && c.type_name.as_ref().is_none_or(|t| types.is_free(t))
            };
            let n = next.find(&format!("{camel} {snake}"), 1, |n| free(&candidate(n)));
            let names = candidate(n);
            traits.insert(names.trait_name.clone());
            snakes.insert(names.snake.clone());
            if let Some(t) = &names.type_name {
                types.take(t);
            }
            names
        })
        .collect()
}

/// Field names for the string members of a generated struct (prompt arguments, template
/// variables): rules 1–5 in snake_case, made unique with `_2`, `_3`, ... in order.
///
/// ```
/// use mcpdesc_codegen::generate::naming::field_names;
/// assert_eq!(field_names(&["city", "type", "City", "a.b"]), ["city", "type_", "city_2", "a_b"]);
/// ```
pub fn field_names(declared: &[&str]) -> Vec<String> {
    let mut taken: BTreeSet<String> = BTreeSet::new();
    let mut next = NextSuffix::default();
    declared
        .iter()
        .map(|name| {
            let base = snake_case(name);
            let named = |n: usize| {
                if n == 1 {
                    base.clone()
                } else {
                    format!("{}_{n}", base.trim_end_matches('_'))
                }
            };
            let n = next.find(&base, 1, |n| !taken.contains(&named(n)));
            let candidate = named(n);
            taken.insert(candidate.clone());
            candidate
        })
        .collect()
}
