//! The checks of prompt, resource, resource template and completion examples that
//! generated tests call, and their part of the contract check.

use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;

use super::values::round_trip_exact;
use crate::examples::data::{latest, parse_json, RequestExample};
use crate::examples::mock::book::ExampleBook;
use crate::examples::mock::target::Target;
use crate::protocol::completions::{CompletionRequest, CompletionTarget};
use crate::protocol::error::ProtocolError;
use crate::protocol::json::canonical;
use crate::protocol::uri_template::UriTemplate;
use crate::protocol::version::ProtocolVersion;
use crate::server::context::Context;
use crate::server::router::Router;

/// Compares a result served for `version` with the example's result (canonical JSON).
fn same_result(
    what: &str,
    at: &str,
    version: ProtocolVersion,
    expected: &Value,
    actual: &Value,
) -> Result<(), String> {
    if canonical(expected) == canonical(actual) {
        return Ok(());
    }
    Err(format!(
        "{what}, MCP {version}: the result differs from the example's ({at}/result):\n    expected: {expected}\n    actual:   {actual}"
    ))
}

fn scope_or_latest(scope: &[ProtocolVersion]) -> Vec<ProtocolVersion> {
    if scope.is_empty() {
        vec![ProtocolVersion::LATEST]
    } else {
        scope.to_vec()
    }
}

/// The test of one Prompt Example: its `arguments` round-trip unchanged through the
/// generated arguments type `A`, and `router` (usually the example mock's, through the
/// generated traits) answers `prompts/get` with exactly the example's result in every
/// version of `scope`.
pub fn check_prompt_example<A: Serialize + DeserializeOwned>(
    router: &Router,
    prompt: &str,
    scope: &[ProtocolVersion],
    example: &RequestExample,
) -> Result<(), String> {
    let what = format!("prompt `{prompt}`, example `{}`", example.name);
    let arguments = parse_json(example.request, &what)?;
    let expected = parse_json(example.result, &what)?;
    round_trip_exact::<A>(&arguments, &what, &format!("{}/arguments", example.pointer))?;
    let map = arguments.as_object().cloned().unwrap_or_default();
    for version in scope_or_latest(scope) {
        let result = futures::executor::block_on(router.get_prompt(
            prompt,
            Some(map.clone()),
            Context::new(version),
        ))
        .map_err(|e| {
            format!(
                "{what}, MCP {version}: JSON-RPC error {}: {}",
                e.code, e.message
            )
        })?;
        same_result(
            &what,
            example.pointer,
            version,
            &expected,
            &result.to_wire(version),
        )?;
    }
    Ok(())
}

/// The test of one Resource Example: `router` answers `resources/read` of `uri` with
/// exactly the example's result in every version of `scope`.
pub fn check_resource_example(
    router: &Router,
    uri: &str,
    scope: &[ProtocolVersion],
    example: &RequestExample,
) -> Result<(), String> {
    let what = format!("resource `{uri}`, example `{}`", example.name);
    let expected = parse_json(example.result, &what)?;
    for version in scope_or_latest(scope) {
        let result = futures::executor::block_on(router.read_resource(uri, Context::new(version)))
            .map_err(|e| {
                format!(
                    "{what}, MCP {version}: JSON-RPC error {}: {}",
                    e.code, e.message
                )
            })?;
        same_result(
            &what,
            example.pointer,
            version,
            &expected,
            &result.to_wire(version),
        )?;
    }
    Ok(())
}

/// The test of one Resource Template Example: its `uri` is an expansion of
/// `uri_template` whose variables round-trip unchanged through the generated type `V`
/// (a struct, or `String` beyond level 1), and `router` answers `resources/read` of the
/// `uri` with exactly the example's result in every version of `scope`.
pub fn check_template_example<V: Serialize + DeserializeOwned>(
    router: &Router,
    uri_template: &str,
    scope: &[ProtocolVersion],
    example: &RequestExample,
) -> Result<(), String> {
    let what = format!(
        "resource template `{uri_template}`, example `{}`",
        example.name
    );
    let uri = parse_json(example.request, &what)?;
    let uri = uri
        .as_str()
        .ok_or_else(|| format!("{what} ({}/uri): not a string", example.pointer))?;
    let expected = parse_json(example.result, &what)?;
    let template = UriTemplate::parse(uri_template)
        .map_err(|e| format!("{what}: the template does not parse: {e}"))?;
    let variables = match template.match_uri(uri) {
        Some(Ok(variables)) => variables,
        Some(Err(why)) => return Err(format!("{what} ({}/uri): {why}", example.pointer)),
        None => {
            return Err(format!(
                "{what} ({}/uri): {uri:?} is not an expansion of the template",
                example.pointer
            ))
        }
    };
    round_trip_exact::<V>(&variables, &what, &format!("{}/uri", example.pointer))?;
    for version in scope_or_latest(scope) {
        let result = futures::executor::block_on(router.read_resource(uri, Context::new(version)))
            .map_err(|e| {
                format!(
                    "{what}, MCP {version}: JSON-RPC error {}: {}",
                    e.code, e.message
                )
            })?;
        same_result(
            &what,
            example.pointer,
            version,
            &expected,
            &result.to_wire(version),
        )?;
    }
    Ok(())
}

/// The test of one completion example: `router` answers `completion/complete` for
/// `target` with the example's argument and context with exactly the example's result
/// in every version of `scope`.
pub fn check_completion_example(
    router: &Router,
    target: &CompletionTarget,
    scope: &[ProtocolVersion],
    example: &RequestExample,
) -> Result<(), String> {
    let what = format!(
        "{} `{}`, completion example `{}`",
        target.kind(),
        target.id(),
        example.name
    );
    let request = parse_json(example.request, &what)?;
    let expected = parse_json(example.result, &what)?;
    let completion = completion_request(&request);
    for version in scope_or_latest(scope) {
        let result = futures::executor::block_on(router.complete(
            target,
            completion.clone(),
            Context::new(version),
        ))
        .map_err(|e| {
            format!(
                "{what}, MCP {version}: JSON-RPC error {}: {}",
                e.code, e.message
            )
        })?;
        same_result(
            &what,
            example.pointer,
            version,
            &expected,
            &result.to_wire(version),
        )?;
    }
    Ok(())
}

/// The completion request of a completion example's request
/// (`{"argument": {"name", "value"}, "context": {"arguments": {...}}}`).
pub(crate) fn completion_request(request: &Value) -> CompletionRequest {
    let text = |p: &str| {
        request
            .pointer(p)
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned()
    };
    let mut completion = CompletionRequest::new(text("/argument/name"), text("/argument/value"));
    if let Some(Value::Object(arguments)) = request.pointer("/context/arguments") {
        for (name, value) in arguments {
            completion = completion.with_context(name.clone(), value.as_str().unwrap_or_default());
        }
    }
    completion
}

/// The contract check of one prompt, resource, template or completion example.
pub(crate) fn check_primitive_against(
    router: &Router,
    book: &ExampleBook,
    target: &Target,
    name: &str,
) -> Result<(), String> {
    let what = format!("{}, example `{name}`", target.label());
    let (entry, scope) = book.request_entry(target, name).ok_or_else(|| {
        let available: Vec<String> = book
            .target_names(target)
            .iter()
            .map(|n| format!("`{n}`"))
            .collect();
        format!(
            "{}: no example `{name}` (available: {})",
            target.label(),
            available.join(", ")
        )
    })?;
    let version = latest(scope);
    let cx = Context::new(version);
    let protocol = |e: ProtocolError| {
        format!(
            "{what} (MCP {version}): JSON-RPC error {}: {}",
            e.code, e.message
        )
    };
    let actual = match target {
        Target::Prompt(prompt) => {
            let arguments = entry.request.as_object().cloned();
            futures::executor::block_on(router.get_prompt(prompt, arguments, cx))
                .map_err(protocol)?
                .to_wire(version)
        }
        Target::Resource(_) | Target::ResourceTemplate(_) => {
            let uri = entry.request.as_str().unwrap_or_default();
            futures::executor::block_on(router.read_resource(uri, cx))
                .map_err(protocol)?
                .to_wire(version)
        }
        Target::Completion(completion) => {
            let text = |p: &str| {
                entry
                    .request
                    .pointer(p)
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_owned()
            };
            let mut request =
                CompletionRequest::new(text("/argument/name"), text("/argument/value"));
            if let Some(Value::Object(arguments)) = entry.request.pointer("/context/arguments") {
                for (k, v) in arguments {
                    request = request.with_context(k.clone(), v.as_str().unwrap_or_default());
                }
            }
            futures::executor::block_on(router.complete(completion, request, cx))
                .map_err(protocol)?
                .to_wire(version)
        }
        Target::Tool(_) => return Ok(()),
    };
    let shape = |v: &Value| -> Value {
        let items = |key: &str| {
            v.get(key)
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default()
        };
        match target {
            Target::Prompt(_) => Value::Array(
                items("messages")
                    .iter()
                    .map(|m| serde_json::json!([m.get("role"), m.pointer("/content/type")]))
                    .collect(),
            ),
            Target::Completion(_) => v
                .pointer("/completion/values")
                .cloned()
                .unwrap_or(Value::Null),
            _ => Value::Array(
                items("contents")
                    .iter()
                    .map(|c| {
                        serde_json::json!([
                            c.get("uri"),
                            c.get("mimeType"),
                            c.get("text").is_some(),
                            c.get("blob").is_some()
                        ])
                    })
                    .collect(),
            ),
        }
    };
    let (expected, got) = (shape(&entry.result), shape(&actual));
    if expected == got {
        return Ok(());
    }
    let compared = match target {
        Target::Prompt(_) => "messages (role, content kind)",
        Target::Completion(_) => "completion values",
        _ => "contents (uri, mimeType, text, blob)",
    };
    Err(format!(
        "{what} (MCP {version}): the implementation's result differs from the example:\n- {compared}:\n    expected: {expected}\n    actual:   {got}"
    ))
}
