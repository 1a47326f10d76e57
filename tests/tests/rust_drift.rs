//! When only the Rust side changes (here: the generated `AnalyzeGameInput::depth` edited
//! from an integer to a string while the description still says integer), the generated
//! example test of every example that sets `depth` fails, and its message names the tool,
//! the example, the JSON pointer, the Rust type and serde's reason. Examples the change
//! does not touch keep passing.
//!
//! `build.rs` writes the edited copy, with the generated `#[test]` functions turned into
//! plain functions so that this test can run them and read the panic.

use std::panic::{catch_unwind, UnwindSafe};

#[allow(dead_code)]
mod drifted {
    include!(concat!(env!("OUT_DIR"), "/chess_rust_drift.rs"));
}

use drifted::example_tests as generated;

/// Runs one generated test; its panic message, if it failed.
fn failure(test: impl FnOnce() + UnwindSafe) -> Option<String> {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let outcome = catch_unwind(test);
    std::panic::set_hook(previous);
    outcome.err().map(|payload| {
        payload
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_default()
    })
}

#[test]
fn the_generated_test_of_an_affected_example_fails_readably() {
    // `analyze_game` has a variant for 2025-06-18 (`/tools/0`) and one for 2025-11-25
    // (`/tools/1`) sharing `AnalyzeGameInput`: each variant's example test fails.
    for (test, pointer) in [
        (
            generated::analyze_game_v20250618_example_scholars_mate as fn(),
            "(/tools/0/examples/scholars-mate/input/depth)",
        ),
        (
            generated::analyze_game_v20251125_example_scholars_mate,
            "(/tools/1/examples/scholars-mate/input/depth)",
        ),
    ] {
        let message =
            failure(test).expect("the example sets depth: 8, which no longer fits the Rust type");
        println!("{message}");
        for part in [
            "tool `analyze_game`",
            "`scholars-mate`",
            pointer,
            "AnalyzeGameInput",
            "invalid type: integer `8`, expected a string",
        ] {
            assert!(message.contains(part), "{part:?} missing from:\n{message}");
        }
    }
}

#[test]
fn generated_tests_of_unaffected_examples_still_pass() {
    // `empty-pgn` has no `depth`; the other tools' types did not change.
    for (name, test) in [
        (
            "analyze_game_v20250618_example_empty_pgn",
            generated::analyze_game_v20250618_example_empty_pgn as fn(),
        ),
        (
            "analyze_game_v20251125_example_empty_pgn",
            generated::analyze_game_v20251125_example_empty_pgn,
        ),
        (
            "get_player_rating_example_new_player_blitz",
            generated::get_player_rating_example_new_player_blitz,
        ),
        (
            "record_game_result_example_white_wins",
            generated::record_game_result_example_white_wins,
        ),
    ] {
        assert_eq!(failure(test), None, "{name}");
    }
}
