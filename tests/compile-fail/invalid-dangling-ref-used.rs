// One dangling `$ref` in one property: the macro recovers at that property only (it
// holds any value), so the crate's uses of the other fields and of the output resolve
// and the description's error is the only one.

mod api {
    mcpdesc::mcpdesc!(path = "frontends/dangling-ref.mcpdesc.json", tests = false);
}

use api::types::{PlaceOrderInput, PlaceOrderOutput};

struct Shop;

impl api::PlaceOrder for Shop {
    async fn place_order(
        &self,
        input: PlaceOrderInput,
        _cx: mcpdesc::Context,
    ) -> Result<PlaceOrderOutput, mcpdesc::ToolError> {
        let customer: String = input.customer;
        let quantity: u64 = input.quantity;
        let note: Option<String> = input.note;
        let address: Option<serde_json::Value> = input.address;
        let _ = (customer, note, address);
        Ok(PlaceOrderOutput {
            id: 1,
            total: quantity as f64 * 2.5,
        })
    }
}

fn main() {
    let _router = api::router(Shop);
    let _input = PlaceOrderInput {
        customer: "ada".into(),
        quantity: 1,
        note: None,
        address: None,
    };
}
