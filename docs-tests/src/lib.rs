//! The manual's doc tests: README.md and every page of `docs/` are included below as doc
//! comments (only when rustdoc collects doc tests), so `cargo test --workspace` compiles
//! their Rust blocks, and runs those that are not `no_run`, as it does a crate's own
//! examples. A page that stops matching the code fails the build of its block.
//!
//! Blocks leave out what a page does not need to show with hidden `# ` lines. Most use
//! the items of this library: the chess example's generated module ([`contract`], and
//! [`mod@chess`] with the typed client) and a chess server that is a unit struct
//! ([`Chess`]), as the pages write it. A block
//! that shows `mcpdesc::include_generated!("chess")` (or `"games"`, `"greeter"`) gets
//! what this crate's build script generated into `OUT_DIR`, as a user's crate would.

use std::sync::LazyLock;

use mcpdesc::{
    CompletionRequest, CompletionResult, Context, PromptResult, RequestError, ResourceResult,
    ToolError, ToolResult,
};

pub use chess_server::contract;

/// The chess example's module with both sides, the typed `Client` included, as this
/// crate's build script generates it (`contract` is the server side only).
#[allow(clippy::all, missing_docs)]
pub mod chess {
    mcpdesc::include_generated!("chess");
}
use contract::types::{
    AnalyzeGameInput, AnalyzeGameOutput, GetPlayerRatingInput, OpeningStudyArguments,
    OpeningVariables, RecordGameResultInput,
};

/// The chess server of `examples/chess-server`, as the pages' unit struct `Chess`: every
/// handler trait of [`contract`] answers as `chess_server::ChessServer` does, with one
/// server (its ratings) shared by every `Chess`.
#[derive(Debug, Clone, Copy, Default)]
pub struct Chess;

/// The one server behind every [`Chess`].
static SERVER: LazyLock<chess_server::ChessServer> = LazyLock::new(chess_server::ChessServer::new);

impl contract::AnalyzeGame for Chess {
    async fn analyze_game(
        &self,
        input: AnalyzeGameInput,
        cx: Context,
    ) -> Result<AnalyzeGameOutput, ToolError> {
        SERVER.analyze_game(input, cx).await
    }
}

impl contract::GetPlayerRating for Chess {
    async fn get_player_rating(
        &self,
        input: GetPlayerRatingInput,
        cx: Context,
    ) -> Result<ToolResult, ToolError> {
        SERVER.get_player_rating(input, cx).await
    }
}

impl contract::RecordGameResult for Chess {
    async fn record_game_result(
        &self,
        input: RecordGameResultInput,
        cx: Context,
    ) -> Result<ToolResult, ToolError> {
        SERVER.record_game_result(input, cx).await
    }
}

impl contract::OpeningStudyPrompt for Chess {
    async fn get_opening_study(
        &self,
        arguments: OpeningStudyArguments,
        cx: Context,
    ) -> Result<PromptResult, RequestError> {
        SERVER.get_opening_study(arguments, cx).await
    }

    async fn complete_opening_study(
        &self,
        request: CompletionRequest,
        cx: Context,
    ) -> Result<CompletionResult, RequestError> {
        SERVER.complete_opening_study(request, cx).await
    }
}

impl contract::RatingPoolsResource for Chess {
    async fn read_rating_pools(&self, cx: Context) -> Result<ResourceResult, RequestError> {
        SERVER.read_rating_pools(cx).await
    }
}

impl contract::OpeningTemplate for Chess {
    async fn read_opening(
        &self,
        uri: String,
        variables: OpeningVariables,
        cx: Context,
    ) -> Result<ResourceResult, RequestError> {
        SERVER.read_opening(uri, variables, cx).await
    }

    async fn complete_opening(
        &self,
        request: CompletionRequest,
        cx: Context,
    ) -> Result<CompletionResult, RequestError> {
        SERVER.complete_opening(request, cx).await
    }
}

/// Includes one page as the doc comment of an item that exists only while rustdoc
/// collects doc tests (so `cargo doc` renders none of it).
macro_rules! page {
    ($name:ident, $path:literal) => {
        #[cfg(doctest)]
        #[doc = include_str!($path)]
        pub struct $name;
    };
}

page!(Readme, "../../README.md");
page!(DocsIndex, "../../docs/README.md");
page!(Benchmarks, "../../docs/benchmarks.md");
page!(Check, "../../docs/check.md");
page!(Cli, "../../docs/cli.md");
page!(Client, "../../docs/client.md");
page!(Contributing, "../../docs/contributing.md");
page!(Diff, "../../docs/diff.md");
page!(Examples, "../../docs/examples.md");
page!(Frontends, "../../docs/frontends.md");
page!(GeneratedCode, "../../docs/generated-code.md");
page!(Library, "../../docs/library.md");
page!(Migrate, "../../docs/migrate.md");
page!(Operations, "../../docs/operations.md");
page!(Pull, "../../docs/pull.md");
page!(Security, "../../docs/security.md");
page!(Serving, "../../docs/serving.md");
page!(Testing, "../../docs/testing.md");
page!(Upgrading, "../../docs/upgrading.md");
page!(WritingDescriptions, "../../docs/writing-descriptions.md");
