// An implementation written against `prompt-elicitation-v1.mcpdesc.json`: its prompt
// handler asks through the typed `choose_side` elicitation of the `review_game` prompt
// and reads its form field `side`. Each case generates the module `drift` from one
// version of the description and includes this file.

use drift::elicitations::prompts::review_game::choose_side;
use mcpdesc::{Context, Elicited, PromptMessage, PromptResult, RequestError};

pub struct Reviews;

impl drift::ReviewGamePrompt for Reviews {
    async fn get_review_game(
        &self,
        arguments: drift::types::ReviewGameArguments,
        cx: Context,
    ) -> Result<PromptResult, RequestError> {
        let side = match choose_side::ask(&cx).await? {
            Elicited::Accept(form) => form.side.to_string(),
            _ => "both sides".to_owned(),
        };
        Ok(PromptResult::new(vec![PromptMessage::user(format!(
            "Review {} for {side}.",
            arguments.game
        ))]))
    }
}

fn main() {
    let _router: mcpdesc::Router = drift::router(Reviews);
}
