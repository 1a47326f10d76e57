//! Rule ids, in the specification's `<family>.<dotted>` form.
//!
//! Every diagnostic names one of these. Rules quoted from the 0.9.0-rc.3 Tools text keep
//! their published ids; for the rest of the document, which the 0.9.0 text does not yet
//! cover, ids follow the same pattern under the `mcpdesc` family (decision recorded in
//! ARCHITECTURE.md).

/// Structural shape of the document (closed objects, required members, types).
pub const DOCUMENT_SCHEMA: &str = "mcpdesc.document.schema";
/// The `mcpdesc` format version.
pub const DOCUMENT_VERSION: &str = "mcpdesc.document.version";
/// Serialization (JSON/YAML) problems.
pub const SERIALIZATION: &str = "mcpdesc.serialization";
/// Tool members.
pub const TOOL_MEMBERS: &str = "mcpdesc.tool.members";
/// `$componentRef` resolution.
pub const COMPONENTS_REFERENCES: &str = "mcpdesc.components.references";
/// Tool Example members and map names.
pub const EXAMPLE_MEMBERS: &str = "mcpdesc.example.members";
/// Result shape per protocol version.
pub const EXAMPLE_RESULT_FIDELITY: &str = "mcpdesc.example.result.protocol-fidelity";
/// Completed result form (no task, envelope, workflow).
pub const EXAMPLE_COMPLETED_FORM: &str = "mcpdesc.example.completed-result-form";
/// Example input/output against the tool's schemas.
pub const TOOL_EXAMPLE_SCHEMA_CONFORMANCE: &str = "mcpdesc.tool.example.schema-conformance";
/// Success versus execution-error results.
pub const TOOL_EXAMPLE_ERROR_RESULT: &str = "mcpdesc.tool.example.error-result";
/// Tool Interaction Example members.
pub const TOOL_INTERACTION_MEMBERS: &str = "mcpdesc.tool.interaction.members";
/// Interaction elicitation steps against declarations and responses.
pub const TOOL_INTERACTION_ELICITATION: &str = "mcpdesc.tool.interaction.elicitation-consistency";
/// Interaction steps against declared client requirements.
pub const TOOL_INTERACTION_CLIENT_REQUIREMENTS: &str =
    "mcpdesc.tool.interaction.client-requirements-consistency";
/// Scopes: subsets of the parent, disjoint for same-identity declarations.
pub const PROTOCOL_SCOPE_CONSISTENCY: &str = "mcpdesc.protocol-scope.consistency";
/// Tag catalogue and tag references.
pub const TAGS_REFERENCES: &str = "mcpdesc.tags.references";
/// inputSchema root must describe an object.
pub const TOOL_INPUT_SCHEMA_OBJECT_ROOT: &str = "mcp.tool.input-schema.object-root";
/// outputSchema root must describe an object before 2026-07-28.
pub const TOOL_OUTPUT_SCHEMA_OBJECT_ROOT: &str = "mcp.tool.output-schema.object-root";
/// `x-mcp-header` placement and values.
pub const TOOL_INPUT_SCHEMA_X_MCP_HEADER: &str = "mcp.tool.input-schema.x-mcp-header";
/// A field used in a protocol version that does not define it.
pub const DECLARATION_FIELD_PROTOCOL_VERSION: &str = "mcp.declaration.field.protocol-version";
/// Native MCP Tool shape restrictions (warnings).
pub const TOOL_SCHEMA_NATIVE_SHAPE: &str = "mcp.tool.schema.native-shape";
/// Shape of Tool schemas before 2025-11-25.
pub const TOOL_SCHEMA_LEGACY_SHAPE: &str = "mcp.tool.schema.legacy-shape";
/// Result members.
pub const EXAMPLE_RESULT_MEMBERS: &str = "mcp.example-result.members";
/// Content block kinds per protocol version.
pub const CONTENT_BLOCK_PROTOCOL_VERSION: &str = "mcp.content-block.protocol-version";
/// `structuredContent` against `outputSchema`.
pub const TOOL_STRUCTURED_CONTENT_OUTPUT_SCHEMA: &str = "mcp.tool.structured-content.output-schema";
/// Sampling step fields per protocol version.
pub const SAMPLING_TOOLS_PROTOCOL_VERSION: &str = "mcp.sampling.tools.protocol-version";
/// Elicitation per protocol version.
pub const ELICITATION_PROTOCOL_VERSION: &str = "mcp.elicitation.protocol-version";
/// Elicitation interaction response closure.
pub const INPUT_RESPONSE_CLOSED: &str = "mcp.input-response.closed";
/// Sampling message members.
pub const INTERACTION_MESSAGE_MEMBERS: &str = "mcp.interaction-message.members";
/// Roots `_meta` per protocol version.
pub const ROOT_META_PROTOCOL_VERSION: &str = "mcp.root.meta.protocol-version";
/// Roots must be `file://` URIs.
pub const ROOT_URI_FILE_SCHEME: &str = "mcp.root.uri.file-scheme";
/// Tool annotations are closed.
pub const TOOL_ANNOTATIONS_MEMBERS: &str = "mcp.tool-annotations.members";
/// Tool schemas valid in their dialect; dialect set; external references.
pub const TOOL_SCHEMA_VALID: &str = "json-schema.tool-schema.valid";
/// Keywords of Tool schemas are preserved, not rejected by inferred meta-schemas.
pub const TOOL_SCHEMA_KEYWORDS_PRESERVE: &str = "mcp.tool.schema-keywords.preserve";
/// Protocol versions: closed set, legacy versions validated incompletely.
pub const PROTOCOL_VERSIONS: &str = "mcpdesc.protocol-versions";
/// Transports and their coverage of the root versions.
pub const TRANSPORTS: &str = "mcpdesc.transports";
/// Security schemes and requirements.
pub const SECURITY: &str = "mcpdesc.security";
/// Server capabilities objects.
pub const CAPABILITIES: &str = "mcpdesc.capabilities";
/// Client capability requirements of primitives.
pub const CLIENT_REQUIREMENTS: &str = "mcpdesc.client-requirements";
/// Elicitation Declarations.
pub const ELICITATION_DECLARATIONS: &str = "mcpdesc.elicitation.declarations";
/// `_meta` keys and reserved keys.
pub const META: &str = "mcpdesc.meta";
/// Resources and their examples.
pub const RESOURCES: &str = "mcpdesc.resources";
/// Resource templates and their examples.
pub const RESOURCE_TEMPLATES: &str = "mcpdesc.resource-templates";
/// Prompts and their examples.
pub const PROMPTS: &str = "mcpdesc.prompts";
/// Completion examples.
pub const COMPLETION_EXAMPLES: &str = "mcpdesc.completion-examples";
/// Specification extensions (`x-*`, extension identifiers).
pub const EXTENSIONS: &str = "mcpdesc.extensions";
/// `mcpdesc migrate`: what could not be carried over, and places that need the author.
pub const MIGRATE: &str = "mcpdesc.migrate";
/// `mcpdesc pull`: what was dropped or fixed to describe a live server validly.
pub const PULL: &str = "mcpdesc.pull";
/// Problems found while generating code (unsupported schema constructs, naming).
pub const CODEGEN: &str = "mcpdesc-rs.codegen";
