//! The crate targets of a workspace, read from `cargo metadata`.

use std::path::{Path, PathBuf};
use std::process::Command;

/// One crate target: its root file starts a module tree of its own.
#[derive(Clone, Debug)]
pub struct Target {
    /// The package's name (`mcpdesc-check`).
    pub package: String,
    /// The target's name (`mcpdesc_check`, `check`, `build-script-build`).
    pub name: String,
    /// Its kind: `lib`, `proc-macro`, `bin`, `test`, `bench`, `example`, `custom-build`.
    pub kind: String,
    /// The root file (`src/lib.rs`, `tests/check.rs`, `build.rs`).
    pub root: PathBuf,
}

/// The workspace's root folder and the targets of every member package.
pub struct Workspace {
    /// The folder of the workspace `Cargo.toml`; reports name files relative to it.
    pub root: PathBuf,
    /// Every target of every member, in `cargo metadata`'s order.
    pub targets: Vec<Target>,
}

/// Runs `cargo metadata --no-deps` on the manifest and lists the targets of the
/// workspace it belongs to. `cargo` is the one that runs the test (`$CARGO`), else the
/// one that built it.
pub fn workspace(manifest: &Path) -> Result<Workspace, String> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| env!("CARGO").into());
    let output = Command::new(&cargo)
        .args([
            "metadata",
            "--no-deps",
            "--offline",
            "--format-version",
            "1",
        ])
        .arg("--manifest-path")
        .arg(manifest)
        .output()
        .map_err(|error| format!("cannot run {}: {error}", Path::new(&cargo).display()))?;
    if !output.status.success() {
        return Err(format!(
            "cargo metadata failed ({}):\n{}",
            output.status,
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    let metadata: serde_json::Value = serde_json::from_slice(&output.stdout)
        .map_err(|error| format!("cargo metadata printed no JSON: {error}"))?;
    parse(&metadata)
}

/// The workspace root and targets of `cargo metadata`'s JSON (format version 1).
fn parse(metadata: &serde_json::Value) -> Result<Workspace, String> {
    let text = |value: &serde_json::Value, what: &str| {
        value
            .as_str()
            .map(str::to_owned)
            .ok_or_else(|| format!("cargo metadata: `{what}` is not a string"))
    };
    let root = PathBuf::from(text(&metadata["workspace_root"], "workspace_root")?);
    let packages = metadata["packages"]
        .as_array()
        .ok_or("cargo metadata: no `packages` array")?;
    let mut targets = Vec::new();
    for package in packages {
        let package_name = text(&package["name"], "packages[].name")?;
        let Some(package_targets) = package["targets"].as_array() else {
            return Err(format!(
                "cargo metadata: package {package_name} has no targets"
            ));
        };
        for target in package_targets {
            let kind = target["kind"]
                .as_array()
                .and_then(|kinds| kinds.first())
                .map(|kind| text(kind, "targets[].kind[0]"))
                .transpose()?
                .unwrap_or_default();
            targets.push(Target {
                package: package_name.clone(),
                name: text(&target["name"], "targets[].name")?,
                kind,
                root: PathBuf::from(text(&target["src_path"], "targets[].src_path")?),
            });
        }
    }
    Ok(Workspace { root, targets })
}
