//! A chess MCP server built from `examples/chess/chess.mcpdesc.json`.
//!
//! The build script (`mcpdesc_codegen::Builder`) generates the contract module (types,
//! one trait per tool, prompt, resource and resource template, `Server`, `router`);
//! this crate only implements the traits with plain `async fn`s. `cargo run -p
//! chess-server` serves MCP on stdio, `cargo run -p chess-server -- --http
//! 127.0.0.1:8080` at `http://127.0.0.1:8080/mcp`.
//!
//! `analyze_game` shows the call's [`Context`] at work: it reports progress ply by ply
//! when the client asked for it, stops early when the call is cancelled, and logs
//! the early stop (the description declares `logging`). The description's prompt
//! (`opening_study`), resource (`chess://rating-pools`) and resource template
//! (`chess://openings/{eco}`), with their completions, are implemented in
//! [`reference`](mod@reference). The [`composed`] module serves the same tools beside a hand-written
//! rmcp prompt.

pub mod chess;
pub mod composed;
pub mod reference;

/// The code generated from the description.
#[allow(clippy::all, missing_docs)]
pub mod contract {
    mcpdesc::include_generated!("chess");
}

use std::sync::Mutex;
use std::time::Duration;

use contract::elicitations::record_game_result::confirm_unusual;
use contract::types::{
    AnalyzeGameInput, AnalyzeGameOutput, AnalyzeGameOutputBlundersItem, GetPlayerRatingInput,
    RecordGameResultInput, RecordGameResultInputResult,
};
use mcpdesc::{Context, Elicited, LogLevel, ToolError, ToolResult};

/// The server state: ratings live in memory for the life of the process.
#[derive(Debug, Default)]
pub struct ChessServer {
    ratings: Mutex<chess::Ratings>,
    think_time: Duration,
}

impl ChessServer {
    /// A server with no recorded games.
    pub fn new() -> Self {
        Self::default()
    }

    /// The same server spending `think_time` on each ply it analyses.
    ///
    /// The analysis of this example is a heuristic that takes no measurable time; a
    /// real engine thinks per position. The pause stands in for that thinking, so that
    /// a client can watch the progress of `analyze_game` and cancel it midway
    /// (`chess-server --think-ms N`). The pause ends early on cancellation.
    pub fn with_think_time(mut self, think_time: Duration) -> Self {
        self.think_time = think_time;
        self
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

/// The router serving a fresh [`ChessServer`] that thinks `think_time` per ply.
pub fn router_thinking(think_time: Duration) -> mcpdesc::Router {
    contract::router(ChessServer::new().with_think_time(think_time))
}

impl contract::AnalyzeGame for ChessServer {
    async fn analyze_game(
        &self,
        input: AnalyzeGameInput,
        cx: Context,
    ) -> Result<AnalyzeGameOutput, ToolError> {
        let moves = chess::parse_pgn(&input.pgn).map_err(|e| ToolError::new(e.to_string()))?;
        let depth = input
            .depth
            .map(|d| usize::try_from(d).unwrap_or(usize::MAX));
        // Ply by ply: progress after each, a check for cancellation before each.
        let plies = depth.unwrap_or(moves.len()).min(moves.len());
        for ply in 1..=plies {
            self.think(&cx).await;
            if cx.is_cancelled() {
                let done = ply - 1;
                let message = format!("analyze_game cancelled after {done} of {plies} plies");
                eprintln!("chess-server: {message}");
                cx.log(LogLevel::Notice, message.as_str()).await;
                return Err(ToolError::new(message));
            }
            let message = format!("analysed ply {ply} of {plies}");
            cx.progress(ply as f64, Some(plies as f64), Some(&message))
                .await;
        }
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

impl ChessServer {
    /// The per-ply thinking time (see [`ChessServer::with_think_time`]), cut short by
    /// cancellation.
    async fn think(&self, cx: &Context) {
        if self.think_time.is_zero() {
            return;
        }
        tokio::select! {
            () = tokio::time::sleep(self.think_time) => {}
            () = cx.cancelled() => {}
        }
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
    /// Records the result. A decisive result after fewer than two full moves is first
    /// confirmed through the `confirm_unusual` elicitation: declined, cancelled, or
    /// accepted with `record: false`, it is not recorded (the declaration's `onDecline`
    /// and `onCancel`) and the answer is the tool error "Not recorded: the unusual
    /// result was not confirmed."; a client that cannot be asked gets "Not recorded:
    /// the unusual result could not be confirmed (...)".
    ///
    /// A recorded game changes its pool's game counts: the sessions subscribed to
    /// `chess://rating-pools` (MCP 2025-11-25 declares `resources.subscribe`) get
    /// `notifications/resources/updated`, on every instance sharing `--redis`.
    async fn record_game_result(
        &self,
        input: RecordGameResultInput,
        cx: Context,
    ) -> Result<ToolResult, ToolError> {
        if input.white_player_id == input.black_player_id {
            return Err(ToolError::new("A player cannot play against themselves."));
        }
        if let Some(pgn) = &input.pgn {
            let plies = chess::parse_pgn(pgn)
                .map_err(|e| ToolError::new(format!("Invalid PGN: {e}")))?
                .len();
            // A decisive result after fewer than two full moves is unusual (a
            // forfeit, or a typo in the result): the user confirms it through the
            // description's typed `confirm_unusual` elicitation.
            let decisive = input.result != RecordGameResultInputResult::X1212;
            if decisive && plies < 4 {
                let answer = confirm_unusual::ask(&cx).await.map_err(|e| {
                    ToolError::new(format!(
                        "Not recorded: the unusual result could not be confirmed ({e})."
                    ))
                })?;
                if !matches!(answer, Elicited::Accept(ref form) if form.record) {
                    return Err(ToolError::new(
                        "Not recorded: the unusual result was not confirmed.",
                    ));
                }
            }
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
        cx.changes()
            .resource_updated(contract::resources::rating_pools::URI)
            .await;
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
