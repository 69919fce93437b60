//! The Puzzle panel in headless Chromium.
