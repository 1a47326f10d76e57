//! Which examples a check replays, and in what order: the selected examples of the
//! listed declarations of the negotiated version, in the order of
//! [`mcpdesc_description::example_order`] (reads first, then the other tools,
//! destructive ones last, each in description order, honouring the examples'
//! `x-mcpdesc-after` hints), the order [`EXAMPLE_ORDER`](crate::report::EXAMPLE_ORDER)
//! states in the report.

use mcpdesc_description::example_order::{self, Effect, Kind, Step};
use mcpdesc_description::{Description, ProtocolVersion};

use crate::expected::{Declared, Expected};
use crate::finding::Primitive;
use crate::run::{Checker, Listed};

impl Checker<'_> {
    /// Replays the selected examples of `expected` (the declarations of `desc` served
    /// in this version) whose declaration the server listed, in order.
    pub(crate) async fn examples(
        &mut self,
        desc: &Description,
        expected: &Expected,
        listed: &Listed,
    ) {
        let Some(validation) = desc.validation.as_ref() else {
            return;
        };
        let version = ProtocolVersion::parse(self.version.as_str());
        let steps = example_order::steps(&validation.resolution.value, version);
        let runnable: Vec<Option<(&Declared, Primitive)>> = steps
            .iter()
            .map(|step| self.runnable(step, expected, listed))
            .collect();
        let selected = |i: usize| runnable[i].is_some();
        // A valid description has no cycle (`validate` rejects them); should one reach
        // here, the hints are left aside rather than the examples.
        let order = example_order::order(&steps, &selected).unwrap_or_else(|_| {
            let mut plain: Vec<usize> = (0..steps.len()).filter(|&i| selected(i)).collect();
            plain.sort_by_key(|&i| (steps[i].effect, i));
            plain
        });
        for i in order {
            if self.dead {
                return;
            }
            let (Some((declared, primitive)), step) = (runnable[i], &steps[i]) else {
                continue;
            };
            let Some(example) = declared
                .declaration
                .get(step.member)
                .and_then(|map| map.get(&step.name))
            else {
                continue;
            };
            match (primitive, step.member) {
                (Primitive::Tool, "interactionExamples") => {
                    self.interaction_example(declared, &step.name, example)
                        .await
                }
                (Primitive::Tool, _) => self.tool_example(declared, &step.name, example).await,
                (_, "completionExamples") => {
                    self.completion_example(primitive, declared, &step.name, example)
                        .await
                }
                (Primitive::Prompt, _) => self.prompt_example(declared, &step.name, example).await,
                _ => {
                    self.resource_example(primitive, declared, &step.name, example)
                        .await
                }
            }
        }
    }

    /// The declaration of `step` and its kind when the step is to run: its
    /// declaration was listed, the example is selected, and it is a kind of example the
    /// check replays (completion examples of prompts and resource templates only).
    fn runnable<'e>(
        &self,
        step: &Step,
        expected: &'e Expected,
        listed: &Listed,
    ) -> Option<(&'e Declared, Primitive)> {
        let (declarations, seen, primitive) = match step.kind {
            Kind::Tool => (&expected.tools, &listed.tools, Primitive::Tool),
            Kind::Prompt => (&expected.prompts, &listed.prompts, Primitive::Prompt),
            Kind::Resource => (&expected.resources, &listed.resources, Primitive::Resource),
            Kind::ResourceTemplate => (
                &expected.templates,
                &listed.templates,
                Primitive::ResourceTemplate,
            ),
        };
        let id = step.names.first()?;
        let declared = declarations.iter().find(|d| &d.id == id)?;
        if !seen.contains(id) {
            return None;
        }
        if step.member == "completionExamples" && primitive == Primitive::Resource {
            return None;
        }
        let names: Vec<&str> = step.names.iter().map(String::as_str).collect();
        let read = step.effect == Effect::Read;
        self.config
            .examples
            .example_any(&names, &step.name, read)
            .then_some((declared, primitive))
    }
}
