//! Generates the modules the doc tests of the manual use, as a user's build script
//! would: `mcpdesc::include_generated!("chess")` (and `"games"`, `"greeter"`) then
//! works in a block exactly as the pages show it.
//!
//! - `chess`: `examples/chess/chess.mcpdesc.json`, both sides (server and typed client);
//! - `games`: `games.mcpdesc.json`, the secured server of `docs/security.md`;
//! - `greeter`: the description README.md shows, read out of README.md itself (the
//!   `yaml` block whose first line is `# greeter.mcpdesc.yaml`), so the README's
//!   description and its Rust code cannot drift apart.

use std::path::PathBuf;

use mcpdesc_codegen::{Builder, Side};

fn main() {
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    println!("cargo::rerun-if-changed=../README.md");
    println!("cargo::rerun-if-changed=../examples/chess/chess.mcpdesc.json");
    println!("cargo::rerun-if-changed=games.mcpdesc.json");

    Builder::new("../examples/chess/chess.mcpdesc.json")
        .derive("PartialEq")
        .side(Side::Both)
        .tests(false)
        .compile_or_exit();
    Builder::new("games.mcpdesc.json")
        .tests(false)
        .compile_or_exit();

    let readme = std::fs::read_to_string("../README.md").expect("README.md");
    let Some(greeter) = yaml_block(&readme, "# greeter.mcpdesc.yaml") else {
        println!(
            "cargo::error=README.md has no ```yaml block starting with `# greeter.mcpdesc.yaml`"
        );
        std::process::exit(1);
    };
    let path = out.join("greeter.mcpdesc.yaml");
    std::fs::write(&path, greeter).expect("write the README's description");
    Builder::new(&path).compile_or_exit();
}

/// The text of the first ```yaml block of `markdown` whose first line is `first`.
fn yaml_block(markdown: &str, first: &str) -> Option<String> {
    let mut lines = markdown.lines();
    while let Some(line) = lines.next() {
        if line.trim_end() != "```yaml" {
            continue;
        }
        let block: Vec<&str> = lines
            .by_ref()
            .take_while(|l| !l.starts_with("```"))
            .collect();
        if block.first().map(|l| l.trim_end()) == Some(first) {
            return Some(block.join("\n") + "\n");
        }
    }
    None
}
