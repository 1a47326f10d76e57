// An implementation written against `elicitation-v1.mcpdesc.json`: it asks through the
// typed `confirm` elicitation and reads its form field `confirm`. Each case generates
// the module `drift` from one version of the description and includes this file.

use drift::elicitations::delete_note::confirm;
use mcpdesc::{Context, Elicited, ToolError, ToolResult};

pub struct Notes;

impl drift::DeleteNote for Notes {
    async fn delete_note(
        &self,
        input: drift::types::DeleteNoteInput,
        cx: Context,
    ) -> Result<ToolResult, ToolError> {
        let answer = confirm::ask(&cx)
            .await
            .map_err(|e| ToolError::new(e.to_string()))?;
        match answer {
            Elicited::Accept(form) if form.confirm => {
                Ok(ToolResult::text(format!("deleted note {}", input.id)))
            }
            _ => Err(ToolError::new("not deleted")),
        }
    }
}

fn main() {
    let _router: mcpdesc::Router = drift::router(Notes);
}
