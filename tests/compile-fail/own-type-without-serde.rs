// A type given in place of a generated one must implement what the generated types
// derive: without serde, the first error names the type, what it stands for (the
// `Issue` component, and so the identical `$defs/Issue` of `list_issues`) and where.

mod model {
    #[derive(Clone, Debug)]
    pub struct Issue {
        pub id: String,
        pub title: String,
    }
}

mod api {
    mcpdesc::mcpdesc!(
        path = "frontends/own-type.mcpdesc.json",
        tests = false,
        replace = { "#/components/schemas/Issue" = crate::model::Issue },
    );
}

fn main() {
    let _issue: Option<api::types::ListIssuesOutput> = None;
}
