//! Pictures: the PNG and GIF of an 8x8 tour and of a 1000x1000 one.
//!
//! `cargo bench -p knights --features raster --bench pictures`. First one
//! run of each 1000x1000 picture, its time and bytes printed (with
//! `KNIGHTS_PICTURES_ONCE=1` only that, so that `/usr/bin/time -v` around
//! the bench binary gives their peak memory), then criterion's samples.
#![allow(missing_docs)]

use std::time::Instant;

use criterion::Criterion;
use knights::format::{svg_to_png, tour_gif, tour_png, tour_svg, GifOptions, SvgOptions};
use knights::{Board, Tour};

fn tour(side: u64) -> Tour {
    Tour::builder(Board::new(side, side).expect("a board"))
        .build()
        .expect("a tour")
}

/// One run of each picture of a 1000x1000 tour, printed.
fn once() {
    let big = tour(1000);
    let clock = Instant::now();
    let png = tour_png(&big, SvgOptions::default()).expect("a PNG");
    println!(
        "1000x1000 PNG: {:.2} s, {} bytes",
        clock.elapsed().as_secs_f64(),
        png.len()
    );
    let clock = Instant::now();
    let through_svg =
        svg_to_png(&tour_svg(&big, SvgOptions::default()).to_string()).expect("a PNG");
    println!(
        "1000x1000 PNG through its SVG text, for comparison: {:.2} s, {} bytes",
        clock.elapsed().as_secs_f64(),
        through_svg.len()
    );
    let clock = Instant::now();
    let gif = tour_gif(&big, &GifOptions::default()).expect("a GIF");
    let seconds = clock.elapsed().as_secs_f64();
    let mut decoder = gif::DecodeOptions::new()
        .read_info(gif.as_slice())
        .expect("a GIF that reads");
    let mut frames = 0;
    while decoder.read_next_frame().expect("a frame").is_some() {
        frames += 1;
    }
    println!(
        "1000x1000 GIF: {seconds:.2} s, {} bytes, {frames} frames",
        gif.len()
    );
}

fn main() {
    once();
    if std::env::var_os("KNIGHTS_PICTURES_ONCE").is_some() {
        return;
    }
    let mut c = Criterion::default().configure_from_args().sample_size(10);
    let small = tour(8);
    c.bench_function("png 8x8", |b| {
        b.iter(|| tour_png(&small, SvgOptions::default()))
    });
    c.bench_function("gif 8x8", |b| {
        b.iter(|| tour_gif(&small, &GifOptions::default()))
    });
    let big = tour(1000);
    c.bench_function("png 1000x1000", |b| {
        b.iter(|| tour_png(&big, SvgOptions::default()))
    });
    c.bench_function("gif 1000x1000", |b| {
        b.iter(|| tour_gif(&big, &GifOptions::default()))
    });
    c.final_summary();
}
