//! The generator-level property test's inputs: random valid descriptions (tools with
//! nested schemas, prompts, resources, templates, security schemes and elicitations, with
//! names and text drawn from a hostile corpus), seeded and deterministic. Each is
//! validated and generated into `$OUT_DIR/random/`, one module each, which
//! `tests/random.rs` compiles together with every warning denied.
//!
//! `MCPDESC_RANDOM_DESCRIPTIONS` sets how many (default 6: compiling is the cost) and
//! `MCPDESC_RANDOM_SEED` the seed (default 29); run with, say, 200 locally.

use std::path::PathBuf;

use mcpdesc_codegen::{Description, Format, Limits, Settings};
use serde_json::{json, Map, Value};

/// Names of tools, prompts, properties and arguments: collisions after case conversion,
/// keywords, reserved and generated names, non-ASCII, controls, the old placeholder
/// marker characters.
const NAMES: &[&str] = &[
    "type",
    "self",
    "Self",
    "a-b",
    "a_b",
    "aB",
    "A_B",
    "x",
    "X",
    "x-input",
    "x_input",
    "input",
    "output",
    "arguments",
    "variables",
    "Server",
    "client",
    "new",
    "T",
    "send",
    "result",
    "Ok",
    "ok",
    "None",
    "default",
    "crate",
    "super",
    "gen",
    "3d",
    "café",
    "天気",
    "a\u{10FFF0}b",
    "a.b",
    "a b",
    "get user",
    "getUser",
    "get_user",
    "r#x",
    "_",
    "__",
    "with_content",
    "x_with_content",
    "tools",
    "types",
    "info",
    "error",
];

/// Text for titles, descriptions and messages.
const TEXTS: &[&str] = &[
    "plain",
    "*/ /* \"quoted\" \\ backslash",
    "first line\rsecond\r\nthird",
    "```rust\nfn main() {}\n```",
    "evil \u{202e} reversed \u{2066} isolate",
    "tab\there {{braces}} #[attr] $x",
    "\u{10FFF0}\u{10FF00}\u{10FFF1} marker",
    "[link](x) <b>html</b>",
];

/// Enum values.
const VALUES: &[&str] = &[
    "open",
    "closed",
    "Open",
    "reactions-+1",
    "reactions--1",
    "",
    " ",
    "a-b",
    "a_b",
    "ok",
    "Ok",
];

/// xorshift64*: small, seeded, the same everywhere.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }

    fn pick<'a>(&mut self, list: &[&'a str]) -> &'a str {
        list[self.below(list.len())]
    }

    /// `least + below(spread)` different names of `list` (fewer when the list is
    /// shorter).
    fn names(&mut self, least: usize, spread: usize, list: &[&str]) -> Vec<String> {
        let n = least + self.below(spread);
        let mut out: Vec<String> = Vec::new();
        for _ in 0..n * 3 {
            let name = self.pick(list).to_owned();
            if !out.contains(&name) {
                out.push(name);
            }
            if out.len() == n {
                break;
            }
        }
        out
    }
}

fn schema(rng: &mut Rng, depth: usize) -> Value {
    let kinds = if depth == 0 { 5 } else { 7 };
    let mut s = match rng.below(kinds) {
        0 => {
            let mut s = json!({"type": "string"});
            if rng.chance(30) {
                s["minLength"] = json!(rng.below(2));
            }
            if rng.chance(40) {
                let mut values: Vec<&str> = Vec::new();
                for _ in 0..1 + rng.below(4) {
                    let v = rng.pick(VALUES);
                    if !values.contains(&v) {
                        values.push(v);
                    }
                }
                s = json!({"type": "string", "enum": values});
            }
            s
        }
        1 => {
            let mut s = json!({"type": "integer"});
            if rng.chance(40) {
                s["minimum"] = json!(rng.below(3));
            }
            if rng.chance(20) {
                s["multipleOf"] = json!(1);
            }
            s
        }
        2 => json!({"type": "number"}),
        3 => json!({"type": "boolean"}),
        4 => json!({"type": ["string", "null"]}),
        5 => json!({"type": "array", "items": schema(rng, depth - 1), "minItems": 0}),
        _ => object(rng, depth - 1),
    };
    if rng.chance(40) {
        s["description"] = json!(rng.pick(TEXTS));
    }
    s
}

fn object(rng: &mut Rng, depth: usize) -> Value {
    let n = rng.below(5);
    let mut properties = Map::new();
    for name in rng.names(n, 1, NAMES) {
        properties.insert(name, schema(rng, depth));
    }
    let required: Vec<String> = properties
        .keys()
        .filter(|_| rng.chance(40))
        .cloned()
        .collect();
    let mut s = json!({"type": "object", "properties": properties});
    if !required.is_empty() {
        s["required"] = json!(required);
    }
    s
}

fn description(rng: &mut Rng, i: usize) -> Value {
    let schemes = ["api-key", "api_key", "bearer", "Bearer"];
    let mut d = json!({
        "mcpdesc": "0.9.0",
        "info": {"name": format!("random-{i}"), "version": "1.0.0", "description": rng.pick(TEXTS)},
        "protocolVersions": ["2025-11-25"],
        "transports": [{"type": "streamable-http", "url": "https://random.example/mcp"}],
    });
    if rng.chance(60) {
        let mut defined = Map::new();
        for name in rng.names(1, 3, &schemes) {
            let scheme = if name.contains("api") {
                json!({"type": "apiKey", "in": "header", "name": "X-Key"})
            } else {
                json!({"type": "http", "scheme": "bearer"})
            };
            defined.insert(name, scheme);
        }
        let first = defined.keys().next().cloned().unwrap_or_default();
        d["securitySchemes"] = Value::Object(defined);
        d["security"] = json!([{ first: [] }]);
    }
    let tools: Vec<Value> = rng
        .names(1, 4, NAMES)
        .into_iter()
        .filter(|n| !n.is_empty())
        .map(|name| {
            let mut t = json!({"name": name, "inputSchema": object(rng, 2)});
            if rng.chance(50) {
                t["outputSchema"] = object(rng, 2);
            }
            if rng.chance(50) {
                t["description"] = json!(rng.pick(TEXTS));
            }
            if rng.chance(30) {
                t["elicitations"] = json!([{
                    "name": "confirm",
                    "mode": "form",
                    "message": rng.pick(TEXTS),
                    "requestedSchema": {"type": "object", "properties": {"ok": {"type": "boolean"}}},
                }]);
            }
            t
        })
        .collect();
    d["tools"] = json!(tools);
    let prompts: Vec<Value> = rng
        .names(0, 4, NAMES)
        .into_iter()
        .map(|name| {
            let arguments: Vec<Value> = (0..rng.below(4))
                .map(|_| json!({"name": rng.pick(NAMES), "required": rng.chance(50), "description": rng.pick(TEXTS)}))
                .collect();
            let mut p = json!({"name": name, "description": rng.pick(TEXTS)});
            if !arguments.is_empty() {
                p["arguments"] = json!(arguments);
            }
            p
        })
        .collect();
    if !prompts.is_empty() {
        d["prompts"] = json!(prompts);
    }
    let resources: Vec<Value> = rng
        .names(0, 3, NAMES)
        .into_iter()
        .enumerate()
        .map(|(k, name)| json!({"uri": format!("file:///r{k}"), "name": name}))
        .collect();
    if !resources.is_empty() {
        d["resources"] = json!(resources);
    }
    let variables = ["a", "b", "A", "a_b", "type", "self"];
    let templates: Vec<Value> = rng
        .names(0, 3, NAMES)
        .into_iter()
        .enumerate()
        .map(|(k, name)| {
            let vars = rng.names(1, 2, &variables);
            let path: Vec<String> = vars.iter().map(|v| format!("{{{v}}}")).collect();
            json!({"uriTemplate": format!("file:///t{k}/{}", path.join("/")), "name": name})
        })
        .collect();
    if !templates.is_empty() {
        d["resourceTemplates"] = json!(templates);
    }
    d
}

fn env_number(name: &str, default: u64) -> u64 {
    println!("cargo::rerun-if-env-changed={name}");
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Generates the random descriptions and their modules (`random/mod.rs`).
pub fn generate_all() {
    println!("cargo::rerun-if-changed=build_random.rs");
    let count = env_number("MCPDESC_RANDOM_DESCRIPTIONS", 6);
    let seed = env_number("MCPDESC_RANDOM_SEED", 29);
    let out = PathBuf::from(std::env::var_os("OUT_DIR").unwrap()).join("random");
    std::fs::create_dir_all(&out).unwrap();
    let mut rng = Rng(seed.max(1));
    let mut modules = format!("/// How many random descriptions there are.\npub const COUNT: usize = {count};\n/// Their seed.\npub const SEED: u64 = {seed};\n");
    for i in 0..count as usize {
        let value = description(&mut rng, i);
        let text = serde_json::to_string_pretty(&value).unwrap();
        let json_path = out.join(format!("random_{i}.mcpdesc.json"));
        std::fs::write(&json_path, &text).unwrap();
        let desc = Description::from_text(
            &json_path.display().to_string(),
            text,
            Some(Format::Json),
            &Limits::default(),
        );
        assert!(
            desc.is_valid(),
            "random description {i} of seed {seed} ({}) is invalid: {:#?}",
            json_path.display(),
            desc.diagnostics
        );
        let generated = mcpdesc_codegen::generate(&desc, &Settings::new())
            .unwrap_or_else(|e| panic!("{}: {e}", json_path.display()));
        assert!(
            !generated.has_errors(),
            "{}: {:#?}",
            json_path.display(),
            generated.diagnostics
        );
        std::fs::write(out.join(format!("random_{i}.rs")), generated.code).unwrap();
        modules.push_str(&format!(
            "/// Random description {i}.\npub mod random_{i} {{\n    include!(concat!(env!(\"OUT_DIR\"), \"/random/random_{i}.rs\"));\n}}\n"
        ));
    }
    std::fs::write(out.join("mod.rs"), modules).unwrap();
}
