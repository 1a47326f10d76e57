//! `typed-client [--http URL | SERVER [ARGS...]]`: runs the tour of the typed chess
//! client against a chess server.
//!
//! Without arguments it starts `chess-server` from the same target directory (`cargo
//! build -p chess-server` first), else from `PATH`; `SERVER ARGS...` starts another
//! command; `--http URL` connects to a running server's MCP endpoint (`chess-server
//! --http 127.0.0.1:8080` serves `http://127.0.0.1:8080/mcp`).

use typed_client::chess::Client;

#[tokio::main]
async fn main() -> std::process::ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let session = match args.first().map(String::as_str) {
        Some("--http") => match args.get(1) {
            Some(url) => mcpdesc::client::http(url).await,
            None => {
                eprintln!("--http needs the server's MCP endpoint URL");
                return std::process::ExitCode::from(2);
            }
        },
        Some(program) => {
            let mut command = tokio::process::Command::new(program);
            command.args(&args[1..]);
            mcpdesc::client::stdio(command).await
        }
        None => mcpdesc::client::stdio(tokio::process::Command::new(chess_server())).await,
    };
    let session = match session {
        Ok(session) => session,
        Err(e) => {
            eprintln!("typed-client: {e}");
            return std::process::ExitCode::FAILURE;
        }
    };
    let client = Client::new(session);
    let outcome = typed_client::tour(&client).await;
    client.session().close().await;
    match outcome {
        Ok(lines) => {
            for line in lines {
                println!("{line}");
            }
            std::process::ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("typed-client: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}

/// `chess-server` beside this executable (the same Cargo target directory), else the
/// one on `PATH`.
fn chess_server() -> std::path::PathBuf {
    let name = format!("chess-server{}", std::env::consts::EXE_SUFFIX);
    std::env::current_exe()
        .ok()
        .map(|exe| exe.with_file_name(&name))
        .filter(|path| path.exists())
        .unwrap_or_else(|| name.into())
}
