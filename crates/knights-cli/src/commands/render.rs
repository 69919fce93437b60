//! `knights render`: read a tour or tourney in any format, write it in another.

use anyhow::Result;
use knights::format::{self, Checked};

use super::{format_of, write_tour, write_tourney};
use crate::cli::RenderArgs;

pub fn run(args: RenderArgs) -> Result<u8> {
    format_of(&args.output)?;
    let text = crate::io_util::read_input(&args.file.file)?;
    match format::read(&text)?.into_checked()? {
        Checked::Tour(t) => write_tour(&t, &args.output, &[])?,
        Checked::Tourney(t) => write_tourney(&t, &args.output, &[])?,
    }
    Ok(crate::exit::EXIT_SUCCESS)
}
