//! The hostile corpus (`tests/hostile/`): descriptions written to break the generator.
//! The build script generates each into a module of this crate, which compiles with
//! every warning denied; the tests below check what each case is there for.

#![deny(warnings)]

#[allow(missing_docs)]
mod cases {
    include!(concat!(env!("OUT_DIR"), "/hostile/mod.rs"));
}
