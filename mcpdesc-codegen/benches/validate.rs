//! Validation throughput on synthetic descriptions of growing size.
//!
//! `cargo bench -p mcpdesc-codegen --bench validate` prints the time per tool for
//! 100, 1,000 and 5,000 tools (each with a nested schema and two examples). A flat
//! time per tool across sizes shows the work is linear in the size of the description.

use std::time::Instant;

use mcpdesc_codegen::{Description, Format, Limits};

mod support;
use support::description;

fn main() {
    let limits = Limits {
        max_bytes: 256 * 1024 * 1024,
        ..Limits::default()
    };
    for n in [100, 1_000, 5_000] {
        let text = description(n);
        let start = Instant::now();
        let desc = Description::from_text("bench.json", text.clone(), Some(Format::Json), &limits);
        let elapsed = start.elapsed();
        assert!(desc.is_valid(), "{}", desc.render_diagnostics());
        println!(
            "{n:>6} tools, {:>9} bytes: {:>8.1} ms total, {:>6.1} µs per tool",
            text.len(),
            elapsed.as_secs_f64() * 1e3,
            elapsed.as_secs_f64() * 1e6 / n as f64
        );
    }
}
