//! Generates the server module from `../chess/chess.mcpdesc.json` into `$OUT_DIR/chess.rs`
//! (included by `mcpdesc::include_generated!("chess")`).
//!
//! `test_server` makes the generated example tests run every example of the
//! description against this crate's implementation (a fresh `ChessServer` per test),
//! through the generated router, and compare the answers with the examples.

fn main() {
    mcpdesc_codegen::Builder::new("../chess/chess.mcpdesc.json")
        .derive("PartialEq")
        .test_server("crate::ChessServer::new()")
        .compile_or_exit();
}
