//! Generated typed clients against `mcpdesc serve-mock` over stdio: for every
//! description of `mcpdesc-test-clients` (the chess example, the client fixture, each
//! shared real-world description, and the files of `MCPDESC_CLIENT_DESCRIPTIONS`), the
//! client calls every Tool Example through its typed method, in a session per
//! protocol version of the description (so that every tool's scope is covered), and
//! gets the example's answer back typed: the typed output equals the example's
//! `structuredContent`, a result without output schema equals the example's, an
//! `isError` example is `Err(CallError::Tool ..)` with the example's result.

use std::collections::BTreeSet;
use std::time::Duration;

use mcpdesc::client::Options;
use mcpdesc_test_clients::DESCRIBED;

#[tokio::test]
async fn typed_clients_get_every_example_answer_from_serve_mock() {
    let mut report = String::new();
    let mut failures = Vec::new();
    for described in DESCRIBED {
        let versions = match described.version {
            Some(version) => vec![version],
            None => described.versions.to_vec(),
        };
        let mut answered = BTreeSet::new();
        for version in versions {
            let mut command = tokio::process::Command::new(env!("CARGO_BIN_EXE_mcpdesc"));
            command.arg("serve-mock").arg(described.file);
            if described.version.is_some() {
                command.arg("--protocol-version").arg(version.as_str());
            }
            let session = Options::new()
                .protocol_versions(&[version])
                .stdio(command)
                .await
                .unwrap_or_else(|e| panic!("{} (MCP {version}): {e}", described.name));
            let outcome =
                tokio::time::timeout(Duration::from_secs(60), (described.run)(session.clone()))
                    .await
                    .unwrap_or_else(|_| {
                        panic!("{}: the calls take more than 60 s", described.name)
                    });
            session.close().await;
            report.push_str(&format!(
                "{} (MCP {version}): {} example(s) answered as described, {} outside the version\n",
                described.name,
                outcome.passed.len(),
                outcome.skipped.len(),
            ));
            answered.extend(outcome.passed);
            failures.extend(
                outcome
                    .failures
                    .iter()
                    .map(|f| format!("{} (MCP {version}): {f}", described.name)),
            );
        }
        if answered.len() != described.examples {
            failures.push(format!(
                "{}: {} of {} Tool Examples were answered as described",
                described.name,
                answered.len(),
                described.examples
            ));
        }
    }
    println!("{report}");
    assert!(failures.is_empty(), "{}\n{report}", failures.join("\n"));
}
