//! `knights sheet`: the worksheet's boards, labels and given numbers, the
//! solution's numbers as a tour by the checker, the PNG, tour files, and
//! the refusals (status 2, nothing written).

use super::{knights, run, scratch};
use knights::check;

/// The (row, col, number) texts of each board of a page.
fn numbers(svg: &str) -> Vec<Vec<(i64, i64, u32)>> {
    svg.split(r#"<g class="sheet-board""#)
        .skip(1)
        .map(|b| {
            b.split("data-at=\"")
                .skip(1)
                .map(|t| {
                    let (at, rest) = t.split_once('"').unwrap();
                    let (r, c) = at.split_once(',').unwrap();
                    let n = rest.split_once('>').unwrap().1.split_once('<').unwrap().0;
                    (r.parse().unwrap(), c.parse().unwrap(), n.parse().unwrap())
                })
                .collect()
        })
        .collect()
}

/// The squares of a board's numbers, in the order of the numbers.
fn path(mut board: Vec<(i64, i64, u32)>) -> Vec<(i64, i64)> {
    board.sort_by_key(|t| t.2);
    board.into_iter().map(|(r, c, _)| (r, c)).collect()
}

#[test]
fn a_worksheet_has_its_boards_labels_and_starts() {
    let (code, svg, err) = run(&["sheet", "6x6", "--copies", "6", "--seed", "1"], "");
    assert_eq!(code, 0, "{err}");
    assert!(svg.starts_with("<svg"));
    assert!(svg.contains(r#"width="210mm" height="297mm""#));
    assert!(svg.contains(r#"font-family="DejaVu Sans""#));
    assert_eq!(svg.matches(r#"data-board="6x6""#).count(), 6);
    for label in ["a", "b", "f", "1", "6"] {
        let text = format!(r##"fill="#444444">{label}</text>"##);
        assert_eq!(svg.matches(&text).count(), 6, "label {label}");
    }
    let boards = numbers(&svg);
    assert_eq!(boards.len(), 6);
    for b in &boards {
        assert_eq!(b.len(), 1, "the start alone is given: {b:?}");
        assert_eq!(b[0].2, 1);
    }
    // The solution of the same seeds starts where the worksheet does.
    let (code, solution, err) = run(
        &[
            "sheet",
            "6x6",
            "--copies",
            "6",
            "--seed",
            "1",
            "--solution",
            "--path",
        ],
        "",
    );
    assert_eq!(code, 0, "{err}");
    assert!(solution.contains(r#"class="tour-path""#));
    for (given, solved) in boards.into_iter().zip(numbers(&solution)) {
        assert_eq!(solved.len(), 36);
        assert!(solved.contains(&given[0]), "{given:?}");
        check::check_path(6, 6, &path(solved), None).expect("a tour");
    }
}

#[test]
fn the_end_is_given_when_asked_and_closed_tours_close() {
    let (code, svg, err) = run(
        &[
            "sheet", "5x6", "--start", "a1", "--end", "c4", "--copies", "2",
        ],
        "",
    );
    assert_eq!(code, 0, "{err}");
    for b in numbers(&svg) {
        assert_eq!(b, vec![(4, 0, 1), (1, 2, 30)]);
    }
    let (code, svg, err) = run(
        &[
            "sheet",
            "6x6",
            "--kind",
            "closed",
            "--copies",
            "3",
            "--solution",
        ],
        "",
    );
    assert_eq!(code, 0, "{err}");
    for b in numbers(&svg) {
        let kind = check::check_path(6, 6, &path(b), None).unwrap();
        assert_eq!(kind, knights::Kind::Closed);
    }
}

#[test]
fn a_png_sheet_is_a_page_at_150_dots_an_inch() {
    let dir = scratch("sheet-png");
    let file = dir.join("class.png");
    let (code, _, err) = run(
        &[
            "sheet",
            "5x5",
            "--copies",
            "4",
            "-o",
            file.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(code, 0, "{err}");
    let png = std::fs::read(&file).unwrap();
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    let width = u32::from_be_bytes(png[16..20].try_into().unwrap());
    let height = u32::from_be_bytes(png[20..24].try_into().unwrap());
    assert_eq!((width, height), (1240, 1754));
    let out = knights()
        .args(["sheet", "5x5", "--paper", "letter", "-f", "png"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let width = u32::from_be_bytes(out.stdout[16..20].try_into().unwrap());
    assert_eq!(width, 1275);
}

#[test]
fn tour_files_make_one_board_each() {
    let dir = scratch("sheet-files");
    let mut names = Vec::new();
    for (i, board) in ["5x5", "6x6"].iter().enumerate() {
        let name = dir.join(format!("t{i}.json"));
        let (code, _, err) = run(
            &["tour", board, "-f", "json", "-o", name.to_str().unwrap()],
            "",
        );
        assert_eq!(code, 0, "{err}");
        names.push(name.to_str().unwrap().to_string());
    }
    let mut args = vec!["sheet", "--show-end"];
    args.extend(names.iter().map(String::as_str));
    let (code, svg, err) = run(&args, "");
    assert_eq!(code, 0, "{err}");
    let boards = numbers(&svg);
    assert_eq!(boards.len(), 2);
    assert_eq!(boards[0].iter().map(|t| t.2).collect::<Vec<_>>(), [1, 25]);
    assert_eq!(boards[1].iter().map(|t| t.2).collect::<Vec<_>>(), [1, 36]);
    assert!(svg.contains(r#"data-board="5x5""#) && svg.contains(r#"data-board="6x6""#));
}

#[test]
fn bad_sheets_are_refused_and_nothing_is_written() {
    let dir = scratch("sheet-bad");
    let target = dir.join("class.svg");
    std::fs::write(&target, "kept").unwrap();
    let t = target.to_str().unwrap();
    let xyz = dir.join("class.xyz");
    for (args, words) in [
        (vec!["sheet", "40x40", "-o", t], "too big to solve by hand"),
        (
            vec!["sheet", "6x6", "--copies", "17", "-o", t],
            "copies must be from 1 to 16",
        ),
        (
            vec!["sheet", "20x20", "--copies", "6", "-o", t],
            "ask for at most",
        ),
        (
            vec!["sheet", "6x6", "--kind", "open", "--start", "z9", "-o", t],
            "z9",
        ),
        (vec!["sheet", "6x6", "-f", "png", "-o", t], ".svg"),
        (vec!["sheet", "6x6", "-o", xyz.to_str().unwrap()], ".xyz"),
        (vec!["sheet", "6x6", "--path"], "--solution"),
    ] {
        let (code, out, err) = run(&args, "");
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(out.is_empty(), "{args:?}");
        assert!(
            err.starts_with("knights: ") || err.contains("error:"),
            "{err}"
        );
        assert!(err.contains(words), "{args:?}: {err}");
    }
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "kept");
    assert!(!xyz.exists());
    // Tour files take no flags of a board's tours; a tourney is no tour.
    let tourney = dir.join("t.json");
    let (code, _, _) = run(
        &[
            "tourney",
            "6x6",
            "-f",
            "json",
            "-o",
            tourney.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(code, 0);
    let (code, _, err) = run(&["sheet", tourney.to_str().unwrap()], "");
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("holds a tourney"), "{err}");
    let (code, _, err) = run(
        &["sheet", tourney.to_str().unwrap(), "t2.json", "--seed", "3"],
        "",
    );
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--seed makes the tours of a board"), "{err}");
}
