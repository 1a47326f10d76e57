//! A chess MCP server built from `examples/chess/chess.mcpdesc.json`.
//!
//! The build script (`mcpdesc_codegen::Builder`) generates the contract module (types, one trait per tool,
//! `Server`, `router`); this crate only implements the three traits with plain
//! `async fn`s. `cargo run -p chess-server` serves MCP on stdio.
//!
//! The description's prompt (`opening_study`), resource (`chess://rating-pools`) and
//! resource template (`chess://openings/{eco}`), with their completions, are
//! implemented in [`reference`].

pub mod chess;
pub mod reference;

/// The code generated from the description.
#[allow(clippy::all, missing_docs)]
pub mod contract {
    mcpdesc::include_generated!("chess");
}

use std::sync::Mutex;

use contract::types::{
    AnalyzeGameInput, AnalyzeGameOutput, AnalyzeGameOutputBlundersItem, GetPlayerRatingInput,
    RecordGameResultInput, RecordGameResultInputResult,
};
use mcpdesc::{Context, ToolError, ToolResult};

/// The server state: ratings live in memory for the life of the process.
#[derive(Debug, Default)]
pub struct ChessServer {
    ratings: Mutex<chess::Ratings>,
}

impl ChessServer {
    /// A server with no recorded games.
    pub fn new() -> Self {
        Self::default()
    }

    fn ratings(&self) -> std::sync::MutexGuard<'_, chess::Ratings> {
        // A poisoned lock only means another call panicked mid-update; the data is
        // still a consistent map.
        self.ratings.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// The router serving a fresh [`ChessServer`].
pub fn router() -> mcpdesc::Router {
    contract::router(ChessServer::new())
}

impl contract::AnalyzeGame for ChessServer {
    async fn analyze_game(
        &self,
        input: AnalyzeGameInput,
        _cx: Context,
    ) -> Result<AnalyzeGameOutput, ToolError> {
        let moves = chess::parse_pgn(&input.pgn).map_err(|e| ToolError::new(e.to_string()))?;
        let depth = input
            .depth
            .map(|d| usize::try_from(d.get()).unwrap_or(usize::MAX));
        let analysis = chess::analyze(&moves, depth);
        Ok(AnalyzeGameOutput {
            evaluation: Some(analysis.evaluation),
            best_move: Some(analysis.best_move),
            blunders: analysis
                .blunders
                .into_iter()
                .map(|b| AnalyzeGameOutputBlundersItem {
                    move_number: Some(i64::from(b.move_number)),
                    move_: Some(b.mv),
                    evaluation_loss: Some(b.evaluation_loss),
                })
                .collect(),
        })
    }
}

impl contract::GetPlayerRating for ChessServer {
    async fn get_player_rating(
        &self,
        input: GetPlayerRatingInput,
        _cx: Context,
    ) -> Result<ToolResult, ToolError> {
        let pool = match &input.rating_type {
            Some(kind) => pool_name(&kind.to_string()),
            None => "classical",
        };
        let rating = self.ratings().get(&input.player_id, pool);
        let mut text = format!(
            "{} ({pool}): {}, {} game{}",
            input.player_id,
            rating.elo,
            rating.games,
            if rating.games == 1 { "" } else { "s" }
        );
        if !rating.history.is_empty() {
            let history: Vec<String> = rating.history.iter().map(i32::to_string).collect();
            text.push_str(&format!("; history: {}", history.join(" -> ")));
        }
        Ok(ToolResult::text(text))
    }
}

impl contract::RecordGameResult for ChessServer {
    async fn record_game_result(
        &self,
        input: RecordGameResultInput,
        _cx: Context,
    ) -> Result<ToolResult, ToolError> {
        if input.white_player_id == input.black_player_id {
            return Err(ToolError::new("A player cannot play against themselves."));
        }
        if let Some(pgn) = &input.pgn {
            chess::parse_pgn(pgn).map_err(|e| ToolError::new(format!("Invalid PGN: {e}")))?;
        }
        let score = match input.result {
            RecordGameResultInputResult::X10 => 1.0,
            RecordGameResultInputResult::X01 => 0.0,
            RecordGameResultInputResult::X1212 => 0.5,
        };
        let pool = chess::pool_for(input.time_control.as_deref());
        let [(w0, w1), (b0, b1)] =
            self.ratings()
                .record(&input.white_player_id, &input.black_player_id, score, pool);
        let control = input.time_control.as_deref().unwrap_or("no time control");
        Ok(ToolResult::text(format!(
            "Recorded {} ({control}, {pool}). {}: {w0} -> {w1}; {}: {b0} -> {b1}.",
            input.result, input.white_player_id, input.black_player_id
        )))
    }
}

/// The static pool name for a rating type the schema allows.
fn pool_name(kind: &str) -> &'static str {
    chess::RATING_TYPES
        .iter()
        .find(|k| **k == kind)
        .copied()
        .unwrap_or("classical")
}
