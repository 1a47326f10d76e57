//! Where generation spends its time: each phase of `generate` timed on its own.
//!
//! `cargo bench -p mcpdesc-codegen --bench phases` runs the phases of
//! `mcpdesc_codegen::generate` one after the other (load and validate, the IR, the
//! types through typify, each emitter, the token pass, parsing the file, formatting it)
//! on synthetic descriptions of 200, 1,000 and 5,000 tools (`MCPDESC_BENCH_SIZES` to
//! choose), and prints each phase's share, so
//! that the profile of the side-by-side benchmark's ratio can be read phase by phase.

use std::time::{Duration, Instant};

use mcpdesc_codegen::generate::{client, escape, examples, ir, server, tests, types};
use mcpdesc_codegen::{Description, Format, Limits, Settings};
use quote::quote;

mod support;

fn main() {
    let limits = Limits {
        max_bytes: 1024 * 1024 * 1024,
        ..Limits::default()
    };
    let sizes: Vec<usize> = std::env::var("MCPDESC_BENCH_SIZES")
        .ok()
        .map(|s| s.split(',').filter_map(|n| n.trim().parse().ok()).collect())
        .unwrap_or_else(|| vec![200, 1_000, 5_000]);
    // `MCPDESC_BENCH_FILE=path` times one description instead (run 20 times, the last
    // run printed: the one-time initialization is then out of the figures).
    let inputs: Vec<(String, String, usize)> = match std::env::var("MCPDESC_BENCH_FILE") {
        Ok(path) => {
            let text = std::fs::read_to_string(&path).expect("MCPDESC_BENCH_FILE is readable");
            vec![(path, text, 20)]
        }
        Err(_) => sizes
            .into_iter()
            .map(|n| (format!("{n} tools"), support::description(n), 1))
            .collect(),
    };
    for (label, text, runs) in inputs {
        for run in 0..runs {
            let text = text.clone();
            let settings = Settings::new();
            let mut phases: Vec<(&str, Duration)> = Vec::new();
            let mut time = |name, start: Instant| phases.push((name, start.elapsed()));

            let start = Instant::now();
            let desc = Description::from_text("bench.json", text, Some(Format::Json), &limits);
            time("load + validate", start);
            let doc = desc.document().expect("valid");
            let mut diagnostics = Vec::new();
            let start = Instant::now();
            let mut ir = ir::build(&desc, doc, &settings, &mut diagnostics).expect("a view");
            time("IR (names, prepared schemas)", start);
            let start = Instant::now();
            let types = types::emit(&mut ir, &settings, &mut diagnostics);
            time("types (typify)", start);
            let start = Instant::now();
            let server = server::emit(&ir, &settings);
            time("metadata, traits, router", start);
            let start = Instant::now();
            let examples = examples::emit(&ir, &settings);
            time("examples, mock", start);
            let start = Instant::now();
            let client = client::emit(&ir, &settings, &mut diagnostics);
            time("client", start);
            let start = Instant::now();
            let tests = tests::emit(&ir, &settings, &mut diagnostics);
            time("example tests", start);
            let start = Instant::now();
            let items = escape::sanitize(
                quote! { #types #server #examples #client #tests },
                ir.type_names.placeholders(),
            );
            time("token pass (escape)", start);
            let start = Instant::now();
            let file: syn::File = syn::parse2(items).expect("parses");
            time("parse the file (syn)", start);
            let start = Instant::now();
            let code = prettyplease::unparse(&file);
            time("format (prettyplease)", start);

            if run + 1 < runs {
                continue;
            }
            let total: Duration = phases.iter().map(|(_, d)| *d).sum();
            println!(
                "{label}: {:.1} ms, {} bytes",
                total.as_secs_f64() * 1e3,
                code.len()
            );
            for (name, d) in &phases {
                println!(
                    "  {name:<30} {:>9.1} ms {:>5.1}%",
                    d.as_secs_f64() * 1e3,
                    100.0 * d.as_secs_f64() / total.as_secs_f64()
                );
            }
        }
    }
}
