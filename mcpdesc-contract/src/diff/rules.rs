//! The catalogue of change types: one stable id per kind of change, its level from a
//! client's and from a server implementer's point of view, and one line of text.
//!
//! `docs/diff.md` shows this table ([`markdown_table`]; a test keeps the two equal).
//! Ids never change meaning once published; a new kind of change gets a new id.
//!
//! **Perspectives.** A *client* change is judged by whether a client written against
//! the old description still works against a server that implements the new one:
//! narrowing what a tool accepts, or widening what it may return, breaks clients. A
//! *server* change is judged by whether a server that implemented the old description
//! still conforms to the new one: widening what it must accept, narrowing what it may
//! return, or adding something it must serve breaks servers.

use serde::Serialize;
use std::fmt;

/// How serious a change is, from one perspective.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    /// Existing users of the old description stop working.
    Breaking,
    /// Existing users keep working but should look (behaviour, hints, deprecation).
    Warning,
    /// Nothing existing is affected.
    Compatible,
}

impl Level {
    /// `breaking`, `warning` or `compatible`.
    pub fn as_str(self) -> &'static str {
        match self {
            Level::Breaking => "breaking",
            Level::Warning => "warning",
            Level::Compatible => "compatible",
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Whose point of view classifies a change.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Perspective {
    /// A client of the server (the default).
    #[default]
    Client,
    /// An implementer of the server.
    Server,
}

impl Perspective {
    /// `client` or `server`.
    pub fn as_str(self) -> &'static str {
        match self {
            Perspective::Client => "client",
            Perspective::Server => "server",
        }
    }
}

/// One kind of change.
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct Rule {
    /// Stable id, such as `input.enum.value-removed`.
    pub id: &'static str,
    /// Level for clients.
    pub client: Level,
    /// Level for server implementers.
    pub server: Level,
    /// One line describing the change.
    pub text: &'static str,
}

impl Rule {
    /// The level from `perspective`.
    pub fn level(&self, perspective: Perspective) -> Level {
        match perspective {
            Perspective::Client => self.client,
            Perspective::Server => self.server,
        }
    }
}

use Level::{Breaking as B, Compatible as C, Warning as W};

macro_rules! rules {
    ($($name:ident = $id:literal, $client:expr, $server:expr, $text:literal;)*) => {
        $(
            #[doc = $text]
            pub static $name: Rule = Rule { id: $id, client: $client, server: $server, text: $text };
        )*
        /// Every rule, in catalogue order.
        pub static ALL: &[&Rule] = &[$(&$name),*];
    };
}

rules! {
    PROTOCOL_VERSION_REMOVED = "protocol-version.removed", B, C, "A protocol version is no longer described.";
    PROTOCOL_VERSION_ADDED = "protocol-version.added", C, W, "A protocol version is newly described.";
    TRANSPORT_REMOVED = "transport.removed", B, C, "A transport (type and URL or command) is no longer declared.";
    TRANSPORT_ADDED = "transport.added", C, W, "A transport is newly declared.";
    CAPABILITY_REMOVED = "capability.removed", B, C, "A server capability (or resource subscriptions) is no longer declared.";
    CAPABILITY_ADDED = "capability.added", C, W, "A server capability is newly declared.";
    CAPABILITY_NOTIFICATION_REMOVED = "capability.notification.removed", W, C, "A listChanged notification is no longer promised.";
    CAPABILITY_NOTIFICATION_ADDED = "capability.notification.added", C, W, "A listChanged notification is newly promised.";
    SERVER_INSTRUCTIONS_CHANGED = "server.instructions.changed", W, C, "The server instructions changed.";
    SERVER_NAME_CHANGED = "server.name.changed", W, C, "info.name (the MCP Implementation name) changed.";

    SECURITY_REQUIREMENT_ADDED = "security.requirement.added", B, W, "A primitive over a transport requires a security scheme that no old alternative let a client use.";
    SECURITY_SCOPES_ADDED = "security.scopes.added", B, W, "A primitive over a transport requires more scopes of the same schemes.";
    SECURITY_SCOPES_CHANGED = "security.scopes.changed", B, W, "A primitive over a transport requires other scopes of the same schemes (some old ones dropped, some new ones asked): a client granted only the old scopes is refused.";
    SECURITY_LOOSENED = "security.loosened", W, W, "A primitive over a transport demands less: fewer scopes, fewer schemes, a new weaker alternative, or no authentication (it changes who may call).";
    SECURITY_SCHEME_CHANGED = "security.scheme.changed", W, W, "The definition of a security scheme in use changed (type, location, flows, endpoints).";
    CLIENT_REQUIREMENTS_ADDED = "client-requirements.added", B, C, "A primitive newly requires a client capability.";
    CLIENT_REQUIREMENTS_REMOVED = "client-requirements.removed", C, W, "A primitive no longer requires a client capability.";
    ELICITATIONS_CHANGED = "elicitations.changed", W, W, "The elicitations a primitive may ask for changed.";

    TOOL_ADDED = "tool.added", C, B, "A tool was added.";
    TOOL_REMOVED = "tool.removed", B, C, "A tool was removed.";
    TOOL_RENAMED = "tool.renamed", B, B, "A tool was renamed (a removed and an added tool with equal input and output schemas).";
    TOOL_DEPRECATED = "tool.deprecated", W, C, "A tool became deprecated.";
    TOOL_OUTPUT_SCHEMA_ADDED = "tool.output-schema.added", C, B, "A tool gained an outputSchema (structured results are now promised).";
    TOOL_OUTPUT_SCHEMA_REMOVED = "tool.output-schema.removed", B, C, "A tool lost its outputSchema (structured results are no longer promised).";
    TOOL_READ_ONLY_CLEARED = "tool.read-only-hint.cleared", W, C, "readOnlyHint went from true to false: the tool may now modify its environment.";
    TOOL_DESTRUCTIVE_SET = "tool.destructive-hint.set", W, C, "destructiveHint went from false to true: the tool may now perform destructive updates.";
    TOOL_IDEMPOTENT_CLEARED = "tool.idempotent-hint.cleared", W, C, "idempotentHint went from true to false: repeated calls may now have additional effects.";
    TOOL_OPEN_WORLD_SET = "tool.open-world-hint.set", W, C, "openWorldHint went from false to true: the tool may now reach external entities.";
    TOOL_ANNOTATIONS_CHANGED = "tool.annotations.changed", C, C, "Another annotation changed (title, or a hint in the safer direction).";
    TOOL_TASK_SUPPORT_NARROWED = "tool.task-support.narrowed", B, C, "execution.taskSupport no longer allows a way of calling the tool (plain or task-augmented).";
    TOOL_TASK_SUPPORT_WIDENED = "tool.task-support.widened", C, B, "execution.taskSupport allows a new way of calling the tool.";
    TOOL_METADATA_CHANGED = "tool.metadata.changed", C, C, "Descriptive members changed (icons, tags, examples, _meta, x-*; title and description have their own rule).";
    TOOL_DESCRIPTION_CHANGED = "tool.description.changed", W, C, "A tool's description or title changed: a client that pinned this contract should review it (what a model is told about the tool changed; a rewritten description is how tool poisoning gets in).";

    INPUT_TYPE_NARROWED = "input.type.narrowed", B, C, "An input value accepts fewer JSON types.";
    INPUT_TYPE_WIDENED = "input.type.widened", C, B, "An input value accepts more JSON types.";
    INPUT_TYPE_CHANGED = "input.type.changed", B, B, "An input value's JSON type changed.";
    INPUT_ENUM_VALUE_REMOVED = "input.enum.value-removed", B, C, "An enum (or const) value of an input was removed.";
    INPUT_ENUM_VALUE_ADDED = "input.enum.value-added", C, B, "An enum value of an input was added.";
    INPUT_ENUM_ADDED = "input.enum.added", B, C, "An input value is newly restricted to an enum or const.";
    INPUT_ENUM_REMOVED = "input.enum.removed", C, B, "An input value is no longer restricted to an enum or const.";
    INPUT_NUMERIC_TIGHTENED = "input.numeric-bounds.tightened", B, C, "minimum, maximum, exclusiveMinimum, exclusiveMaximum or multipleOf of an input got stricter.";
    INPUT_NUMERIC_LOOSENED = "input.numeric-bounds.loosened", C, B, "A numeric bound of an input got looser.";
    INPUT_STRING_TIGHTENED = "input.string-bounds.tightened", B, C, "minLength or maxLength of an input got stricter, or a pattern was added.";
    INPUT_STRING_LOOSENED = "input.string-bounds.loosened", C, B, "A string bound of an input got looser, or its pattern was removed.";
    INPUT_ARRAY_TIGHTENED = "input.array-bounds.tightened", B, C, "minItems or maxItems of an input got stricter, or uniqueItems was set.";
    INPUT_ARRAY_LOOSENED = "input.array-bounds.loosened", C, B, "An array bound of an input got looser.";
    INPUT_OBJECT_TIGHTENED = "input.object-bounds.tightened", B, C, "minProperties or maxProperties of an input got stricter.";
    INPUT_OBJECT_LOOSENED = "input.object-bounds.loosened", C, B, "An object bound of an input got looser.";
    INPUT_PATTERN_CHANGED = "input.pattern.changed", W, W, "The pattern of an input string changed.";
    INPUT_FORMAT_CHANGED = "input.format.changed", W, W, "The format of an input string changed (formats are annotations unless a validator asserts them).";
    INPUT_ADDITIONAL_TIGHTENED = "input.additional-properties.tightened", B, C, "An input object accepts fewer undeclared properties (additionalProperties).";
    INPUT_ADDITIONAL_LOOSENED = "input.additional-properties.loosened", C, B, "An input object accepts more undeclared properties.";
    INPUT_PROPERTY_ADDED_REQUIRED = "input.property.added-required", B, W, "A required input property was added.";
    INPUT_PROPERTY_ADDED_OPTIONAL = "input.property.added-optional", C, W, "An optional input property was added.";
    INPUT_PROPERTY_REMOVED = "input.property.removed", B, C, "An input property was removed and the new schema rejects it.";
    INPUT_PROPERTY_REMOVED_ACCEPTED = "input.property.removed-still-accepted", W, C, "An input property was removed from the schema; it is still accepted but no longer described.";
    INPUT_PROPERTY_BECAME_REQUIRED = "input.property.became-required", B, C, "An optional input property became required.";
    INPUT_PROPERTY_BECAME_OPTIONAL = "input.property.became-optional", C, B, "A required input property became optional.";
    INPUT_PROPERTY_DEPRECATED = "input.property.deprecated", W, C, "An input property became deprecated.";
    INPUT_SCHEMA_CHANGED = "input.schema.changed", W, W, "Input schema keywords the diff does not classify changed (composition, conditionals, dependencies, dialect...).";
    INPUT_EXAMPLE_REJECTED = "input.example-rejected", B, C, "The new inputSchema rejects the input of an old example, and no other rule explains why.";

    OUTPUT_TYPE_NARROWED = "output.type.narrowed", C, B, "An output value may have fewer JSON types.";
    OUTPUT_TYPE_WIDENED = "output.type.widened", B, C, "An output value may have more JSON types.";
    OUTPUT_TYPE_CHANGED = "output.type.changed", B, B, "An output value's JSON type changed.";
    OUTPUT_ENUM_VALUE_REMOVED = "output.enum.value-removed", C, B, "An enum (or const) value of an output was removed.";
    OUTPUT_ENUM_VALUE_ADDED = "output.enum.value-added", W, C, "An enum value of an output was added (clients matching exhaustively may not know it).";
    OUTPUT_ENUM_ADDED = "output.enum.added", C, B, "An output value is newly restricted to an enum or const.";
    OUTPUT_ENUM_REMOVED = "output.enum.removed", W, C, "An output value is no longer restricted to an enum or const.";
    OUTPUT_NUMERIC_TIGHTENED = "output.numeric-bounds.tightened", C, B, "A numeric bound of an output got stricter.";
    OUTPUT_NUMERIC_LOOSENED = "output.numeric-bounds.loosened", W, C, "A numeric bound of an output got looser.";
    OUTPUT_STRING_TIGHTENED = "output.string-bounds.tightened", C, B, "A string bound of an output got stricter, or a pattern was added.";
    OUTPUT_STRING_LOOSENED = "output.string-bounds.loosened", W, C, "A string bound of an output got looser, or its pattern was removed.";
    OUTPUT_ARRAY_TIGHTENED = "output.array-bounds.tightened", C, B, "An array bound of an output got stricter.";
    OUTPUT_ARRAY_LOOSENED = "output.array-bounds.loosened", W, C, "An array bound of an output got looser.";
    OUTPUT_OBJECT_TIGHTENED = "output.object-bounds.tightened", C, B, "An object bound of an output got stricter.";
    OUTPUT_OBJECT_LOOSENED = "output.object-bounds.loosened", W, C, "An object bound of an output got looser.";
    OUTPUT_PATTERN_CHANGED = "output.pattern.changed", W, W, "The pattern of an output string changed.";
    OUTPUT_FORMAT_CHANGED = "output.format.changed", W, W, "The format of an output string changed.";
    OUTPUT_ADDITIONAL_TIGHTENED = "output.additional-properties.tightened", C, B, "An output object may have fewer undeclared properties.";
    OUTPUT_ADDITIONAL_LOOSENED = "output.additional-properties.loosened", C, C, "An output object may have more undeclared properties.";
    OUTPUT_PROPERTY_ADDED_REQUIRED = "output.property.added-required", C, B, "A required output property was added.";
    OUTPUT_PROPERTY_ADDED_OPTIONAL = "output.property.added-optional", C, C, "An optional output property was added.";
    OUTPUT_PROPERTY_REMOVED_REQUIRED = "output.property.removed-required", B, C, "A required output property was removed.";
    OUTPUT_PROPERTY_REMOVED_OPTIONAL = "output.property.removed-optional", W, C, "An optional output property was removed.";
    OUTPUT_PROPERTY_BECAME_REQUIRED = "output.property.became-required", C, B, "An optional output property became required.";
    OUTPUT_PROPERTY_BECAME_OPTIONAL = "output.property.became-optional", B, C, "A required output property became optional.";
    OUTPUT_SCHEMA_CHANGED = "output.schema.changed", W, W, "Output schema keywords the diff does not classify changed.";

    PROMPT_ADDED = "prompt.added", C, B, "A prompt was added.";
    PROMPT_REMOVED = "prompt.removed", B, C, "A prompt was removed.";
    PROMPT_RENAMED = "prompt.renamed", B, B, "A prompt was renamed (a removed and an added prompt with equal arguments).";
    PROMPT_DEPRECATED = "prompt.deprecated", W, C, "A prompt became deprecated.";
    PROMPT_ARGUMENT_ADDED_REQUIRED = "prompt.argument.added-required", B, W, "A required prompt argument was added.";
    PROMPT_ARGUMENT_ADDED_OPTIONAL = "prompt.argument.added-optional", C, W, "An optional prompt argument was added.";
    PROMPT_ARGUMENT_REMOVED = "prompt.argument.removed", W, C, "A prompt argument was removed (clients that send it may be refused or ignored).";
    PROMPT_ARGUMENT_BECAME_REQUIRED = "prompt.argument.became-required", B, C, "An optional prompt argument became required.";
    PROMPT_ARGUMENT_BECAME_OPTIONAL = "prompt.argument.became-optional", C, B, "A required prompt argument became optional.";
    PROMPT_METADATA_CHANGED = "prompt.metadata.changed", C, C, "Descriptive members of a prompt or its arguments changed (title and description have their own rule).";
    PROMPT_DESCRIPTION_CHANGED = "prompt.description.changed", W, C, "The description or title of a prompt or of one of its arguments changed: a client that pinned this contract should review it.";

    RESOURCE_ADDED = "resource.added", C, B, "A resource was added.";
    RESOURCE_REMOVED = "resource.removed", B, C, "A resource was removed.";
    RESOURCE_URI_CHANGED = "resource.uri-changed", B, B, "A resource's URI changed (a removed and an added resource with the same name).";
    RESOURCE_DEPRECATED = "resource.deprecated", W, C, "A resource became deprecated.";
    RESOURCE_MIME_TYPE_CHANGED = "resource.mime-type.changed", W, W, "A resource's MIME type changed.";
    RESOURCE_METADATA_CHANGED = "resource.metadata.changed", C, C, "Descriptive members of a resource changed (title and description have their own rule).";
    RESOURCE_DESCRIPTION_CHANGED = "resource.description.changed", W, C, "A resource's description or title changed: a client that pinned this contract should review it.";

    TEMPLATE_ADDED = "resource-template.added", C, B, "A resource template was added.";
    TEMPLATE_REMOVED = "resource-template.removed", B, C, "A resource template was removed.";
    TEMPLATE_URI_TEMPLATE_CHANGED = "resource-template.uri-template-changed", B, B, "A resource template's uriTemplate changed (a removed and an added template with the same name).";
    TEMPLATE_DEPRECATED = "resource-template.deprecated", W, C, "A resource template became deprecated.";
    TEMPLATE_MIME_TYPE_CHANGED = "resource-template.mime-type.changed", W, W, "A resource template's MIME type changed.";
    TEMPLATE_METADATA_CHANGED = "resource-template.metadata.changed", C, C, "Descriptive members of a resource template changed (title and description have their own rule).";
    TEMPLATE_DESCRIPTION_CHANGED = "resource-template.description.changed", W, C, "A resource template's description or title changed: a client that pinned this contract should review it.";
}

/// The rule with `id`.
pub fn by_id(id: &str) -> Option<&'static Rule> {
    ALL.iter().copied().find(|r| r.id == id)
}

/// The catalogue as the Markdown table of `docs/diff.md`.
pub fn markdown_table() -> String {
    let mut out = String::from("| id | client | server | change |\n|---|---|---|---|\n");
    for rule in ALL {
        out.push_str(&format!(
            "| `{}` | {} | {} | {} |\n",
            rule.id, rule.client, rule.server, rule.text
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_unique_and_well_formed() {
        let mut seen = std::collections::HashSet::new();
        for rule in ALL {
            assert!(seen.insert(rule.id), "duplicate id {}", rule.id);
            assert!(
                rule.id
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c == '.' || c == '-'),
                "{}",
                rule.id
            );
            assert!(rule.text.ends_with('.'), "{}", rule.id);
        }
        assert_eq!(by_id("tool.removed"), Some(&TOOL_REMOVED));
    }
}
