//! Code in the shape issue 4 asks the generator to emit (one handler trait per tool, a
//! `Server` trait, `router(server)`), written by hand against the runtime's public API.
//! It proves that shape compiles and works, and shows the generator what to emit.

mod generated {
    /// Generated types (normally from the schemas).
    pub mod types {
        use ::mcpdesc::__private::serde;

        #[derive(Debug, serde::Deserialize)]
        #[serde(crate = "::mcpdesc::__private::serde")]
        pub struct AnalyzeGameInput {
            pub pgn: String,
            pub depth: Option<i64>,
        }

        #[derive(Debug, serde::Serialize)]
        #[serde(crate = "::mcpdesc::__private::serde")]
        pub struct AnalyzeGameOutput {
            pub evaluation: f64,
        }

        #[derive(Debug, serde::Deserialize)]
        #[serde(crate = "::mcpdesc::__private::serde")]
        pub struct GetPlayerRatingInput {
            pub player_id: String,
        }
    }

    pub const SERVER_INFO_PROTOCOL_VERSIONS: &[::mcpdesc::ProtocolVersion] = &[
        ::mcpdesc::ProtocolVersion::V2025_06_18,
        ::mcpdesc::ProtocolVersion::V2025_11_25,
    ];

    pub fn server_info() -> ::mcpdesc::ServerInfo {
        ::mcpdesc::ServerInfo {
            name: "chess".into(),
            version: "1.0.0".into(),
            instructions: ::core::option::Option::Some("Analyze games.".into()),
            protocol_versions: SERVER_INFO_PROTOCOL_VERSIONS,
            ..::core::default::Default::default()
        }
    }

    pub const ANALYZE_GAME: ::mcpdesc::ToolSpec = ::mcpdesc::ToolSpec {
        name: "analyze_game",
        scope: SERVER_INFO_PROTOCOL_VERSIONS,
        declaration: r#"{"name":"analyze_game","inputSchema":{"type":"object","properties":{"pgn":{"type":"string"},"depth":{"type":"integer","minimum":1}},"required":["pgn"]},"outputSchema":{"type":"object","properties":{"evaluation":{"type":"number"}},"required":["evaluation"]},"tags":["analysis"]}"#,
    };

    pub const GET_PLAYER_RATING: ::mcpdesc::ToolSpec = ::mcpdesc::ToolSpec {
        name: "get_player_rating",
        scope: SERVER_INFO_PROTOCOL_VERSIONS,
        declaration: r#"{"name":"get_player_rating","inputSchema":{"type":"object","properties":{"player_id":{"type":"string"}},"required":["player_id"]}}"#,
    };

    /// A tool with an outputSchema whose handler may add content blocks: it returns
    /// `Typed<Output>` (`Ok(output.into())` for the output alone).
    ///
    /// A nested `impl Into<Typed<Output>>` in the return type would let users return
    /// either form, but then every `async fn` impl with a concrete type triggers the
    /// `refining_impl_trait` warning in user code, so generated traits should name one
    /// type: `Output` (issue 4's contract) or `Typed<Output>`.
    pub trait AnalyzeGame: Send + Sync {
        fn analyze_game(
            &self,
            input: types::AnalyzeGameInput,
            cx: ::mcpdesc::Context,
        ) -> impl ::core::future::Future<
            Output = ::core::result::Result<
                ::mcpdesc::Typed<types::AnalyzeGameOutput>,
                ::mcpdesc::ToolError,
            >,
        > + Send;
    }

    pub trait GetPlayerRating: Send + Sync {
        fn get_player_rating(
            &self,
            input: types::GetPlayerRatingInput,
            cx: ::mcpdesc::Context,
        ) -> impl ::core::future::Future<
            Output = ::core::result::Result<::mcpdesc::ToolResult, ::mcpdesc::ToolError>,
        > + Send;
    }

    pub trait Server: AnalyzeGame + GetPlayerRating + Send + Sync + 'static {}
    impl<T: AnalyzeGame + GetPlayerRating + Send + Sync + 'static> Server for T {}

    pub fn router<S: Server>(server: S) -> ::mcpdesc::Router {
        let server = ::mcpdesc::__private::Arc::new(server);
        ::mcpdesc::Router::new(server_info())
            .tool(ANALYZE_GAME, {
                let server = ::mcpdesc::__private::Arc::clone(&server);
                move |args, cx| {
                    let server = ::mcpdesc::__private::Arc::clone(&server);
                    ::mcpdesc::__private::boxed(async move {
                        let input: types::AnalyzeGameInput =
                            ::mcpdesc::__private::parse_arguments(args)?;
                        let output = AnalyzeGame::analyze_game(&*server, input, cx).await?;
                        ::mcpdesc::ToolResult::from_typed(output)
                    })
                }
            })
            .tool(GET_PLAYER_RATING, {
                let server = ::mcpdesc::__private::Arc::clone(&server);
                move |args, cx| {
                    let server = ::mcpdesc::__private::Arc::clone(&server);
                    ::mcpdesc::__private::boxed(async move {
                        let input: types::GetPlayerRatingInput =
                            ::mcpdesc::__private::parse_arguments(args)?;
                        GetPlayerRating::get_player_rating(&*server, input, cx).await
                    })
                }
            })
    }
}

use futures::executor::block_on;
use generated::types::*;
use mcpdesc::{Content, Context, ProtocolVersion, ToolError, ToolResult, Typed};
use serde_json::json;

/// What a user writes: plain `async fn`s.
struct Chess;

impl generated::AnalyzeGame for Chess {
    async fn analyze_game(
        &self,
        input: AnalyzeGameInput,
        _cx: Context,
    ) -> Result<Typed<AnalyzeGameOutput>, ToolError> {
        let moves = input.pgn.split_whitespace().count();
        Ok(Typed::new(AnalyzeGameOutput {
            evaluation: moves as f64 / 10.0,
        })
        .with_content(Content::text(format!("{moves} tokens read"))))
    }
}

impl generated::GetPlayerRating for Chess {
    async fn get_player_rating(
        &self,
        input: GetPlayerRatingInput,
        _cx: Context,
    ) -> Result<ToolResult, ToolError> {
        if input.player_id.is_empty() {
            return Err(ToolError::new("empty player id"));
        }
        Ok(ToolResult::text(format!("{}: 1500", input.player_id)))
    }
}

/// A second implementation returning the output alone.
struct Plain;

impl generated::AnalyzeGame for Plain {
    async fn analyze_game(
        &self,
        input: AnalyzeGameInput,
        _cx: Context,
    ) -> Result<Typed<AnalyzeGameOutput>, ToolError> {
        let evaluation = input.depth.unwrap_or(0) as f64;
        Ok(AnalyzeGameOutput { evaluation }.into())
    }
}

impl generated::GetPlayerRating for Plain {
    async fn get_player_rating(
        &self,
        _input: GetPlayerRatingInput,
        _cx: Context,
    ) -> Result<ToolResult, ToolError> {
        Ok(ToolResult::text("?"))
    }
}

#[test]
fn the_generated_shape_serves_both_return_forms() {
    let router = generated::router(Chess);
    assert!(router.errors().is_empty());
    let cx = || Context::new(ProtocolVersion::V2025_11_25);

    let result = block_on(router.call_tool(
        "analyze_game",
        Some(json!({"pgn": "1. e4 e5 2. Nf3"})),
        cx(),
    ))
    .unwrap();
    assert_eq!(result.structured_content, Some(json!({"evaluation": 0.5})));
    assert_eq!(
        result.content,
        vec![
            Content::text("{\"evaluation\":0.5}"),
            Content::text("5 tokens read")
        ]
    );

    let rating =
        block_on(router.call_tool("get_player_rating", Some(json!({"player_id": ""})), cx()))
            .unwrap();
    assert_eq!(rating, ToolResult::error("empty player id"));

    let plain = generated::router(Plain);
    let result =
        block_on(plain.call_tool("analyze_game", Some(json!({"pgn": "x", "depth": 3})), cx()))
            .unwrap();
    assert_eq!(result.structured_content, Some(json!({"evaluation": 3.0})));
    assert_eq!(
        plain.list_tools(ProtocolVersion::V2025_06_18)[0]
            .as_object()
            .unwrap()
            .keys()
            .collect::<Vec<_>>(),
        ["name", "inputSchema", "outputSchema"]
    );
}
