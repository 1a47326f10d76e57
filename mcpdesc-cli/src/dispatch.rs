//! The command line parsed and handed to its command.

use std::io::Write;

use clap::Parser;
use mcpdesc_codegen::Settings;
use mcpdesc_contract::diff::{FailOn, Perspective};

use crate::args::{Cli, Command, FailOnArg, PerspectiveArg};
use crate::diff::diff;
use crate::docs::docs;
use crate::exit::{EXIT_OK, EXIT_USAGE};
use crate::generate::{generate, Target};
use crate::migrate::migrate;
use crate::serve_mock::MockJwt;
use crate::serve_mock_command::{serve_mock, MockSecurity};
use crate::validate::validate;
use crate::{check, init, pull};

/// Runs the command line `args` (including the program name), writing to `out` and
/// `err`; returns the exit code.
pub fn run<I, T>(args: I, out: &mut dyn Write, err: &mut dyn Write) -> u8
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() { EXIT_USAGE } else { EXIT_OK };
            let text = e.render().to_string();
            let _ = if e.use_stderr() {
                err.write_all(text.as_bytes())
            } else {
                out.write_all(text.as_bytes())
            };
            return code;
        }
    };
    match cli.command {
        Command::Validate { format, files } => validate(&files, format, out, err),
        Command::Generate {
            file,
            output,
            check,
            protocol_version,
            no_tests,
            test_server,
            side,
            own_types,
        } => {
            let mut settings = own_types.apply(Settings::new().tests(!no_tests).side(side));
            if let Some(expr) = test_server {
                settings = settings.test_server(expr);
            }
            if let Some(v) = protocol_version {
                settings = settings.protocol_version(v);
            }
            let target = match (output.as_deref(), check) {
                (Some(path), true) => Target::Check(path),
                (Some(path), false) => Target::File(path),
                (None, _) => Target::Stdout,
            };
            generate(&file, target, &settings, out, err)
        }
        Command::ServeMock {
            file,
            protocol_version,
            selections,
            http,
            tokens,
            transport,
            jwks,
            issuer,
            audience,
        } => {
            let jwt = jwks.zip(issuer).map(|(jwks, issuer)| MockJwt {
                jwks,
                issuer,
                audience,
            });
            serve_mock(
                &file,
                protocol_version,
                &selections,
                http.as_deref(),
                &MockSecurity {
                    tokens: &tokens,
                    transport: transport.as_deref(),
                    jwt: jwt.as_ref(),
                },
                err,
            )
        }
        Command::Check(args) => check::run(&args, out, err),
        Command::Init {
            dir,
            description,
            http,
            mcpdesc_path,
        } => init::init(
            &dir,
            description.as_deref(),
            http,
            mcpdesc_path.as_deref(),
            out,
            err,
        ),
        Command::Stubs {
            file,
            protocol_version,
        } => init::stubs(&file, protocol_version, out, err),
        Command::Docs {
            file,
            output,
            protocol_version,
        } => docs(&file, output.as_deref(), protocol_version, out, err),
        Command::Diff {
            old,
            new,
            format,
            fail_on,
            perspective,
        } => {
            let fail_on = match fail_on {
                FailOnArg::Breaking => FailOn::Breaking,
                FailOnArg::Warning => FailOn::Warning,
            };
            let perspective = match perspective {
                PerspectiveArg::Client => Perspective::Client,
                PerspectiveArg::Server => Perspective::Server,
            };
            diff(&old, &new, format, fail_on, perspective, out, err)
        }
        Command::Pull {
            command,
            url,
            output,
            timeout,
            protocol_version,
        } => {
            let server = match (url, command.is_empty()) {
                (Some(url), _) => pull::Server::Url(url),
                (None, false) => pull::Server::Command(command),
                (None, true) => {
                    let _ = writeln!(
                        err,
                        "error: name the server: `mcpdesc pull -- COMMAND [ARGS...]` or `mcpdesc pull --url URL`"
                    );
                    return EXIT_USAGE;
                }
            };
            let timeout = std::time::Duration::from_secs(timeout);
            let options = pull::PullOptions {
                timeout,
                protocol_version,
            };
            pull::pull(&server, output.as_deref(), &options, out, err)
        }
        Command::Migrate {
            input,
            output,
            to,
            protocol_version,
        } => {
            let options = mcpdesc_contract::migrate::Options {
                target: to,
                protocol_version,
            };
            migrate(&input, output.as_deref(), &options, out, err)
        }
    }
}
