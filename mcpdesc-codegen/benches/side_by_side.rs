//! Code generation side by side with typify alone, in one process.
//!
//! `cargo bench -p mcpdesc-codegen --bench side_by_side` prints, for each description:
//!
//! - **typify alone**: every tool's `inputSchema` and `outputSchema` added to one
//!   `typify::TypeSpace` (each schema's `$defs` as definitions named after its tool), the
//!   tokens formatted with prettyplease: what a crate that only wants the types would run;
//! - **mcpdesc**: the whole pipeline of `Builder::new(path)`'s default settings (load,
//!   validate, generate: types, metadata, traits, router, examples, mock, client, tests,
//!   formatting);
//! - the time of the `mcpdesc!` macro's path (`generate_tokens`: the same items, not
//!   formatted) and its ratio;
//! - the ratio of times and of bytes, the time per tool, the bytes of the description's
//!   data the file carries in raw string literals (resolved declarations, example JSON;
//!   typify's output has no such data) and the ratio of the rest ("code x"), and the
//!   bytes of each part of the generated file (so that a growth shows where it happens).
//!
//! Descriptions: the shared real-world corpus (`../shared/conformance/real-world`, or
//! `MCPDESC_SHARED_DIR`), when present; the repository's own larger descriptions; and
//! synthetic descriptions of 100, 1,000 and 5,000 tools (`MCPDESC_BENCH_SIZES=100,1000`
//! to choose). Each measurement is the best of several runs (fewer for large inputs).

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use mcpdesc_codegen::{Description, Format, Limits, Settings};
use serde_json::Value;

mod support;

fn main() {
    let limits = Limits {
        max_bytes: 1024 * 1024 * 1024,
        ..Limits::default()
    };
    let mut inputs: Vec<(String, String)> = Vec::new();
    for path in real_world() {
        if let Ok(text) = std::fs::read_to_string(&path) {
            inputs.push((file_name(&path), text));
        }
    }
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    for rel in [
        "examples/chess/chess.mcpdesc.json",
        "tests/fixtures/generator/constructs.mcpdesc.json",
        "tests/fixtures/generator/primitives.mcpdesc.json",
    ] {
        if let Ok(text) = std::fs::read_to_string(repo.join(rel)) {
            inputs.push((rel.rsplit('/').next().unwrap_or(rel).to_owned(), text));
        }
    }
    let sizes: Vec<usize> = std::env::var("MCPDESC_BENCH_SIZES")
        .ok()
        .map(|s| s.split(',').filter_map(|n| n.trim().parse().ok()).collect())
        .unwrap_or_else(|| vec![100, 1_000, 5_000]);
    for n in sizes {
        inputs.push((format!("synthetic-{n}"), support::description(n)));
    }

    println!(
        "{:<30} {:>5} {:>10} {:>10} {:>6} {:>9} {:>10} {:>10} {:>6} {:>9} {:>6} {:>9} {:>6}",
        "description",
        "tools",
        "typify ms",
        "mcpdesc ms",
        "x",
        "ms/tool",
        "typify B",
        "mcpdesc B",
        "x",
        "data B",
        "code x",
        "macro ms",
        "x"
    );
    let mut totals = (Duration::ZERO, Duration::ZERO, 0usize, 0usize);
    let mut parts_of: Vec<(String, Vec<(&'static str, usize)>)> = Vec::new();
    for (name, text) in &inputs {
        let value: Value = match serde_json::from_str(text) {
            Ok(v) => v,
            Err(e) => {
                println!("{name}: not JSON ({e}); skipped");
                continue;
            }
        };
        let tools = value["tools"].as_array().map_or(0, Vec::len);
        let runs = if text.len() > 2_000_000 { 1 } else { 3 };
        let (units, left_out) = typify_inputs(&value);
        if left_out > 0 {
            println!("({name}: {left_out} schema(s) typify cannot convert alone are left out of its side)");
        }
        let (typify_time, typify_code) = best_of(runs, || typify_alone(&units).unwrap_or_default());
        let (ours_time, ours_code) = best_of(runs, || {
            let desc = Description::from_text(
                &format!("{name}.json"),
                text.clone(),
                Some(Format::Json),
                &limits,
            );
            mcpdesc_codegen::generate(&desc, &Settings::new())
                .expect("the benchmark's descriptions are valid")
                .code
        });
        // The `mcpdesc!` macro's path: the same items as tokens, not formatted.
        let (macro_time, _) = best_of(runs, || {
            let desc = Description::from_text(
                &format!("{name}.json"),
                text.clone(),
                Some(Format::Json),
                &limits,
            );
            mcpdesc_codegen::generate_tokens(&desc, &Settings::new())
                .expect("the benchmark's descriptions are valid")
                .code
        });
        let data = raw_string_bytes(&ours_code);
        println!(
            "{:<30} {:>5} {:>10.1} {:>10.1} {:>6.2} {:>9.3} {:>10} {:>10} {:>6.2} {:>9} {:>6.2} {:>9.1} {:>6.2}",
            name,
            tools,
            ms(typify_time),
            ms(ours_time),
            ours_time.as_secs_f64() / typify_time.as_secs_f64(),
            ms(ours_time) / tools.max(1) as f64,
            typify_code.len(),
            ours_code.len(),
            ours_code.len() as f64 / typify_code.len().max(1) as f64,
            data,
            (ours_code.len() - data) as f64 / typify_code.len().max(1) as f64,
            ms(macro_time),
            macro_time.as_secs_f64() / typify_time.as_secs_f64(),
        );
        totals.0 += typify_time;
        totals.1 += ours_time;
        totals.2 += typify_code.len();
        totals.3 += ours_code.len();
        parts_of.push((name.clone(), parts(&ours_code)));
    }
    println!(
        "{:<30} {:>5} {:>10.1} {:>10.1} {:>6.2} {:>9} {:>10} {:>10} {:>6.2}",
        "all",
        "",
        ms(totals.0),
        ms(totals.1),
        totals.1.as_secs_f64() / totals.0.as_secs_f64(),
        "",
        totals.2,
        totals.3,
        totals.3 as f64 / totals.2.max(1) as f64
    );
    println!();
    println!("bytes of each part of the generated file:");
    let mut names: Vec<&str> = PARTS.iter().map(|(_, n)| *n).collect();
    names.dedup();
    print!("{:<30}", "description");
    for n in &names {
        print!(" {n:>9}");
    }
    println!();
    for (name, parts) in &parts_of {
        print!("{name:<30}");
        for n in &names {
            let bytes = parts.iter().find(|(p, _)| p == n).map_or(0, |(_, b)| *b);
            print!(" {bytes:>9}");
        }
        println!();
    }
}

/// The bytes inside raw string literals (`r#"..."#`): the description's data the
/// generated file carries (resolved declarations, example JSON), which typify's types
/// do not. "code x" is the ratio without them.
fn raw_string_bytes(code: &str) -> usize {
    let mut total = 0;
    let mut rest = code;
    while let Some(at) = rest.find("r#") {
        let after = &rest[at + 1..];
        let hashes = after.bytes().take_while(|b| *b == b'#').count();
        if !after[hashes..].starts_with('"') {
            rest = &rest[at + 2..];
            continue;
        }
        let body = &after[hashes + 1..];
        let close = format!("\"{}", "#".repeat(hashes));
        match body.find(&close) {
            Some(end) => {
                total += end;
                rest = &body[end + close.len()..];
            }
            None => break,
        }
    }
    total
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// The shared real-world descriptions, when the corpus is beside the repository.
fn real_world() -> Vec<PathBuf> {
    let shared = std::env::var_os("MCPDESC_SHARED_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared"));
    let mut paths: Vec<PathBuf> = std::fs::read_dir(shared.join("conformance/real-world"))
        .map(|dir| {
            dir.filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| p.to_string_lossy().ends_with(".mcpdesc.json"))
                .collect()
        })
        .unwrap_or_default();
    paths.sort();
    paths
}

/// The best time of `runs` runs of `f`, and its last output.
fn best_of(runs: usize, mut f: impl FnMut() -> String) -> (Duration, String) {
    let mut best = Duration::MAX;
    let mut out = String::new();
    for _ in 0..runs {
        let start = Instant::now();
        out = f();
        best = best.min(start.elapsed());
    }
    (best, out)
}

/// Every tool's input and output schema as typify definitions: `{Tool}Input` /
/// `{Tool}Output`, their `$defs` as `{Tool}{Suffix}{Def}`; schemas typify panics or
/// fails on alone are left out (screened before timing, counted in the second value).
fn typify_inputs(description: &Value) -> (Vec<Vec<(String, Value)>>, usize) {
    let mut units = Vec::new();
    for tool in description["tools"].as_array().into_iter().flatten() {
        let Some(name) = tool["name"].as_str() else {
            continue;
        };
        let prefix = pascal(name);
        for (member, suffix) in [("inputSchema", "Input"), ("outputSchema", "Output")] {
            if let Some(schema) = tool.get(member) {
                let type_name = format!("{prefix}{suffix}");
                let mut unit = Vec::new();
                let mut schema = schema.clone();
                if let Some(Value::Object(inner)) = schema
                    .as_object_mut()
                    .and_then(|o| o.remove("$defs").or_else(|| o.remove("definitions")))
                {
                    for (def, def_schema) in inner {
                        let mut def_schema = def_schema;
                        rename_refs(&mut def_schema, &type_name);
                        unit.push((format!("{type_name}{def}"), def_schema));
                    }
                }
                rename_refs(&mut schema, &type_name);
                unit.push((type_name, schema));
                units.push(unit);
            }
        }
    }
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let before = units.len();
    units.retain(|unit| {
        std::panic::catch_unwind(|| typify_alone(std::slice::from_ref(unit)).is_some())
            .unwrap_or(false)
    });
    std::panic::set_hook(hook);
    let left_out = before - units.len();
    (units, left_out)
}

/// typify alone: one `TypeSpace` with every unit, its tokens formatted.
fn typify_alone(units: &[Vec<(String, Value)>]) -> Option<String> {
    let schemas = units.iter().flatten().filter_map(|(n, v)| {
        serde_json::from_value(v.clone())
            .ok()
            .map(|s| (n.clone(), s))
    });
    let mut space = typify::TypeSpace::new(&typify::TypeSpaceSettings::default());
    space.add_ref_types(schemas).ok()?;
    let file = syn::parse2::<syn::File>(space.to_stream()).ok()?;
    Some(prettyplease::unparse(&file))
}

/// `#/$defs/X` → `#/definitions/{prefix}X` everywhere in `value`.
fn rename_refs(value: &mut Value, prefix: &str) {
    match value {
        Value::Object(map) => {
            if let Some(Value::String(r)) = map.get_mut("$ref") {
                if let Some(def) = r
                    .strip_prefix("#/$defs/")
                    .or_else(|| r.strip_prefix("#/definitions/"))
                {
                    *r = format!("#/definitions/{prefix}{def}");
                }
            }
            for v in map.values_mut() {
                rename_refs(v, prefix);
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|v| rename_refs(v, prefix)),
        _ => {}
    }
}

fn pascal(name: &str) -> String {
    name.split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(|w| {
            let mut c = w.chars();
            c.next()
                .map(|f| f.to_ascii_uppercase().to_string() + c.as_str())
                .unwrap_or_default()
        })
        .collect()
}

/// Which part of the generated file each top-level item belongs to.
const PARTS: &[(&str, &str)] = &[
    ("types", "types"),
    ("info", "metadata"),
    ("tools", "metadata"),
    ("prompts", "metadata"),
    ("resources", "metadata"),
    ("resource_templates", "metadata"),
    ("trait", "traits"),
    ("router", "router"),
    ("examples", "examples"),
    ("ExampleServer", "mock"),
    ("Client", "client"),
    ("example_tests", "tests"),
    ("", "other"),
];

/// The formatted bytes of each part of a generated file.
fn parts(code: &str) -> Vec<(&'static str, usize)> {
    let Ok(file) = syn::parse_file(code) else {
        return Vec::new();
    };
    let mut out: Vec<(&'static str, usize)> = Vec::new();
    for item in file.items {
        let part = part_of(&item);
        let bytes = prettyplease::unparse(&syn::File {
            shebang: None,
            attrs: Vec::new(),
            items: vec![item],
        })
        .len();
        match out.iter_mut().find(|(p, _)| *p == part) {
            Some((_, b)) => *b += bytes,
            None => out.push((part, bytes)),
        }
    }
    out
}

fn part_of(item: &syn::Item) -> &'static str {
    let key = match item {
        syn::Item::Mod(m) => {
            let name = m.ident.to_string();
            if name.ends_with("_examples") {
                "examples".to_owned()
            } else {
                name
            }
        }
        syn::Item::Trait(_) => "trait".to_owned(),
        syn::Item::Fn(f) => {
            let name = f.sig.ident.to_string();
            if name.starts_with("router") {
                "router".to_owned()
            } else if name.contains("example") {
                "examples".to_owned()
            } else {
                name
            }
        }
        syn::Item::Struct(s) => s.ident.to_string(),
        syn::Item::Impl(i) => match (&i.trait_, &*i.self_ty) {
            (_, syn::Type::Path(p)) if p.path.is_ident("ExampleServer") => {
                "ExampleServer".to_owned()
            }
            (_, syn::Type::Path(p)) if p.path.is_ident("Client") => "Client".to_owned(),
            // `impl<T: A + B> Server for T {}` and other blanket impls of the traits.
            _ => "trait".to_owned(),
        },
        _ => String::new(),
    };
    PARTS
        .iter()
        .find(|(k, _)| *k == key)
        .map_or("other", |(_, part)| part)
}
