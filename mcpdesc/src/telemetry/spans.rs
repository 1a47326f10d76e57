//! One OpenTelemetry span per MCP operation, as the conventions name it:
//! `{mcp.method.name} {target}` (`tools/call get_weather`, `prompts/get review`,
//! `initialize`), kind `SERVER`, a child of the caller's span when the request's
//! `params._meta` carries a W3C `traceparent` (and `tracestate`), else a root.
//!
//! The span is made when the operation's answer is known, with the request's
//! arrival as its start: nothing is held per request in flight, and the
//! attributes are all known by then. Its attributes: `mcp.method.name`,
//! `gen_ai.tool.name` or `gen_ai.prompt.name`, `gen_ai.operation.name`
//! (`execute_tool` on a tool call), `jsonrpc.request.id`, `mcp.session.id`,
//! `mcp.protocol.version`, `network.transport`, `user.id` (the authenticated
//! principal's subject), and on failure `error.type`, `rpc.response.status_code`
//! and the `ERROR` status. No argument and no credential is recorded; nor is a
//! resource URI (a template's URI carries argument values).

use std::collections::HashMap;

use opentelemetry::global::BoxedTracer;
use opentelemetry::propagation::TextMapPropagator;
use opentelemetry::trace::{Span, SpanKind, Status, Tracer};
use opentelemetry::KeyValue;
use opentelemetry_sdk::propagation::TraceContextPropagator;

use super::names;
use super::operation::{Operation, Target};

/// Where spans go.
pub(crate) struct Spans {
    tracer: BoxedTracer,
    propagator: TraceContextPropagator,
}

impl Spans {
    pub(crate) fn new(tracer: BoxedTracer) -> Spans {
        Spans {
            tracer,
            propagator: TraceContextPropagator::new(),
        }
    }

    /// Records the span of `operation`.
    pub(crate) fn operation(&self, operation: &Operation<'_>) {
        let name = match operation.target.name() {
            Some(target) => format!("{} {target}", operation.method),
            None => operation.method.to_owned(),
        };
        let mut carrier = HashMap::new();
        if let Some(traceparent) = operation.traceparent {
            carrier.insert("traceparent".to_owned(), traceparent.to_owned());
            if let Some(tracestate) = operation.tracestate {
                carrier.insert("tracestate".to_owned(), tracestate.to_owned());
            }
        }
        // An absent or malformed traceparent gives an empty context: a root span.
        let parent = self.propagator.extract(&carrier);
        let mut attributes = vec![
            KeyValue::new(names::METHOD_NAME, operation.method.to_owned()),
            KeyValue::new(names::NETWORK_TRANSPORT, names::TCP),
        ];
        match operation.target {
            Target::Tool(tool) => {
                attributes.push(KeyValue::new(names::TOOL_NAME, tool.to_owned()));
                attributes.push(KeyValue::new(names::OPERATION_NAME, "execute_tool"));
            }
            Target::Prompt(prompt) => {
                attributes.push(KeyValue::new(names::PROMPT_NAME, prompt.to_owned()))
            }
            Target::None => {}
        }
        let optional = [
            (names::REQUEST_ID, operation.request_id.as_deref()),
            (names::SESSION_ID, operation.session_id),
            (names::PROTOCOL_VERSION, operation.protocol_version),
            (names::USER_ID, operation.subject),
            (names::ERROR_TYPE, operation.error_type.as_deref()),
        ];
        for (key, value) in optional {
            if let Some(value) = value {
                attributes.push(KeyValue::new(key, value.to_owned()));
            }
        }
        if let Some(code) = operation.error_code {
            attributes.push(KeyValue::new(names::RESPONSE_STATUS_CODE, code.to_string()));
        }
        let mut span = self
            .tracer
            .span_builder(name)
            .with_kind(SpanKind::Server)
            .with_start_time(operation.started)
            .with_attributes(attributes)
            .start_with_context(&self.tracer, &parent);
        if let Some(error) = &operation.error_type {
            span.set_status(Status::error(error.clone()));
        }
        span.end_with_timestamp(operation.started + operation.duration);
    }
}
