//! Every Tool Example of the corpus round-trips through the generated types (typify's
//! triple, part 3): the input through `{Tool}Input`, a successful result's
//! `structuredContent` through `{Tool}Output`; the value after one round trip validates
//! against the original schema, and a second round trip is stable.
//!
//! The per-description tests are written by the snapshot test (`generate.rs`) into
//! `tests/generated/examples_roundtrip.rs`, next to the snapshots they include.

mod support;

/// The own types of `examples/own-types`, which the `own-types-replaced` snapshot names
/// (`crate::model::Issue`, `crate::model::State`).
#[path = "../../examples/own-types/src/model.rs"]
mod model;

include!("../generated/examples_roundtrip.rs");

/// The right implementation of the notebook fixture, which the example tests of the
/// `generator-implementation` snapshot (generated with the test server
/// `crate::notebook_right::Server::new()`) run against.
mod notebook_right {
    use crate::generator_implementation as contract;
    crate::support::notebook::notebook_server!(Server, false);
}

/// An optional nullable property (`type: [T, "null"]`, `anyOf`/`oneOf` with a `null`
/// branch, an `enum` with `null`) writes `null` back as `null`, not as an absent member;
/// an absent member reads as `None` too (and is then written as `null`, which the schema
/// admits). Optional non-nullable properties are still left out when `None`, and a
/// nullable property with a default keeps it.
#[test]
fn null_in_a_type_array_round_trips_as_null() {
    use generator_constructs::types::{NullableInput, NullableOutput};
    use serde_json::{json, Value};

    fn round_trip<T: serde::de::DeserializeOwned + serde::Serialize>(value: Value) -> Value {
        let typed: T = serde_json::from_value(value.clone())
            .unwrap_or_else(|e| panic!("{value} does not deserialize: {e}"));
        serde_json::to_value(typed).unwrap()
    }

    let nulls = json!({"x": null, "n": null, "e": null, "d": null});
    assert_eq!(round_trip::<NullableInput>(nulls.clone()), nulls);
    let values = json!({"x": "s", "n": 3, "e": "a", "d": "given", "plain": "p"});
    assert_eq!(round_trip::<NullableInput>(values.clone()), values);
    assert_eq!(
        round_trip::<NullableInput>(json!({})),
        json!({"x": null, "n": null, "e": null, "d": "dflt"})
    );
    let absent: NullableInput = serde_json::from_value(json!({})).unwrap();
    assert!(absent.x.is_none() && absent.n.is_none() && absent.e.is_none());

    let nulls = json!({"x": null, "o": null});
    assert_eq!(round_trip::<NullableOutput>(nulls.clone()), nulls);
    assert_eq!(
        round_trip::<NullableOutput>(json!({"o": {"a": "b"}})),
        json!({"x": null, "o": {"a": "b"}})
    );
    // A struct of plain `Option`s is still `Default`, so a handler can build it field by
    // field.
    let built = NullableOutput {
        x: Some("s".into()),
        ..NullableOutput::default()
    };
    assert_eq!(
        serde_json::to_value(built).unwrap(),
        json!({"x": "s", "o": null})
    );
}
