//! The code generated from the description (its own file: `graph.rs` implements the
//! traits it declares, and `main.rs` serves its router).

mcpdesc::mcpdesc!(path = "memory.mcpdesc.yaml", derives = [PartialEq]);
