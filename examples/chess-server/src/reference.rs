//! The description's prompt, resource and resource template, served from the chess
//! domain: the rating pools (`chess://rating-pools`), the catalogue of openings
//! (`chess://openings/{eco}`, with completion of ECO codes) and the `opening_study`
//! prompt (with completion of its arguments).
//!
//! Each is an implementation of a generated trait, as the tools are; the router checks
//! required prompt arguments and URI shapes before calling them.

use mcpdesc::{
    CompletionRequest, CompletionResult, Content, Context, EmbeddedResource, PromptMessage,
    PromptResult, RequestError, ResourceContents, ResourceResult, Role, TextResourceContents,
};
use serde_json::json;

use crate::chess::{self, Opening};
use crate::contract::types::{OpeningStudyArguments, OpeningVariables};
use crate::contract::{self, resources};
use crate::ChessServer;

/// The sides a study plan can take.
const COLORS: [&str; 2] = ["white", "black"];

/// The JSON document of an opening, as `chess://openings/{eco}` serves it.
fn opening_json(opening: Opening) -> String {
    json!({"eco": opening.eco, "name": opening.name, "moves": opening.moves}).to_string()
}

/// The URI of an opening.
fn opening_uri(opening: Opening) -> String {
    format!("chess://openings/{}", opening.eco)
}

/// Suggestions with their total (the catalogue is small: always complete).
fn completion(values: Vec<String>) -> CompletionResult {
    let total = values.len() as u64;
    CompletionResult::new(values).with_total(total, false)
}

fn eco_codes() -> impl Iterator<Item = &'static str> {
    chess::OPENINGS.iter().map(|o| o.eco)
}

impl contract::RatingPoolsResource for ChessServer {
    async fn read_rating_pools(&self, _cx: Context) -> Result<ResourceResult, RequestError> {
        let pools: Vec<serde_json::Value> = chess::POOLS
            .iter()
            .map(|(name, under)| json!({"name": name, "under": under}))
            .collect();
        let text = json!({
            "initialRating": chess::INITIAL_RATING,
            "estimate": "base minutes + 40 * increment seconds / 60",
            "pools": pools,
        })
        .to_string();
        Ok(ResourceResult::text(
            resources::rating_pools::URI,
            "application/json",
            text,
        ))
    }
}

impl contract::OpeningTemplate for ChessServer {
    async fn read_opening(
        &self,
        uri: String,
        variables: OpeningVariables,
        _cx: Context,
    ) -> Result<ResourceResult, RequestError> {
        let opening = chess::opening(&variables.eco).ok_or_else(|| {
            RequestError::resource_not_found(&uri).with_message(format!(
                "Resource not found: `{uri}`: no opening has the ECO code {:?} in this catalogue",
                variables.eco
            ))
        })?;
        Ok(ResourceResult::text(
            opening_uri(opening),
            "application/json",
            opening_json(opening),
        ))
    }

    async fn complete_opening(
        &self,
        request: CompletionRequest,
        _cx: Context,
    ) -> Result<CompletionResult, RequestError> {
        Ok(completion(chess::complete(eco_codes(), &request.value)))
    }
}

impl contract::OpeningStudyPrompt for ChessServer {
    async fn get_opening_study(
        &self,
        arguments: OpeningStudyArguments,
        _cx: Context,
    ) -> Result<PromptResult, RequestError> {
        let opening = chess::opening(&arguments.eco).ok_or_else(|| {
            RequestError::invalid_params(format!(
                "no opening has the ECO code {:?} (complete the argument `eco` to see the catalogue)",
                arguments.eco
            ))
        })?;
        let color = arguments.color.as_deref().unwrap_or("white");
        let side = match color {
            "white" => "White",
            "black" => "Black",
            other => {
                return Err(RequestError::invalid_params(format!(
                    "`color` is {other:?}; it must be \"white\" or \"black\""
                )))
            }
        };
        let ask = format!(
            "Build a study plan for the {} (ECO {}: {}) as {side}: the main ideas, typical middlegame plans and two model games to replay.",
            opening.name, opening.eco, opening.moves
        );
        let reference = Content::Resource(EmbeddedResource {
            resource: ResourceContents::Text(TextResourceContents {
                uri: opening_uri(opening),
                mime_type: Some("application/json".into()),
                text: opening_json(opening),
                meta: None,
            }),
            annotations: None,
            meta: None,
        });
        Ok(PromptResult::new(vec![
            PromptMessage::user(ask),
            PromptMessage::new(Role::User, reference),
        ])
        .with_description(format!("Study plan: {} as {side}", opening.name)))
    }

    async fn complete_opening_study(
        &self,
        request: CompletionRequest,
        _cx: Context,
    ) -> Result<CompletionResult, RequestError> {
        let values = match request.argument.as_str() {
            "eco" => chess::complete(eco_codes(), &request.value),
            _ => chess::complete(COLORS, &request.value),
        };
        Ok(completion(values))
    }
}
