// Every handler trait of `fixtures/generator/security.mcpdesc.json`, implemented by
// `Games` (included by the compile-fail and compile-pass cases of the authenticator).

#[derive(Default)]
pub struct Games;

impl games::ListGames for Games {
    async fn list_games(
        &self,
        _input: games::types::ListGamesInput,
        cx: mcpdesc::Context,
    ) -> Result<mcpdesc::ToolResult, mcpdesc::ToolError> {
        let who = cx.principal().map_or("anonymous", |p| p.subject());
        Ok(mcpdesc::ToolResult::text(format!("games for {who}")))
    }
}

impl games::RecordGame for Games {
    async fn record_game(
        &self,
        input: games::types::RecordGameInput,
        _cx: mcpdesc::Context,
    ) -> Result<mcpdesc::ToolResult, mcpdesc::ToolError> {
        Ok(mcpdesc::ToolResult::text(format!("recorded {}", input.pgn)))
    }
}

impl games::ServerStatus for Games {
    async fn server_status(
        &self,
        _input: games::types::ServerStatusInput,
        _cx: mcpdesc::Context,
    ) -> Result<mcpdesc::ToolResult, mcpdesc::ToolError> {
        Ok(mcpdesc::ToolResult::text("ok"))
    }
}

impl games::GameReviewPrompt for Games {
    async fn get_game_review(
        &self,
        arguments: games::types::GameReviewArguments,
        _cx: mcpdesc::Context,
    ) -> Result<mcpdesc::PromptResult, mcpdesc::RequestError> {
        Ok(mcpdesc::PromptResult::new(vec![mcpdesc::PromptMessage::user(
            format!("Review {}", arguments.game),
        )]))
    }
}

impl games::LeaderboardResource for Games {
    async fn read_leaderboard(
        &self,
        _cx: mcpdesc::Context,
    ) -> Result<mcpdesc::ResourceResult, mcpdesc::RequestError> {
        Ok(mcpdesc::ResourceResult::text(
            "games://leaderboard",
            "application/json",
            "[]",
        ))
    }
}
