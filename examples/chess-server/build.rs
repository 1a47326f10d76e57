//! Generates the server module from `../chess/chess.mcpdesc.json` into `$OUT_DIR/chess.rs`.

use std::path::Path;

use mcpdesc_codegen::{generate, Description, Limits, Settings};

fn main() {
    let manifest = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let path = Path::new(&manifest).join("../chess/chess.mcpdesc.json");
    println!("cargo::rerun-if-changed={}", path.display());
    let desc = match Description::from_path(&path, &Limits::default()) {
        Ok(desc) => desc,
        Err(e) => {
            println!("cargo::error=cannot read {}: {e}", path.display());
            std::process::exit(1);
        }
    };
    let generated = match generate::generate(&desc, &Settings::default().derive("PartialEq")) {
        Ok(generated) => generated,
        Err(e) => {
            for line in desc.render_diagnostics().lines() {
                println!("cargo::error={line}");
            }
            println!("cargo::error={e}");
            std::process::exit(1);
        }
    };
    let out = Path::new(&std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("chess.rs");
    if std::fs::read_to_string(&out).ok().as_deref() != Some(generated.code.as_str()) {
        std::fs::write(&out, &generated.code).expect("OUT_DIR is writable");
    }
}
