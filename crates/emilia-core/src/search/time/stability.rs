//! How settled the search's choice is from one iteration to the next, as a factor on the
//! soft target of its time plan.

/// How settled the search's choice is from one iteration to the next, as a factor on the
/// soft target ([`TimePlan::may_start_iteration`]): a best move that keeps changing, or a
/// falling score, earns more time before iterations stop starting; a settled best move, or
/// a single legal move, less. The hard deadline does not move, so the clock's safety is
/// unchanged.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Stability {
    /// Changes of the best move, each worth half as much an iteration later.
    changes: f64,
    /// The best move and score of the latest iteration.
    last: Option<(usize, i32)>,
    /// The latest iteration's score fell by more than [`SCORE_DROP`] from the one before.
    dropped: bool,
    /// The root has a single legal move.
    forced: bool,
}

/// The factor on the soft target of a search whose best move has not changed lately.
const SETTLED_SCALE: f64 = 0.85;
/// What a change of the best move in the latest iteration adds to the factor (half as much
/// one iteration later, and so on).
const CHANGE_SCALE: f64 = 0.6;
/// What a falling score adds to the factor.
const DROP_SCALE: f64 = 0.3;
/// The factor's ceiling.
const MAX_SCALE: f64 = 2.0;
/// The factor when the root has a single legal move: its search mostly fills the table for
/// the next move.
const FORCED_SCALE: f64 = 0.25;
/// A fall of the score, in hundredths of a disc, that earns more time.
const SCORE_DROP: i32 = 150;

impl Stability {
    /// Before the first iteration, with `moves` legal moves at the root.
    pub(crate) fn new(moves: usize) -> Stability {
        Stability {
            changes: 0.0,
            last: None,
            dropped: false,
            forced: moves == 1,
        }
    }

    /// Records a finished iteration's best move and score.
    pub(crate) fn record(&mut self, best: usize, score: i32) {
        self.changes *= 0.5;
        if let Some((last_best, last_score)) = self.last {
            if last_best != best {
                self.changes += 1.0;
            }
            self.dropped = score < last_score - SCORE_DROP;
        }
        self.last = Some((best, score));
    }

    /// The factor on the soft target.
    pub(crate) fn scale(&self) -> f64 {
        if self.forced {
            return FORCED_SCALE;
        }
        let drop = if self.dropped { DROP_SCALE } else { 0.0 };
        (SETTLED_SCALE + CHANGE_SCALE * self.changes + drop).min(MAX_SCALE)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unsettled_choice_gets_more_time_than_a_settled_one() {
        let iterations = |moves: &[(usize, i32)]| {
            let mut stability = Stability::new(10);
            for &(best, score) in moves {
                stability.record(best, score);
            }
            stability.scale()
        };
        let settled = iterations(&[(3, 0), (3, 10), (3, -20), (3, 0)]);
        let changed_lately = iterations(&[(3, 0), (3, 10), (3, -20), (5, 0)]);
        let changed_earlier = iterations(&[(3, 0), (5, 10), (5, -20), (5, 0)]);
        let changing = iterations(&[(3, 0), (5, 10), (3, -20), (5, 0)]);
        let falling = iterations(&[(3, 0), (3, 10), (3, -20), (3, -300)]);
        assert!(settled < 1.0, "{settled}");
        assert!(changed_lately > 1.0, "{changed_lately}");
        assert!(changed_earlier > settled && changed_earlier < changed_lately);
        assert!(changing > changed_lately);
        assert!(changing <= MAX_SCALE);
        assert!(falling > settled);
        let mut forced = Stability::new(1);
        forced.record(7, 0);
        assert!(forced.scale() < settled);
        assert_eq!(Stability::new(2).scale(), SETTLED_SCALE);
    }
}
