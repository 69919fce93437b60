use super::*;

fn phase(stage: Stage, total: u64, done: u64, seconds: f64, model_left: Option<f64>) -> PhaseWork {
    PhaseWork {
        stage,
        total,
        done,
        seconds,
        at_square: seconds,
        model_left,
    }
}

#[test]
fn estimating_until_the_phase_running_has_run_long_enough() {
    // The first second of a count: a figure from it would be wild.
    let early = [phase(Stage::Squares, 64, 20, 0.8, Some(16_000.0))];
    assert_eq!(time_left(&early, 0.6).seconds, None);
    // A quarter of the squares, but too soon.
    let soon = [phase(Stage::Squares, 64, 16, 1.0, Some(60.0))];
    assert_eq!(time_left(&soon, 0.6).seconds, None);
    let known = [phase(Stage::Squares, 64, 16, 4.0, Some(60.0))];
    assert_eq!(time_left(&known, 0.6).seconds, Some(60.0));
}

#[test]
fn a_meeting_waits_for_its_bottom_part_and_counts_its_join() {
    let top = |done| phase(Stage::TopPart, 40, done, 5.0, Some(1.0));
    let join = PhaseWork::new(Stage::Join, 0);
    // In the top part the bottom part cannot be judged.
    let during_top = [top(30), PhaseWork::new(Stage::BottomPart, 40), join];
    let t = time_left(&during_top, 0.6);
    assert_eq!((t.stage, t.seconds), (Stage::TopPart, None));
    // In the bottom part: its model's time, and the join as a share of
    // the bottom part's whole time.
    let during_bottom = [
        top(40),
        phase(Stage::BottomPart, 40, 20, 100.0, Some(200.0)),
        join,
    ];
    let t = time_left(&during_bottom, 0.5);
    assert_eq!(t.stage, Stage::BottomPart);
    assert_eq!(t.seconds, Some(200.0 + 0.5 * 300.0));
    // After the last square the join still has its time: never "0 s
    // left" while it runs.
    let at_join = [
        top(40),
        phase(Stage::BottomPart, 40, 40, 300.0, Some(0.0)),
        PhaseWork {
            seconds: 1.0,
            ..join
        },
    ];
    let t = time_left(&at_join, 0.5);
    assert_eq!((t.stage, t.seconds), (Stage::Join, Some(149.0)));
    // The join's first report, at once after the last square: the join.
    let told = PhaseWork {
        total: 1000,
        ..join
    };
    let t = time_left(
        &[
            top(40),
            phase(Stage::BottomPart, 40, 40, 300.0, Some(0.0)),
            told,
        ],
        0.5,
    );
    assert_eq!((t.stage, t.seconds), (Stage::Join, Some(150.0)));
    // Once the join has run a while, its own rate.
    let joining = PhaseWork {
        total: 1000,
        done: 250,
        seconds: 40.0,
        ..join
    };
    let t = time_left(
        &[
            top(40),
            phase(Stage::BottomPart, 40, 40, 300.0, Some(0.0)),
            joining,
        ],
        0.5,
    );
    assert_eq!(t.seconds, Some(120.0));
}

#[test]
fn within_a_square_the_time_runs_down() {
    let p = PhaseWork {
        seconds: 50.0,
        at_square: 20.0,
        ..phase(Stage::Squares, 64, 40, 20.0, Some(100.0))
    };
    assert_eq!(time_left(&[p], 0.6).seconds, Some(70.0));
}
