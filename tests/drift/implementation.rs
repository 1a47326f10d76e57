// An implementation written against `v1.mcpdesc.json`. Every drift case generates the
// module `drift` from one version of the description and then includes this file, so
// the implementation is the same in each; only the description changes.

use std::sync::Mutex;

use drift::types;
use mcpdesc::{Context, ToolError, ToolResult};

#[derive(Default)]
pub struct Notes {
    notes: Mutex<Vec<Option<(String, String)>>>,
}

impl drift::AddNote for Notes {
    async fn add_note(
        &self,
        input: types::AddNoteInput,
        _cx: Context,
    ) -> Result<types::AddNoteOutput, ToolError> {
        let mut notes = self.notes.lock().unwrap();
        notes.push(Some((input.title, input.body)));
        let id = notes.len() as i64 - 1;
        Ok(types::AddNoteOutput { id })
    }
}

impl drift::GetNote for Notes {
    async fn get_note(
        &self,
        input: types::GetNoteInput,
        _cx: Context,
    ) -> Result<types::GetNoteOutput, ToolError> {
        let id: i64 = input.id;
        let notes = self.notes.lock().unwrap();
        match notes.get(id as usize) {
            Some(Some((title, _body))) => Ok(types::GetNoteOutput {
                title: title.clone(),
            }),
            _ => Err(ToolError::new(format!("no note {id}"))),
        }
    }
}

impl drift::DeleteNote for Notes {
    async fn delete_note(
        &self,
        input: types::DeleteNoteInput,
        _cx: Context,
    ) -> Result<ToolResult, ToolError> {
        let mut notes = self.notes.lock().unwrap();
        match notes.get_mut(input.id as usize) {
            Some(note) if note.is_some() => {
                *note = None;
                Ok(ToolResult::text(format!("deleted note {}", input.id)))
            }
            _ => Err(ToolError::new(format!("no note {}", input.id))),
        }
    }
}

fn main() {
    let _router: mcpdesc::Router = drift::router(Notes::default());
}
