//! The examples of the README and of docs/commands.md, run: every command
//! of a `console` block (a line `$ knights ...`) runs through `sh` in a
//! scratch folder, and what it prints (standard output, then standard
//! error) must be the lines the document shows under it, so the examples
//! cannot drift from the binary.
//!
//! Left out: commands with a `# comment` (descriptions of long runs, their
//! output elided) and outputs with `seconds=` (they vary with the machine).

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
