//! Generates the server module from `conformance.mcpdesc.json` into
//! `$OUT_DIR/conformance.rs` (included by `mcpdesc::include_generated!("conformance")`).

fn main() {
    mcpdesc_codegen::Builder::new("conformance.mcpdesc.json").compile_or_exit();
}
