//! The raw arguments of `knights serve` (clap derive), which become the
//! server's configuration in `commands::serve`.

use std::time::Duration;

use clap::Args;

/// Arguments of `knights serve`.
#[derive(Args, Debug, Clone)]
pub struct ServeArgs {
    /// The address to listen on: loopback by default; 0.0.0.0 opens the
    /// server to other machines.
    #[arg(long, default_value = "127.0.0.1")]
    pub host: String,
    /// The port (0 picks a free one).
    #[arg(long, default_value_t = 8080)]
    pub port: u16,
    /// Open the page in the desktop's browser.
    #[arg(long)]
    pub open: bool,
    /// Also answer requests addressed to this host name (any port), as
    /// behind a reverse proxy or in a container; repeatable. By default only
    /// the address listened on (and localhost on loopback) is answered.
    #[arg(long = "allow-host", value_name = "NAME")]
    pub allow_host: Vec<String>,
    /// Most squares of a board for tours and existence answers.
    #[arg(long, default_value_t = 1_000_000, value_name = "N", value_parser = crate::support::at_least_one::<usize>)]
    pub max_squares: usize,
    /// Most squares of a board for tourneys, join / shatter / obfuscate,
    /// statistics, cipher keys and files other than JSON.
    #[arg(long, default_value_t = 250_000, value_name = "N", value_parser = crate::support::at_least_one::<usize>)]
    pub max_tourney_squares: usize,
    /// Most squares of a board that may be counted.
    #[arg(long, default_value_t = 48, value_name = "N", value_parser = crate::support::at_least_one::<usize>)]
    pub max_count_squares: usize,
    /// Most bytes of a request body.
    #[arg(long, default_value_t = 1 << 20, value_name = "BYTES", value_parser = crate::support::at_least_one::<usize>)]
    pub max_body: usize,
    /// Most seconds of work for one request (0.001 to 86400, one day).
    #[arg(long, default_value = "20", value_name = "SECONDS", value_parser = crate::support::up_to_a_day)]
    pub timeout: Duration,
    /// Most seconds for one count (0.001 to 604800, one week).
    #[arg(long, default_value = "120", value_name = "SECONDS", value_parser = crate::support::up_to_a_week)]
    pub count_timeout: Duration,
    /// Heavy jobs (tours, tourneys, counts, step streams) running at once
    /// (1 to 1024).
    #[arg(long, default_value_t = 4, value_name = "N", value_parser = parse_jobs)]
    pub jobs: usize,
}

/// The most `serve --jobs`: each job is a thread of tokio's blocking pool.
const MAX_JOBS: usize = 1024;

fn parse_jobs(text: &str) -> Result<usize, String> {
    match text.trim().parse::<usize>() {
        Ok(n) if (1..=MAX_JOBS).contains(&n) => Ok(n),
        _ => Err(format!(
            "'{}' is not a number of jobs from 1 to {MAX_JOBS}",
            knights::excerpt(text)
        )),
    }
}
