//! How many moves the side to move still has to play and to search, and at how many
//! empties a game clock's plan expects the exact solve.

use std::time::Duration;

use super::estimated_solve_time;

/// Empties at which the exact endgame usually becomes solvable within a move's time, per
/// board size: those moves get more time.
pub fn solve_empties(size: usize) -> u32 {
    match size {
        6 => 18,
        8 => 16,
        10 => 12,
        _ => 10,
    }
}

/// Moves the side to move still has to play, at most, with `empties` empty squares.
pub fn own_moves_left(empties: u32) -> u32 {
    empties.div_ceil(2).max(1)
}

/// Own moves that still need a search of their own, with `empties` empty squares and the
/// exact solve planned at `solve_at` empties: those before the solve, and the move that
/// solves. The moves after a solve come from the solver's table at once, so time budgeted
/// for them was left unused on the clock at the end of the game.
pub(crate) fn moves_to_search(empties: u32, solve_at: u32) -> u32 {
    (own_moves_left(empties.saturating_sub(solve_at)) + 1).min(own_moves_left(empties))
}

/// Share of the time still to come (the usable clock and the increments of the moves
/// after the solve) that the planned exact solve may be expected to take.
pub const SOLVE_PLAN_SHARE: f64 = 0.15;

/// Empties at which a game clock's plan expects the exact solve, with `usable` time on the
/// clock and `increment` after each move: the most whose expected solve time
/// ([`estimated_solve_time`]) is within [`SOLVE_PLAN_SHARE`] of the time to come, and at
/// least the size's usual point ([`solve_empties`]). The solver takes over once a solve
/// fits in a move's time, which on a longer clock is further from the end than the usual
/// point: a plan down to that point left the moves in between unplayed, their time unused.
pub(crate) fn planned_solve_empties(size: usize, usable: Duration, increment: Duration) -> u32 {
    let squares = (size * size) as u32;
    let mut at = solve_empties(size);
    while at < squares {
        let next = at + 1;
        let to_come = usable + increment * own_moves_left(next);
        let expected = estimated_solve_time(size, next);
        if expected.as_secs_f64() > to_come.as_secs_f64() * SOLVE_PLAN_SHARE {
            break;
        }
        at = next;
    }
    at
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::time::testing::ms;

    #[test]
    fn the_solve_is_planned_where_the_clock_lets_it_finish() {
        let planned =
            |usable: u64, increment: u64| planned_solve_empties(8, ms(usable), ms(increment));
        // Short clocks solve at the usual point; longer ones earlier, where a solve takes
        // at most the planned share of the time to come.
        assert_eq!(planned(50, 0), solve_empties(8));
        let mut last = 0;
        for usable in [50, 200, 1_000, 4_000, 10_000, 60_000, 600_000] {
            let at = planned(usable, 0);
            assert!(at >= last, "{usable} ms: {at} < {last}");
            last = at;
            if at > solve_empties(8) {
                let share = estimated_solve_time(8, at).as_secs_f64() / (usable as f64 / 1e3);
                assert!(share <= SOLVE_PLAN_SHARE, "{usable} ms: {at}");
                let next = estimated_solve_time(8, at + 1).as_secs_f64();
                assert!(next > SOLVE_PLAN_SHARE * usable as f64 / 1e3, "{usable} ms");
            }
        }
        assert_eq!(planned(4_000, 0), 20);
        // The increments of the solved moves count: 4 s + 1 s a move solves earlier.
        assert!(planned(4_000, 1_000) > planned(4_000, 0));
        // Every size has its usual point as the floor.
        for size in [6, 10, 12] {
            assert_eq!(
                planned_solve_empties(size, ms(10), Duration::ZERO),
                solve_empties(size)
            );
        }
    }
}
