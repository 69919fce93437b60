//! `knights render`: read a tour or tourney in any format, write it in another.

use anyhow::Result;
use knights::format::{self, Valid};

use super::{format_of, write_tour, write_tourney};
use crate::cli::RenderArgs;

pub fn run(args: RenderArgs) -> Result<u8> {
    format_of(&args.output)?;
    let text = crate::io_util::read_input(&args.file.file)?;
    match format::read(&text)?.into_valid()? {
        Valid::Tour(t) => write_tour(&t, &args.output, &[])?,
        Valid::Tourney(t) => write_tourney(&t, &args.output, &[])?,
    }
    Ok(crate::exit::EXIT_SUCCESS)
}
