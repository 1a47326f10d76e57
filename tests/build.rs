//! The `build.rs` front end at work: the tests in `tests/builder.rs` include what it
//! generates.

fn main() {
    mcpdesc_codegen::Builder::new("drift/v1.mcpdesc.json")
        .tests(false)
        .file_name("drift_v1")
        .compile_or_exit();
}
