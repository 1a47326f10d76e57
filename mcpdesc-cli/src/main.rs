//! The `mcpdesc` binary; see the library for the commands.

use std::process::ExitCode;

fn main() -> ExitCode {
    // Unlocked handles: `serve-mock` hands stdout to the MCP transport, which writes from
    // another thread; holding `stdout().lock()` here would deadlock it.
    let code = mcpdesc_cli::run(
        std::env::args_os(),
        &mut std::io::stdout(),
        &mut std::io::stderr(),
    );
    ExitCode::from(code)
}
