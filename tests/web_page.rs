//! The page in a real browser: `web/test.sh` builds `web/dist`, checks the WebAssembly
//! engine's fingerprint under Node and runs `web/test.mjs`: the module's checks of values
//! from JavaScript under Node, then the system's Chromium (games on 8x8 and 10x10 by clicks,
//! move values against this program's, undo, stop, review, the info line, the strength
//! field, coordinates, keyboard, phone layout, a panic, and a throttled cold load).
//! Skipped, saying so, where Node, Chromium or Python is missing.

use std::path::Path;
use std::process::Command;

fn found(program: &str) -> bool {
    Command::new(program)
        .arg("--version")
        .output()
        .is_ok_and(|out| out.status.success())
}

#[test]

fn the_page_plays_and_analyses_in_a_browser() {
    let chromium = std::env::var("CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".to_string());
    let missing: Vec<&str> = [
        ("node", found("node")),
        ("npm", found("npm")),
        ("python3", found("python3")),
        ("chromium", Path::new(&chromium).exists()),
    ]
    .into_iter()
    .filter(|(_, there)| !there)
    .map(|(name, _)| name)
    .collect();
    if !missing.is_empty() {
        eprintln!(
            "skipped: the page's browser test needs {} (install them to run it)",
            missing.join(", ")
        );
        return;
    }
    let root = env!("CARGO_MANIFEST_DIR");
    let status = Command::new("bash")
        .arg(Path::new(root).join("web/test.sh"))
        .env("EMILIA", env!("CARGO_BIN_EXE_emilia"))
        .env("CHROMIUM", &chromium)
        .status()
        .expect("bash runs web/test.sh");
    assert!(status.success(), "web/test.sh failed: {status}");
}
