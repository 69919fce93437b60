//! The command-line tests: one binary, one module per command (they run the real `knights`).

mod cli {
    mod cipher;
}
