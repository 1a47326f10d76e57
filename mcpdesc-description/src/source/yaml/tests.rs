//! The restricted YAML loader's tests.

use super::*;

fn load(text: &str) -> Result<(Value, SourceMap), Diagnostic> {
    parse(text, &Limits::default())
}

fn value(text: &str) -> Value {
    match load(text) {
        Ok((value, _)) => value,
        Err(e) => panic!("rejected {text:?}: {e:?}"),
    }
}

fn error(text: &str) -> Diagnostic {
    match load(text) {
        Ok((value, _)) => panic!("accepted {text:?} as {value}"),
        Err(e) => e,
    }
}

/// Code, pointer, line and column of the error for `text`.
fn rejected(text: &str) -> (&'static str, String, usize, usize) {
    let e = error(text);
    (e.code, e.pointer, e.line, e.column)
}

fn pos(map: &SourceMap, p: &str) -> (usize, usize) {
    let at = map.get(&Pointer::parse(p).unwrap()).unwrap();
    (at.line, at.column)
}

/// The six files of `serialization-0.8.0/expected-invalid`, verbatim (none ends with a
/// newline). An integration test reads the files themselves.
#[test]
fn conformance_expected_invalid_files_are_rejected() {
    let cases = [
        // custom-tag.yaml
        ("a: !example value", "yaml-tag", "/a", 1, 4),
        // duplicate-key.yaml
        ("a: 1\n\"a\": 2", "yaml-duplicate-key", "/a", 2, 1),
        // merge-alias.yaml: the anchor is the first offence in document order.
        (
            "base: &base\n  a: 1\nvalue:\n  <<: *base",
            "yaml-anchor",
            "/base",
            1,
            7,
        ),
        // multiple-documents.yaml
        ("---\na: 1\n---\nb: 2", "yaml-multiple-documents", "", 3, 1),
        // positive-infinity.yaml
        ("value: .inf", "yaml-non-finite-number", "/value", 1, 8),
        // tagged-non-finite-number.yaml: the tag is refused before anything else.
        ("value: !!float .nan", "yaml-tag", "/value", 1, 8),
    ];
    for (text, code, pointer, line, column) in cases {
        assert_eq!(
            rejected(text),
            (code, pointer.to_owned(), line, column),
            "{text:?}"
        );
    }
}

#[test]
fn equivalent_document_decodes_like_its_json_form() {
    // serialization-0.8.0/equivalent/document.json
    let json = r#"{
  "mcpdesc": "0.8.0",
  "info": { "name": "example", "version": "1.0.0" },
  "protocolVersions": ["2026-07-28"],
  "x-values": [true, false, null, 12, -1.5, 6.02e23, "2026-08-25"]
}"#;
    let yaml = "\
# The same document in block style.
mcpdesc: 0.8.0
info:
  name: example
  version: 1.0.0
protocolVersions:
  - \"2026-07-28\"
x-values:
  - true
  - false
  - null
  - 12
  - -1.5
  - 6.02e23
  - 2026-08-25
";
    let expected: Value = serde_json::from_str(json).unwrap();
    let actual = value(yaml);
    assert_eq!(actual, expected);
    // Same member order too, not only the same members.
    assert_eq!(actual.to_string(), expected.to_string());
}

#[test]
fn plain_scalars_resolve_by_the_json_schema_only() {
    let v = value(
        "a: null\nb: true\nc: false\nd: 0\ne: -7\nf: 18446744073709551615\n\
             g: 123456789012345678901234567890\nh: 1.\ni: 1e5\nj: -0\nk: 0.5E-3\nl:\n",
    );
    let expected = serde_json::json!({
        "a": null, "b": true, "c": false, "d": 0, "e": -7,
        "f": 18446744073709551615u64, "g": 1.2345678901234568e29, "h": 1.0,
        "i": 100000.0, "j": -0.0, "k": 0.0005, "l": null,
    });
    assert_eq!(v, expected);
    // `-0` decodes exactly as serde_json decodes it from JSON.
    assert_eq!(v["j"], serde_json::from_str::<Value>("-0").unwrap());

    // YAML 1.1 and core-schema spellings, and anything else, stay strings.
    for s in [
        "yes",
        "no",
        "on",
        "off",
        "y",
        "n",
        "~",
        "Null",
        "NULL",
        "True",
        "FALSE",
        "0x1F",
        "0o17",
        "2026-01-01",
        "1_000",
        "+1",
        ".5",
        "01",
        "1e",
        "1.2.3",
        "<<",
        "=",
        "12:30",
    ] {
        let text = format!("v: {s}\n");
        assert_eq!(value(&text)["v"], Value::String(s.to_owned()), "{s:?}");
    }
    // Quoted and block scalars are never resolved.
    let v = value("a: \"true\"\nb: '12'\nc: \"\"\nd: |\n  null\n");
    assert_eq!(
        v,
        serde_json::json!({"a": "true", "b": "12", "c": "", "d": "null\n"})
    );
}

#[test]
fn non_finite_numbers_are_rejected() {
    for s in [
        ".inf", "-.inf", "+.inf", ".Inf", "-.Inf", ".INF", "+.INF", ".nan", ".NaN", ".NAN",
        "-.nan", "+.NaN", "1e400", "-1e400",
    ] {
        let text = format!("list:\n  - {s}\n");
        assert_eq!(
            rejected(&text),
            ("yaml-non-finite-number", "/list/0".to_owned(), 2, 5),
            "{s:?}"
        );
    }
    // Quoted, they are strings.
    assert_eq!(value("v: '.inf'")["v"], ".inf");
    // An integer too long for any float is not finite either.
    let huge = format!("v: 1{}", "0".repeat(400));
    assert_eq!(error(&huge).code, "yaml-non-finite-number");
}

#[test]
fn records_positions_of_members_and_elements() {
    let text = "a:\n  - 1\n  - b/c: true\n    \"é~\": [x, {y: 2}]\nz: {}\n";
    let (v, map) = load(text).unwrap();
    assert_eq!(v["a"][1]["é~"][1]["y"], 2);
    assert_eq!(pos(&map, ""), (1, 1));
    assert_eq!(pos(&map, "/a"), (1, 1));
    assert_eq!(pos(&map, "/a/0"), (2, 5));
    assert_eq!(pos(&map, "/a/1"), (3, 5));
    assert_eq!(pos(&map, "/a/1/b~1c"), (3, 5));
    assert_eq!(pos(&map, "/a/1/é~0"), (4, 5));
    assert_eq!(pos(&map, "/a/1/é~0/0"), (4, 12));
    assert_eq!(pos(&map, "/a/1/é~0/1"), (4, 15));
    assert_eq!(pos(&map, "/a/1/é~0/1/y"), (4, 16));
    assert_eq!(pos(&map, "/z"), (5, 1));
    // One entry per value, as for JSON.
    assert_eq!(map.len(), 10);

    // Flow root, block sequence root, empty mapping element, scalar root, CRLF.
    assert_eq!(pos(&load("  {a: [1, 2]}").unwrap().1, ""), (1, 3));
    let (_, map) = load("- x\n- {}\n").unwrap();
    assert_eq!((pos(&map, ""), pos(&map, "/1")), ((1, 1), (2, 3)));
    assert_eq!(pos(&load("\n\n  hello").unwrap().1, ""), (3, 3));
    let (_, map) = load("a: 1\r\nb:\r\n  c: 2\r\n").unwrap();
    assert_eq!((pos(&map, "/b"), pos(&map, "/b/c")), ((2, 1), (3, 3)));
}

#[test]
fn flow_style_and_key_order() {
    assert_eq!(value("{a: [1, 2]}"), serde_json::json!({"a": [1, 2]}));
    let v = value("{z: 1, a: {y: [], b: null}, m: 'q'}");
    assert_eq!(v.to_string(), r#"{"z":1,"a":{"y":[],"b":null},"m":"q"}"#);
    let v = value("z: 1\na: 2\nm: 3\n");
    assert_eq!(
        v.as_object().unwrap().keys().collect::<Vec<_>>(),
        ["z", "a", "m"]
    );
}

#[test]
fn block_scalars_are_strings_and_plain_scalars_fold() {
    let v = value(
        "lit: |\n  12\n  true\nfold: >\n  one\n  two\n\n  three\nstrip: |-\n  x\n\
             plain: first\n  second\n\n  third\n",
    );
    assert_eq!(v["lit"], "12\ntrue\n");
    assert_eq!(v["fold"], "one two\nthree\n");
    assert_eq!(v["strip"], "x");
    assert_eq!(v["plain"], "first second\nthird");
}

#[test]
fn keys_must_be_plain_strings() {
    for (text, pointer, line, column) in [
        ("1: x", "", 1, 1),
        ("true: x", "", 1, 1),
        ("null: x", "", 1, 1),
        ("~: x", "", 1, 1),
        ("a:\n  -1.5: x", "/a", 2, 3),
        ("0x1F: x", "", 1, 1),
        ("TRUE: x", "", 1, 1),
        (".inf: x", "", 1, 1),
        (": x", "", 1, 1),
        ("? [a]\n: b", "", 1, 3),
        ("[a]: b", "", 1, 1),
        ("{a: 1}: b", "", 1, 1),
        ("x: {[1]: 2}", "/x", 1, 5),
    ] {
        assert_eq!(
            rejected(text),
            ("yaml-non-string-key", pointer.to_owned(), line, column),
            "{text:?}"
        );
    }
    let v = value("\"1\": a\n'true': b\n\"~\": c\nyes: d\nx: e\ny: f\n\"\": g\n");
    let keys: Vec<_> = v.as_object().unwrap().keys().cloned().collect();
    assert_eq!(keys, ["1", "true", "~", "yes", "x", "y", ""]);
}

#[test]
fn duplicate_keys_are_rejected_at_the_second_occurrence() {
    assert_eq!(
        rejected("a: 1\nb:\n  c: 1\n  d: 2\n  'c': 3\n"),
        ("yaml-duplicate-key", "/b/c".to_owned(), 5, 3)
    );
    assert_eq!(
        rejected("{x/y: 1, \"x/y\": 2}"),
        ("yaml-duplicate-key", "/x~1y".to_owned(), 1, 10)
    );
    // The same key in different mappings is fine.
    value("a: {k: 1}\nb: {k: 2}\n");
}

#[test]
fn anchors_aliases_merge_keys_and_tags_are_rejected() {
    for (text, code, pointer, line, column) in [
        ("a: &x 1", "yaml-anchor", "/a", 1, 4),
        ("- &x\n  k: v", "yaml-anchor", "/0", 1, 3),
        ("*x", "yaml-alias", "", 1, 1),
        ("a: 1\nb: [*x]", "yaml-alias", "", 2, 5),
        ("a:\n  <<: {b: 1}", "yaml-merge-key", "/a/<<", 2, 3),
        ("a: !!str x", "yaml-tag", "/a", 1, 4),
        ("a: !<tag:yaml.org,2002:str> x", "yaml-tag", "/a", 1, 4),
        ("a: ! x", "yaml-tag", "/a", 1, 4),
        ("a: !!null", "yaml-tag", "/a", 1, 4),
        ("--- !t\na: 1", "yaml-tag", "", 1, 5),
        ("!!str k: v", "yaml-tag", "", 1, 1),
        ("a: [1, !x 2]", "yaml-tag", "/a/1", 1, 8),
        ("a: !e!x 1", "yaml-tag", "", 1, 4),
        ("a: !t &x 1", "yaml-tag", "/a", 1, 4),
        ("a: &x !t 1", "yaml-anchor", "/a", 1, 4),
    ] {
        assert_eq!(
            rejected(text),
            (code, pointer.to_owned(), line, column),
            "{text:?}"
        );
    }
    assert!(error("a: !!float .nan").message.contains("`!!float`"));
    // A quoted `<<` is an ordinary key.
    assert_eq!(value("\"<<\": 1"), serde_json::json!({"<<": 1}));
}

#[test]
fn exactly_one_document() {
    for text in ["", "# nothing here\n", "\n\n"] {
        assert_eq!(error(text).code, "yaml-no-document", "{text:?}");
    }
    for (text, line) in [
        ("--- 1\n--- 2\n", 2),
        ("a: 1\n---\n", 2),
        ("a\n...\nb\n", 3),
    ] {
        let e = error(text);
        assert_eq!(
            (e.code, e.line),
            ("yaml-multiple-documents", line),
            "{text:?}"
        );
    }
    assert_eq!(
        value("---\na: 1\n...\n# trailing comment\n"),
        serde_json::json!({"a": 1})
    );
    // An explicit but empty document is one document, whose value is null.
    assert_eq!(value("---\n"), Value::Null);
}

/// Runs `f` on a thread with a small stack: any recursion per nesting level in the
/// loader or in yaml-rust2 would overflow it.
fn on_small_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(f)
        .unwrap()
        .join()
        .unwrap()
}

#[test]
fn deep_nesting_is_an_error_not_a_crash() {
    let codes = on_small_stack(|| {
        let flow_sequences = "[".repeat(100_000) + &"]".repeat(100_000);
        let flow_mappings = "{a: ".repeat(100_000);
        let block_sequences = "- ".repeat(100_000) + "x";
        let block_mappings: String = (0..5_000).map(|i| " ".repeat(i) + "k:\n").collect();
        let mixed = "- a:\n".to_owned()
            + &(1..3_000)
                .map(|i| " ".repeat(2 * i) + "- a:\n")
                .collect::<String>();
        [
            flow_sequences,
            flow_mappings,
            block_sequences,
            block_mappings,
            mixed,
        ]
        .iter()
        .map(|text| load(text).map(|_| ()).unwrap_err().code)
        .collect::<Vec<_>>()
    });
    assert!(codes.iter().all(|c| *c == "nesting-too-deep"), "{codes:?}");
}

#[test]
fn nesting_limit_is_exact() {
    let limits = Limits::default();
    let depth = limits.depth();
    let ok = "[".repeat(depth) + &"]".repeat(depth);
    assert!(parse(&ok, &limits).is_ok());
    let deep = "[".repeat(depth + 1) + &"]".repeat(depth + 1);
    let e = parse(&deep, &limits).unwrap_err();
    assert_eq!(e.code, "nesting-too-deep");
    assert_eq!(e.pointer, "/0".repeat(depth));
    assert_eq!((e.line, e.column), (1, depth + 1));

    let small = Limits {
        max_depth: 2,
        ..Limits::default()
    };
    assert!(parse("a:\n  b: 1\n", &small).is_ok());
    let e = parse("a:\n  b:\n    - 1\n", &small).unwrap_err();
    assert_eq!((e.code, e.pointer.as_str()), ("nesting-too-deep", "/a/b"));
    assert_eq!((e.line, e.column), (3, 5));
}

#[test]
fn long_strings_are_bounded() {
    let limits = Limits {
        max_string_len: 8,
        ..Limits::default()
    };
    for (text, pointer) in [
        ("k: \"0123456789\"", "/k"),
        ("k: 0123456789", "/k"),
        ("k: |\n  0123456\n  89\n", "/k"),
        ("- x\n- '0123456789'", "/1"),
        ("a:\n  0123456789: 1", "/a"),
    ] {
        let e = parse(text, &limits).unwrap_err();
        assert_eq!(
            (e.code, e.pointer.as_str()),
            ("string-too-long", pointer),
            "{text:?}"
        );
    }
    assert!(parse("k: '01234567'", &limits).is_ok());
}

#[test]
fn syntax_errors_have_a_position() {
    for (text, line, column) in [
        ("a: b: c", 1, 5),
        ("a: 'x", 1, 4),
        ("a:\n  - [1, 2\nb: 3\n", 3, 2),
        ("a: 1\n b: 2\n", 2, 3),
        ("a: @x", 1, 4),
    ] {
        let e = error(text);
        assert_eq!(e.code, "yaml-syntax", "{text:?}");
        assert_eq!(
            (e.line, e.column),
            (line, column),
            "{text:?}: {}",
            e.message
        );
        assert!(e.message.starts_with("invalid YAML: "), "{}", e.message);
    }
}

/// yaml-rust2's own flow-nesting cap and unknown-alias error keep their meaning; these
/// messages are matched verbatim in `scan_error`, so an upgrade that rewords them
/// fails here.
#[test]
fn yaml_rust2_errors_are_classified() {
    assert_eq!(error(&"[".repeat(300)).code, "nesting-too-deep");
    assert_eq!(error("- *nowhere").code, "yaml-alias");
    assert_eq!(error("a: !undeclared!x 1").code, "yaml-tag");
}

#[test]
fn pointers_escape_keys() {
    let (_, map) = load("a/b:\n  c~d: 1\n").unwrap();
    assert_eq!(pos(&map, "/a~1b/c~0d"), (2, 3));
}

/// Malformed and odd inputs never panic, inside this module or inside yaml-rust2 (a
/// caught yaml-rust2 panic would show up as its "parser failed" message).
#[test]
fn arbitrary_input_never_panics() {
    let alphabet: Vec<char> = "-?:,[]{}#&*!|>'\"%@` \n\t\rab01.~<é\u{feff}"
        .chars()
        .collect();
    let mut seed: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let sample = "a: [1, {b: 'c'}]\n? x\n: |\n  y\n- z\n--- &a !t *a\n";
    let mut inputs: Vec<String> = (0..=sample.len())
        .filter(|&i| sample.is_char_boundary(i))
        .map(|i| sample[..i].to_owned())
        .collect();
    for _ in 0..3_000 {
        let len = (next() % 24) as usize;
        inputs.push(
            (0..len)
                .map(|_| alphabet[(next() % alphabet.len() as u64) as usize])
                .collect(),
        );
    }
    for text in &inputs {
        if let Err(e) = load(text) {
            assert!(!e.message.contains("parser failed"), "{text:?}: {e:?}");
            assert!(e.line >= 1 || e.column == 0, "{text:?}: {e:?}");
        }
    }
}
