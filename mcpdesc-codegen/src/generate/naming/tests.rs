//! Unit tests of the naming rules: casing, keywords, transliteration, collisions and
//! the allocator's suffixes and placeholders.

use std::collections::BTreeSet;

use heck::ToPascalCase;

use super::allocator::NextSuffix;
use super::item_names::{primitive_names_counted, tool_names_counted};
use super::*;

fn camel_snake(name: &str) -> (String, String) {
    (upper_camel(name), snake_case(name))
}

#[test]
fn punctuation_separates_words() {
    assert_eq!(
        camel_snake("analyze_game"),
        ("AnalyzeGame".into(), "analyze_game".into())
    );
    assert_eq!(camel_snake("get-env"), ("GetEnv".into(), "get_env".into()));
    assert_eq!(
        camel_snake("fs.read/text file"),
        ("FsReadTextFile".into(), "fs_read_text_file".into())
    );
    assert_eq!(
        camel_snake("getPlayerRating"),
        ("GetPlayerRating".into(), "get_player_rating".into())
    );
    assert_eq!(camel_snake("--"), ("Tool".into(), "tool".into()));
}

#[test]
fn leading_digits_get_a_prefix() {
    assert_eq!(
        camel_snake("3d-view"),
        ("Tool3dView".into(), "tool_3d_view".into())
    );
    assert_eq!(camel_snake("42"), ("Tool42".into(), "tool_42".into()));
}

#[test]
fn keywords_get_a_trailing_underscore() {
    assert_eq!(snake_case("type"), "type_");
    assert_eq!(snake_case("self"), "self_");
    assert_eq!(snake_case("async"), "async_");
    assert_eq!(snake_case("gen"), "gen_");
    assert_eq!(upper_camel("Self"), "Self_");
    assert_eq!(upper_camel("self"), "Self_");
    // Types never need the underscore: the suffix makes them ordinary words.
    let mut types = NameAllocator::new();
    let names = tool_names(&["self", "type"], &mut types);
    assert_eq!(names[0].trait_name, "Self_");
    assert_eq!(names[0].method_name, "self_");
    assert_eq!(names[0].input_type, "SelfInput");
    assert_eq!(names[1].trait_name, "Type");
    assert_eq!(names[1].method_name, "type_");
}

#[test]
fn non_ascii_is_transliterated_or_escaped() {
    assert_eq!(
        camel_snake("café_crème"),
        ("CafeCreme".into(), "cafe_creme".into())
    );
    assert_eq!(upper_camel("天気"), "U5929u6c17");
    assert_eq!(snake_case("天気"), "u5929_u6c17");
    assert_eq!(upper_camel("météo-天"), "MeteoU5929");
}

#[test]
fn colliding_tools_get_numeric_suffixes_in_declaration_order() {
    let mut types = NameAllocator::new();
    let names = tool_names(&["get_user", "get-user", "getUser", "server"], &mut types);
    let traits: Vec<&str> = names.iter().map(|n| n.trait_name.as_str()).collect();
    let methods: Vec<&str> = names.iter().map(|n| n.method_name.as_str()).collect();
    assert_eq!(traits, ["GetUser", "GetUser2", "GetUser3", "Server2"]);
    assert_eq!(
        methods,
        ["get_user", "get_user_2", "get_user_3", "server_2"]
    );
    assert_eq!(names[2].output_type, "GetUser3Output");
}

#[test]
fn type_names_are_stable_under_typify_casing() {
    let mut types = NameAllocator::new();
    let declared = [
        "HTTPServer",
        "a_b_c",
        "x1y",
        "天気",
        "3d",
        "v2.api",
        "ABCDef",
        "get__x",
        "Résumé",
    ];
    for names in tool_names(&declared, &mut types) {
        for t in [&names.input_type, &names.output_type] {
            assert_eq!(&t.to_pascal_case(), t, "{t} is not stable");
        }
    }
}

#[test]
fn colliding_properties_get_placeholders_for_unique_fields() {
    let mut names = NameAllocator::for_source("");
    assert_eq!(names.property_keys(&["a", "b-c"]), None);
    let keys = names.property_keys(&["a-b", "a_b", "", " "]).unwrap();
    // `a_b` is its own field name and keeps it; the others take the next free one.
    assert_eq!(keys[1], "a_b");
    let fields: Vec<String> = keys
        .iter()
        .map(|k| typify_sanitize(k, Case::Snake))
        .collect();
    assert_eq!(fields, ["a_b_2", "a_b", "x", "x_2"]);
    let p = names.placeholders();
    assert_eq!(p.restore_plain(&keys[0]), "a-b");
    assert_eq!(p.restore_plain(&keys[2]), "");
    // A description that contains the marker characters still gets placeholders
    // (another marker), and its own text is never taken for one.
    let first = keys[0].clone();
    let mut other = NameAllocator::for_source(&first);
    let keys = other.property_keys(&["a-b", "a_b", &first]).unwrap();
    assert_eq!(typify_sanitize(&keys[0], Case::Snake), "a_b_2");
    assert_eq!(other.placeholders().restore_plain(&keys[0]), "a-b");
    assert_eq!(other.placeholders().restore_plain(&first), first);
}

#[test]
fn colliding_enum_values_get_distinct_variants() {
    let mut names = NameAllocator::for_source("");
    assert_eq!(names.enum_values(&["asc", "desc"]), None);
    let values = names
        .enum_values(&[
            "reactions",
            "reactions-+1",
            "reactions--1",
            "Ok",
            "ok",
            "a.b",
            "a_b",
        ])
        .unwrap();
    let variants: Vec<String> = values
        .iter()
        .map(|v| typify_sanitize(v, Case::Pascal))
        .collect();
    assert_eq!(
        variants,
        [
            "Reactions",
            "ReactionsPlus1",
            "ReactionsMinus1",
            "Ok",
            "Ok2",
            "Ab",
            "Ab2"
        ]
    );
    assert_eq!(values[0], "reactions");
    assert_eq!(
        names.placeholders().restore_plain(&values[2]),
        "reactions--1"
    );
}

#[test]
fn reserved_and_keyword_tool_names() {
    let mut types = NameAllocator::new();
    let names = tool_names(
        &["t", "T", "send", "type", "a", "a_with_content"],
        &mut types,
    );
    let traits: Vec<&str> = names.iter().map(|n| n.trait_name.as_str()).collect();
    assert_eq!(traits, ["T2", "T3", "Send2", "Type", "A", "AWithContent2"]);
    assert_eq!(names[3].content_method, "type_with_content");
    assert_eq!(names[5].method_name, "a_with_content_2");
}

/// Naming `n` names that all collide after conversion checks O(n) candidates (it
/// used to check O(n²): 8,000 such prompts took over a minute).
#[test]
fn colliding_names_cost_linear_work() {
    let separators = ['-', '_', '.', ' ', '/', ':'];
    let declared: Vec<String> = (1..=8000usize)
        .map(|mut i| {
            let mut name = String::from("x");
            while i > 0 {
                name.push(separators[i % 6]);
                i /= 6;
            }
            name
        })
        .collect();
    let declared: Vec<&str> = declared.iter().map(String::as_str).collect();
    let mut next = NextSuffix::default();
    let mut types = NameAllocator::new();
    let mut traits = BTreeSet::new();
    let names = primitive_names_counted(
        &declared,
        PrimitiveKind::Prompt,
        &mut traits,
        &mut types,
        &mut next,
    );
    assert_eq!(names[7999].trait_name, "X8000Prompt");
    assert!(next.checks <= 2 * declared.len(), "{} checks", next.checks);
    let mut next = NextSuffix::default();
    let tools = tool_names_counted(&declared, &mut NameAllocator::new(), &mut next);
    assert_eq!(tools[7999].input_type, "X8000Input");
    assert!(next.checks <= 2 * declared.len(), "{} checks", next.checks);
    let mut types = NameAllocator::new();
    for _ in 0..8000 {
        types.claim("Point");
    }
    assert!(types.next.checks <= 8000, "{} checks", types.next.checks);
}

#[test]
fn allocator_suffixes_and_reserves() {
    let mut types = NameAllocator::new();
    assert_eq!(types.claim("Point"), "Point");
    assert_eq!(types.claim("Point"), "Point2");
    assert_eq!(types.claim("Point"), "Point3");
    assert_eq!(types.claim("Result"), "Result2");
    assert_eq!(types.claim("String"), "String2");
}
