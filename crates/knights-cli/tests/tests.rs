//! The command-line tests: the real binary, run by assert_cmd.

mod classic;
