//! Generates the client side of `../chess/chess.mcpdesc.json` into `$OUT_DIR/chess.rs`:
//! types and the typed `Client`, no handler traits (nothing to implement).

fn main() {
    mcpdesc_codegen::Builder::new("../chess/chess.mcpdesc.json")
        .side(mcpdesc_codegen::Side::Client)
        .compile_or_exit();
}
