//! `mcpdesc check` against servers it can trust or distrust: `mcpdesc serve-mock` of the
//! chess description and (with the shared corpus, `tests/prereq.rs`) every shared
//! real-world description under `--strict`; servers that drifted from their
//! description (serve-mock of a mutated copy); servers that crash, hang, write garbage
//! or never initialize; the JSON report; usage errors. The command runs in process
//! (`mcpdesc_cli::run`), the servers are the built `mcpdesc` binary and `sh` scripts.
//!
//! Files: `support.rs` (running `check`, the servers), `described.rs` (servers true to
//! their description), `drifted.rs`, `report.rs` (the JSON report), `faulty.rs`
//! (servers that crash, hang or write garbage; Ctrl-C), `http.rs`, `refused.rs` (usage
//! errors, what cannot be generated or selected), `compared.rs` (shape examples, cache
//! hints), `ordered.rs` (the order of examples against a server with state), `python.rs` (a lax server on the official Python SDK).

#[path = "../../../tests/e2e/harness.rs"]
mod harness;

mod compared;
mod described;
mod drifted;
mod faulty;
mod http;
mod ordered;
mod python;
mod refused;
mod report;
mod support;
