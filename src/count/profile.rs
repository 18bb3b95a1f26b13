//! Counting by dynamic programming over rows: fix the grid one row at a time, top to bottom,
//! and keep, for each distinct *profile* (the class of every column's residual problem, see
//! [`LineDfa`]), how many partial grids lead to it. Equal profiles have equal completions, so
//! partial grids are never enumerated one by one: the number of profiles, not of solutions,
//! bounds the work. Each layer is expanded in parallel into a shared concurrent table.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use dashmap::DashMap;
use rayon::prelude::*;
use rustc_hash::FxBuildHasher;

use num_bigint::BigUint;

use super::CountError;
use super::countable::Countable;
use super::dfa::{Class, DEAD, LineDfa, Successors};
use super::key::{Key, Layout, with_narrowest_key};
use super::stop::Stop;
use super::tally::{Overflow, Tally};

mod aside;
mod cells;
mod orientation;

use aside::drop_aside;
#[cfg(test)]
pub(crate) use cells::count_per_cell_by_profiles;
pub(crate) use cells::count_per_colour_by_profiles;
pub use orientation::Orientation;

/// One layer of the dynamic program: profile -> number of partial grids.
type Layer<K, T> = DashMap<K, T, FxBuildHasher>;

/// Why a profile count did not finish.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ProfileError {
    /// A layer grew past the limit of profiles.
    TooManyProfiles {
        /// The layer (rows fixed so far).
        layer: usize,
        /// Profiles it had when it was abandoned.
        profiles: usize,
        /// The limit it passed: the one asked for, or lower where the profiles' bytes would
        /// pass [`LAYER_BYTES`].
        limit: usize,
    },
    /// A line is too long for the automaton's 16-bit classes, or the lines' automata
    /// together pass [`orientation::AUTOMATA_BYTES`].
    LineTooLong,
    /// The cancel flag was raised.
    Cancelled,
    /// The count outgrew the number type.
    Overflow,
}

impl From<Overflow> for ProfileError {
    fn from(_: Overflow) -> Self {
        ProfileError::Overflow
    }
}

/// How large a layer of the dynamic program may grow before the count gives up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct LayerLimit {
    /// The most profiles a layer may hold, lowered where they would take more than `bytes`
    /// (see [`within_bytes`]).
    pub(crate) profiles: usize,
    /// About the most bytes a layer's profiles may take.
    pub(crate) bytes: usize,
    /// With `Some(g)`, a layer of at least [`GROWTH_FROM`] profiles is also given up when it
    /// holds more than `g` times the profiles of the layer before, or, part way, when it has
    /// found more than [`SURGE`] profiles for each one expanded.
    pub(crate) growth: Option<usize>,
}

impl LayerLimit {
    /// Whether a layer of `after` profiles, following one of `before`, grows past the growth
    /// limit (see [`LayerLimit::growth`]).
    pub(crate) fn outgrown(&self, before: usize, after: usize) -> bool {
        self.growth
            .is_some_and(|g| after >= GROWTH_FROM && after > g.saturating_mul(before))
    }

    /// At most `profiles` a layer, in at most [`LAYER_BYTES`] or as many bytes as that many
    /// narrow profiles take, where that is more; without a growth limit.
    pub(crate) fn at_most(profiles: usize) -> Self {
        LayerLimit {
            profiles,
            bytes: LAYER_BYTES.max(profiles.saturating_mul(NARROW_PROFILE_BYTES)),
            growth: None,
        }
    }
}

/// The fewest profiles a layer holds before its growth is weighed (see
/// [`LayerLimit::growth`]): small layers grow fast at first, and cost nothing.
const GROWTH_FROM: usize = 1 << 14;

/// The most profiles a layer given a growth limit may find, part way, for each profile of the
/// layer before that it has expanded (see [`LayerLimit::growth`]). A profile of a permutation
/// puzzle of n lines has at most n successors, and each successor many predecessors.
const SURGE: usize = 64;

/// Progress after each layer.
#[derive(Clone, Copy, Debug)]
pub(crate) struct LayerProgress {
    /// Lines fixed so far.
    pub done: usize,
    /// Lines to fix in all.
    pub total: usize,
    /// Distinct profiles in the layer just built.
    pub profiles: usize,
}

/// The puzzle seen as lines fixed one per layer (`steps`) whose cells cross the `tracked`
/// lines, each an automaton over its own cells with the grid's known cells folded in; its
/// classes have successors of type `S`, one per cell value.
pub(crate) struct ProfileProblem<S = Class> {
    /// The lines fixed one per layer, in order (the sweep's swept lines).
    pub(super) steps: Vec<LineDfa<S>>,
    /// The lines crossing them.
    pub(super) tracked: Vec<LineDfa<S>>,
    /// The values a cell may take (the background included).
    values: usize,
}

impl<S: Successors> ProfileProblem<S> {
    /// Builds the problem for `grid` (a propagated grid of `puzzle`), walked as `orientation`
    /// says; [`ProfileError::Cancelled`] when `stopped` says so first.
    pub(crate) fn new<P: Countable<Successors = S>>(
        puzzle: &P,
        grid: &P::Grid,
        orientation: Orientation,
        stopped: &dyn Fn() -> bool,
    ) -> Result<Self, ProfileError> {
        let (steps, tracked) = orientation.automata(puzzle, grid, stopped)?;
        Ok(ProfileProblem {
            steps,
            tracked,
            values: puzzle.all_values().count_ones() as usize,
        })
    }

    /// Counts the grids that satisfy every line, giving up when a layer grows past `limit`
    /// or `stop` is raised.
    pub(crate) fn count<T: Tally>(
        &self,
        limit: LayerLimit,
        stop: Stop<'_>,
        progress: impl FnMut(LayerProgress),
    ) -> Result<T, ProfileError> {
        let layout = Layout::new(&self.tracked);
        with_narrowest_key!(&layout, K => {
            self.count_with::<K, T>(&layout, limit, stop, progress)
        })
    }

    fn count_with<K: Key, T: Tally>(
        &self,
        layout: &Layout,
        limit: LayerLimit,
        stop: Stop<'_>,
        mut progress: impl FnMut(LayerProgress),
    ) -> Result<T, ProfileError> {
        let mut start = K::blank(self.tracked.len());
        for (t, line) in self.tracked.iter().enumerate() {
            if line.start() == DEAD {
                return Ok(T::zero());
            }
            start.set(layout, t, line.start());
        }
        if self.steps.iter().any(|s| s.start() == DEAD) {
            return Ok(T::zero());
        }
        let limit = LayerLimit {
            profiles: within_bytes::<K, T>(limit.profiles, self.tracked.len(), limit.bytes),
            ..limit
        };
        let mut layer: Layer<K, T> = DashMap::with_hasher(FxBuildHasher);
        layer.insert(start, T::one());
        for step in 0..self.steps.len() {
            let entries: Vec<(K, T)> = layer.into_iter().collect();
            layer = match self.next_layer(layout, step, &entries, limit, stop) {
                Ok(next) => next,
                Err(e) => {
                    let profiles = entries.len();
                    drop_aside(entries, profiles);
                    return Err(e);
                }
            };
            if limit.outgrown(entries.len(), layer.len()) {
                let (before, profiles) = (entries.len(), layer.len());
                drop_aside((entries, layer), before + profiles);
                return Err(ProfileError::TooManyProfiles {
                    layer: step + 1,
                    profiles,
                    limit: limit.profiles,
                });
            }
            progress(LayerProgress {
                done: step + 1,
                total: self.steps.len(),
                profiles: layer.len(),
            });
            if layer.is_empty() {
                return Ok(T::zero());
            }
        }
        let mut total = T::zero();
        for (_, ways) in layer {
            total.add(&ways)?;
        }
        Ok(total)
    }

    /// Expands every profile of a layer (`entries`, each with its number of partial grids) by
    /// every placement of step line `step`.
    fn next_layer<K: Key, T: Tally>(
        &self,
        layout: &Layout,
        step: usize,
        entries: &[(K, T)],
        limit: LayerLimit,
        stop: Stop<'_>,
    ) -> Result<Layer<K, T>, ProfileError> {
        let next: Layer<K, T> = DashMap::with_capacity_and_hasher(entries.len(), FxBuildHasher);
        let overflow = AtomicBool::new(false);
        let too_many = AtomicBool::new(false);
        let profiles = AtomicUsize::new(0);
        let expanded = AtomicUsize::new(0);
        let max_profiles = limit.profiles;
        // Whether `found` profiles, part way, surge past the growth limit.
        let surging = |found: usize| {
            limit.growth.is_some()
                && found >= GROWTH_FROM
                && found.is_power_of_two()
                && found > SURGE.saturating_mul(expanded.load(Ordering::Relaxed))
        };
        entries.par_iter().for_each_init(
            || Scratch::new(&self.steps[step], self.tracked.len()),
            |scratch, (profile, ways)| {
                if stop.raised()
                    || overflow.load(Ordering::Relaxed)
                    || too_many.load(Ordering::Relaxed)
                {
                    return;
                }
                expanded.fetch_add(1, Ordering::Relaxed);
                let add = |sum: &mut T| {
                    if sum.add(ways).is_err() {
                        overflow.store(true, Ordering::Relaxed);
                    }
                };
                self.expand(layout, step, profile, scratch, |successor: &K, _: &[u8]| {
                    let insert = || {
                        let before = profiles.fetch_add(1, Ordering::Relaxed);
                        if before >= max_profiles || surging(before + 1) {
                            too_many.store(true, Ordering::Relaxed);
                        }
                        ways.clone()
                    };
                    // A packed key costs nothing to copy: one lookup. A boxed one is looked up
                    // first, so that only new profiles allocate.
                    if K::PACKED {
                        next.entry(successor.clone())
                            .and_modify(add)
                            .or_insert_with(insert);
                    } else if let Some(mut sum) = next.get_mut(successor) {
                        add(&mut sum);
                    } else {
                        next.entry(successor.clone())
                            .and_modify(add)
                            .or_insert_with(insert);
                    }
                    // Keep going? A single profile can have astronomically many successors.
                    !(too_many.load(Ordering::Relaxed)
                        || overflow.load(Ordering::Relaxed)
                        || stop.raised())
                });
            },
        );
        let failure = if stop.raised() {
            ProfileError::Cancelled
        } else if overflow.load(Ordering::Relaxed) {
            ProfileError::Overflow
        } else if too_many.load(Ordering::Relaxed) {
            ProfileError::TooManyProfiles {
                layer: step + 1,
                profiles: next.len(),
                limit: max_profiles,
            }
        } else {
            return Ok(next);
        };
        let profiles = next.len();
        drop_aside(next, profiles);
        Err(failure)
    }

    /// Calls `emit` with the profile after each placement of step line `step` that the
    /// tracked lines, in `profile`, allow, and the placement (the value of each cell), until
    /// it returns `false`.
    fn expand<K: Key>(
        &self,
        layout: &Layout,
        step: usize,
        profile: &K,
        scratch: &mut Scratch<K, S>,
        mut emit: impl FnMut(&K, &[u8]) -> bool,
    ) {
        let line = &self.steps[step];
        let width = self.tracked.len();
        // The crossing tracked lines' classes in this step.
        for (t, crossing) in scratch.crossing.iter_mut().enumerate() {
            crossing.clone_from(self.tracked[t].class(step, profile.get(layout, t)));
        }
        // alive[pos][c]: from class c before cell pos, the step line can be completed.
        scratch.alive[width].clear();
        scratch.alive[width].push(true);
        for pos in (0..width).rev() {
            let (before, after) = scratch.alive.split_at_mut(pos + 1);
            let (here, later) = (&mut before[pos], &after[0]);
            here.clear();
            let crossing = &scratch.crossing[pos];
            here.extend((0..line.width_at(pos)).map(|c| {
                let class = line.class(pos, c as u16);
                let ok =
                    |to: u16, across: u16| to != DEAD && across != DEAD && later[usize::from(to)];
                (0..crossing.values()).any(|v| ok(class.after(v), crossing.after(v)))
            }));
        }
        if !scratch.alive[0][usize::from(line.start())] {
            return;
        }
        let mut successor = profile.clone();
        let mut placement = std::mem::take(&mut scratch.placement);
        placement.resize(width, 0);
        let _ = self.place(
            layout,
            step,
            scratch,
            0,
            line.start(),
            (&mut successor, &mut placement),
            &mut emit,
        );
        scratch.placement = placement;
    }

    /// Depth-first over the cells of the step line from `pos`, in step-line class `class`,
    /// building the successor profile and the placement.
    #[allow(
        clippy::too_many_arguments,
        reason = "the recursion's state, kept flat"
    )]
    fn place<K: Key>(
        &self,
        layout: &Layout,
        step: usize,
        scratch: &Scratch<K, S>,
        pos: usize,
        class: u16,
        (successor, placement): (&mut K, &mut [u8]),
        emit: &mut impl FnMut(&K, &[u8]) -> bool,
    ) -> bool {
        if pos == self.tracked.len() {
            return emit(successor, placement);
        }
        let here = self.steps[step].class(pos, class);
        let crossing = &scratch.crossing[pos];
        for value in 0..crossing.values() {
            let to = here.after(value);
            let across = crossing.after(value);
            if to == DEAD || across == DEAD || !scratch.alive[pos + 1][usize::from(to)] {
                continue;
            }
            successor.set(layout, pos, across);
            placement[pos] = value as u8;
            if !self.place(
                layout,
                step,
                scratch,
                pos + 1,
                to,
                (&mut *successor, &mut *placement),
                emit,
            ) {
                return false;
            }
        }
        true
    }
}

/// Counts the completions of `root` (a probed grid of `puzzle`) by profiles walked as
/// `orientation` says, its layers within `limit`, until `stop` is raised. Returns the count
/// and the widest layer.
pub(crate) fn count_by_profiles<P: Countable>(
    puzzle: &P,
    root: &P::Grid,
    orientation: Orientation,
    limit: LayerLimit,
    stop: Stop<'_>,
    mut progress: impl FnMut(LayerProgress),
) -> Result<(BigUint, usize), CountError> {
    let stopped = || stop.raised();
    let problem = ProfileProblem::new(puzzle, root, orientation, &stopped)
        .map_err(CountError::from_building)?;
    let mut widest = 1;
    let mut track = |p: LayerProgress| {
        widest = widest.max(p.profiles);
        progress(p);
    };
    let result = match problem.count::<u128>(limit, stop, &mut track) {
        Err(ProfileError::Overflow) => problem.count::<BigUint>(limit, stop, &mut track),
        other => other.map(|n| n.to_big()),
    };
    let count = result.map_err(ProfileError::into_count_error)?;
    Ok((count, widest))
}

/// The most bytes the profiles of one layer may take; the layer it grows from is kept beside
/// it. A profile holds a class for each crossing line: a layer of a random picture at the
/// default limit takes some 10 MB, but on a grid 2,000 cells wide a profile took 4 KB, and
/// the layers of a count of a 2000x2000 permutation puzzle took a gigabyte before they gave up.
pub(crate) const LAYER_BYTES: usize = 256 << 20;

/// A profile's bytes besides its key and tally: the hash table's slot and a boxed key's
/// allocation.
const PROFILE_OVERHEAD: usize = 24;

/// What a profile of a grid a few dozen cells wide takes, about, with its slot: a limit of
/// profiles asked for above the default may take that many of these bytes.
pub(super) const NARROW_PROFILE_BYTES: usize = 128;

/// `max_profiles`, lowered where that many profiles of `tracked` crossing lines, in keys `K`
/// with tallies `T`, would take more than `bytes`; at least one profile.
pub(super) fn within_bytes<K: Key, T>(max_profiles: usize, tracked: usize, bytes: usize) -> usize {
    let boxed = if K::PACKED {
        0
    } else {
        tracked * size_of::<u16>()
    };
    let each = size_of::<(K, T)>() + boxed + PROFILE_OVERHEAD;
    max_profiles.min(bytes / each).max(1)
}

impl ProfileError {
    /// The error of a count by profiles (an overflow, of a count already in big integers,
    /// cannot happen).
    pub(super) fn into_count_error(self) -> CountError {
        match self {
            ProfileError::TooManyProfiles { limit, .. } => CountError::TooManyProfiles { limit },
            ProfileError::LineTooLong => CountError::LineTooLong,
            ProfileError::Cancelled | ProfileError::Overflow => CountError::Cancelled,
        }
    }
}

/// Per-thread buffers for expanding profiles.
struct Scratch<K, S> {
    /// The class of each crossing tracked line in the step being fixed.
    crossing: Vec<S>,
    alive: Vec<Vec<bool>>,
    /// The value of each cell of the step line in the placement being built.
    placement: Vec<u8>,
    _key: std::marker::PhantomData<K>,
}

impl<K, S: Successors> Scratch<K, S> {
    fn new(step: &LineDfa<S>, tracked: usize) -> Self {
        // Any class of the step line: its values are every line's.
        let dead = S::from_fn(step.class(step.len(), 0).values(), |_| DEAD);
        Scratch {
            crossing: vec![dead; tracked],
            alive: vec![Vec::new(); step.len() + 1],
            placement: Vec::new(),
            _key: std::marker::PhantomData,
        }
    }
}
