//! One clear compile error per missing feature.
//!
//! Generated code and the front ends reach features of this crate that a server crate
//! does not compile by default (`client`, `client-http`, `macros`, `full-validation`).
//! Without the feature the user would meet a cascade of "cannot find `client` in
//! `mcpdesc`" (E0433) errors, one per path of the generated client, none saying what
//! to do. The guards here turn that into exactly one `compile_error!` (or, for a
//! function, one trait error) that names the feature and the `Cargo.toml` line to add:
//!
//! - `__requires_client!` wraps the generated `Client`: it expands to the items with
//!   the `client` feature and to one error (and no items) without it;
//! - `__full_validation!` (generated when a tool schema needs the `jsonschema`
//!   validator) names the tools and keywords that need `full-validation`;
//! - `mcpdesc!` without `macros` is a stand-in macro whose only expansion is the error;
//! - `client::http` and `client::Options::http` without `client-http` exist with a
//!   bound no type meets ([`ClientHttpFeature`]), whose message names the feature.
//!
//! Each guard is a `macro_rules!` defined twice under opposite `cfg`s: the decision is
//! taken when this crate is compiled, with its features, and the user's crate only
//! sees the outcome.

/// Expands to the items it wraps: this build has the `client` feature that the
/// generated typed `Client` needs (generated code invokes it; see
/// `docs/generated-code.md`).
#[cfg(feature = "client")]
#[doc(hidden)]
#[macro_export]
macro_rules! __requires_client {
    ($($item:item)*) => {
        $($item)*
    };
}

/// One compile error saying the generated typed `Client` needs the `client` feature,
/// and none of the items it wraps (so no error follows for each path of
/// `mcpdesc::client` they name).
#[cfg(not(feature = "client"))]
#[doc(hidden)]
#[macro_export]
macro_rules! __requires_client {
    ($($item:item)*) => {
        ::core::compile_error!(::core::concat!(
            "the generated typed `Client` needs the `client` feature of mcpdesc; ",
            "add it in Cargo.toml: mcpdesc = { version = \"0.1\", features = [\"client\"] } ",
            "(or generate the server side only: `Side::Server`, `side = \"server\"`, ",
            "`mcpdesc generate --side server`)"
        ));
    };
}

/// Expands to nothing: this build has the `full-validation` feature, which the listed
/// tool schemas need (generated code invokes it; see `docs/generated-code.md`).
#[cfg(feature = "full-validation")]
#[doc(hidden)]
#[macro_export]
macro_rules! __full_validation {
    ($($need:literal),* $(,)?) => {};
}

/// A compile error naming the tool schemas that need the `full-validation` feature,
/// which this build of `mcpdesc` lacks (generated code invokes it).
#[cfg(not(feature = "full-validation"))]
#[doc(hidden)]
#[macro_export]
macro_rules! __full_validation {
    ($($need:literal),* $(,)?) => {
        ::core::compile_error!(::core::concat!(
            "these tool schemas use keywords only the full JSON Schema validator checks; ",
            "enable the `full-validation` feature of mcpdesc ",
            "(mcpdesc = { ..., features = [\"full-validation\"] }):"
            $(, "\n  ", $need)*
        ));
    };
}

/// Stands in for the `mcpdesc!` macro in a build without the `macros` feature: one
/// compile error naming the feature, whatever the arguments.
#[cfg(not(feature = "macros"))]
#[doc(hidden)]
#[macro_export]
macro_rules! __mcpdesc_without_macros {
    ($($any:tt)*) => {
        ::core::compile_error!(::core::concat!(
            "`mcpdesc::mcpdesc!` needs the `macros` feature of mcpdesc; ",
            "add it in Cargo.toml: mcpdesc = { version = \"0.1\", features = [\"macros\"] } ",
            "(or generate in a build script with `mcpdesc_codegen::Builder`)"
        ));
    };
}

/// The bound of `client::http` and `client::Options::http` in a build without the
/// `client-http` feature. No type implements it, so a call is one error that carries
/// this message.
#[cfg(all(feature = "client", not(feature = "client-http")))]
#[diagnostic::on_unimplemented(
    message = "connecting over streamable HTTP needs the `client-http` feature of mcpdesc",
    label = "this build of mcpdesc has no HTTP client",
    note = "add it in Cargo.toml: mcpdesc = {{ version = \"0.1\", features = [\"client-http\"] }} (`client-https` for `https://` URLs)"
)]
pub trait ClientHttpFeature {
    /// Never called: no type implements the trait. It lets the stand-in functions be
    /// written without a body that could run (`url.unreachable()`).
    fn unreachable<T>(self) -> T;
}
