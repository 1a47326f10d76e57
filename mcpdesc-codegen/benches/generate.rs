//! Code generation throughput on synthetic descriptions of growing size.
//!
//! `cargo bench -p mcpdesc-codegen --bench generate` prints the time per tool of
//! `generate` (types through typify, traits, router, examples, tests, formatting) for
//! 50, 200 and 1,000 tools of the same shape as the validation benchmark. A flat time
//! per tool across sizes shows the work is linear in the number of tools.

use std::time::Instant;

use mcpdesc_codegen::{Description, Format, Limits, Settings};

mod support;
use support::description;

fn main() {
    let limits = Limits {
        max_bytes: 256 * 1024 * 1024,
        ..Limits::default()
    };
    for n in [50, 200, 1_000] {
        let desc =
            Description::from_text("bench.json", description(n), Some(Format::Json), &limits);
        assert!(desc.is_valid(), "{}", desc.render_diagnostics());
        let start = Instant::now();
        let generated = mcpdesc_codegen::generate(&desc, &Settings::new()).expect("generates");
        let elapsed = start.elapsed();
        assert!(!generated.has_errors());
        println!(
            "{n:>6} tools: {:>8.1} ms total, {:>6.2} ms per tool, {:>9} bytes of code",
            elapsed.as_secs_f64() * 1e3,
            elapsed.as_secs_f64() * 1e3 / n as f64,
            generated.code.len()
        );
    }
}
