//! The names the generated module keeps for itself and the Rust keywords: what no
//! tool, primitive or type may be named as it is (rules 5 and 7).

/// Trait names the generated module keeps for itself, all in the module root's type
/// namespace: the umbrella server trait, the example mock, the typed client, the
/// authenticator trait and the umbrella of handler traits of a description with
/// security requirements (reserved whether or not it has any, so that adding security
/// to a description renames nothing).
///
/// Also the names the generated code uses without a path beside the traits: the generic
/// parameters `T` and `S` of the blanket impls and `router`, the marker traits of the
/// bounds (`Send`, `Sync`, `Sized`, `Unpin`), and the prelude names a trait bound or
/// signature may spell (`Result`, `Option`, `Future`, `Box`, `Vec`, `String`, ...): a
/// trait with one of these names would shadow it (`send` → `Send` breaks
/// `Server: Send + Sync`).
pub const RESERVED_TRAITS: [&str; 27] = [
    "Server",
    "ExampleServer",
    "Client",
    "Authenticator",
    "Handlers",
    "T",
    "S",
    "Send",
    "Sync",
    "Sized",
    "Unpin",
    "Future",
    "Result",
    "Option",
    "Box",
    "Vec",
    "String",
    "Ok",
    "Err",
    "Some",
    "None",
    "Clone",
    "Copy",
    "Default",
    "Debug",
    "Fn",
    "Drop",
];

/// Method names a tool's method must not take: the inherent methods of the generated
/// `Client` (`Client::new(session)`, `session()`, `validate_inputs(bool)`), which share
/// one `impl` block with a method per tool. `new` also keeps a tool from shadowing
/// `ExampleServer::new`.
///
/// Also the generated modules a tool's or primitive's module sits in (`tools::{method}`,
/// `examples::{method}`, `prompts::{snake}`, ...): a module named like its parent trips
/// clippy's `module_inception`.
pub const RESERVED_METHODS: [&str; 14] = [
    "new",
    "session",
    "validate_inputs",
    "tools",
    "examples",
    "prompts",
    "resources",
    "resource_templates",
    "prompt_examples",
    "resource_examples",
    "resource_template_examples",
    "types",
    "info",
    "error",
];

/// Type names a generated type must not take: the prelude names that typify's output
/// uses without a path, which a type of the same name would shadow.
pub const RESERVED_TYPES: [&str; 22] = [
    "Box",
    "Clone",
    "Copy",
    "Default",
    "Drop",
    "Eq",
    "Err",
    "Fn",
    "From",
    "Into",
    "Iterator",
    "None",
    "Ok",
    "Option",
    "Ord",
    "PartialEq",
    "PartialOrd",
    "Result",
    "Send",
    "Some",
    "String",
    "Vec",
];

/// The Rust keywords (strict, reserved and edition 2024's `gen`): names that cannot be
/// identifiers as they are.
const KEYWORDS: [&str; 52] = [
    "_", "abstract", "as", "async", "await", "become", "box", "break", "const", "continue",
    "crate", "do", "dyn", "else", "enum", "extern", "false", "final", "fn", "for", "gen", "if",
    "impl", "in", "let", "loop", "macro", "match", "mod", "move", "mut", "override", "priv", "pub",
    "ref", "return", "Self", "self", "static", "struct", "super", "trait", "true", "try", "type",
    "typeof", "unsafe", "unsized", "use", "virtual", "where", "while",
];

/// Whether `name` is a Rust keyword (rule 5).
pub fn is_keyword(name: &str) -> bool {
    KEYWORDS.contains(&name) || name == "yield"
}
