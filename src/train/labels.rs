//! Training labels: what each position of a game is worth, from the exact values known
//! along the game.
//!
//! A position with an exact value gets it. Between two exact values the label moves
//! linearly from one to the other (players' errors between them shift the value step by
//! step); before the first it is the first (the game's result backed up to its opening),
//! after the last it is the last.

use super::games::ReplayedGame;
use emilia_core::board::Board8;

/// Adds exact values from `solve` (the final disc difference for the side to move under
/// perfect play) for the game's positions with at most `max_empties` empty squares, in
/// game order so that a solver's table helps with the later ones.
pub(crate) fn add_solved(
    game: &mut ReplayedGame,
    max_empties: u32,
    solve: &mut dyn FnMut(&Board8) -> i32,
) {
    for position in &game.positions {
        let empties = position.empties();
        if empties > max_empties || game.exact.iter().any(|&(e, _)| e == empties) {
            continue;
        }
        let value = solve(&position.board);
        let black = if position.black_to_move {
            value
        } else {
            -value
        };
        let at = game
            .exact
            .iter()
            .position(|&(e, _)| e < empties)
            .unwrap_or(game.exact.len());
        game.exact.insert(at, (empties, black));
    }
}

/// Labels of every position of `game` in discs for its side to move, or `None` for all
/// when the game has no exact value at all.
pub(crate) fn game_labels(game: &ReplayedGame) -> Option<Vec<f32>> {
    if game.exact.is_empty() {
        return None;
    }
    Some(
        game.positions
            .iter()
            .map(|p| {
                let black = black_value(&game.exact, p.empties());
                if p.black_to_move {
                    black
                } else {
                    -black
                }
            })
            .collect(),
    )
}

/// Black's value at `empties` from exact values `(empties, value)`, most empties first.
fn black_value(exact: &[(u32, i32)], empties: u32) -> f32 {
    // `after` is the first exact value at or past this point of the game.
    let after = exact.iter().position(|&(e, _)| e <= empties);
    match after {
        None => exact[exact.len() - 1].1 as f32,
        Some(0) => exact[0].1 as f32,
        Some(i) => {
            let (e_late, v_late) = exact[i];
            let (e_early, v_early) = exact[i - 1];
            let t = (empties - e_late) as f32 / (e_early - e_late) as f32;
            v_late as f32 + t * (v_early - v_late) as f32
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::train::games::{replay, GamePosition};

    #[test]
    fn labels_back_up_and_interpolate_the_exact_values() {
        let exact = [(24, 10), (4, -10)];
        assert_eq!(black_value(&exact, 50), 10.0);
        assert_eq!(black_value(&exact, 24), 10.0);
        assert_eq!(black_value(&exact, 14), 0.0);
        assert_eq!(black_value(&exact, 4), -10.0);
        assert_eq!(black_value(&exact, 2), -10.0);
        assert_eq!(black_value(&[(24, 6)], 3), 6.0);
    }

    #[test]
    fn solved_values_join_the_exact_ones_in_order() {
        // f5 d6 c3 d3 c4: positions with 60 to 56 empties, Black to move at 60, 58, 56.
        let (positions, _) = replay(&[37, 43, 18, 19, 26]).unwrap();
        let mut game = ReplayedGame {
            positions,
            exact: vec![(24, 10), (0, 6)],
        };
        // A "solver" that gives 2 * empties for the side to move.
        add_solved(&mut game, 58, &mut |b: &Board8| {
            2 * b.empty_mask().count_ones() as i32
        });
        assert_eq!(
            game.exact,
            vec![(58, 116), (57, -114), (56, 112), (24, 10), (0, 6)]
        );
    }

    #[test]
    fn labels_are_for_the_side_to_move() {
        // f5 d6: Black then White moved.
        let (positions, _) = replay(&[37, 43]).unwrap();
        let game = ReplayedGame {
            positions: positions.clone(),
            exact: vec![(24, 8)],
        };
        assert_eq!(game_labels(&game), Some(vec![8.0, -8.0]));
        assert_eq!(
            positions[0],
            GamePosition {
                board: Board8::START,
                black_to_move: true
            }
        );
        let unknown = ReplayedGame {
            positions,
            exact: vec![],
        };
        assert_eq!(game_labels(&unknown), None);
    }
}
