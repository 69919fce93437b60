//! The research harness's tests: the real `knights-lab` binary, one module
//! per topic.

mod lab;
