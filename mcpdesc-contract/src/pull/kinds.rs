//! The four listed primitive kinds and where each member of their MCP objects goes in a
//! description (spec 0.9.0-rc.3 §9.1, digest §1.4, §1.7; 0.8.0 §10, §11).

/// The schema a Tool gets when the server's `inputSchema` is missing or not a valid
/// schema: an object with unspecified members. It states that the arguments are
/// unknown, never that there are none (spec §9.2).
pub const OPEN_INPUT_SCHEMA: &str = r#"{"type":"object"}"#;

/// A primitive kind the server lists.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    /// `tools/list` → root `tools`.
    Tool,
    /// `prompts/list` → root `prompts`.
    Prompt,
    /// `resources/list` → root `resources`.
    Resource,
    /// `resources/templates/list` → root `resourceTemplates`.
    ResourceTemplate,
}

impl Kind {
    /// Every kind, in the order of the root members.
    pub const ALL: [Kind; 4] = [
        Kind::Tool,
        Kind::Prompt,
        Kind::Resource,
        Kind::ResourceTemplate,
    ];

    /// The root member of the description holding this kind, which is also the member
    /// of the listing result holding the items.
    pub fn collection(self) -> &'static str {
        match self {
            Kind::Tool => "tools",
            Kind::Prompt => "prompts",
            Kind::Resource => "resources",
            Kind::ResourceTemplate => "resourceTemplates",
        }
    }

    /// The listing method.
    pub fn method(self) -> &'static str {
        match self {
            Kind::Tool => "tools/list",
            Kind::Prompt => "prompts/list",
            Kind::Resource => "resources/list",
            Kind::ResourceTemplate => "resources/templates/list",
        }
    }

    /// The member that identifies a declaration (duplicates are dropped).
    pub fn identity(self) -> &'static str {
        match self {
            Kind::Tool | Kind::Prompt => "name",
            Kind::Resource => "uri",
            Kind::ResourceTemplate => "uriTemplate",
        }
    }

    /// How warnings name the kind.
    pub fn label(self) -> &'static str {
        match self {
            Kind::Tool => "tool",
            Kind::Prompt => "prompt",
            Kind::Resource => "resource",
            Kind::ResourceTemplate => "resource template",
        }
    }

    /// The members of the MCP object that the description's declaration has a place
    /// for, under the same name. Everything else the server sends (except `x-*`) has
    /// no place and is dropped with a warning. The description-only members
    /// (`examples`, `tags`, `security`, ...) are never filled from a listing.
    pub fn members(self) -> &'static [&'static str] {
        match self {
            Kind::Tool => &[
                "name",
                "title",
                "description",
                "inputSchema",
                "outputSchema",
                "annotations",
                "execution",
                "icons",
                "_meta",
            ],
            Kind::Prompt => &[
                "name",
                "title",
                "description",
                "arguments",
                "icons",
                "_meta",
            ],
            Kind::Resource => &[
                "uri",
                "name",
                "title",
                "description",
                "mimeType",
                "size",
                "annotations",
                "icons",
                "_meta",
            ],
            Kind::ResourceTemplate => &[
                "uriTemplate",
                "name",
                "title",
                "description",
                "mimeType",
                "annotations",
                "icons",
                "_meta",
            ],
        }
    }

    /// The members without which the declaration cannot exist: a problem there drops
    /// the whole item (a Tool's `inputSchema` is handled apart: see
    /// [`OPEN_INPUT_SCHEMA`]).
    pub fn required(self) -> &'static [&'static str] {
        match self {
            Kind::Tool => &["name"],
            Kind::Prompt => &["name"],
            Kind::Resource => &["uri", "name"],
            Kind::ResourceTemplate => &["uriTemplate", "name"],
        }
    }

    /// The kind whose root collection is `member`.
    pub fn from_collection(member: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.collection() == member)
    }
}

/// The members of a Prompt Argument (`arguments[]`) the description has a place for.
pub const PROMPT_ARGUMENT_MEMBERS: &[&str] = &["name", "title", "description", "required"];

/// The members of MCP's `Implementation` (`serverInfo`) that go to the description's
/// Info Object under the same name.
pub const INFO_MEMBERS: &[&str] = &[
    "name",
    "version",
    "title",
    "description",
    "icons",
    "websiteUrl",
];

/// The members of the server's capabilities that a Capabilities Object has a place for.
pub const CAPABILITY_MEMBERS: &[&str] = &[
    "tools",
    "prompts",
    "resources",
    "completions",
    "logging",
    "experimental",
    "extensions",
    "tasks",
];

/// Whether a member name is a specification extension (`x-*`), which every
/// declaration object of the format allows.
pub fn is_extension(member: &str) -> bool {
    member.starts_with("x-")
}
