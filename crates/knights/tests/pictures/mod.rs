//! Pictures (the `raster` feature): the PNG and GIF of fixed tours give
//! the same bytes on every run and machine (their hashes are pinned), have
//! the sizes docs/formats.md gives, and every kind of board draws.

use knights::format::{
    path_png, tour_gif, tour_png, tourney_png, GifOptions, StepNumbers, SvgOptions,
};
use knights::shape::{Leaper, Shape, Wrap};
use knights::{Board, Tour, Tourney};

/// An open tour of 8x8 (Warnsdorff's), written out so that the pinned
/// hashes depend on the pictures alone.
const OPEN_8X8: [u32; 64] = [
    55, 61, 51, 57, 40, 25, 8, 2, 17, 0, 10, 4, 14, 31, 46, 63, 53, 59, 49, 32, 42, 48, 58, 52, 62,
    47, 30, 15, 5, 20, 3, 9, 24, 34, 19, 36, 26, 41, 56, 50, 35, 45, 60, 54, 39, 29, 44, 38, 23, 6,
    21, 11, 1, 16, 33, 43, 37, 27, 12, 18, 28, 13, 7, 22,
];

fn open_8x8() -> Tour {
    Tour::new(Board::new(8, 8).unwrap(), OPEN_8X8.to_vec()).unwrap()
}

fn png_size(png: &[u8]) -> (u32, u32) {
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n", "the PNG signature");
    assert_eq!(&png[12..16], b"IHDR");
    let be = |i: usize| u32::from_be_bytes(png[i..i + 4].try_into().unwrap());
    (be(16), be(20))
}

/// A GIF frame's rectangle: left, top, width, height.
type FrameRect = (u16, u16, u16, u16);

/// A GIF's width, height and frames.
fn gif_frames(gif: &[u8]) -> (u16, u16, Vec<FrameRect>) {
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::Indexed);
    let mut decoder = options.read_info(gif).unwrap();
    let (w, h) = (decoder.width(), decoder.height());
    let mut frames = Vec::new();
    while let Some(f) = decoder.read_next_frame().unwrap() {
        frames.push((f.left, f.top, f.width, f.height));
    }
    (w, h, frames)
}

#[test]
fn the_png_of_a_tour_is_pinned() {
    let tour = open_8x8();
    let png = tour_png(&tour, SvgOptions::default()).unwrap();
    assert_eq!(png_size(&png), (384, 384));
    assert_eq!(png, tour_png(&tour, SvgOptions::default()).unwrap());
    assert_eq!(
        crc32fast::hash(&png),
        4_149_401_885,
        "the PNG's bytes changed"
    );
    let bare = SvgOptions {
        numbers: StepNumbers::Hidden,
        ..SvgOptions::default()
    };
    let plain = tour_png(&tour, bare).unwrap();
    assert_ne!(plain, png, "the numbers are drawn");
    assert_eq!(
        crc32fast::hash(&plain),
        4_221_528_515,
        "the unnumbered PNG's bytes changed"
    );
}

#[test]
fn the_gif_of_a_tour_has_a_frame_per_square_and_is_pinned() {
    let tour = open_8x8();
    let gif = tour_gif(&tour, &GifOptions::default()).unwrap();
    assert!(gif.starts_with(b"GIF89a"));
    let (w, h, frames) = gif_frames(&gif);
    assert_eq!((w, h), (384, 384));
    assert_eq!(frames.len(), 64);
    assert_eq!(frames[0], (0, 0, 384, 384), "the first frame is whole");
    for &(l, t, fw, fh) in &frames[1..] {
        assert!(u32::from(l + fw) <= 384 && u32::from(t + fh) <= 384);
        assert!(
            u32::from(fw) * u32::from(fh) < 384 * 384 / 2,
            "a later frame is only what changed"
        );
    }
    assert_eq!(gif, tour_gif(&tour, &GifOptions::default()).unwrap());
    assert_eq!(
        crc32fast::hash(&gif),
        2_328_795_891,
        "the GIF's bytes changed"
    );
}

#[test]
fn a_closed_tour_gif_ends_with_its_closing_move() {
    let tour = Tour::builder(Board::new(6, 6).unwrap())
        .closed()
        .build()
        .unwrap();
    let (_, _, frames) = gif_frames(&tour_gif(&tour, &GifOptions::default()).unwrap());
    assert_eq!(frames.len(), 37);
}

#[test]
fn a_long_tour_gif_samples_its_steps_within_its_limits() {
    let tour = Tour::builder(Board::new(40, 40).unwrap()).build().unwrap();
    let options = GifOptions {
        max_frames: 50,
        max_side: 200,
        max_bytes: 200_000,
        ..GifOptions::default()
    };
    let gif = tour_gif(&tour, &options).unwrap();
    let (w, h, frames) = gif_frames(&gif);
    assert_eq!((w, h), (200, 200));
    assert!(frames.len() >= 2 && frames.len() <= 50, "{}", frames.len());
    assert!(gif.len() <= 200_000, "{} bytes", gif.len());
}

#[test]
fn every_kind_of_board_draws() {
    let holes =
        Shape::parse_board_text("#....#\n......\n......\n......\n......\n......\n").unwrap();
    let torus = Shape::new(Board::new(5, 5).unwrap()).with_wrap(Wrap::Both);
    let giraffe = Shape::new(Board::new(8, 8).unwrap())
        .with_leaper(Leaper::new(1, 4).unwrap())
        .with_wrap(Wrap::Both);
    for shape in [holes, torus, giraffe] {
        let tour = Tour::builder(shape.board())
            .shape(shape.clone())
            .build()
            .unwrap();
        let (w, h) = (shape.board().cols() * 48, shape.board().rows() * 48);
        let png = tour_png(&tour, SvgOptions::default()).unwrap();
        assert_eq!(png_size(&png), (w, h), "{shape}");
        let (gw, gh, frames) = gif_frames(&tour_gif(&tour, &GifOptions::default()).unwrap());
        assert_eq!((u32::from(gw), u32::from(gh)), (w, h));
        assert_eq!(
            frames.len(),
            shape.squares() + usize::from(tour.is_closed()),
            "{shape}"
        );
        let path = path_png(&shape, &tour.squares()[..5], SvgOptions::default()).unwrap();
        assert_eq!(png_size(&path), (w, h));
    }
    let tourney = Tourney::builder(Board::new(8, 8).unwrap()).build().unwrap();
    assert_eq!(
        png_size(&tourney_png(&tourney, SvgOptions::default()).unwrap()),
        (384, 384)
    );
}
