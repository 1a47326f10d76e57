//! The values of command-line arguments that `clap` cannot parse alone: protocol
//! versions, sides, MCP Description versions.

use mcpdesc_codegen::validate::SpecVersion;
use mcpdesc_codegen::{ProtocolVersion, Side};

/// A `--side` value: `server`, `client` or `both`.
pub(crate) fn parse_side(text: &str) -> Result<Side, String> {
    text.parse()
}

/// A `--protocol-version` value, one of the MCP protocol versions the runtime knows.
pub(crate) fn parse_protocol_version(text: &str) -> Result<ProtocolVersion, String> {
    ProtocolVersion::parse(text).ok_or_else(|| {
        let known: Vec<&str> = ProtocolVersion::ALL.iter().map(|v| v.as_str()).collect();
        format!(
            "unknown protocol version (expected one of {})",
            known.join(", ")
        )
    })
}

/// A `--to` value of `migrate`: an MCP Description version.
pub(crate) fn parse_spec_version(text: &str) -> Result<SpecVersion, String> {
    SpecVersion::parse(text).ok_or_else(|| "expected 0.8.0 or 0.9.0".to_owned())
}
