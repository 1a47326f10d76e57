//! What names no item of another file makes no edge: generated code, visibility, other
//! crates, a file's own items, `mod` declarations, module imports alone.

use std::collections::BTreeSet;

use super::fixture::{edge, Fixture};

#[test]
fn quote_bodies_are_generated_code_not_edges() {
    let emitter = "\
pub fn b() {}
pub fn emit() -> String {
    let tokens = quote::quote! { crate::a::a() };
    let spanned = quote_spanned! { span=> crate::a::a() };
    let parsed: syn::Expr = parse_quote!(crate::a::a());
    let nested = vec![quote! { crate::a::a() }];
    format!(\"{tokens}{spanned}{parsed:?}{nested:?}\")
}
";
    let fixture = Fixture::new(
        "quote",
        &[
            ("src/lib.rs", "mod a;\nmod b;\n"),
            ("src/a.rs", "pub fn a() {\n    crate::b::b();\n}\n"),
            ("src/b.rs", emitter),
        ],
    );
    let outcome = fixture.check("src/lib.rs");
    assert!(outcome.is_clean(), "{}", fixture.findings(&outcome));
    assert_eq!(
        fixture.edges(&outcome),
        BTreeSet::from([edge("src/a.rs", "src/b.rs", &["2: crate::b::b"])])
    );
}

#[test]
fn a_layered_crate_is_clean() {
    let fixture = Fixture::new(
        "layered",
        &[
            (
                "src/lib.rs",
                "//! [`api::Api`] on [`store::Store`] on values.\n\
                 pub mod api;\npub mod store;\npub mod value;\npub use api::Api;\n",
            ),
            (
                "src/value.rs",
                "pub struct Value;\n\
                 impl Value {\n    pub fn new() -> Self {\n        Self\n    }\n}\n\
                 pub(crate) fn helper() -> Value {\n    self::Value::new()\n}\n",
            ),
            (
                "src/store.rs",
                "use std::fmt;\n\
                 use crate::value::Value;\n\
                 pub struct Store(pub Vec<Value>);\n\
                 pub(super) fn f() {}\n\
                 pub(in crate::store) fn g() {}\n\
                 impl fmt::Debug for Store {\n    \
                 fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {\n        \
                 write!(f, \"{}\", self::NAME)\n    }\n}\n\
                 const NAME: &str = \"store\";\n\
                 #[cfg(test)]\n\
                 mod tests {\n    use super::*;\n    \
                 #[test]\n    fn t() {\n        let _ = Store(vec![Value::new()]);\n    }\n}\n",
            ),
            (
                "src/api.rs",
                "use crate::store::Store;\n\
                 use crate::value;\n\
                 use serde_json::Value as Json;\n\
                 pub struct Api {\n    store: Store,\n}\n\
                 impl Api {\n    pub fn first(&self) -> Option<&value::Value> {\n        \
                 self.store.0.first()\n    }\n    \
                 pub fn json(&self) -> Json {\n        serde_json::json!({\"a\": std::fmt::Error.to_string()})\n    }\n}\n",
            ),
        ],
    );
    let outcome = fixture.check("src/lib.rs");
    assert!(outcome.is_clean(), "{}", fixture.findings(&outcome));
    assert_eq!(
        fixture.edges(&outcome),
        BTreeSet::from([
            edge("src/api.rs", "src/store.rs", &["1: crate::store::Store"]),
            edge("src/api.rs", "src/value.rs", &["8: value::Value"]),
            edge(
                "src/lib.rs",
                "src/api.rs",
                &["1: [api::Api] (doc link)", "5: api::Api"]
            ),
            edge(
                "src/lib.rs",
                "src/store.rs",
                &["1: [store::Store] (doc link)"]
            ),
            edge("src/store.rs", "src/value.rs", &["2: crate::value::Value"]),
        ])
    );
    let report = fixture.findings(&outcome);
    assert!(
        report.starts_with("layout: 1 targets, 4 source files, 5 edges: 0 circle(s)"),
        "{report}"
    );
}
