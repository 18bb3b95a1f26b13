//! Sweeps from each side of the grid in turn, the most promising first, with growing time
//! limits, until one finishes.
//!
//! How long a sweep takes depends on the side it starts from far more than on anything one
//! can see beforehand (on random 20x20 pictures, 2 s from one side and more than 30 s from
//! the others), but a second of each shows it: the side that will finish first has usually
//! counted ten to a hundred times as many solutions in finished subtrees by then. So the
//! sides take turns in rounds, the one that has counted most (the fraction of its tree
//! explored breaking ties, such as none counting anything) first and for four times as long
//! as each of the others, and every round twice as long as the last. Once every side has had
//! some seconds, the sides are compared after equal time: the leader's count as it stood
//! when it had been given as long as the others, so that its longer turns alone do not keep
//! it in the lead (*Lion*'s sweep from the left, which counts most in every round, against the
//! one from the top, which finishes first). A sweep keeps its memo between turns
//! ([`SideSweeps`]), so that a turn goes on where the side's last one stopped.

use std::cmp::Ordering;
use std::time::{Duration, Instant};

use num_bigint::BigUint;

use super::countable::Countable;
use super::profile::Orientation;
use super::stop::Stop;
use super::sweep::{MemoBudget, ResumableSweep, SweepError, SweepStats, new_sweep};

/// A sweep from one side, whatever its key and number types.
type SideSweep<'p, P> = Box<dyn ResumableSweep<<P as crate::domain::Domain>::Grid> + 'p>;

/// The sweeps of one grid from each side, kept between turns.
pub(super) struct SideSweeps<'p, P: Countable> {
    puzzle: &'p P,
    /// The grid they count the completions of.
    grid: P::Grid,
    budget: &'p MemoBudget,
    stats: &'p SweepStats,
    /// The sweeps started so far, each with its side; none while one is counting.
    sweeps: std::sync::Mutex<Vec<(Orientation, SideSweep<'p, P>)>>,
}

impl<'p, P: Countable> SideSweeps<'p, P> {
    /// No sweeps yet of `grid` (a probed grid of `puzzle`), whose memos take their memory
    /// from `budget`, reporting to `stats`.
    pub(super) fn new(
        puzzle: &'p P,
        grid: P::Grid,
        budget: &'p MemoBudget,
        stats: &'p SweepStats,
    ) -> Self {
        stats.new_grid();
        SideSweeps {
            puzzle,
            grid,
            budget,
            stats,
            sweeps: std::sync::Mutex::new(Vec::new()),
        }
    }

    /// The grid they count.
    pub(super) fn grid(&self) -> &P::Grid {
        &self.grid
    }

    /// Notes the end of a turn of the sweep from `side`, and how much memory the memos took.
    fn end_turn(&self, side: Orientation) {
        self.stats.end_turn(side.index());
        self.stats.note_memo(self.budget.use_and_limit());
    }

    /// Counts the completions by the sweep from `side`, going on where its last turn stopped,
    /// until `stop` is raised. When its memo is full, the other sides' sweeps are dropped to
    /// make room; when it is alone, it is dropped and [`SweepError::MemoFull`] returned.
    pub(super) fn count(&self, side: Orientation, stop: Stop) -> Result<BigUint, SweepError> {
        let mut sweeps = self
            .sweeps
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let mut sweep = match sweeps.iter().position(|&(s, _)| s == side) {
            Some(at) => sweeps.swap_remove(at).1,
            None => {
                new_sweep::<u128, P>(self.puzzle, &self.grid, side, self.budget, self.stats, stop)?
            }
        };
        loop {
            match sweep.count_big(&self.grid, stop) {
                Err(SweepError::Overflow) => {
                    drop(sweep);
                    self.stats.drop_side(side.index());
                    sweep = new_sweep::<BigUint, P>(
                        self.puzzle,
                        &self.grid,
                        side,
                        self.budget,
                        self.stats,
                        stop,
                    )?;
                }
                Err(SweepError::MemoFull) if !sweeps.is_empty() => {
                    // This side goes on, racing back through its memo to where it stopped.
                    self.end_turn(side);
                    for (dropped, _) in sweeps.drain(..) {
                        self.stats.drop_side(dropped.index());
                    }
                }
                Err(SweepError::MemoFull) => {
                    self.stats.note_memo(self.budget.use_and_limit());
                    self.stats.drop_side(side.index());
                    return Err(SweepError::MemoFull);
                }
                other => {
                    self.end_turn(side);
                    sweeps.push((side, sweep));
                    return other;
                }
            }
        }
    }
}

/// How far a sweep got before its turn ended: solutions counted in finished subtrees, and
/// the fraction of its tree explored (the most at the end of any of its turns: a turn that
/// races back through the memo may end before it is back where the last one stopped).
pub(super) type Progress = (f64, f64);

/// One side, the time its turns were given in all, and how far it had got at the end of each.
struct Side {
    side: Orientation,
    /// The time given to its turns so far.
    spent: Duration,
    /// The time spent and how far the side had got, at the end of each of its turns.
    seen: Vec<(Duration, Progress)>,
}

impl Side {
    fn new(side: Orientation) -> Self {
        Side {
            side,
            spent: Duration::ZERO,
            seen: Vec::new(),
        }
    }

    /// Notes a turn of `time` that got the side to `now`. The share of its tree a sweep has
    /// finished only grows, so less than at the end of its last turn means that its sweep was
    /// dropped and started anew: the earlier turns then say nothing of it, and its record
    /// starts again.
    fn record(&mut self, time: Duration, now: Progress) {
        if self
            .seen
            .last()
            .is_some_and(|&(_, (_, explored))| now.1 < explored)
        {
            self.seen.clear();
            self.spent = Duration::ZERO;
        }
        self.spent += time;
        self.seen.push((self.spent, now));
    }

    /// How far the side had got after `spent` of its turns, read between the ends of the
    /// turns around it (nothing at the start).
    fn progress_after(&self, spent: Duration) -> Progress {
        let after = self.seen.partition_point(|&(t, _)| t <= spent);
        let (t0, p0) = after
            .checked_sub(1)
            .map_or((Duration::ZERO, (0.0, 0.0)), |at| self.seen[at]);
        match self.seen.get(after) {
            Some(&(t1, p1)) if t1 > t0 => {
                let share = (spent - t0).as_secs_f64() / (t1 - t0).as_secs_f64();
                (p0.0 + share * (p1.0 - p0.0), p0.1 + share * (p1.1 - p0.1))
            }
            _ => p0,
        }
    }
}

/// The sides a sweep may start from, in the order of their next turns.
pub(super) struct Sides {
    sides: Vec<Side>,
}

impl Sides {
    /// Every side, `first` first, then the others in the order of [`Orientation::ALL`].
    pub(super) fn new(first: Orientation) -> Self {
        let at = first.index();
        let sides = (0..Orientation::ALL.len())
            .map(|i| Side::new(Orientation::ALL[(at + i) % Orientation::ALL.len()]))
            .collect();
        Sides { sides }
    }

    /// `side` alone.
    pub(super) fn only(side: Orientation) -> Self {
        Sides {
            sides: vec![Side::new(side)],
        }
    }

    /// The sides in the order of their next turns.
    #[cfg(test)]
    fn order(&self) -> Vec<Orientation> {
        self.sides.iter().map(|side| side.side).collect()
    }

    /// One round: a sweep from each side in turn by `sweep` (which reports how far the side got
    /// through `progress`), the first stopped after `lead`, the others after `turn`. `None`
    /// when every turn ended: the sides are then ordered by how far each had got after as
    /// much time as the side given least, once that is [`EQUAL_TIME_AFTER`], and by how far
    /// each got before. The count when one finished, or the error that stopped it;
    /// [`SweepError::MemoFull`] drops a side, and is returned once it has dropped every side.
    pub(super) fn round<'s>(
        &mut self,
        lead: Duration,
        turn: Duration,
        stop: Stop<'s>,
        sweep: impl Fn(Orientation, Stop<'s>) -> Result<BigUint, SweepError>,
        progress: impl Fn(Orientation) -> Progress,
    ) -> Option<Result<BigUint, SweepError>> {
        let mut at = 0;
        while at < self.sides.len() {
            let side = &mut self.sides[at];
            let time = if at == 0 { lead } else { turn };
            match sweep(side.side, stop.with_deadline(Instant::now() + time)) {
                Err(SweepError::Cancelled) if !stop.raised() => {
                    side.record(time, progress(side.side));
                    at += 1;
                }
                Err(SweepError::MemoFull) if self.sides.len() > 1 => {
                    self.sides.remove(at);
                }
                other => return Some(other),
            }
        }
        let least = self.sides.iter().map(|side| side.spent).min();
        let after = match least {
            Some(least) if least >= EQUAL_TIME_AFTER => least,
            _ => Duration::MAX,
        };
        let mut ranked: Vec<(Progress, Side)> = self
            .sides
            .drain(..)
            .map(|side| (side.progress_after(after), side))
            .collect();
        // Stable: equal progress keeps the order of the round.
        ranked.sort_by(|(a, _), (b, _)| {
            b.0.partial_cmp(&a.0)
                .unwrap_or(Ordering::Equal)
                .then(b.1.partial_cmp(&a.1).unwrap_or(Ordering::Equal))
        });
        self.sides = ranked.into_iter().map(|(_, side)| side).collect();
        None
    }

    /// Rounds of [`Self::round`], the first giving the leading side `lead` (at least
    /// [`MIN_TURN`]) and each other a quarter of that, each next round twice as long, until
    /// a sweep finishes or stops.
    pub(super) fn take_turns<'s>(
        &mut self,
        lead: Duration,
        stop: Stop<'s>,
        sweep: impl Fn(Orientation, Stop<'s>) -> Result<BigUint, SweepError>,
        progress: impl Fn(Orientation) -> Progress,
    ) -> Result<BigUint, SweepError> {
        let mut lead = lead.max(MIN_TURN);
        loop {
            if let Some(done) = self.round(lead, lead / 4, stop, &sweep, &progress) {
                return done;
            }
            lead = lead.saturating_mul(2);
        }
    }
}

/// How long every side must have been given before the sides are compared after equal time.
/// Counts after a second or two say little, and a leader that is about as fast as another
/// side should keep the head start it has (the random 25x25 of seed 19: 15 s, against 27 s
/// when the sides were compared after 2 s each); *Lion*'s sides cross after about 30 s.
pub(super) const EQUAL_TIME_AFTER: Duration = Duration::from_secs(8);

/// The shortest turn [`Sides::take_turns`] gives.
pub(super) const MIN_TURN: Duration = Duration::from_millis(250);

#[cfg(test)]
mod tests {
    use std::cell::RefCell;
    use std::sync::atomic::AtomicBool;

    use super::*;

    /// What a stand-in sweep answers: the deadline passed, having got so far; or a result.
    enum Answer {
        Deadline(Progress),
        Done(Result<u32, SweepError>),
    }

    /// The result of some rounds, the sides asked, in order, and the order for the next round.
    type Outcome = (
        Option<Result<BigUint, SweepError>>,
        Vec<Orientation>,
        Vec<Orientation>,
    );

    /// Runs `rounds` rounds of turns of a stand-in sweep that answers `answer(side, call)`
    /// (calls numbered from 1), the sides starting at the third orientation; returns the
    /// result, the sides asked, in order, and the order for the next round.
    fn turns(
        cancel: &AtomicBool,
        rounds: usize,
        answer: impl Fn(Orientation, usize) -> Answer,
    ) -> Outcome {
        let asked = RefCell::new(Vec::new());
        let last = RefCell::new((0.0, 0.0));
        let mut sides = Sides::new(Orientation::ALL[2]);
        let sweep = |side: Orientation, _: Stop| {
            asked.borrow_mut().push(side);
            let call = asked.borrow().len();
            match answer(side, call) {
                Answer::Deadline(progress) => {
                    *last.borrow_mut() = progress;
                    Err(SweepError::Cancelled)
                }
                Answer::Done(result) => result.map(BigUint::from),
            }
        };
        let mut result = None;
        for _ in 0..rounds {
            result = sides.round(MIN_TURN, MIN_TURN, Stop::from(cancel), sweep, |_| {
                *last.borrow()
            });
            if result.is_some() {
                break;
            }
        }
        (result, asked.into_inner(), sides.order())
    }

    #[test]
    fn every_side_gets_a_turn_until_one_finishes() {
        let cancel = AtomicBool::new(false);
        let (result, asked, _) = turns(&cancel, 3, |_, call| match call {
            6 => Answer::Done(Ok(42)),
            _ => Answer::Deadline((0.0, 0.0)),
        });
        assert_eq!(result, Some(Ok(BigUint::from(42u8))));
        let [a, b, c, d] = Orientation::ALL;
        assert_eq!(asked, [c, d, a, b, c, d]);
    }

    #[test]
    fn the_side_that_counted_most_goes_first() {
        let cancel = AtomicBool::new(false);
        let [a, b, c, d] = Orientation::ALL;
        // Counted 5 from a, 9 from b; c and d counted nothing, d explored more.
        let progress = |side| match side {
            s if s == a => (5.0, 0.1),
            s if s == b => (9.0, 0.1),
            s if s == c => (0.0, 0.2),
            _ => (0.0, 0.3),
        };
        let (result, asked, order) = turns(&cancel, 1, |side, _| Answer::Deadline(progress(side)));
        assert_eq!(result, None);
        assert_eq!(asked, [c, d, a, b]);
        assert_eq!(order, [b, a, d, c]);
    }

    /// The order after two rounds of turns in units of `unit`, the lead four units in the
    /// second: `a` counts 10 then 40 in all, `b` 5 then 30, the others nothing.
    fn order_after_a_head_start(unit: Duration) -> (Sides, Vec<Orientation>) {
        let cancel = AtomicBool::new(false);
        let [a, b, ..] = Orientation::ALL;
        let last = RefCell::new((0.0, 0.0));
        let mut sides = Sides::new(a);
        let counted = |side, round: f64| match side {
            s if s == a => 10.0 + 30.0 * round,
            s if s == b => 5.0 + 25.0 * round,
            _ => 0.0,
        };
        for (round, lead) in [(0.0, unit), (1.0, 4 * unit)] {
            let sweep = |side, _: Stop| {
                *last.borrow_mut() = (counted(side, round), 0.0);
                Err(SweepError::Cancelled)
            };
            let done = sides.round(lead, unit, Stop::from(&cancel), sweep, |_| *last.borrow());
            assert!(done.is_none());
        }
        let order = sides.order();
        (sides, order)
    }

    #[test]
    fn the_sides_are_compared_after_equal_time() {
        let [a, b, c, d] = Orientation::ALL;
        // a had about 17.5 after two units, when b had 30: b leads.
        let unit = EQUAL_TIME_AFTER / 2;
        let (sides, order) = order_after_a_head_start(unit);
        assert_eq!(order, [b, a, c, d]);
        assert_eq!(sides.sides[1].progress_after(2 * unit), (17.5, 0.0));
        assert_eq!(sides.sides[1].progress_after(unit / 2), (5.0, 0.0));
        assert_eq!(sides.sides[1].progress_after(9 * unit), (40.0, 0.0));
        // While the turns are short, a keeps the lead its head start gave it.
        let (_, order) = order_after_a_head_start(MIN_TURN);
        assert_eq!(order, [a, b, c, d]);
    }

    #[test]
    fn a_side_started_anew_is_judged_by_its_new_sweep() {
        let cancel = AtomicBool::new(false);
        let [a, b, c, d] = Orientation::ALL;
        let unit = EQUAL_TIME_AFTER / 2;
        let mut sides = Sides::new(a);
        let last = RefCell::new((0.0, 0.0));
        // How far a and b got in each round: b leads after the second (30 against a's 12.5
        // after two units each); then its sweep is dropped, and in a turn of four units its
        // new sweep counts 3 and finishes less of its tree than the old one had.
        let rounds = [
            (unit, [(10.0, 0.1), (5.0, 0.1)]),
            (4 * unit, [(20.0, 0.2), (30.0, 0.3)]),
            (4 * unit, [(22.0, 0.25), (3.0, 0.05)]),
        ];
        let mut orders = Vec::new();
        for (lead, got) in rounds {
            let sweep = |side, _: Stop| {
                *last.borrow_mut() = match side {
                    s if s == a => got[0],
                    s if s == b => got[1],
                    _ => (0.0, 0.0),
                };
                Err(SweepError::Cancelled)
            };
            let done = sides.round(lead, unit, Stop::from(&cancel), sweep, |_| *last.borrow());
            assert!(done.is_none());
            orders.push(sides.order());
        }
        assert_eq!(orders, [[a, b, c, d], [b, a, c, d], [a, b, c, d]]);
        // After three units, a had 15 and b's new sweep 2.25 (its old one 23.25).
        assert_eq!(sides.sides[1].progress_after(3 * unit).0, 2.25);
    }

    #[test]
    fn a_side_whose_memo_fills_drops_out() {
        let cancel = AtomicBool::new(false);
        let [a, b, c, d] = Orientation::ALL;
        let (result, asked, _) = turns(&cancel, 3, |side, call| match () {
            () if side == d => Answer::Done(Err(SweepError::MemoFull)),
            () if call == 7 => Answer::Done(Ok(7)),
            () => Answer::Deadline((0.0, 0.0)),
        });
        assert_eq!(result, Some(Ok(BigUint::from(7u8))));
        assert_eq!(asked, [c, d, a, b, c, a, b]);
    }

    #[test]
    fn the_sweep_gives_up_when_every_memo_fills() {
        let cancel = AtomicBool::new(false);
        let (result, asked, _) = turns(&cancel, 2, |_, _| Answer::Done(Err(SweepError::MemoFull)));
        assert_eq!(result, Some(Err(SweepError::MemoFull)));
        assert_eq!(asked.len(), 4);
    }

    #[test]
    fn a_stopped_sweep_takes_no_more_turns() {
        let cancel = AtomicBool::new(true);
        let (result, asked, _) = turns(&cancel, 2, |_, _| Answer::Deadline((0.0, 0.0)));
        assert_eq!(result, Some(Err(SweepError::Cancelled)));
        assert_eq!(asked.len(), 1);
    }

    #[test]
    fn the_lead_has_four_times_as_long_and_turns_double_each_round() {
        let cancel = AtomicBool::new(false);
        let given = RefCell::new(Vec::new());
        let result = Sides::new(Orientation::ALL[0]).take_turns(
            Duration::from_secs(4),
            Stop::from(&cancel),
            |_, stop| {
                given.borrow_mut().push(stop.time_left());
                if given.borrow().len() == 9 {
                    Ok(BigUint::ZERO)
                } else {
                    Err(SweepError::Cancelled)
                }
            },
            |_| (0.0, 0.0),
        );
        assert_eq!(result, Ok(BigUint::ZERO));
        let secs: Vec<f64> = given
            .into_inner()
            .iter()
            .map(|t| t.map_or(0.0, |t| t.as_secs_f64()))
            .collect();
        let lead = [4.0, 1.0, 1.0, 1.0];
        for (at, &s) in secs.iter().enumerate() {
            let turn = lead[at % 4] * [1.0, 2.0, 4.0][at / 4];
            assert!(
                turn - 0.1 <= s && s <= turn,
                "turn {at}: {s} s, not {turn} s"
            );
        }
    }
}
