//! The boxed handlers of prompts, resources, resource templates and completions, as
//! the router stores them.

use std::sync::Arc;

use serde_json::{Map, Value};

use crate::protocol::completions::{CompletionRequest, CompletionResult};
use crate::protocol::error::RequestError;
use crate::protocol::futures::BoxFuture;
use crate::protocol::prompts::PromptResult;
use crate::protocol::resources::ResourceResult;
use crate::server::context::Context;

/// The boxed handler of one prompt: its arguments (checked: every required one present,
/// all strings) and the request's context in.
pub type PromptHandler = Arc<
    dyn Fn(Map<String, Value>, Context) -> BoxFuture<'static, Result<PromptResult, RequestError>>
        + Send
        + Sync,
>;

/// The boxed handler of one resource: the URI read and the request's context in.
pub type ResourceHandler = Arc<
    dyn Fn(String, Context) -> BoxFuture<'static, Result<ResourceResult, RequestError>>
        + Send
        + Sync,
>;

/// The boxed handler of one resource template: the URI read, its variables (a JSON
/// object of strings for a level-1 template, one raw string beyond level 1; see
/// [`UriTemplate::match_uri`]) and the request's context in.
///
/// [`UriTemplate::match_uri`]: crate::protocol::uri_template::UriTemplate::match_uri
pub type ResourceTemplateHandler = Arc<
    dyn Fn(String, Value, Context) -> BoxFuture<'static, Result<ResourceResult, RequestError>>
        + Send
        + Sync,
>;

/// The boxed completion handler of one prompt or resource template.
pub type CompletionHandler = Arc<
    dyn Fn(CompletionRequest, Context) -> BoxFuture<'static, Result<CompletionResult, RequestError>>
        + Send
        + Sync,
>;
