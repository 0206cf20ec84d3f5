//! The budget of one move on a game clock: the usable time shared over the moves still to
//! search, each by its weight for its stage of the game, with time kept for the planned
//! exact solve.

use std::time::Duration;

use super::{
    estimated_solve_time, moves_to_search, own_moves_left, planned_solve_empties, solve_empties,
    Margins, TimePlan,
};
use crate::search::Clock;

/// Budget multiplier for the moves where the exact endgame becomes solvable.
pub const SOLVE_BONUS: f64 = 2.5;

/// Share of empty squares at which a move's weight in the clock's sharing peaks (36
/// empties on 8x8).
const PHASE_PEAK: f64 = 0.56;
/// How far from the peak, in shares of empty squares, the weight's rise above its floor
/// falls to 1/e of its height (10 empties on 8x8).
const PHASE_WIDTH: f64 = 0.16;
/// A move's weight at the peak.
const PHASE_HIGH: f64 = 1.4;
/// A move's weight far from the peak: the opening, the moves just before the solve.
const PHASE_LOW: f64 = 0.6;

/// The clock a plan keeps for the solve at `solve_at` empties: twice its expected time,
/// as no search may take more than half of the usable clock.
fn solve_reserve(size: usize, solve_at: u32) -> Duration {
    estimated_solve_time(size, solve_at).saturating_mul(2)
}

/// Weight of a move in the sharing of a game clock, by how full the board is: the
/// midgame, where games are mostly decided and a deeper search changes the move most,
/// weighs up to [`PHASE_HIGH`], a move of the opening or just before the exact solve down
/// to [`PHASE_LOW`] (a bell over the share of empty squares, highest at [`PHASE_PEAK`]).
fn phase_weight(empties: u32, size: usize) -> f64 {
    let x = (empties as f64 / (size * size) as f64 - PHASE_PEAK) / PHASE_WIDTH;
    PHASE_LOW + (PHASE_HIGH - PHASE_LOW) * (-x * x).exp()
}

/// The share of the clock to come for this move, with `empties` empty squares on a board
/// of side `size` and the solve planned at `solve_at` empties: its weight over those of
/// the moves still to search (the mover's, two empties apart, until the solve).
pub fn clock_share(empties: u32, size: usize, solve_at: u32) -> f64 {
    let total: f64 = (0..moves_to_search(empties, solve_at))
        .map(|k| phase_weight(empties.saturating_sub(2 * k), size))
        .sum();
    phase_weight(empties, size) / total
}

/// The plan on a game clock with `empties` empty squares on a board of side `size`.
pub fn for_clock(clock: &Clock, empties: u32, size: usize, margins: &Margins) -> TimePlan {
    let own_moves = own_moves_left(empties);
    // In byo-yomi the clock is renewed after `moves_to_go` moves: no reserve is needed.
    // Every move still to play costs its overhead; only those still to search share the
    // time.
    let period = clock.moves_to_go.map(|n| n.clamp(1, own_moves));
    let usable = clock
        .remaining
        .saturating_sub(margins.clock(clock.remaining, period.unwrap_or(own_moves)));
    let (share, solve_at) = match period {
        Some(moves) => (usable / moves, solve_empties(size)),
        // The increments of the moves after the solve, played at once from the solver's
        // table, are spent before it: they are sure to come. Until the solving move, the
        // solve's own time is kept apart.
        None => {
            let solve_at = planned_solve_empties(size, usable, clock.increment);
            let solved_moves = own_moves - moves_to_search(empties, solve_at);
            let kept = if empties > solve_at + 1 {
                solve_reserve(size, solve_at)
            } else {
                Duration::ZERO
            };
            let share = (usable + clock.increment * solved_moves)
                .saturating_sub(kept)
                .mul_f64(clock_share(empties, size, solve_at));
            (share, solve_at)
        }
    };
    let mut soft = share + clock.increment * 3 / 4;
    if (solve_at.saturating_sub(1)..=solve_at + 1).contains(&empties) {
        soft = soft.mul_f64(SOLVE_BONUS);
    }
    // A floor so that even a short budget finishes the first iterations.
    soft = soft.max(Duration::from_millis(2).min(usable / 4));
    let cap = usable / 2;
    TimePlan {
        soft: Some(soft.min(cap)),
        hard: Some((soft * 4).min(cap)),
        backstop: Some(clock.remaining / 2),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::time::testing::{clock, ms, M};

    #[test]
    fn clock_budget_shares_the_time_over_the_moves_before_the_solve() {
        // 60 s: the solve is planned at 23 empties (4.7 s expected, 9.4 s kept for it),
        // and the rest shared over the 19 own moves before it and the solving move, about
        // 2.4 s each on average; the first move of the game weighs less than the average.
        let plan = for_clock(&clock(60_000, 0), 60, 8, &M);
        let usable = ms(60_000) - M.clock(ms(60_000), own_moves_left(60));
        assert_eq!(planned_solve_empties(8, usable, Duration::ZERO), 23);
        let soft = plan.soft.unwrap();
        assert!(soft > ms(1_300) && soft < ms(2_200), "{soft:?}");
        assert_eq!(plan.hard, Some(soft * 4));
        // The increment is spent too: three quarters of this move's, and a share of those
        // of the 10 moves after the solve (30 own moves, 20 to search).
        assert_eq!(planned_solve_empties(8, usable, ms(1_000)), 23);
        let with_inc = for_clock(&clock(60_000, 1_000), 60, 8, &M).soft.unwrap();
        let expected = soft + ms(750) + ms(10_000).mul_f64(clock_share(60, 8, 23));
        let error = with_inc.abs_diff(expected);
        assert!(
            error < Duration::from_micros(1),
            "{with_inc:?} {expected:?}"
        );
    }

    #[test]
    fn a_game_on_the_clock_arrives_at_the_solve_with_its_time_and_no_more() {
        // From an XOT opening at 4 s + 50 ms, every move spends its whole target (a search
        // usually stops before) and the clock earns the increment. The exact solve starts
        // once its expected time fits in the hard limit, planned at 20 empties; spending
        // the increments of the solved moves before it, the plan may arrive two empties
        // later, still with twice the solve's expected time on the clock. Planned down to
        // 16 empties with a reserve of four moves, a real game had 1.35 s of 4 s left when
        // the solve started, and most of it was never used.
        let (mut remaining, increment) = (ms(4_000), ms(50));
        let mut empties = 52;
        loop {
            let c = Clock {
                remaining,
                increment,
                moves_to_go: None,
            };
            let plan = for_clock(&c, empties, 8, &M);
            let hard = plan.hard.unwrap();
            if estimated_solve_time(8, empties) <= hard {
                assert!(empties >= 18, "solved at {empties} empties");
                assert!(
                    remaining < ms(1_000),
                    "{remaining:?} left at {empties} empties"
                );
                let needed = estimated_solve_time(8, empties) * 2;
                assert!(remaining >= needed, "{remaining:?} at {empties}");
                break;
            }
            assert!(empties > 16, "no solve before 16 empties");
            remaining = remaining - plan.soft.unwrap() + increment;
            empties -= 2;
        }
    }

    #[test]
    fn the_midgame_gets_more_of_the_clock_than_the_opening() {
        // A move that spends its share leaves the next one a share that is, of the clock
        // at the start, its weight over the total: one plan for the game, made once.
        let (start, mut left) = (60, 1.0f64);
        let total = left / clock_share(start, 8, 16) * phase_weight(start, 8);
        let mut spent = Vec::new();
        for empties in (18..=start).rev().step_by(2) {
            let share = left * clock_share(empties, 8, 16);
            let planned = phase_weight(empties, 8) / total;
            assert!(
                (share - planned).abs() < 1e-12,
                "{empties}: {share} {planned}"
            );
            spent.push((empties, share));
            left -= share;
        }
        // What is left is the solving move's share.
        let solving = phase_weight(16, 8) / total;
        assert!((left - solving).abs() < 1e-12, "{left} {solving}");
        let at = |e: u32| spent.iter().find(|&&(x, _)| x == e).unwrap().1;
        assert!(at(36) > 2.0 * at(60) && at(36) > 1.5 * at(20));
        // A board size's midgame is where its share of empties says.
        assert!(phase_weight(64, 10) > phase_weight(90, 10));
        assert!(phase_weight(64, 10) > phase_weight(30, 10));
    }

    #[test]
    fn moves_after_the_solvable_point_get_no_share_of_the_clock() {
        // 8x8 from the start, solved at 16 empties: 22 own moves before it and the solving
        // move.
        assert_eq!(moves_to_search(60, 16), 23);
        assert_eq!(moves_to_search(20, 16), 3);
        assert_eq!(moves_to_search(16, 16), 2);
        assert_eq!(moves_to_search(60, 22), 20);
        // Never more than the moves left to play.
        assert_eq!(moves_to_search(2, 16), 1);
        assert_eq!(moves_to_search(96, solve_empties(10)), 43);
        // The same clock gives a midgame move more than a share over every move left: 10 s
        // plan the solve at 21 empties and keep 1.5 s for it.
        let with_solve = for_clock(&clock(10_000, 0), 40, 8, &M).soft.unwrap();
        let usable = ms(10_000) - M.clock(ms(10_000), own_moves_left(40));
        assert_eq!(planned_solve_empties(8, usable, Duration::ZERO), 21);
        assert!(with_solve > usable / own_moves_left(40));
        let shared = usable - solve_reserve(8, 21);
        assert_eq!(with_solve, shared.mul_f64(clock_share(40, 8, 21)));
    }

    #[test]
    fn byo_yomi_shares_the_period_over_its_moves() {
        let period = Clock {
            remaining: ms(10_000),
            increment: Duration::ZERO,
            moves_to_go: Some(5),
        };
        let plan = for_clock(&period, 40, 8, &M);
        let usable = ms(10_000) - M.clock(ms(10_000), 5);
        assert_eq!(plan.soft, Some(usable / 5));
        // The last move of a period gets at most half of what is left.
        let last = Clock {
            moves_to_go: Some(1),
            ..period
        };
        assert_eq!(
            for_clock(&last, 40, 8, &M).hard,
            Some((ms(10_000) - M.clock(ms(10_000), 1)) / 2)
        );
    }

    #[test]
    fn the_solvable_point_gets_more_time_than_the_midgame() {
        let usable = ms(30_000) - M.clock(ms(30_000), own_moves_left(30));
        let at = planned_solve_empties(8, usable, Duration::ZERO);
        let midgame = for_clock(&clock(30_000, 0), 30, 8, &M).soft.unwrap();
        let solving = for_clock(&clock(30_000, 0), at, 8, &M).soft.unwrap();
        assert!(solving.as_secs_f64() > 2.0 * midgame.as_secs_f64());
    }

    #[test]
    fn no_move_may_use_more_than_half_the_usable_clock() {
        for remaining in [0, 1, 3, 10, 50, 100, 1_000, 10_000, 600_000] {
            for empties in [0, 1, 2, 10, 20, 21, 40, 60, 140] {
                for increment in [0, 100, 10_000] {
                    let c = clock(remaining, increment);
                    let plan = for_clock(&c, empties, 8, &M);
                    let moves = own_moves_left(empties);
                    let usable = c.remaining.saturating_sub(M.clock(c.remaining, moves));
                    let (soft, hard) = (plan.soft.unwrap(), plan.hard.unwrap());
                    assert!(soft <= hard, "{remaining} {empties}");
                    assert!(hard <= usable / 2, "{remaining} {empties} {increment}");
                    assert!(hard <= plan.backstop.unwrap());
                    assert!(hard < c.remaining || remaining == 0);
                }
            }
        }
    }

    #[test]
    fn short_clocks_keep_a_wide_margin() {
        // Nearly out of time: answer at once rather than risk a pause of the machine.
        assert_eq!(
            for_clock(&clock(8, 0), 30, 8, &M).hard,
            Some(Duration::ZERO)
        );
        // 25 ms left: at most a quarter of it.
        let hard = for_clock(&clock(25, 0), 2, 8, &M).hard.unwrap();
        assert!(hard <= Duration::from_micros(6_250), "{hard:?}");
        // 100 ms left: at most 40 ms.
        assert!(for_clock(&clock(100, 0), 2, 8, &M).hard.unwrap() <= ms(40));
    }

    #[test]
    fn the_last_moves_are_not_rushed() {
        // With 2 s left and 4 empties, a move still gets a fair slice: its weight, the
        // end's, against the other move's, over a tenth of the clock.
        let soft = for_clock(&clock(2_000, 0), 4, 8, &M).soft.unwrap();
        assert!(soft > ms(200), "{soft:?}");
    }
}
