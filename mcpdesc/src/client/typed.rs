//! [`TypedClient`]: the runtime half of a generated `Client`. Generated methods name
//! their types and spec and call one generic function here, so the code per tool stays
//! a few lines (the progenitor style).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::{json, Value};

use super::call_error::{CallError, Violation};
use super::session::Session;
use crate::protocol::completions::{CompletionRequest, CompletionResult, CompletionTarget};
use crate::protocol::content::Content;
use crate::protocol::prompts::{PromptResult, PromptSpec};
use crate::protocol::resources::{ResourceResult, ResourceSpec, ResourceTemplateSpec};
use crate::protocol::result::{ToolResult, Typed};
use crate::protocol::uri_template::UriTemplate;
use crate::protocol::version::ProtocolVersion;
use crate::schema::validator::{self, Validator};
use crate::server::router::ToolSpec;

/// A [`Session`] with what the description says about each call: a generated `Client`
/// wraps one and calls its generic methods with the tool's [`ToolSpec`] and types.
///
/// For every call it
///
/// 1. refuses a tool, prompt or resource outside the negotiated protocol version
///    ([`CallError::Unsupported`], nothing sent);
/// 2. checks a tool's input against the original `inputSchema` of its declaration
///    ([`CallError::InvalidInput`] with each JSON pointer, nothing sent), unless
///    [`TypedClient::validate_inputs`] turned that off;
/// 3. sends the request and tells the answers apart: a JSON-RPC error
///    ([`CallError::Protocol`]), a tool error (`isError: true`, [`CallError::Tool`]),
///    no answer ([`CallError::Transport`]), a request for client input
///    ([`CallError::InputRequired`]);
/// 4. checks a typed output: `structuredContent` against the `outputSchema`, then
///    into the Rust type ([`CallError::Contract`] naming the pointer in the result).
///
/// Before MCP 2025-06-18 results have no `structuredContent`; a tool with an output
/// type then gets its output from the JSON of the first text block. Schemas are
/// compiled on first use and kept; a schema that cannot be compiled offline (an
/// external `$ref`: nothing is fetched) is not checked, the Rust type still is.
#[derive(Clone)]
pub struct TypedClient {
    session: Session,
    validate_inputs: bool,
    schemas: Arc<Mutex<HashMap<&'static str, Arc<Schemas>>>>,
}

impl std::fmt::Debug for TypedClient {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TypedClient")
            .field("session", &self.session)
            .field("validate_inputs", &self.validate_inputs)
            .finish_non_exhaustive()
    }
}

/// The compiled schemas of one tool declaration.
struct Schemas {
    input: Option<Validator>,
    output: Option<Validator>,
    /// The declaration's `clientRequirements`.
    requirements: Option<serde_json::Map<String, Value>>,
}

impl TypedClient {
    /// A client over `session`, checking inputs.
    pub fn new(session: Session) -> Self {
        TypedClient {
            session,
            validate_inputs: true,
            schemas: Arc::default(),
        }
    }

    /// The session.
    pub fn session(&self) -> &Session {
        &self.session
    }

    /// Whether inputs are checked against the `inputSchema` before sending (on by
    /// default). Off, the server sees whatever the Rust input serializes to.
    pub fn validate_inputs(mut self, on: bool) -> Self {
        self.validate_inputs = on;
        self
    }

    /// Whether inputs are checked before sending.
    pub fn validates_inputs(&self) -> bool {
        self.validate_inputs
    }

    /// The declaration of the negotiated version among `variants`, the protocol-scoped
    /// variants of one tool that share one handler (a generated `Client` has one
    /// method for them): the first whose scope holds the session's version, else
    /// [`CallError::Unsupported`] with their scopes together (nothing is sent).
    pub fn variant<'s>(&self, variants: &[&'s ToolSpec]) -> Result<&'s ToolSpec, CallError> {
        let version = self.session.protocol_version();
        if let Some(spec) = variants
            .iter()
            .find(|s| s.scope.is_empty() || s.scope.contains(&version))
        {
            return Ok(spec);
        }
        let mut scope: Vec<ProtocolVersion> = variants
            .iter()
            .flat_map(|s| s.scope.iter().copied())
            .collect();
        scope.sort();
        scope.dedup();
        Err(CallError::Unsupported {
            name: variants.first().map_or("", |s| s.name).to_owned(),
            version,
            scope,
        })
    }

    /// Calls a tool without an `outputSchema`: the whole result, or the error.
    pub async fn call_tool<I: Serialize>(
        &self,
        spec: &ToolSpec,
        input: I,
    ) -> Result<ToolResult, CallError> {
        self.call(spec, &input).await.map(|(result, _)| result)
    }

    /// Calls a tool with an `outputSchema`: the typed output.
    pub async fn call_tool_output<I: Serialize, O: DeserializeOwned>(
        &self,
        spec: &ToolSpec,
        input: I,
    ) -> Result<O, CallError> {
        self.call_tool_typed(spec, input)
            .await
            .map(|typed| typed.output)
    }

    /// Calls a tool with an `outputSchema`: the typed output with the content blocks
    /// (all of them, as sent: a server's JSON text block of the output comes first)
    /// and the result `_meta`.
    pub async fn call_tool_typed<I: Serialize, O: DeserializeOwned>(
        &self,
        spec: &ToolSpec,
        input: I,
    ) -> Result<Typed<O>, CallError> {
        let (result, raw) = self.call(spec, &input).await?;
        let schemas = self.schemas(spec);
        let output = typed_output(
            spec.name,
            self.session.protocol_version(),
            &result,
            &raw,
            schemas.output.as_ref(),
        )?;
        Ok(Typed {
            output,
            content: result.content,
            meta: result.meta,
        })
    }

    /// Gets a prompt with its typed arguments.
    pub async fn get_prompt<A: Serialize>(
        &self,
        spec: &PromptSpec,
        arguments: A,
    ) -> Result<PromptResult, CallError> {
        self.check_scope(spec.name, spec.scope)?;
        let arguments = serde_json::to_value(&arguments).map_err(|e| CallError::InvalidInput {
            name: spec.name.to_owned(),
            violations: vec![Violation::new("", e.to_string())],
        })?;
        let raw = self
            .session
            .get_prompt(spec.name, arguments)
            .await
            .map_err(|e| CallError::from_request(spec.name, e))?;
        parse_result(spec.name, raw)
    }

    /// Reads a resource.
    pub async fn read_resource(&self, spec: &ResourceSpec) -> Result<ResourceResult, CallError> {
        self.check_scope(spec.uri, spec.scope)?;
        self.read(spec.uri, spec.uri).await
    }

    /// Reads the URI a level-1 resource template gives for `variables` (a struct of
    /// its variables).
    pub async fn read_resource_template<V: Serialize>(
        &self,
        spec: &ResourceTemplateSpec,
        variables: V,
    ) -> Result<ResourceResult, CallError> {
        let name = spec.uri_template;
        self.check_scope(name, spec.scope)?;
        let invalid = |message: String| CallError::InvalidInput {
            name: name.to_owned(),
            violations: vec![Violation::new("", message)],
        };
        let variables = serde_json::to_value(&variables).map_err(|e| invalid(e.to_string()))?;
        let Value::Object(variables) = variables else {
            return Err(invalid("the variables are not a JSON object".to_owned()));
        };
        let uri = UriTemplate::parse(name)
            .and_then(|template| template.expand(&variables))
            .map_err(invalid)?;
        self.read(name, &uri).await
    }

    /// Reads `uri`, a URI of the resource template of `spec` (for templates beyond
    /// RFC 6570 level 1, whose URIs the caller builds).
    pub async fn read_resource_template_uri(
        &self,
        spec: &ResourceTemplateSpec,
        uri: &str,
    ) -> Result<ResourceResult, CallError> {
        self.check_scope(spec.uri_template, spec.scope)?;
        self.read(spec.uri_template, uri).await
    }

    /// Asks for completions of an argument of a prompt or resource template.
    pub async fn complete(
        &self,
        target: &CompletionTarget,
        scope: &[ProtocolVersion],
        request: &CompletionRequest,
    ) -> Result<CompletionResult, CallError> {
        let name = target.id();
        self.check_scope(name, scope)?;
        let reference = match target {
            CompletionTarget::Prompt(id) => json!({"type": "ref/prompt", "name": id}),
            CompletionTarget::ResourceTemplate(id) => json!({"type": "ref/resource", "uri": id}),
        };
        let mut params = json!({
            "ref": reference,
            "argument": {"name": request.argument, "value": request.value},
        });
        if !request.context.is_empty() {
            params["context"] = json!({ "arguments": request.context });
        }
        let raw = self
            .session
            .complete(params)
            .await
            .map_err(|e| CallError::from_request(name, e))?;
        parse_result(name, raw)
    }

    async fn read(&self, name: &str, uri: &str) -> Result<ResourceResult, CallError> {
        let raw = self
            .session
            .read_resource(uri)
            .await
            .map_err(|e| CallError::from_request(name, e))?;
        parse_result(name, raw)
    }

    /// Steps 1 and 2 of the type docs: the arguments to send, or why nothing is sent.
    pub(super) fn arguments<I: Serialize>(
        &self,
        spec: &ToolSpec,
        input: &I,
    ) -> Result<Value, CallError> {
        let name = spec.name;
        self.check_scope(name, spec.scope)?;
        self.check_requirements(name, self.schemas(spec).requirements.as_ref())?;
        let arguments = serde_json::to_value(input).map_err(|e| CallError::InvalidInput {
            name: name.to_owned(),
            violations: vec![Violation::new(
                "",
                format!("the input does not serialize: {e}"),
            )],
        })?;
        if self.validate_inputs {
            if let Some(validator) = &self.schemas(spec).input {
                let violations: Vec<Violation> = validator::violation_pairs(validator, &arguments)
                    .into_iter()
                    .take(validator::MAX_VIOLATIONS)
                    .map(|(pointer, message)| Violation::new(pointer, message))
                    .collect();
                if !violations.is_empty() {
                    return Err(CallError::InvalidInput {
                        name: name.to_owned(),
                        violations,
                    });
                }
            }
        }
        Ok(arguments)
    }

    /// Steps 1 to 3 of the type docs: the result (not an error) and its raw JSON.
    async fn call<I: Serialize>(
        &self,
        spec: &ToolSpec,
        input: &I,
    ) -> Result<(ToolResult, Value), CallError> {
        let name = spec.name;
        let arguments = self.arguments(spec, input)?;
        let raw = self
            .session
            .call_tool(name, arguments)
            .await
            .map_err(|e| CallError::from_request(name, e))?;
        tool_result(name, raw)
    }

    /// The typed answer of a finished tool call `raw` (what `tools/call` or
    /// `tasks/result` answered): the typed output of `spec` (`typed`), else the
    /// whole result deserialized into `O`; a tool error is [`CallError::Tool`].
    pub(super) fn finish<O: DeserializeOwned>(
        &self,
        spec: &ToolSpec,
        raw: Value,
        typed: bool,
    ) -> Result<O, CallError> {
        let (result, raw) = tool_result(spec.name, raw)?;
        if !typed {
            return parse_result(spec.name, raw);
        }
        let schemas = self.schemas(spec);
        typed_output(
            spec.name,
            self.session.protocol_version(),
            &result,
            &raw,
            schemas.output.as_ref(),
        )
    }

    /// Refuses a call outside `scope` (empty: every version of the server).
    pub(super) fn check_scope(
        &self,
        name: &str,
        scope: &[ProtocolVersion],
    ) -> Result<(), CallError> {
        let version = self.session.protocol_version();
        if scope.is_empty() || scope.contains(&version) {
            return Ok(());
        }
        Err(CallError::Unsupported {
            name: name.to_owned(),
            version,
            scope: scope.to_vec(),
        })
    }

    /// Refuses a call whose `clientRequirements` the session's declared capabilities
    /// do not meet (see [`crate::protocol::client_requirements`]); unknown capabilities (a
    /// session over a foreign rmcp client) are not checked.
    fn check_requirements(
        &self,
        name: &str,
        requirements: Option<&serde_json::Map<String, Value>>,
    ) -> Result<(), CallError> {
        let (Some(required), Some(declared)) = (requirements, self.session.client_capabilities())
        else {
            return Ok(());
        };
        match crate::protocol::client_requirements::missing(required, declared) {
            None => Ok(()),
            Some(lacking) => Err(CallError::MissingClientCapability {
                name: name.to_owned(),
                missing: crate::protocol::client_requirements::describe(&lacking),
                required: Box::new(Value::Object(lacking)),
            }),
        }
    }

    /// The compiled schemas of `spec`'s declaration, compiled on first use.
    fn schemas(&self, spec: &ToolSpec) -> Arc<Schemas> {
        let cached = self
            .schemas
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(spec.declaration)
            .cloned();
        if let Some(schemas) = cached {
            return schemas;
        }
        let compiled = Arc::new(compile(spec));
        self.schemas
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(spec.declaration, compiled.clone());
        compiled
    }
}

/// Compiles the schemas of a declaration as the router does (versions before MCP
/// 2025-11-25 alone get the legacy shape check when the schema is not 2020-12).
fn compile(spec: &ToolSpec) -> Schemas {
    let declaration = serde_json::from_str::<Value>(spec.declaration).unwrap_or(Value::Null);
    let legacy =
        !spec.scope.is_empty() && spec.scope.iter().all(|v| *v < ProtocolVersion::V2025_11_25);
    let compile = |member: &str| {
        let schema = declaration.get(member)?;
        if legacy {
            validator::compile_legacy(schema).ok()
        } else {
            validator::compile(schema).ok()
        }
    };
    Schemas {
        input: compile("inputSchema"),
        output: compile("outputSchema"),
        requirements: declaration
            .get("clientRequirements")
            .and_then(Value::as_object)
            .cloned(),
    }
}

/// A `tools/call` answer as a result (not a tool error: [`CallError::Tool`]) with its
/// raw JSON.
fn tool_result(name: &str, raw: Value) -> Result<(ToolResult, Value), CallError> {
    let result: ToolResult = parse_result(name, raw.clone())?;
    if result.is_error_result() {
        return Err(CallError::Tool {
            name: name.to_owned(),
            result: Box::new(result),
        });
    }
    Ok((result, raw))
}

/// A result of a completed request in its Rust type, or the contract violation (an
/// `input_required` result is [`CallError::InputRequired`]).
fn parse_result<T: DeserializeOwned>(name: &str, raw: Value) -> Result<T, CallError> {
    if raw.get("resultType").and_then(Value::as_str) == Some("input_required") {
        return Err(CallError::InputRequired {
            name: name.to_owned(),
            result: Box::new(raw),
        });
    }
    serde_path_to_error::deserialize(&raw).map_err(|e| CallError::Contract {
        name: name.to_owned(),
        violations: vec![Violation::new(
            crate::protocol::json::pointer_of(e.path()),
            e.inner().to_string(),
        )],
        result: Box::new(raw.clone()),
    })
}

/// The typed output of a successful result: `structuredContent` (or, before MCP
/// 2025-06-18, the JSON of the first text block) checked against the `outputSchema`,
/// then deserialized into `O`.
fn typed_output<O: DeserializeOwned>(
    name: &str,
    version: ProtocolVersion,
    result: &ToolResult,
    raw: &Value,
    schema: Option<&Validator>,
) -> Result<O, CallError> {
    let contract = |violations: Vec<Violation>| CallError::Contract {
        name: name.to_owned(),
        violations,
        result: Box::new(raw.clone()),
    };
    let (structured, at) = match &result.structured_content {
        Some(value) => (value.clone(), "/structuredContent".to_owned()),
        None if !version.has_structured_content() => {
            let text = result
                .content
                .iter()
                .enumerate()
                .find_map(|(i, c)| match c {
                    Content::Text(t) => Some((i, t.text.as_str())),
                    _ => None,
                });
            let Some((i, text)) = text else {
                return Err(contract(vec![Violation::new(
                    "/content",
                    format!(
                        "no text block carries the output (MCP {version} has no structuredContent)"
                    ),
                )]));
            };
            let at = format!("/content/{i}/text");
            match serde_json::from_str(text) {
                Ok(value) => (value, at),
                Err(e) => {
                    return Err(contract(vec![Violation::new(
                        at,
                        format!("the text block is not the output's JSON ({e})"),
                    )]))
                }
            }
        }
        None => {
            return Err(contract(vec![Violation::new(
                "/structuredContent",
                "missing: the tool declares an outputSchema",
            )]))
        }
    };
    if let Some(schema) = schema {
        let violations: Vec<Violation> = validator::violation_pairs(schema, &structured)
            .into_iter()
            .take(validator::MAX_VIOLATIONS)
            .map(|(pointer, message)| {
                Violation::new(
                    format!("{at}{pointer}"),
                    format!("{message} (outputSchema)"),
                )
            })
            .collect();
        if !violations.is_empty() {
            return Err(contract(violations));
        }
    }
    serde_path_to_error::deserialize(&structured).map_err(|e| {
        contract(vec![Violation::new(
            format!("{at}{}", crate::protocol::json::pointer_of(e.path())),
            format!("{} (Rust type)", e.inner()),
        )])
    })
}
