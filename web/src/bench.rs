//! `emilia bench midgame` in WebAssembly: the same positions, engine settings and lines, so
//! that the node counts of a fixed depth compare with the native program's.

use std::time::Duration;

use emilia::board::Position;
use emilia::engine::Engine;
use emilia::search::Limits;
use wasm_bindgen::prelude::*;

use crate::engine::Listener;

/// The positions of the program's `bench midgame`: six XOT openings (52 empties) and four
/// FFO positions (22 to 27 empties). Kept equal to the program's list,
/// which the fingerprint (211,270 nodes at depth 12 on both) checks.
const MIDGAME_POSITIONS: [&str; 10] = [
    "f5d6c4d3c2b3b4b5",
    "f5f4g3g6f3g4e3e2",
    "f5f6d3c5d6c7b5e3",
    "f5f6d3c5c6e3c4b4",
    "f5d6c3f4c5d3g3b5",
    "d3c5f6f5e6e3d6f7",
    "-OOOOO----OOOOX--OOOOOO-XXXXXOO--XXOOX--OOXOXX----OXXO---OOO--O- X",
    "--XXXXX---XXXX---OOOXX---OOXXXX--OOXXXO-OOOOXOO----XOX----XXXXX- O",
    "-OOOOO----OOOO---OOOOX--XXXXXX---OXOOX--OOOXOX----OOXX----XXXX-- O",
    "----O-X------X-----XXXO-OXXXXXOO-XXOOXOOXXOXXXOO--OOOO-O----OO-- O",
];

fn positions() -> Vec<Position> {
    let start = Position::start(8).expect("8x8 start");
    MIDGAME_POSITIONS
        .iter()
        .map(|text| {
            if text.contains(' ') {
                text.parse().expect("a benchmark board")
            } else {
                start.play_transcript(text).expect("a benchmark opening").0
            }
        })
        .collect()
}

/// Runs the benchmark to `depth` (if given) or for `seconds` a position, one thread, no
/// book, an empty table for each position; `line` gets each line of the output.
pub fn midgame(depth: Option<u32>, seconds: f64, line: &mut dyn FnMut(&str)) {
    let mut engine = Engine::without_book(Engine::DEFAULT_HASH_MIB);
    engine
        .set_option("threads", "1")
        .expect("one thread is a valid setting");
    let limits = match depth {
        Some(d) => Limits {
            depth: Some(d),
            ..Limits::default()
        },
        None => Limits {
            move_time: Some(Duration::from_secs_f64(seconds)),
            ..Limits::default()
        },
    };
    let (mut nodes, mut time, mut depths) = (0u64, 0.0f64, 0u32);
    for (i, position) in positions().iter().enumerate() {
        engine.clear_hash();
        let report = engine.search(position, &limits, &mut |_| {});
        let s = report.elapsed.as_secs_f64();
        let (_, _, empties) = position.board.counts();
        line(&format!(
            "midgame {:2}: {empties:2} empties, depth {:2}{}, score {:>7}, best {}, {:10} nodes, \
             {:.3} s, {:.2} Mnps",
            i + 1,
            report.depth,
            if report.exact { " exact" } else { "      " },
            report.score,
            report.best,
            report.nodes,
            s,
            report.nodes as f64 / s.max(1e-9) / 1e6
        ));
        nodes += report.nodes;
        time += s;
        depths += report.depth;
    }
    line(&format!(
        "midgame total: {nodes} nodes in {time:.3} s, {:.2} Mnps, mean depth {:.1}",
        nodes as f64 / time.max(1e-9) / 1e6,
        depths as f64 / MIDGAME_POSITIONS.len() as f64
    ));
}

/// [`midgame`] for JavaScript: `depth` 0 for a time limit of `seconds` a position.
#[wasm_bindgen(js_name = benchMidgame)]
pub fn bench_midgame(depth: u32, seconds: f64, line: &Listener) {
    midgame((depth > 0).then_some(depth), seconds, &mut |text| {
        line.tell(text)
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_positions_are_the_programs() {
        let positions = positions();
        assert_eq!(positions.len(), 10);
        let empties: Vec<u32> = positions.iter().map(|p| p.board.counts().2).collect();
        assert_eq!(empties, [52, 52, 52, 52, 52, 52, 22, 23, 25, 27]);
    }
}
