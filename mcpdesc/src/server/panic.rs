//! The message of a handler's panic, which the router writes to stderr when it
//! contains the panic.

/// The text of a panic payload: its `&str` or `String` message, else `(no message)`.
pub(crate) fn panic_message(payload: &(dyn std::any::Any + Send)) -> &str {
    if let Some(text) = payload.downcast_ref::<&str>() {
        text
    } else if let Some(text) = payload.downcast_ref::<String>() {
        text
    } else {
        "(no message)"
    }
}
