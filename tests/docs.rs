//! The docs run: every transcript in README.md, protocol.md and docs/ is played against the
//! real binary and its answers compared with the documented ones, so that the docs cannot
//! drift from the program.
//!
//! - Protocol transcripts: fenced blocks whose lines all start with `>` (what the client
//!   sends) or `<` (what Emilia answers), each played in a fresh session. In the text
//!   protocol an answer starts at a line beginning with `=` or `?`; blank `<` lines (the
//!   ends of replies) may be left out. A session opened with `nboard` answers line by line.
//! - Shell transcripts: fenced `console` blocks of `$ command` lines, each followed by its
//!   output, run by `sh` in the repository with `emilia` on the PATH.
//! - The error table of protocol.md: each row whose input is one command is sent to a
//!   session at the start position.
//! - Shell commands (`sh` blocks): every variable they use is set in the same file, every
//!   option they give a subcommand is one its `--help` lists, and every file of the
//!   repository they name exists, so that they run as written from a fresh clone (or say
//!   which data they need, through a variable the text explains).
//! - docs/cli.md names every usage line and option of every subcommand's `--help`.
//! - The README's Python example runs on the package's source in `python/` (where `python3`
//!   is installed).
//!
//! Times, dates and node speeds change from run to run: they are masked on both sides.

mod common;

use std::collections::{BTreeSet, HashMap};
use std::io::Write;
use std::path::Path;
use std::process::Command;
use std::time::Duration;

use common::Emilia;

/// A fenced block: its info string, its lines and the line of the file it starts on.
struct Block {
    info: String,
    lines: Vec<String>,
    line: usize,
}

fn blocks(text: &str) -> Vec<Block> {
    let mut blocks = Vec::new();
    let mut open: Option<Block> = None;
    for (number, line) in text.lines().enumerate() {
        match (&mut open, line.strip_prefix("```")) {
            (None, Some(info)) => {
                open = Some(Block {
                    info: info.trim().to_string(),
                    lines: Vec::new(),
                    line: number + 1,
                })
            }
            (Some(_), Some(_)) => blocks.push(open.take().unwrap()),
            (Some(block), None) => block.lines.push(line.to_string()),
            (None, None) => {}
        }
    }
    blocks
}

fn read(name: &str) -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(name))
        .unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// The documents whose transcripts and commands are checked: README.md, protocol.md,
/// CONTRIBUTING.md and every `.md` file of docs/.
fn documents() -> Vec<String> {
    let mut files: Vec<String> = ["README.md", "protocol.md", "CONTRIBUTING.md"]
        .map(String::from)
        .to_vec();
    let docs = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs");
    let mut pages: Vec<String> = std::fs::read_dir(docs)
        .expect("docs/ exists")
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".md"))
        .map(|name| format!("docs/{name}"))
        .collect();
    pages.sort();
    assert!(pages.len() >= 7, "docs/ holds {pages:?}");
    files.extend(pages);
    files
}

/// The binary's `--help` for `args` (`["match"]`, `["tune", "mpc"]`).
fn help(args: &[&str]) -> String {
    let output = Command::new(env!("CARGO_BIN_EXE_emilia"))
        .args(args)
        .arg("--help")
        .output()
        .unwrap();
    assert!(output.status.success(), "{args:?} --help");
    String::from_utf8(output.stdout).unwrap()
}

/// `text` with what changes between runs replaced by `_`: times (`time 0.004`,
/// `nodestats 275 0.00`, NBoard's `/0.02/0.00`, GGF's `/-0.73/0.21`), GGF dates, node
/// speeds, and node counts (`nodes 2301`, `nodestats 275`: searches on several threads,
/// the default, count a few nodes more or fewer from one run to the next).
fn masked(text: &str) -> String {
    text.lines().map(masked_line).collect::<Vec<_>>().join("\n")
}

fn masked_line(line: &str) -> String {
    let mut line = line.to_string();
    if let Some(start) = line.find("DT[") {
        if let Some(end) = line[start..].find(']') {
            line.replace_range(start..start + end + 1, "DT[_]");
        }
    }
    let words: Vec<&str> = line.split(' ').collect();
    let nodestats = words.first() == Some(&"nodestats");
    let masked: Vec<String> = words
        .iter()
        .enumerate()
        .map(|(i, word)| {
            if i > 0 && matches!(words[i - 1], "time" | "nodes") || nodestats && i >= 1 {
                "_".to_string()
            } else {
                mask_move_times(word)
            }
        })
        .collect();
    masked.join(" ")
}

/// Masks the seconds in `MOVE/eval/seconds` (NBoard answers, GGF moves).
fn mask_move_times(word: &str) -> String {
    let mut out = String::new();
    let mut rest = word;
    while let Some(slash) = rest.find('/') {
        let after = &rest[slash + 1..];
        let Some(second) = after.find('/') else {
            break;
        };
        let seconds_end = after[second + 1..]
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .map_or(after.len(), |e| second + 1 + e);
        out.push_str(&rest[..slash + 1 + second + 1]);
        out.push('_');
        rest = &after[seconds_end..];
    }
    out.push_str(rest);
    out
}

/// The text protocol's answers in `expected` (`<` lines, blanks left out): a new answer
/// starts at each line beginning with `=` or `?`.
fn answers(expected: &[String]) -> Vec<Vec<String>> {
    let mut answers: Vec<Vec<String>> = Vec::new();
    for line in expected.iter().filter(|l| !l.is_empty()) {
        if line.starts_with('=') || line.starts_with('?') || answers.is_empty() {
            answers.push(vec![line.clone()]);
        } else {
            answers.last_mut().unwrap().push(line.clone());
        }
    }
    answers
}

/// Plays one protocol transcript; returns the differences found.
fn play_transcript(file: &str, block: &Block) -> Vec<String> {
    let mut emilia = Emilia::start(&[]);
    let nboard = block
        .lines
        .first()
        .is_some_and(|l| l.starts_with("> nboard"));
    let mut problems = Vec::new();
    let mut i = 0;
    while i < block.lines.len() {
        let sent = block.lines[i].strip_prefix("> ").unwrap_or("");
        emilia.send(sent);
        i += 1;
        let mut expected = Vec::new();
        while i < block.lines.len() && block.lines[i].starts_with('<') {
            let line = &block.lines[i][1..];
            expected.push(line.strip_prefix(' ').unwrap_or(line).to_string());
            i += 1;
        }
        let (want, got): (Vec<String>, Vec<String>) = if nboard {
            let got = (0..expected.len())
                .map(|_| {
                    emilia
                        .line_within(Duration::from_secs(30))
                        .unwrap_or_default()
                })
                .collect();
            (expected, got)
        } else {
            let want = answers(&expected);
            let got = (0..want.len()).map(|_| emilia.reply()).collect();
            (want.iter().map(|a| a.join("\n")).collect(), got)
        };
        for (want, got) in want.iter().zip(&got) {
            let matches = if is_timed_genmove(sent) {
                // A search bounded by time alone may answer another move on another run.
                is_move_answer(got) && is_move_answer(want)
            } else if is_open_solve(sent) || sent.trim() == "stop" {
                // A solve without limits is shown stopped by hand: how far it got before
                // the stop depends on the run (its answer follows the `stop` when both are
                // sent at once).
                masked(want) == masked(got) || is_estimate_answer(got) && is_estimate_answer(want)
            } else {
                masked(want) == masked(got)
            };
            if !matches {
                problems.push(format!(
                    "{file}:{} `{sent}`:\n  documented: {want:?}\n  answered:   {got:?}",
                    block.line
                ));
            }
        }
    }
    problems
}

/// Whether `command` is a `genmove` bounded by time alone (no depth or nodes).
fn is_timed_genmove(command: &str) -> bool {
    let words: Vec<&str> = command.split_whitespace().collect();
    words.first() == Some(&"genmove") && !words.contains(&"depth") && !words.contains(&"nodes")
}

/// Whether `command` is a `solve` bounded by neither time nor nodes.
fn is_open_solve(command: &str) -> bool {
    let words: Vec<&str> = command.split_whitespace().collect();
    words.first() == Some(&"solve") && !words.contains(&"movetime") && !words.contains(&"nodes")
}

/// Whether `answer` is a stopped search's `= <move> <score> depth <d>`.
fn is_estimate_answer(answer: &str) -> bool {
    let words: Vec<&str> = answer.split_whitespace().collect();
    words.len() == 5 && words[0] == "=" && words[3] == "depth" && words[4].parse::<u32>().is_ok()
}

/// Whether `answer` is `= <square>` or `= pass`.
fn is_move_answer(answer: &str) -> bool {
    answer.strip_prefix("= ").is_some_and(|mv| {
        mv == "pass"
            || mv.len() >= 2
                && mv.as_bytes()[0].is_ascii_lowercase()
                && mv[1..].bytes().all(|b| b.is_ascii_digit())
    })
}

fn is_transcript(block: &Block) -> bool {
    !block.lines.is_empty()
        && block.lines[0].starts_with('>')
        && block
            .lines
            .iter()
            .all(|l| l.starts_with("> ") || l.starts_with('<'))
}

#[test]
fn protocol_transcripts_answer_as_documented() {
    let mut problems = Vec::new();
    let mut played = 0;
    for file in documents() {
        for block in blocks(&read(&file)).iter().filter(|b| is_transcript(b)) {
            problems.extend(play_transcript(&file, block));
            played += 1;
        }
    }
    assert!(played >= 20, "only {played} transcripts found");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_error_table_answers_as_documented() {
    let spec = read("protocol.md");
    let table = spec
        .split("| input | reply |")
        .nth(1)
        .expect("protocol.md has the error table");
    let mut problems = Vec::new();
    let mut checked = 0;
    for row in table.lines().skip(2).take_while(|l| l.starts_with('|')) {
        let cells: Vec<&str> = row
            .split(" | ")
            .map(|c| c.trim_matches('|').trim())
            .collect();
        let [input, reply] = cells[..] else {
            panic!("{row}");
        };
        // Rows whose input is one literal command; the others describe a situation.
        let Some(command) = input.strip_prefix('`').and_then(|i| i.strip_suffix('`')) else {
            continue;
        };
        if command.contains('`') || command.contains('<') {
            continue;
        }
        let reply = reply.trim_matches('`');
        let mut emilia = Emilia::start(&[]);
        let answer = emilia.ask(command);
        if answer != reply {
            problems.push(format!(
                "`{command}`: documented {reply:?}, answered {answer:?}"
            ));
        }
        checked += 1;
    }
    assert!(checked >= 10, "only {checked} rows checked");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn shell_transcripts_print_as_documented() {
    let binary = Path::new(env!("CARGO_BIN_EXE_emilia"));
    let path = format!(
        "{}:{}",
        binary.parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut problems = Vec::new();
    let mut run = 0;
    for file in documents() {
        for block in blocks(&read(&file)).iter().filter(|b| b.info == "console") {
            let mut lines = block.lines.iter().peekable();
            while let Some(line) = lines.next() {
                let command = line
                    .strip_prefix("$ ")
                    .expect("a console block starts with $");
                let mut expected = Vec::new();
                while let Some(output) = lines.next_if(|l| !l.starts_with("$ ")) {
                    expected.push(output.clone());
                }
                let output = Command::new("sh")
                    .arg("-c")
                    .arg(command)
                    .env("PATH", &path)
                    .current_dir(env!("CARGO_MANIFEST_DIR"))
                    .output()
                    .unwrap();
                let got = String::from_utf8_lossy(&output.stdout);
                let got: Vec<&str> = got.lines().collect();
                if !output.status.success()
                    || masked(&got.join("\n")) != masked(&expected.join("\n"))
                {
                    problems.push(format!(
                        "{file}:{} `{command}` ({}):\n  documented: {expected:?}\n  printed:    {got:?}\n  stderr: {}",
                        block.line,
                        output.status,
                        String::from_utf8_lossy(&output.stderr)
                    ));
                }
                run += 1;
            }
        }
    }
    assert!(run >= 1, "no shell transcript found");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn masks_hide_only_what_changes_between_runs() {
    assert_eq!(
        masked("= depth 6 score 0.00 exact false nodes 2301 time 0.004"),
        "= depth 6 score 0.00 exact false nodes _ time _"
    );
    assert_eq!(masked("nodestats 275 0.00"), "nodestats _ _");
    assert_eq!(masked("=== D3/0.02/0.00"), "=== D3/0.02/_");
    assert_eq!(
        masked("(;GM[Othello]PC[Emilia]DT[2025-11-22 13:30:34 GMT]PB[]W[F4/-0.73/0.21]B[C3];)"),
        "(;GM[Othello]PC[Emilia]DT[_]PB[]W[F4/-0.73/_]B[C3];)"
    );
    assert_ne!(masked("=== D3/0.02/0.00"), masked("=== C4/0.02/0.00"));
}

/// The subcommands `emilia --help` lists, each as its words, and `tune mpc`.
fn subcommands() -> Vec<Vec<String>> {
    let top = help(&[]);
    let mut list: Vec<Vec<String>> = top
        .split("Subcommands:\n")
        .nth(1)
        .expect("--help lists the subcommands")
        .lines()
        .take_while(|l| !l.trim().is_empty())
        .map(|l| vec![l.split_whitespace().next().unwrap().to_string()])
        .collect();
    assert!(list.len() >= 10, "{list:?}");
    list.push(vec!["tune".to_string(), "mpc".to_string()]);
    list
}

/// Whether `c` can continue an option's name.
fn is_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '-' || c == '_'
}

/// The `--options` that `text` names.
fn options_in(text: &str) -> BTreeSet<String> {
    let mut options = BTreeSet::new();
    for (at, _) in text.match_indices("--") {
        if text[..at].ends_with(is_name_char) {
            continue;
        }
        let name: String = text[at + 2..]
            .chars()
            .take_while(|&c| is_name_char(c))
            .collect();
        // Prose such as "every --holdout-every-th game" names `--holdout-every`.
        let name = name.strip_suffix("-th").unwrap_or(&name);
        if name.starts_with(|c: char| c.is_ascii_lowercase()) {
            options.insert(format!("--{name}"));
        }
    }
    options
}

#[test]
fn cli_md_names_every_usage_line_and_option_of_every_help() {
    let cli = read("docs/cli.md");
    let documented = options_in(&cli);
    let mut problems = Vec::new();
    let mut all = vec![Vec::new()];
    all.extend(subcommands());
    for words in &all {
        let args: Vec<&str> = words.iter().map(String::as_str).collect();
        let text = help(&args);
        let mut usage = false;
        for line in text.lines() {
            usage = line.starts_with("Usage:")
                || usage && line.starts_with(' ') && !line.trim().is_empty();
            if usage && !cli.lines().any(|l| l.trim() == line.trim()) {
                problems.push(format!(
                    "{args:?}: usage line {line:?} is not in docs/cli.md"
                ));
            }
        }
        for option in options_in(&text).difference(&documented) {
            problems.push(format!("{args:?}: {option} is not in docs/cli.md"));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The commands of a `sh` block: continued lines joined, comments left out.
fn shell_commands(block: &Block) -> Vec<String> {
    let mut commands = Vec::new();
    let mut current = String::new();
    for line in &block.lines {
        let line = match line.find(" #") {
            Some(at) => &line[..at],
            None if line.trim_start().starts_with('#') => "",
            None => line,
        };
        match line.trim_end().strip_suffix('\\') {
            Some(start) => current.push_str(start),
            None => {
                current.push_str(line);
                if !current.trim().is_empty() {
                    commands.push(std::mem::take(&mut current));
                }
                current.clear();
            }
        }
    }
    commands
}

/// `command` split into words as a shell would, quotes taken off (no expansions).
fn shell_words(command: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut quote = None;
    let mut in_word = false;
    for c in command.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => word.push(c),
            (None, '"' | '\'') => {
                quote = Some(c);
                in_word = true;
            }
            (None, c) if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            (None, c) => {
                word.push(c);
                in_word = true;
            }
        }
    }
    if in_word {
        words.push(word);
    }
    words
}

/// The variables `text` uses (`$E`, `${E}`), not counting `$((…))` or `$(…)`.
fn variables_used(text: &str) -> Vec<String> {
    let mut used = Vec::new();
    for (at, _) in text.match_indices('$') {
        let rest = text[at + 1..].trim_start_matches('{');
        let name: String = rest
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        if name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') {
            used.push(name);
        }
    }
    used
}

#[test]
fn shell_commands_run_as_written() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let subcommands = subcommands();
    let mut helps: HashMap<Vec<String>, BTreeSet<String>> = HashMap::new();
    let mut problems = Vec::new();
    let mut checked = 0;
    for file in documents() {
        let text = read(&file);
        let shell: Vec<Block> = blocks(&text)
            .into_iter()
            .filter(|b| b.info == "sh")
            .collect();
        let commands: Vec<(usize, String)> = shell
            .iter()
            .flat_map(|b| shell_commands(b).into_iter().map(move |c| (b.line, c)))
            .collect();
        // Variables the file's commands set: `X=...`, `for X in`, `read X`.
        let mut defined: BTreeSet<String> = ["HOME", "PATH"].map(String::from).into();
        for (_, command) in &commands {
            for segment in command.split(['&', ';', '|']) {
                let words = shell_words(segment);
                for (i, word) in words.iter().enumerate() {
                    if let Some((name, _)) = word.split_once('=') {
                        if i == 0 || words[..i].iter().all(|w| w.contains('=')) {
                            defined.insert(name.to_string());
                        }
                    }
                    if word == "for" && i + 1 < words.len() {
                        defined.insert(words[i + 1].clone());
                    }
                }
            }
        }
        for (line, command) in &commands {
            checked += 1;
            let at = format!("{file}:{line} `{}`", command.trim());
            if command.contains("../shared") {
                problems.push(format!("{at}: ../shared is not in a fresh clone"));
            }
            for name in variables_used(command) {
                if !defined.contains(&name) {
                    problems.push(format!("{at}: ${name} is never set"));
                }
            }
            for segment in command.split(['&', ';', '|']) {
                let words = shell_words(segment);
                let words: Vec<&str> = words
                    .iter()
                    .map(String::as_str)
                    .skip_while(|w| w.contains('=') && !w.starts_with('-'))
                    .collect();
                // Files of the repository that the command reads.
                let mut previous = "";
                for word in &words {
                    let output = matches!(
                        previous,
                        "--out" | "--results" | "--ggf" | "--svg" | ">" | "-B"
                    );
                    let looks_like_path = word.contains('/')
                        && !word.starts_with(['$', '-', '/', '~', '('])
                        && !word.contains(['$', '=', '*', ':']);
                    if looks_like_path && !output && !root.join(word).exists() {
                        problems.push(format!("{at}: {word} is not in the repository"));
                    }
                    previous = word;
                }
                // Options given to emilia and its subcommands.
                let Some(start) = words.iter().position(|w| *w == "emilia" || *w == "$E") else {
                    continue;
                };
                let mut rest = &words[start + 1..];
                let top = helps
                    .entry(Vec::new())
                    .or_insert_with(|| options_in(&help(&[])))
                    .clone();
                // Engine options and the log before the subcommand.
                while let [flag, tail @ ..] = rest {
                    if !flag.starts_with('-') {
                        break;
                    }
                    if !top.contains(*flag) && !flag.starts_with("-v") {
                        problems.push(format!("{at}: emilia has no option {flag}"));
                    }
                    rest = if flag.starts_with("--") && !tail.is_empty() {
                        &tail[1..]
                    } else {
                        tail
                    };
                }
                let Some(sub) = subcommands
                    .iter()
                    .rev()
                    .find(|s| s.len() <= rest.len() && s.iter().zip(rest).all(|(a, b)| a == b))
                else {
                    continue;
                };
                let options = helps
                    .entry(sub.clone())
                    .or_insert_with(|| {
                        let args: Vec<&str> = sub.iter().map(String::as_str).collect();
                        options_in(&help(&args))
                    })
                    .clone();
                for word in &rest[sub.len()..] {
                    let flag = word.split('=').next().unwrap();
                    if flag.starts_with("--") && !options.contains(flag) {
                        problems.push(format!(
                            "{at}: emilia {} has no option {flag}",
                            sub.join(" ")
                        ));
                    }
                }
            }
        }
    }
    assert!(checked >= 30, "only {checked} shell commands found");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_readme_python_example_runs() {
    let binary = Path::new(env!("CARGO_BIN_EXE_emilia"));
    let path = format!(
        "{}:{}",
        binary.parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let examples: Vec<Block> = blocks(&read("README.md"))
        .into_iter()
        .filter(|b| b.info == "python")
        .collect();
    assert!(!examples.is_empty(), "README.md has a Python example");
    for example in examples {
        let output = match Command::new("python3")
            .arg("-c")
            .arg(example.lines.join("\n"))
            .env("PATH", &path)
            .env("PYTHONPATH", "python")
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .output()
        {
            Ok(output) => output,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                // Written past the test harness's capture, so that the skip shows.
                let _ = writeln!(
                    std::io::stderr(),
                    "SKIPPED: python3 is not installed, so README.md's Python example did not run"
                );
                return;
            }
            Err(e) => panic!("running python3: {e}"),
        };
        let printed = String::from_utf8_lossy(&output.stdout);
        assert!(
            output.status.success() && printed.starts_with("c4\n"),
            "README.md:{}: printed {printed:?}, stderr {}",
            example.line,
            String::from_utf8_lossy(&output.stderr)
        );
    }
}

#[test]
fn links_lead_to_files_of_the_repository() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut problems = Vec::new();
    for file in documents() {
        let folder = root.join(&file).parent().unwrap().to_path_buf();
        let text = read(&file);
        for (at, _) in text.match_indices("](") {
            let target = &text[at + 2..];
            let Some(end) = target.find(')') else {
                continue;
            };
            let path = target[..end].split('#').next().unwrap();
            if path.is_empty() || path.contains("://") {
                continue;
            }
            if !folder.join(path).exists() {
                problems.push(format!("{file}: the link to {path} leads nowhere"));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// protocol.md gives the bound by which a solve may pass its node limit, as the solver has it
/// (the core's `tests/endgame.rs` checks the solver keeps to it).
#[test]
fn protocol_md_states_the_solvers_node_limit_bound() {
    let spec = include_str!("../protocol.md").replace("\n  ", " ");
    let bound = emilia_core::endgame::MOST_NODES_PAST_LIMIT;
    let said = format!("up to {bound} nodes past its own limit");
    assert!(spec.contains(&said), "protocol.md does not say {said:?}");
}
