use super::layout::{layout, MAX_CELL_MM};
use super::*;
use crate::request::{JobRequest, SheetRequest};
use crate::{check, Board, Control};

/// The numbers each board of a page shows: (row, column, number).
fn numbers_of(svg: &str) -> Vec<Vec<(i64, i64, u32)>> {
    svg.split(r#"<g class="sheet-board""#)
        .skip(1)
        .map(|board| {
            board
                .split("data-at=\"")
                .skip(1)
                .map(|t| {
                    let (at, rest) = t.split_once('"').unwrap();
                    let (r, c) = at.split_once(',').unwrap();
                    let n = rest.split_once('>').unwrap().1;
                    let n = n.split_once('<').unwrap().0;
                    (r.parse().unwrap(), c.parse().unwrap(), n.parse().unwrap())
                })
                .collect()
        })
        .collect()
}

/// The squares in the order of their numbers.
fn path_of(numbers: &[(i64, i64, u32)]) -> Vec<(i64, i64)> {
    let mut sorted = numbers.to_vec();
    sorted.sort_by_key(|t| t.2);
    sorted.iter().map(|&(r, c, _)| (r, c)).collect()
}

fn sheet(request: SheetRequest) -> crate::request::SheetAnswer {
    request.run(&Control::new()).unwrap()
}

#[test]
fn boards_are_laid_out_for_the_largest_squares() {
    let one = layout(&[(8, 8)], Paper::A4).unwrap();
    assert_eq!((one.columns, one.rows), (1, 1));
    assert!((one.cell - MAX_CELL_MM).abs() < 1e-9, "{one:?}");
    let six = layout(&[(6, 6); 6], Paper::A4).unwrap();
    assert_eq!((six.columns, six.rows), (2, 3));
    let nine = layout(&[(8, 8); 9], Paper::Letter).unwrap();
    assert_eq!((nine.columns, nine.rows), (3, 3));
    assert!(nine.cell >= MIN_CELL_MM);
}

#[test]
fn sheets_too_big_to_solve_by_hand_are_refused_in_one_sentence() {
    let e = layout(&[(33, 8)], Paper::A4).unwrap_err().to_string();
    assert!(e.contains("33x8 board is too big to solve by hand"), "{e}");
    assert!(e.contains("at most 32 rows and 32 columns"), "{e}");
    let e = layout(&[(20, 20); 6], Paper::A4).unwrap_err().to_string();
    assert!(
        e.contains("6 boards this size do not fit on one A4 page"),
        "{e}"
    );
    let fit: usize = e.rsplit(' ').next().unwrap().parse().unwrap();
    assert!(layout(&vec![(20, 20); fit], Paper::A4).is_ok());
    assert!(layout(&vec![(20, 20); fit + 1], Paper::A4).is_err());
    let e = layout(&[(4, 4); 17], Paper::A4).unwrap_err().to_string();
    assert_eq!(e, "a sheet holds 1 to 16 boards, not 17");
}

#[test]
fn a_worksheet_gives_each_board_its_start_and_labels_its_edges() {
    let answer = sheet(SheetRequest {
        copies: 6,
        seed: 1,
        ..SheetRequest::new("6x6")
    });
    let svg = answer.svg().unwrap();
    assert!(svg.contains(r#"width="210mm" height="297mm" viewBox="0 0 210 297""#));
    assert!(svg.contains(r#"font-family="DejaVu Sans""#));
    assert_eq!(
        svg.matches(r#"class="sheet-board" data-board="6x6""#)
            .count(),
        6
    );
    let boards = numbers_of(&svg);
    assert_eq!(boards.len(), 6);
    let mut starts = Vec::new();
    for (numbers, board) in boards.iter().zip(&answer.sheet.boards) {
        assert_eq!(numbers.len(), 1, "only the start is given");
        assert_eq!(numbers[0].2, 1);
        let tour = board.solution.as_ref().unwrap();
        let (r, c) = tour.board().coords(tour.start());
        assert_eq!((numbers[0].0, numbers[0].1), (i64::from(r), i64::from(c)));
        starts.push(tour.start());
    }
    starts.dedup();
    assert!(
        starts.len() > 1,
        "the seeds draw different starts: {starts:?}"
    );
    for label in ["a", "f", "1", "6"] {
        let text = format!(r##"fill="#444444">{label}</text>"##);
        assert_eq!(svg.matches(&text).count(), 6, "label {label}");
    }
}

#[test]
fn a_solution_numbers_every_square_in_the_order_of_a_tour() {
    let request = SheetRequest {
        copies: 4,
        seed: 7,
        kind: crate::Wanted::Closed,
        solution: true,
        path: true,
        ..SheetRequest::new("6x6")
    };
    let svg = sheet(request).svg().unwrap();
    assert!(svg.contains("solutions</title>"));
    assert_eq!(svg.matches(r#"class="tour-path""#).count(), 4);
    for numbers in numbers_of(&svg) {
        assert_eq!(numbers.len(), 36);
        let kind = check::check_path(6, 6, &path_of(&numbers), None).unwrap();
        assert_eq!(kind, crate::Kind::Closed);
    }
}

#[test]
fn an_end_asked_for_is_given_and_kept() {
    let request = SheetRequest {
        copies: 2,
        start: Some("a1".into()),
        end: Some("f5".into()),
        ..SheetRequest::new("6x6")
    };
    let answer = sheet(request);
    let boards = numbers_of(&answer.svg().unwrap());
    for numbers in &boards {
        assert_eq!(numbers, &vec![(5, 0, 1), (1, 5, 36)]);
    }
    assert!(answer.sheet.boards[0].caption.ends_with("from a1 to f5"));
}

#[test]
fn a_board_wider_than_26_columns_is_labelled_by_numbers() {
    let board = Board::new(3, 30).unwrap();
    let sheet = Sheet {
        title: "wide".into(),
        note: String::new(),
        boards: vec![SheetBoard {
            shape: board.into(),
            given: vec![(board.square(2, 29), 5)],
            caption: "clue".into(),
            solution: None,
        }],
    };
    let svg = sheet_svg(&sheet, SheetOptions::default()).unwrap();
    assert!(svg.contains(r##"fill="#444444">29</text>"##));
    assert!(svg.contains(r##"fill="#444444">0</text>"##));
    assert!(!svg.contains(r##"fill="#444444">a</text>"##));
    assert_eq!(numbers_of(&svg), vec![vec![(2, 29, 5)]]);
    // The solution page of an unsolved board shows its clues alone.
    let solution = SheetOptions {
        solution: true,
        ..SheetOptions::default()
    };
    assert_eq!(numbers_of(&sheet_svg(&sheet, solution).unwrap()).len(), 1);
}

#[test]
fn a_given_square_off_the_board_is_refused() {
    let board = Board::new(5, 5).unwrap();
    let sheet = Sheet {
        title: String::new(),
        note: String::new(),
        boards: vec![SheetBoard {
            shape: board.into(),
            given: vec![(25, 1)],
            caption: String::new(),
            solution: None,
        }],
    };
    let e = sheet_svg(&sheet, SheetOptions::default()).unwrap_err();
    assert!(
        e.to_string().contains("not a square of the 5x5 board"),
        "{e}"
    );
}

#[test]
fn the_request_refuses_before_making_tours() {
    let e = SheetRequest {
        copies: 0,
        ..SheetRequest::new("6x6")
    }
    .plan()
    .unwrap_err();
    assert_eq!(e.to_string(), "copies must be from 1 to 16, not 0");
    let e = SheetRequest::new("40x40").plan().unwrap_err();
    assert!(e.to_string().contains("too big to solve by hand"), "{e}");
    let e = SheetRequest {
        path: true,
        ..SheetRequest::new("6x6")
    }
    .plan()
    .unwrap_err();
    assert!(e.to_string().contains("solution page only"), "{e}");
}

#[cfg(feature = "raster")]
#[test]
fn a_sheet_png_is_150_dots_an_inch() {
    let answer = sheet(SheetRequest::new("5x5"));
    let png = answer.png().unwrap();
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    let width = u32::from_be_bytes(png[16..20].try_into().unwrap());
    let height = u32::from_be_bytes(png[20..24].try_into().unwrap());
    assert_eq!((width, height), (1240, 1754));
}
