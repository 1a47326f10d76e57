//! Generates the greeter's contract module from `greeter.mcpdesc.json` into
//! `$OUT_DIR/greeter.rs` with the default settings (what `Builder::new(path)` emits).

fn main() {
    mcpdesc_codegen::Builder::new("greeter.mcpdesc.json").compile_or_exit();
}
