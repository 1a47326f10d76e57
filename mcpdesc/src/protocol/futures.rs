//! The future types of handlers: [`BoxFuture`], and the bounds of generated handler
//! methods' return types ([`ToolFuture`], [`RequestFuture`]).

use super::error::{RequestError, ToolError};

/// A boxed, `Send` future; the same type as `futures::future::BoxFuture`.
pub type BoxFuture<'a, T> = futures::future::BoxFuture<'a, T>;

/// What a tool's handler method returns: a `Send` future of its output or a
/// [`ToolError`]. Generated handler traits declare
/// `fn analyze_game(&self, input: ..., cx: Context) -> impl ToolFuture<Output>`; an
/// implementation writes `async fn analyze_game(&self, ...) -> Result<Output, ToolError>`
/// (or returns any `Send` future with that output).
pub trait ToolFuture<T>: std::future::Future<Output = Result<T, ToolError>> + Send {}

impl<T, F> ToolFuture<T> for F where F: std::future::Future<Output = Result<T, ToolError>> + Send {}

/// What a prompt's, resource's, resource template's or completion's handler method
/// returns: a `Send` future of its answer or a [`crate::RequestError`](RequestError) (the JSON-RPC
/// error of the request). Implement it with `async fn`.
pub trait RequestFuture<T>: std::future::Future<Output = Result<T, RequestError>> + Send {}

impl<T, F> RequestFuture<T> for F where
    F: std::future::Future<Output = Result<T, RequestError>> + Send
{
}
