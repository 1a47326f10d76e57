//! Generates the greeter's contract modules with the default settings (what
//! `Builder::new(path)` emits): `$OUT_DIR/greeter.rs` from `greeter.mcpdesc.json`, and
//! `$OUT_DIR/greeter_secured.rs` from `greeter-secured.mcpdesc.json` (the same tool
//! behind a bearer scheme, for the HTTP benchmark's security gate).

fn main() {
    mcpdesc_codegen::Builder::new("greeter.mcpdesc.json").compile_or_exit();
    mcpdesc_codegen::Builder::new("greeter-secured.mcpdesc.json").compile_or_exit();
}
