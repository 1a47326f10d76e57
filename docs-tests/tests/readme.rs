//! The README's greeter does what the README says: its implementation passes the
//! description's example `ada` through the generated router (what `cargo test` checks
//! with `.test_server("crate::Greeter")`). The description is the README's own
//! (`build.rs` reads it out of README.md); the implementation is the README's `impl`.

mod greeter {
    mcpdesc::include_generated!("greeter");
}
use greeter::types::{GreetInput, GreetOutput};
use mcpdesc::{Context, ToolError};

struct Greeter;

impl greeter::Greet for Greeter {
    async fn greet(&self, input: GreetInput, _cx: Context) -> Result<GreetOutput, ToolError> {
        Ok(GreetOutput {
            greeting: format!("Hello, {}!", input.name),
        })
    }
}

#[test]
fn the_readme_greeter_passes_its_example() {
    // Exactly what the test generated with `test_server` runs, text included.
    let ada = &greeter::examples::greet::ALL;
    ada.check_example_with_output(0);
    mcpdesc::testing::expect(mcpdesc::implementation::check_example(
        &greeter::router(Greeter),
        &ada.tool,
        &ada.examples[0],
        mcpdesc::implementation::Compare::Exact,
    ));
}

#[test]
fn the_readme_implementation_is_the_one_tested_here() {
    let readme = include_str!("../../README.md");
    for line in [
        "impl greeter::Greet for Greeter {",
        "async fn greet(&self, input: GreetInput, _cx: Context) -> Result<GreetOutput, ToolError> {",
        "Ok(GreetOutput { greeting: format!(\"Hello, {}!\", input.name) })",
    ] {
        assert!(
            readme.contains(line),
            "README.md no longer has `{line}`: update this test with it"
        );
    }
}
