//! Generates the server module from `../chess/chess.mcpdesc.json` into `$OUT_DIR/chess.rs`
//! (included by `mcpdesc::include_generated!("chess")`).

fn main() {
    mcpdesc_codegen::Builder::new("../chess/chess.mcpdesc.json")
        .derive("PartialEq")
        .compile_or_exit();
}
