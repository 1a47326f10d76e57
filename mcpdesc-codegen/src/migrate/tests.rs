//! Unit tests of the migration steps (the sample-based tests are in `tests/tests/migrate.rs`).
