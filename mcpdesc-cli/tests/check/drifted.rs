//! Servers that drifted from their description (the mock of a mutated copy) fail,
//! naming what drifted.

use std::path::PathBuf;

use serde_json::json;

use crate::support::{check, check_mock, chess, drifted, failures, tempdir, tool, MCPDESC};

#[test]
fn a_server_that_drifted_fails_naming_the_tool() {
    let dir = tempdir("drift");
    let cases: Vec<(&str, PathBuf, (&str, &str))> = vec![
        (
            "renamed input field",
            drifted(&dir, "renamed", |d| {
                let t = tool(d, "analyze_game");
                let depth = t["inputSchema"]["properties"]
                    .as_object_mut()
                    .unwrap()
                    .shift_remove("depth")
                    .unwrap();
                t["inputSchema"]["properties"]["plies"] = depth;
                let input = &mut t["examples"]["scholars-mate"]["input"];
                let v = input
                    .as_object_mut()
                    .unwrap()
                    .shift_remove("depth")
                    .unwrap();
                input["plies"] = v;
            }),
            ("input-schema-differs", "analyze_game"),
        ),
        (
            "output type changed",
            drifted(&dir, "output", |d| {
                tool(d, "analyze_game")["outputSchema"]["properties"]["evaluation"]["type"] =
                    json!(["number", "string"]);
            }),
            ("output-schema-differs", "analyze_game"),
        ),
        (
            "tool removed",
            drifted(&dir, "removed", |d| {
                d["tools"]
                    .as_array_mut()
                    .unwrap()
                    .retain(|t| t["name"] != "record_game_result");
            }),
            ("missing", "record_game_result"),
        ),
        (
            "tool added",
            drifted(&dir, "added", |d| {
                let mut extra = tool(d, "get_player_rating").clone();
                extra["name"] = json!("resign_game");
                d["tools"].as_array_mut().unwrap().push(extra);
            }),
            ("undeclared", "resign_game"),
        ),
    ];
    for (what, served, expected) in cases {
        let (code, report) = check_mock(&chess(), &[], &served);
        assert_eq!(code, 1, "{what}: {report:#}");
        let got = failures(&report);
        let want = vec![(expected.0.to_owned(), expected.1.to_owned())];
        assert_eq!(got, want, "{what}: {report:#}");
        // The human report names the tool in its diagnostic.
        let (code, out, _) = check(&[
            chess().to_str().unwrap(),
            "--",
            MCPDESC,
            "serve-mock",
            served.to_str().unwrap(),
        ]);
        assert_eq!(code, 1);
        let line = format!("failure[{}]: tool `{}`", expected.0, expected.1);
        assert!(out.contains(&line), "{what}: {out}");
    }
    // Prompts and resources drift the same way.
    let served = drifted(&dir, "primitives", |d| {
        d["prompts"][0]["title"] = json!("Opening Plan");
        d.as_object_mut().unwrap().shift_remove("resources");
    });
    let (code, report) = check_mock(&chess(), &[], &served);
    assert_eq!(code, 1, "{report:#}");
    let got: Vec<(&str, &str, &str)> = report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["kind"].as_str().unwrap(),
                f["primitive"].as_str().unwrap(),
                f["tool"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            ("member-differs", "prompt", "opening_study"),
            ("missing", "resource", "chess://rating-pools")
        ],
        "{report:#}"
    );
    assert!(report["findings"][0]["message"]
        .as_str()
        .unwrap()
        .starts_with("`title` in `prompts/list` differs"));
    // An example result the server no longer gives: a warning, a failure under --strict.
    let other = drifted(&dir, "other-result", |d| {
        tool(d, "get_player_rating")["examples"]["new-player-blitz"]["result"]["content"][0]
            ["text"] = json!("Rating: 1234");
    });
    let sel = ["--examples", "get_player_rating/new-player-blitz"];
    let (code, report) = check_mock(&chess(), &sel, &other);
    assert_eq!(code, 0, "{report:#}");
    let finding = &report["findings"][0];
    assert_eq!(finding["kind"], "example-differs", "{report:#}");
    assert_eq!(finding["severity"], "warning");
    assert_eq!(finding["tool"], "get_player_rating");
    assert_eq!(finding["example"], "new-player-blitz");
    assert_eq!(
        report["calls"].as_array().unwrap().len(),
        1,
        "only the selected example is called"
    );
    let strict = [sel[0], sel[1], "--strict"];
    let (code, report) = check_mock(&chess(), &strict, &other);
    assert_eq!(code, 1, "{report:#}");
    assert_eq!(
        failures(&report),
        [("example-differs".to_owned(), "get_player_rating".to_owned())]
    );
    let _ = std::fs::remove_dir_all(&dir);
}
