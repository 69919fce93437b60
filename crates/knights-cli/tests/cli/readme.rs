//! The examples of the README and of docs/commands.md, run: every command
//! of a `console` block (a line `$ knights ...`) runs through `sh` in a
//! scratch folder, and what it prints (standard output, then standard
//! error) must be the lines the document shows under it, so the examples
//! cannot drift from the binary.
//!
//! Left out: commands with a `# comment` (descriptions of long runs, their
//! output elided) and outputs with `seconds=` (they vary with the machine).
//! Those, and the lines of `sh` blocks, are still checked to paste as
//! written: every program a line runs is one a fresh machine has after the
//! README's build (not `knights-lab`, which `cargo build --release` does
//! not make), and every `knights` subcommand exists.

use std::path::Path;

use super::scratch;

/// One `$ command` of a console block and the lines shown under it.
struct Example {
    command: String,
    expected: Vec<String>,
}

impl Example {
    /// Whether the example can run in a test: not a described long run,
    /// nor an output that varies with the machine.
    fn runs(&self) -> bool {
        !self.command.contains(" # ") && !self.expected.iter().any(|l| l.contains("seconds="))
    }
}

/// The examples of every ```` ```console ```` block of `markdown`.
fn console_examples(markdown: &str) -> Vec<Example> {
    let mut examples: Vec<Example> = Vec::new();
    let mut in_block = false;
    for line in markdown.lines() {
        if !in_block {
            in_block = line.trim_end() == "```console";
        } else if line.trim_end() == "```" {
            in_block = false;
        } else if let Some(command) = line.strip_prefix("$ ") {
            examples.push(Example {
                command: command.to_string(),
                expected: Vec::new(),
            });
        } else if let Some(last) = examples.last_mut() {
            last.expected.push(line.to_string());
        }
    }
    examples
}

/// The documents whose examples run, each with the fewest runnable
/// examples it must hold (so that a block that stops being read, or an
/// example moved out of both, fails the test).
const DOCUMENTS: &[(&str, usize)] = &[("README.md", 10), ("docs/commands.md", 20)];

#[cfg(unix)]
#[test]
fn the_readme_and_commands_examples_print_what_they_show() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let dir = scratch("readme");
    std::os::unix::fs::symlink(root.join("examples"), dir.join("examples")).unwrap();
    let bin = assert_cmd::cargo::cargo_bin("knights");
    let path = format!(
        "{}:{}",
        bin.parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut drifted = Vec::new();
    for (document, least) in DOCUMENTS {
        let text = std::fs::read_to_string(root.join(document)).expect("the document reads");
        let examples = console_examples(&text);
        let runnable: Vec<&Example> = examples.iter().filter(|e| e.runs()).collect();
        assert!(
            runnable.len() >= *least,
            "only {} examples found in {document}",
            runnable.len()
        );
        for example in runnable {
            let out = std::process::Command::new("sh")
                .args(["-c", &format!("{} 2>&1", example.command)])
                .current_dir(&dir)
                .env("PATH", &path)
                .output()
                .expect("sh runs");
            let printed = String::from_utf8_lossy(&out.stdout);
            let printed: Vec<&str> = printed.lines().map(str::trim_end).collect();
            let expected: Vec<&str> = example.expected.iter().map(|l| l.trim_end()).collect();
            if printed != expected {
                drifted.push(format!(
                    "{document}: $ {}\nshown:\n{}\nbinary:\n{}",
                    example.command,
                    expected.join("\n"),
                    printed.join("\n")
                ));
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(drifted.is_empty(), "{}", drifted.join("\n\n"));
}

#[test]
fn console_blocks_are_read_command_by_command() {
    let text =
        "x\n```console\n$ knights a\n1\n2\n$ knights b # long\n```\n$ not\n```sh\n$ no\n```\n";
    let examples = console_examples(text);
    assert_eq!(examples.len(), 2);
    assert_eq!(examples[0].command, "knights a");
    assert_eq!(examples[0].expected, ["1", "2"]);
    assert!(examples[0].runs());
    assert!(!examples[1].runs());
}

/// The programs a README command line may run: the shell's, cargo, and
/// what the README installs. `knights-lab` is not one: a release build
/// does not make it, so its lines are `cargo run -p knights-lab -- ...`.
const PROGRAMS: &[&str] = &[
    "knights", "cargo", "bash", "echo", "mpirun", "srun", "pip", "curl", "apt-get",
];

/// Every command line of the README's `console` blocks (`$ ...`) and `sh`
/// blocks (every line), without its `# comment`.
fn command_lines(markdown: &str) -> Vec<String> {
    let mut lines = Vec::new();
    let mut block = None;
    for line in markdown.lines() {
        match block {
            None => block = line.trim_end().strip_prefix("```").map(str::to_string),
            Some(_) if line.trim_end() == "```" => block = None,
            Some(ref kind) => {
                let command = match kind.as_str() {
                    "console" => line.strip_prefix("$ "),
                    "sh" => Some(line),
                    _ => None,
                };
                if let Some(c) = command.map(without_comment).filter(|c| !c.is_empty()) {
                    lines.push(c);
                }
            }
        }
    }
    lines
}

/// The line up to a `#` that starts a word outside quotes.
fn without_comment(line: &str) -> String {
    let mut quote = None;
    let mut previous = ' ';
    for (i, c) in line.char_indices() {
        match (quote, c) {
            (None, '\'' | '"') => quote = Some(c),
            (Some(q), _) if c == q => quote = None,
            (None, '#') if previous.is_whitespace() => return line[..i].trim().to_string(),
            _ => {}
        }
        previous = c;
    }
    line.trim().to_string()
}

/// The simple commands of a line: split at `|`, `;` and `&&` outside
/// quotes, each as its words (quotes kept, environment assignments
/// dropped).
fn simple_commands(line: &str) -> Vec<Vec<String>> {
    let mut commands = vec![String::new()];
    let mut quote = None;
    let mut previous = ' ';
    for c in line.chars() {
        match (quote, c) {
            (None, '\'' | '"') => quote = Some(c),
            (Some(q), _) if c == q => quote = None,
            // `2>&1` is a redirection, not a separator.
            (None, '|' | ';' | '&') if previous != '>' => {
                commands.push(String::new());
                previous = c;
                continue;
            }
            _ => {}
        }
        commands.last_mut().unwrap().push(c);
        previous = c;
    }
    commands
        .iter()
        .map(|c| {
            c.split_whitespace()
                .skip_while(|w| w.contains('=') && !w.starts_with('-'))
                .map(String::from)
                .collect::<Vec<_>>()
        })
        .filter(|words| !words.is_empty())
        .collect()
}

/// What is wrong with pasting `line`: a program a fresh build does not
/// have, or a `knights` subcommand that `is_subcommand` does not know.
fn paste_fault(line: &str, is_subcommand: &dyn Fn(&str) -> bool) -> Option<String> {
    for words in simple_commands(line) {
        let program = words[0].as_str();
        if !PROGRAMS.contains(&program) {
            return Some(format!(
                "`{line}` runs `{program}`, which is no program of a fresh build"
            ));
        }
        if program == "knights" {
            let sub = words.get(1).map_or("", String::as_str);
            if !is_subcommand(sub) {
                return Some(format!(
                    "`{line}` runs `knights {sub}`, which is no subcommand"
                ));
            }
        }
    }
    None
}

#[test]
fn the_readme_command_lines_can_be_pasted() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut lines = Vec::new();
    for (name, least) in [("README.md", 15), ("docs/commands.md", 40)] {
        let text = std::fs::read_to_string(root.join(name)).expect("the document reads");
        let found = command_lines(&text);
        assert!(
            found.len() >= least,
            "{name}: only {} command lines found",
            found.len()
        );
        lines.extend(found.into_iter().map(|l| (name, l)));
    }
    let known = std::cell::RefCell::new(std::collections::HashMap::new());
    let is_subcommand = |sub: &str| {
        *known
            .borrow_mut()
            .entry(sub.to_string())
            .or_insert_with(|| {
                !sub.starts_with('-')
                    && super::knights()
                        .args([sub, "--help"])
                        .output()
                        .is_ok_and(|o| o.status.success())
            })
    };
    let faults: Vec<String> = lines
        .iter()
        .filter_map(|(name, l)| paste_fault(l, &is_subcommand).map(|f| format!("{name}: {f}")))
        .collect();
    assert!(faults.is_empty(), "{}", faults.join("\n"));
}

#[test]
fn a_command_line_that_cannot_be_pasted_is_caught() {
    let text = "```console\n$ knights bench --suite tours|warnsdorff|construct   # squares per second\n$ knights-lab bench classic   # research\n$ echo \"a | b # c\" | knights check -   # fine\n```\n```sh\nFOO=1 cargo run --release -p knights-lab -- paper docs/paper   # fine\n```\n";
    let lines = command_lines(text);
    assert_eq!(lines.len(), 4, "{lines:?}");
    let any = |_: &str| true;
    let faults: Vec<Option<String>> = lines.iter().map(|l| paste_fault(l, &any)).collect();
    assert!(
        faults[0]
            .as_deref()
            .is_some_and(|f| f.contains("`warnsdorff`")),
        "{faults:?}"
    );
    assert!(
        faults[1]
            .as_deref()
            .is_some_and(|f| f.contains("`knights-lab`")),
        "{faults:?}"
    );
    assert_eq!(faults[2..], [None, None]);
    let none = |_: &str| false;
    assert!(paste_fault("knights tuor 8x8", &none).is_some_and(|f| f.contains("knights tuor")));
}
