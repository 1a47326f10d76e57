// An invalid description whose module the crate uses as if it had generated: only the
// description's diagnostics are reported, no cascade of unresolved names.

mod api {
    mcpdesc::mcpdesc!(path = "frontends/invalid-two-errors.mcpdesc.json", tests = false);
}

use api::types::PingInput;

struct Impl;

impl api::Ping for Impl {
    async fn ping(
        &self,
        _input: PingInput,
        _cx: mcpdesc::Context,
    ) -> Result<api::types::PingOutput, mcpdesc::ToolError> {
        todo!()
    }
}

fn main() {
    let _router = api::router(Impl);
    let _client: Option<api::Client> = None;
}
