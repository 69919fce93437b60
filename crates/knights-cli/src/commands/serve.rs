//! `knights serve`: the flags become a [`knights_serve::Launch`].

use anyhow::Result;
use knights_serve::{Config, Launch};

use crate::cli::ServeArgs;

/// Serves the page with the limits the flags set.
pub fn run(args: ServeArgs) -> Result<u8> {
    let jobs = args.jobs.max(1);
    knights_serve::run(Launch {
        host: args.host,
        port: args.port,
        open: args.open,
        config: Config {
            allow_hosts: args.allow_host,
            max_squares: args.max_squares,
            max_tourney_squares: args.max_tourney_squares,
            max_count_squares: args.max_count_squares,
            max_body: args.max_body,
            timeout: args.timeout,
            count_timeout: args.count_timeout,
            stream_timeout: args.count_timeout,
            jobs,
            ..Config::default()
        },
    })?;
    Ok(crate::exit::EXIT_SUCCESS)
}
