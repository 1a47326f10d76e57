//! The run-time benchmark's two servers of one greeter tool, and the harness that
//! drives them.
//!
//! - [`generated`]: the router mcpdesc generates from `greeter.mcpdesc.json` (build
//!   script, default settings), implemented by one trait method;
//! - [`handwritten`]: the same tool written by hand with rmcp's `#[tool]` and
//!   `#[tool_router]` macros;
//! - [`harness`]: either server in process over a `tokio::io::duplex` pipe to an rmcp
//!   client, the calls the benchmark times, and the binaries' memory probe;
//! - [`http`]: the generated router behind mcpdesc's `HttpServer` and the hand-written
//!   server behind rmcp's `StreamableHttpService` in axum, each on a thread of its own
//!   whose CPU time is read, and the raw HTTP/1.1 client that drives both.
//!
//! Both sides run the same tool body, [`greeting`], so what the benchmark measures is
//! everything around it: argument checking and parsing, dispatch, result shaping and
//! the wire.

pub mod generated;
pub mod handwritten;
pub mod harness;
pub mod http;

/// The greeter's tool body, shared by both servers: the greeting and its length in
/// characters.
pub fn greeting(name: &str, excited: bool) -> (String, u64) {
    let greeting = format!("Hello, {name}{}", if excited { "!" } else { "." });
    let length = greeting.chars().count() as u64;
    (greeting, length)
}
