//! Pictures to keep from the command line: `-f png` and `-f gif`, or an
//! `-o` file named `.png` or `.gif`, for every command that writes a tour,
//! PNG for a tourney (whose GIF is refused), written whole or not at all.

use std::path::Path;

use super::{knights, scratch};

const PNG_SIGNATURE: &[u8] = b"\x89PNG\r\n\x1a\n";

/// Runs `knights ARGS`; (exit status, stdout as bytes, stderr).
fn run_bytes(args: &[&str]) -> (i32, Vec<u8>, String) {
    let out = knights().args(args).output().expect("knights runs");
    (
        out.status.code().expect("exited normally"),
        out.stdout,
        String::from_utf8(out.stderr).expect("utf-8 stderr"),
    )
}

/// Runs `knights ARGS` and asserts it succeeds quietly.
fn ok(args: &[&str]) -> Vec<u8> {
    let (code, out, err) = run_bytes(args);
    assert_eq!(code, 0, "{args:?}: {err}");
    assert!(err.is_empty(), "{args:?}: {err}");
    out
}

fn path(dir: &Path, name: &str) -> String {
    dir.join(name).to_str().unwrap().to_string()
}

/// The width and height in a PNG's header (IHDR, the first chunk).
fn png_size(png: &[u8]) -> (u32, u32) {
    assert!(png.starts_with(PNG_SIGNATURE), "not a PNG");
    assert_eq!(&png[12..16], b"IHDR");
    let word = |at: usize| u32::from_be_bytes(png[at..at + 4].try_into().unwrap());
    (word(16), word(20))
}

/// The `width` and `height` of an SVG's root element, in pixels.
fn svg_size(svg: &str) -> (u32, u32) {
    let root = &svg[svg.find("<svg").expect("an SVG")..];
    let root = &root[..root.find('>').unwrap()];
    let attribute = |name: &str| -> u32 {
        let at = root.find(&format!(" {name}=\"")).expect("a size") + name.len() + 3;
        root[at..at + root[at..].find('"').unwrap()]
            .parse()
            .unwrap()
    };
    (attribute("width"), attribute("height"))
}

/// The number of frames of a GIF, each decoded.
fn gif_frames(gif: &[u8]) -> usize {
    assert!(gif.starts_with(b"GIF89a"), "not a GIF");
    let mut decoder = gif::DecodeOptions::new()
        .read_info(gif)
        .expect("the GIF decodes");
    let mut frames = 0;
    while decoder
        .read_next_frame()
        .expect("a frame decodes")
        .is_some()
    {
        frames += 1;
    }
    frames
}

/// The names in `dir`, sorted.
fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn a_png_file_is_the_picture_the_svg_draws_at_its_size() {
    let dir = scratch("pictures-png");
    ok(&["tour", "8x8", "-o", &path(&dir, "t.png")]);
    let png = std::fs::read(dir.join("t.png")).unwrap();
    let svg = String::from_utf8(ok(&["tour", "8x8", "-f", "svg"])).unwrap();
    assert_eq!(png_size(&png), svg_size(&svg));
    let (w, h) = png_size(&png);
    assert!(w == h && w >= 8 * 24, "{w}x{h}");
    // In any case, as the other extensions.
    ok(&["tour", "8x8", "-o", &path(&dir, "T.PNG")]);
    assert_eq!(std::fs::read(dir.join("T.PNG")).unwrap(), png);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_gif_file_draws_the_tour_a_frame_a_step() {
    let dir = scratch("pictures-gif");
    ok(&["tour", "8x8", "--open", "-o", &path(&dir, "open.gif")]);
    assert_eq!(
        gif_frames(&std::fs::read(dir.join("open.gif")).unwrap()),
        64
    );
    // A closed tour's closing move may have a frame of its own
    // (docs/formats.md, "Pictures"); a second run, to standard output,
    // gives the same bytes.
    ok(&["tour", "6x6", "-o", &path(&dir, "closed.gif")]);
    let closed = std::fs::read(dir.join("closed.gif")).unwrap();
    let frames = gif_frames(&closed);
    assert!(frames == 36 || frames == 37, "{frames} frames");
    assert_eq!(ok(&["tour", "6x6", "-f", "gif"]), closed);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_same_tour_gives_the_same_bytes_on_standard_output_and_in_a_file() {
    // (The GIF's second run is in the test above.)
    let dir = scratch("pictures-stdout");
    ok(&["tour", "8x8", "-f", "png", "-o", &path(&dir, "plain")]);
    let first = ok(&["tour", "8x8", "-f", "png"]);
    let second = ok(&["tour", "8x8", "-f", "png", "-o", "-"]);
    assert!(first.starts_with(PNG_SIGNATURE));
    assert_eq!(first, second, "two runs differ");
    assert_eq!(first, std::fs::read(dir.join("plain")).unwrap());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_unknown_extension_exits_2_and_writes_nothing() {
    let dir = scratch("pictures-xyz");
    for args in [
        vec!["tour", "8x8"],
        vec!["tourney", "8x8"],
        vec!["tour", "8x8", "-f", "png"],
    ] {
        let mut all = args.clone();
        let target = path(&dir, "t.xyz");
        all.extend(["-o", &target]);
        let (code, out, err) = run_bytes(&all);
        assert_eq!(code, 2, "{all:?}: {err}");
        assert!(out.is_empty(), "{all:?}");
        assert!(err.contains(".png (a PNG picture)"), "{all:?}: {err}");
        assert!(err.contains(".gif (an animated GIF)"), "{all:?}: {err}");
    }
    // A picture under another format's extension, and a text format under
    // a picture's.
    let (code, _, err) = run_bytes(&["tour", "8x8", "-f", "png", "-o", &path(&dir, "t.svg")]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("--format png writes a PNG picture; name the file .png"),
        "{err}"
    );
    let (code, _, err) = run_bytes(&["tour", "8x8", "-f", "json", "-o", &path(&dir, "t.gif")]);
    assert_eq!(code, 2, "{err}");
    assert!(names(&dir).is_empty(), "{:?}", names(&dir));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn every_command_that_writes_a_tour_writes_its_pictures() {
    let dir = scratch("pictures-commands");
    let tour = path(&dir, "t.json");
    let tourney = path(&dir, "tn.json");
    ok(&["tour", "6x6", "-o", &tour]);
    ok(&["tourney", "6x6", "-o", &tourney]);
    let size = svg_size(&String::from_utf8(ok(&["render", &tour, "-f", "svg"])).unwrap());
    let commands: Vec<Vec<&str>> = vec![
        vec!["render", &tour],
        vec!["join", &tourney],
        vec!["obfuscate", &tour],
    ];
    let target = path(&dir, "p.png");
    for args in &commands {
        let mut all = args.clone();
        all.extend(["-o", &target]);
        ok(&all);
        assert_eq!(png_size(&std::fs::read(&target).unwrap()), size, "{all:?}");
    }
    // One GIF is enough: the commands share the one writer.
    let target = path(&dir, "p.gif");
    ok(&["join", &tourney, "-o", &target]);
    assert!(gif_frames(&std::fs::read(&target).unwrap()) >= 36);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_tourney_is_a_png_and_its_gif_is_refused() {
    let dir = scratch("pictures-tourney");
    let tour = path(&dir, "t.json");
    let tourney = path(&dir, "tn.json");
    ok(&["tour", "6x6", "-o", &tour]);
    ok(&["tourney", "6x6", "-o", &tourney]);
    for args in [
        vec!["tourney", "8x8", "-o"],
        vec!["render", &tourney, "-o"],
        vec!["shatter", &tour, "-o"],
    ] {
        let target = path(&dir, "p.png");
        let mut all = args.clone();
        all.push(&target);
        ok(&all);
        let png = std::fs::read(&target).unwrap();
        assert!(png.starts_with(PNG_SIGNATURE), "{all:?}");
        std::fs::remove_file(&target).unwrap();
        let svg = {
            let mut svg = args.clone();
            svg.pop();
            svg.extend(["-f", "svg"]);
            String::from_utf8(ok(&svg)).unwrap()
        };
        assert_eq!(png_size(&png), svg_size(&svg), "{all:?}");
    }
    let gif = path(&dir, "p.gif");
    for args in [
        vec!["tourney", "8x8", "-o", &gif],
        vec!["tourney", "8x8", "-f", "gif"],
        vec!["render", &tourney, "-o", &gif],
        vec!["shatter", &tour, "-f", "gif", "-o", &gif],
    ] {
        let (code, out, err) = run_bytes(&args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(out.is_empty(), "{args:?}");
        assert!(
            err.contains("a tourney (a set of cycles) has no one order of steps")
                && err.contains("-f png or -f svg"),
            "{args:?}: {err}"
        );
        assert_eq!(err.lines().count(), 1, "{err}");
    }
    assert_eq!(names(&dir), ["t.json", "tn.json"]);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Bad input never hurts, also under a memory limit: a PNG that would not
/// fit under an address-space limit is refused in one sentence (status 2)
/// instead of aborting on a failed allocation, and no file is written.
#[cfg(target_os = "linux")]
#[test]
fn a_png_too_big_for_the_address_space_is_refused_not_aborted() {
    let dir = scratch("pictures-memory");
    let file = path(&dir, "t.png");
    let bin = assert_cmd::cargo::cargo_bin("knights");
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!(
            "ulimit -v 120000 && exec '{}' tour 1000x1000 -o '{file}'",
            bin.display()
        ))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("picture on 1000x1000") && err.contains("ulimit -v"),
        "{err}"
    );
    assert!(!Path::new(&file).exists());
}
