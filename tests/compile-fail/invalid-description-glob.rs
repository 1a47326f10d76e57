// An invalid description whose items the crate uses through glob imports (the most
// common style): the description's own errors are reported, then the code of a
// recovered description (its failing schemas opened to any object) is emitted, so the
// uses resolve and no `cannot find` error follows.

mod api {
    mcpdesc::mcpdesc!(path = "frontends/invalid-two-errors.mcpdesc.json", tests = false, side = "both");
}

use api::types::*;
use api::*;

struct Impl;

impl Ping for Impl {
    async fn ping(
        &self,
        _input: PingInput,
        _cx: mcpdesc::Context,
    ) -> Result<PingOutput, mcpdesc::ToolError> {
        todo!()
    }
}

fn main() {
    let _router = router(Impl);
    let _client: Option<Client> = None;
}
