//! Calls the chess server through the typed client generated from its description.
//!
//! The build script generates the client side only (`Builder::side(Side::Client)`):
//! the types and `Client`, no handler trait, so this crate implements nothing. The
//! [`tour`] makes one call of every kind and says what came back; `main.rs` runs it
//! against a chess server it starts (or one at an HTTP URL).

/// The code generated from `examples/chess/chess.mcpdesc.json` (client side).
#[allow(clippy::all, missing_docs)]
pub mod chess {
    mcpdesc::include_generated!("chess");
}

use chess::types::{
    AnalyzeGameInput, GetPlayerRatingInput, OpeningStudyArguments, OpeningVariables,
};
use chess::Client;
use mcpdesc::{CallError, CompletionRequest, Content};

/// One call of every kind through `client`, and what each answered, one line each.
///
/// A tool error or a refused request is part of the tour (it shows how they come
/// back); any other failure ends it.
pub async fn tour(client: &Client) -> Result<Vec<String>, CallError> {
    let mut lines = vec![format!(
        "connected to `{}` (MCP {})",
        client.session().initialize_result()["serverInfo"]["name"]
            .as_str()
            .unwrap_or("?"),
        client.session().protocol_version()
    )];

    // A tool with an outputSchema: the typed output.
    let analysis = client
        .analyze_game(AnalyzeGameInput {
            pgn: "1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7#".into(),
            depth: Some(4),
        })
        .await?;
    lines.push(format!(
        "analyze_game: evaluation {:?}, best move {:?}",
        analysis.evaluation, analysis.best_move
    ));

    // The same analysis as an MCP 2025-11-25 task (its declaration for that version
    // says `execution.taskSupport: optional`): a handle, then the same output. In
    // another version, or against a server without the `tasks` capability, the call
    // is refused before anything is sent.
    match client
        .analyze_game_as_task(AnalyzeGameInput {
            pgn: "1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7#".into(),
            depth: Some(4),
        })
        .await
    {
        Ok(task) => {
            let output = task.result().await?;
            let status = task.status().await?.status;
            let same = serde_json::to_value(&output).ok() == serde_json::to_value(&analysis).ok();
            lines.push(format!(
                "analyze_game as a task: {} {status:?}, {} output as the plain call",
                task.id(),
                if same { "the same" } else { "another" }
            ));
        }
        Err(e @ CallError::NoTask { .. }) => {
            lines.push(format!("analyze_game as a task: not offered ({e})"))
        }
        Err(e) => return Err(e),
    }

    // A tool without: the whole result.
    let rating = client
        .get_player_rating(GetPlayerRatingInput {
            player_id: "magnus".into(),
            rating_type: None,
        })
        .await?;
    lines.push(format!(
        "get_player_rating: {}",
        first_text(&rating.content)
    ));

    // An input that breaks the inputSchema never leaves the process.
    match client
        .analyze_game(AnalyzeGameInput {
            pgn: "1. e4".into(),
            depth: Some(99),
        })
        .await
    {
        Err(e @ CallError::InvalidInput { .. }) => lines.push(format!(
            "analyze_game with depth 99: refused locally at `{}`",
            e.violations()[0].pointer
        )),
        other => lines.push(format!("analyze_game with depth 99: unexpected {other:?}")),
    }

    // Prompts, resources, templates and completions have typed methods too.
    let study = client
        .get_opening_study(OpeningStudyArguments {
            eco: "C60".into(),
            color: None,
        })
        .await?;
    lines.push(format!(
        "get_opening_study: {} message(s)",
        study.messages.len()
    ));
    let pools = client.read_rating_pools().await?;
    lines.push(format!(
        "read_rating_pools: {} content item(s)",
        pools.contents.len()
    ));
    let opening = client
        .read_opening(OpeningVariables { eco: "C60".into() })
        .await?;
    lines.push(format!(
        "read_opening C60: {} content item(s)",
        opening.contents.len()
    ));
    let completions = client
        .complete_opening(CompletionRequest::new("eco", "C6"))
        .await?;
    lines.push(format!(
        "complete_opening C6: {:?}",
        completions.completion.values
    ));
    Ok(lines)
}

fn first_text(content: &[Content]) -> &str {
    content
        .iter()
        .find_map(|c| match c {
            Content::Text(t) => Some(t.text.as_str()),
            _ => None,
        })
        .unwrap_or("(no text)")
}
