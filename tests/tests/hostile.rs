//! The hostile corpus (`tests/hostile/`): descriptions written to break the generator.
//! The build script generates each into a module of this crate, which compiles with
//! every warning denied; the tests below check what each case is there for.

#![deny(warnings)]

#[allow(missing_docs)]
mod cases {
    include!(concat!(env!("OUT_DIR"), "/hostile/mod.rs"));
}

use cases::*;
use serde_json::json;

/// Every case generates with no error diagnostic, and the file holds no raw bidi
/// control and no bare CR (rustc rejects both in comments and literals).
#[test]
fn every_case_generates_without_errors_or_raw_controls() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("hostile");
    let mut count = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if !path.to_string_lossy().ends_with(".mcpdesc.json") {
            continue;
        }
        count += 1;
        let desc =
            mcpdesc_codegen::Description::from_path(&path, &mcpdesc_codegen::Limits::default())
                .unwrap();
        let out = mcpdesc_codegen::generate(&desc, &mcpdesc_codegen::Settings::new())
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert!(
            !out.has_errors(),
            "{}: {:?}",
            path.display(),
            out.diagnostics
        );
        let bad = out.code.char_indices().find(|&(i, c)| {
            matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
                || (c == '\r' && !out.code[i + 1..].starts_with('\n'))
        });
        assert_eq!(bad, None, "{}", path.display());
        // A warning names a pointer below the schema root, never the whole schema.
        for d in &out.diagnostics {
            assert!(!d.message.contains("TypeEntry"), "{}", d.message);
        }
    }
    assert!(count >= 40, "only {count} hostile cases");
}

fn round_trip<T: serde::Serialize + serde::de::DeserializeOwned>(value: serde_json::Value) {
    let typed: T = serde_json::from_value(value.clone()).unwrap();
    assert_eq!(serde_json::to_value(&typed).unwrap(), value);
}

/// The GitHub server's `sort` enum is a real enum: `reactions-+1` and `reactions--1` are
/// two variants.
#[test]
fn github_sort_is_an_enum() {
    use enum_github_sort::types::SearchIssuesInputSort as Sort;
    assert_eq!(
        serde_json::to_value(Sort::ReactionsPlus1).unwrap(),
        json!("reactions-+1")
    );
    assert_eq!(
        serde_json::to_value(Sort::ReactionsMinus1).unwrap(),
        json!("reactions--1")
    );
    assert_eq!(Sort::ReactionsMinus1.to_string(), "reactions--1");
    assert_eq!(
        "reactions-+1".parse::<Sort>().unwrap(),
        Sort::ReactionsPlus1
    );
    round_trip::<enum_github_sort::types::SearchIssuesInput>(
        json!({"q": "x", "sort": "reactions--1"}),
    );
}

/// Values differing only in case or punctuation are distinct variants.
#[test]
fn case_only_enum_values() {
    use enum_case_only::types::T1InputS;
    assert_eq!(serde_json::to_value(T1InputS::Ok).unwrap(), json!("Ok"));
    assert_eq!(serde_json::to_value(T1InputS::Ok2).unwrap(), json!("ok"));
    round_trip::<enum_case_only::types::T1Input>(json!({"s": "OK", "t": "a b"}));
}

/// Properties colliding after snake_case get distinct fields and keep their JSON names.
#[test]
fn colliding_properties_round_trip() {
    round_trip::<props_dash_underscore::types::T1Input>(
        json!({"a-b": "1", "a_b": "2", "aB": "3", "A_B": 4}),
    );
    let input: props_dash_underscore::types::T1Input =
        serde_json::from_value(json!({"a-b": "dash", "a_b": "underscore"})).unwrap();
    assert_eq!(input.a_b.as_deref(), Some("underscore"));
    assert_eq!(input.a_b_2, "dash");
    round_trip::<props_empty_and_space::types::T1Input>(json!({"": "e", " ": "s", "  ": 1}));
    round_trip::<props_type_and_type_underscore::types::T1Input>(
        json!({"type": "a", "type_": "b", "r#type": "c", "Type": "d"}),
    );
    // `""` and `-` are objects with their own types.
    round_trip::<prop_empty_needs_own_type::types::T1Input>(json!({"": {"x": "1"}, "-": {"y": 2}}));
}

/// Tool names that are reserved, keywords or that collide get trait names that do not
/// shadow what the generated code uses.
#[test]
fn tool_names_do_not_shadow_the_generated_code() {
    fn handler<S: tools_t_and_t::T2 + tools_t_and_t::T3 + tools_t_and_t::Server>() {}
    handler::<tools_t_and_t::ExampleServer>();
    fn send<S: tools_send_sync::Send2 + tools_send_sync::Sync2 + tools_send_sync::Server>() {}
    send::<tools_send_sync::ExampleServer>();
    let _: fn(tools_keywords::Client, tools_keywords::types::TypeInput) -> _ =
        |client, input| async move { client.type_(input).await };
}

/// Mixed-type enums become one branch per type instead of a `serde_json::Value`.
#[test]
fn mixed_enum_round_trips() {
    round_trip::<enum_floats_and_mixed::types::T1Input>(json!({"m": "a"}));
    round_trip::<enum_floats_and_mixed::types::T1Input>(json!({"m": true}));
}

/// Output and input types are plain integers (the router checks the bounds against
/// the original schema); `NonZero*` inputs only with `non_zero_integers`.
#[test]
fn output_integers_are_plain() {
    let output = minimum_one_output::types::T1Output {
        count: 3,
        opt: Some(100),
        neg: None,
    };
    assert_eq!(
        serde_json::to_value(&output).unwrap(),
        json!({"count": 3, "opt": 100})
    );
    let input: minimum_one_output::types::T1Input =
        serde_json::from_value(json!({"n": 2})).unwrap();
    assert_eq!(input.n, 2);
}

/// Prompt `{Prompt}Arguments`, template `{Template}Variables` and the types typify
/// derives from tool properties share one allocator: the items named by rule keep their
/// names, typify's derived types take the next free one.
#[test]
fn one_allocator_for_every_type_name() {
    use names_one_allocator::types as t;
    let _: t::YInputArguments = t::YInputArguments { p: None };
    let _: t::YInputVariables = t::YInputVariables { v: "v".into() };
    let _: t::XInputInputArguments = t::XInputInputArguments { q: None };
    round_trip::<t::YInput>(json!({"arguments": {"k": "a"}, "variables": {"k": "b"}}));
    let derived: t::YInputArguments2 = serde_json::from_value(json!({"k": "a"})).unwrap();
    assert_eq!(derived.k.as_deref(), Some("a"));
    round_trip::<t::AInput>(json!({"input": {"k": "a"}, "output": {"k": "b"}}));
}

/// A description holding the old placeholder marker characters still gets unique field
/// names for properties that collide after snake_case, and its own names are kept.
#[test]
fn placeholder_markers_in_the_description() {
    round_trip::<text_placeholder_markers::types::T2Input>(json!({
        "a-b": "1",
        "a_b": "2",
        "a_b\u{10FFF0}\u{10FF00}\u{10FFF1}": "3",
    }));
    let input: text_placeholder_markers::types::T2Input =
        serde_json::from_value(json!({"a-b": "1", "a_b": "2"})).unwrap();
    assert_eq!(
        (input.a_b_2.as_deref(), input.a_b.as_deref()),
        (Some("1"), Some("2"))
    );
}

/// A prompt argument declared twice is one field.
#[test]
fn repeated_prompt_argument_is_one_field() {
    let args = prompts_argument_repeated::types::PArguments {
        a: Some("x".into()),
    };
    assert_eq!(serde_json::to_value(&args).unwrap(), json!({"a": "x"}));
}

/// Prompts whose names collide after conversion take suffixes in order.
#[test]
fn many_colliding_prompts_are_numbered() {
    use prompts_many_colliding::types as t;
    let _ = (
        t::XArguments {
            a_b: None,
            a_b_2: None,
            a_b_3: None,
            a_b_4: None,
            a_b_5: None,
        },
        t::X2Arguments {},
        t::X120Arguments {},
    );
}

/// Identical inline enums and objects of several tools are one type, named after the
/// first use; one with another description stays its own type.
#[test]
fn identical_inline_schemas_are_one_type() {
    use shared_inline::types as t;
    let state = t::CreateIssueInputState::Closed;
    let label = t::CreateIssueInputLabel {
        name: "bug".into(),
        color: Some(t::CreateIssueInputLabelColor::Red),
    };
    let update = t::UpdateIssueInput {
        state: Some(state),
        label: Some(label.clone()),
    };
    let output = t::CreateIssueOutput {
        state: update.state,
        labels: vec![label],
    };
    let list = t::ListIssuesInput {
        color: output.labels[0].color,
        filter: Some(t::ListIssuesInputFilter {
            state: output.state,
        }),
        other: Some(t::ListIssuesInputOther::Open),
    };
    round_trip::<t::ListIssuesInput>(serde_json::to_value(&list).unwrap());
    round_trip::<t::CreateIssueOutput>(serde_json::to_value(&output).unwrap());
}
