//! The generator-level property test: random valid descriptions (`build_random.rs`:
//! tools, prompts, resources, templates, security schemes and elicitations, with names and
//! text from a hostile corpus), each generated into a module of this crate, which
//! compiles with every warning denied. `MCPDESC_RANDOM_DESCRIPTIONS=200` runs more of
//! them; `MCPDESC_RANDOM_SEED` another seed.

#![deny(warnings)]

#[allow(missing_docs)]
mod cases {
    include!(concat!(env!("OUT_DIR"), "/random/mod.rs"));
}

/// The descriptions were generated (the build script stops at one that is invalid or
/// does not generate); that this crate compiled is the property.
#[test]
fn random_descriptions_generate_code_that_compiles() {
    const { assert!(cases::COUNT >= 1, "no random description") };
    let dir = std::path::Path::new(env!("OUT_DIR")).join("random");
    for i in 0..cases::COUNT {
        assert!(dir.join(format!("random_{i}.rs")).is_file(), "random_{i}");
    }
    println!(
        "{} random descriptions of seed {}",
        cases::COUNT,
        cases::SEED
    );
}
