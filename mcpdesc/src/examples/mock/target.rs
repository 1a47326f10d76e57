//! What an example answers ([`Target`]) and an explicit selection of one
//! ([`Selection`], as `mcpdesc serve-mock --select` writes it).

use crate::protocol::completions::CompletionTarget;

/// What an example answers: a tool, a prompt, a resource (by URI), a resource template
/// (by URI template), or the completions of a prompt or template.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Target {
    /// `tools/call` of the tool.
    Tool(String),
    /// `prompts/get` of the prompt.
    Prompt(String),
    /// `resources/read` of the resource with this URI.
    Resource(String),
    /// `resources/read` of URIs of the template.
    ResourceTemplate(String),
    /// `completion/complete` for the prompt or template.
    Completion(CompletionTarget),
}

impl Target {
    /// How the target reads in messages: ``prompt `brief` ``.
    pub fn label(&self) -> String {
        match self {
            Target::Tool(name) => format!("tool `{name}`"),
            Target::Prompt(name) => format!("prompt `{name}`"),
            Target::Resource(uri) => format!("resource `{uri}`"),
            Target::ResourceTemplate(t) => format!("resource template `{t}`"),
            Target::Completion(c) => format!("the completions of {} `{}`", c.kind(), c.id()),
        }
    }
}

/// An explicit selection, as `mcpdesc serve-mock --select` writes it:
///
/// | text | target |
/// |---|---|
/// | `TOOL=EXAMPLE` or `tool:TOOL=EXAMPLE` | a tool |
/// | `prompt:NAME=EXAMPLE` | a prompt |
/// | `resource:URI=EXAMPLE` | a resource |
/// | `template:URI_TEMPLATE=EXAMPLE` | a resource template |
/// | `completion:prompt:NAME=EXAMPLE` | the completions of a prompt |
/// | `completion:template:URI_TEMPLATE=EXAMPLE` | the completions of a template |
///
/// The example name is what follows the last `=` (example names never contain `=`, URIs
/// may). A tool whose name starts with one of the prefixes is written `tool:NAME=...`.
///
/// ```
/// use mcpdesc::mock::{Selection, Target};
///
/// let s: Selection = "resource:chess://leaderboard?kind=classical=top-two".parse().unwrap();
/// assert_eq!(s.target, Target::Resource("chess://leaderboard?kind=classical".into()));
/// assert_eq!(s.example, "top-two");
/// let t: Selection = "analyze_game=scholars-mate".parse().unwrap();
/// assert_eq!(t.target, Target::Tool("analyze_game".into()));
/// assert!("prompt:=x".parse::<Selection>().is_err());
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Selection {
    /// What the example answers.
    pub target: Target,
    /// The example's name.
    pub example: String,
}

impl Target {
    /// Reads a target as [`Selection`] writes it before the `=`: a tool name, or
    /// `tool:NAME`, `prompt:NAME`, `resource:URI`, `template:URI_TEMPLATE`,
    /// `completion:prompt:NAME`, `completion:template:URI_TEMPLATE`.
    ///
    /// ```
    /// use mcpdesc::mock::Target;
    /// use mcpdesc::CompletionTarget;
    ///
    /// assert_eq!(Target::parse("template:x://{id}"), Target::ResourceTemplate("x://{id}".into()));
    /// assert_eq!(Target::parse("completion:prompt:brief"), Target::Completion(CompletionTarget::prompt("brief")));
    /// assert_eq!(Target::parse("analyze_game"), Target::Tool("analyze_game".into()));
    /// ```
    pub fn parse(head: &str) -> Target {
        if let Some(rest) = head.strip_prefix("completion:prompt:") {
            Target::Completion(CompletionTarget::prompt(rest))
        } else if let Some(rest) = head.strip_prefix("completion:template:") {
            Target::Completion(CompletionTarget::resource_template(rest))
        } else if let Some(rest) = head.strip_prefix("prompt:") {
            Target::Prompt(rest.to_owned())
        } else if let Some(rest) = head.strip_prefix("resource:") {
            Target::Resource(rest.to_owned())
        } else if let Some(rest) = head.strip_prefix("template:") {
            Target::ResourceTemplate(rest.to_owned())
        } else if let Some(rest) = head.strip_prefix("tool:") {
            Target::Tool(rest.to_owned())
        } else {
            Target::Tool(head.to_owned())
        }
    }

    /// The identity: tool or prompt name, URI, URI template.
    pub fn id(&self) -> &str {
        match self {
            Target::Tool(id)
            | Target::Prompt(id)
            | Target::Resource(id)
            | Target::ResourceTemplate(id) => id,
            Target::Completion(c) => c.id(),
        }
    }
}

impl std::str::FromStr for Selection {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        let usage = || {
            format!(
                "expected TOOL=EXAMPLE, tool:NAME=EXAMPLE, prompt:NAME=EXAMPLE, resource:URI=EXAMPLE, template:URI_TEMPLATE=EXAMPLE, completion:prompt:NAME=EXAMPLE or completion:template:URI_TEMPLATE=EXAMPLE; got {text:?}"
            )
        };
        let (head, example) = text.rsplit_once('=').ok_or_else(usage)?;
        let target = Target::parse(head);
        let id_empty = target.id().is_empty();
        if id_empty || example.is_empty() {
            return Err(usage());
        }
        Ok(Selection {
            target,
            example: example.to_owned(),
        })
    }
}
