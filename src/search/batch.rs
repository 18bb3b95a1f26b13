//! Solutions written as bytes on the search's own threads, and handed to the collector in
//! batches ([`Solver::run_batched`](super::Solver::run_batched)).
//!
//! Each worker keeps a buffer (a *slot*) of the solutions it found, written by the caller's
//! [`SolutionWriter`], and sends it to the collector as one `Batch` when it holds
//! [`BATCH_BYTES`] (or [`BATCH_SOLUTIONS`] solutions), when the worker's stolen task ends, when
//! the search ends, or when the collector's clock has ticked since its oldest solution (so a
//! slow search still shows its solutions within a fraction of a second). The collector then
//! only writes bytes and counts: formatting runs on every worker at once. When the solutions
//! written reach the run's limit, every slot goes at once: the collector can stop the search
//! without waiting for its clock (a first solution would otherwise wait up to a tick).
//!
//! The ordered search shares one slot between its workers: its solutions enter it in their
//! turn (the ordered search hands them over one after the other, in the sequential order, those
//! found ahead of their turn already written), and the slot goes to the collector under its
//! lock, so batches arrive in order too.
//!
//! A batch records where each solution ends, so that the collector can cut it after exactly
//! as many solutions as a limit allows: what it passes on is always whole solutions.

use std::collections::HashSet;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, RecvTimeoutError, Sender};

use super::Flow;

/// What the collector did.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Collected {
    /// Solutions it took.
    pub(super) received: u64,
    /// It stopped the search (a limit, or [`Flow::Stop`]).
    pub(super) stopped: bool,
}

/// Writes each solution as bytes, on the thread that found it (see the module documentation).
///
/// A closure `Fn(&G, &mut Vec<u8>) + Sync` is a writer with no separator.
pub trait SolutionWriter<G>: Sync {
    /// Appends the bytes of `grid` to `out`.
    fn write(&self, grid: &G, out: &mut Vec<u8>);

    /// Bytes written between two consecutive solutions (not before the first one, nor after
    /// the last), such as the blank line between text grids. None by default.
    fn separator(&self) -> &[u8] {
        &[]
    }
}

impl<G, F: Fn(&G, &mut Vec<u8>) + Sync> SolutionWriter<G> for F {
    fn write(&self, grid: &G, out: &mut Vec<u8>) {
        self(grid, out);
    }
}

/// A batch goes to the collector once it holds this many bytes.
pub(crate) const BATCH_BYTES: usize = 64 << 10;

/// A batch goes to the collector once it holds this many solutions, however few bytes (a
/// writer that writes nothing, to count).
pub(crate) const BATCH_SOLUTIONS: usize = 4096;

/// Solutions written by one thread, each after the separator, in the order written.
#[derive(Debug, Default)]
pub(crate) struct Batch {
    bytes: Vec<u8>,
    /// Where each solution ends in `bytes`.
    ends: Vec<usize>,
}

impl Batch {
    /// The bytes of the first `take` solutions (at most all of them), without the separator
    /// before the first when `first` (the run's first solution), and how many that is.
    pub(crate) fn prefix(&self, take: u64, sep: usize, first: bool) -> (&[u8], u64) {
        let n = self
            .ends
            .len()
            .min(usize::try_from(take).unwrap_or(usize::MAX));
        let end = match n {
            0 => 0,
            n if n == self.ends.len() => self.bytes.len(),
            n => self.ends[n - 1],
        };
        let start = if first && n > 0 { sep.min(end) } else { 0 };
        (&self.bytes[start..end], n as u64)
    }

    fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// The solutions it holds.
    pub(crate) fn len(&self) -> usize {
        self.ends.len()
    }

    /// The bytes it holds.
    pub(crate) fn bytes_len(&self) -> usize {
        self.bytes.len()
    }

    /// Appends the solutions of `other` after its own.
    pub(crate) fn append(&mut self, other: &Batch) {
        let base = self.bytes.len();
        self.bytes.extend_from_slice(&other.bytes);
        self.ends.extend(other.ends.iter().map(|end| end + base));
    }
}

/// A value alone on its cache lines: threads that write it do not slow those that read what
/// lies beside it.
#[repr(align(128))]
#[derive(Debug)]
struct Alone<T>(T);

/// A worker's buffer, alone on its cache line.
#[repr(align(128))]
#[derive(Debug)]
struct Slot {
    batch: Mutex<Batch>,
    /// The collector's tick when the oldest solution in `batch` was written; `u64::MAX` when
    /// `batch` is empty. Only read to decide whether to send early, by every node of the
    /// ordered search's threads, which share a slot: apart from the lock they write.
    since: Alone<AtomicU64>,
}

impl Slot {
    fn new() -> Self {
        Slot {
            batch: Mutex::default(),
            since: Alone(AtomicU64::new(u64::MAX)),
        }
    }

    fn lock(&self) -> MutexGuard<'_, Batch> {
        // A writer that panicked leaves whole solutions behind it at worst a torn last one,
        // which `ends` does not count; the panic itself is re-raised when the search is joined.
        self.batch.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Sends what the slot holds, if anything; `false` when the collector has gone.
    fn send(&self, batch: &mut Batch, tx: &Sender<Batch>) -> bool {
        if batch.is_empty() {
            return true;
        }
        self.since.0.store(u64::MAX, Ordering::Relaxed);
        let full = std::mem::replace(
            batch,
            Batch {
                bytes: Vec::with_capacity(BATCH_BYTES + BATCH_BYTES / 4),
                ends: Vec::new(),
            },
        );
        tx.send(full).is_ok()
    }
}

/// Slots before the pool's: one for the search when it runs outside a pool (one thread), one
/// for the learning search.
pub(crate) const LANES: usize = 2;
/// The lane of the probing search.
pub(crate) const PROBE_LANE: usize = 0;
/// The lane of the learning search.
pub(crate) const LEARN_LANE: usize = 1;

/// The slots of one search, and how solutions are written into them.
pub(crate) struct Batcher<'w, G> {
    writer: &'w dyn SolutionWriter<G>,
    /// [`LANES`] slots, then one per pool thread (or the one shared slot).
    slots: Box<[Slot]>,
    /// Every thread writes into the first slot (the ordered search).
    shared: bool,
    /// Keys of the solutions written, when two searches race and may both find one.
    reported: Option<Mutex<HashSet<Box<[u64]>>>>,
    /// The collector's clock (see [`Batcher::tick`]).
    tick: AtomicU64,
    /// The solutions the run asks for at most (`u64::MAX` for all of them).
    limit: u64,
    /// The solutions written so far, in every slot; apart from `tick`, which every node reads.
    written: Alone<AtomicU64>,
}

impl<'w, G: crate::domain::DomainGrid> Batcher<'w, G> {
    /// Slots for a search on `pool` threads; `shared` for the ordered search, `racing` when
    /// a solution may be found twice; `limit` the solutions the collector takes at most.
    pub(crate) fn new(
        writer: &'w dyn SolutionWriter<G>,
        pool: usize,
        shared: bool,
        racing: bool,
        limit: Option<u64>,
    ) -> Self {
        let count = if shared { 1 } else { LANES + pool };
        Batcher {
            writer,
            slots: (0..count).map(|_| Slot::new()).collect(),
            shared,
            reported: racing.then(Mutex::default),
            tick: AtomicU64::new(0),
            limit: limit.unwrap_or(u64::MAX),
            written: Alone(AtomicU64::new(0)),
        }
    }

    /// The separator the writer puts between solutions.
    pub(crate) fn separator(&self) -> &[u8] {
        self.writer.separator()
    }

    /// This thread's slot: its pool thread's, or its lane's outside a pool.
    fn slot(&self, lane: usize) -> &Slot {
        if self.shared {
            return &self.slots[0];
        }
        let index = rayon::current_thread_index().map_or(lane, |i| LANES + i);
        self.slots.get(index).unwrap_or(&self.slots[lane])
    }

    /// Writes `grid` into this thread's slot, sending the slot when full, and every slot when
    /// the solutions written reach the limit. `false` when the collector has gone.
    pub(crate) fn put(&self, grid: &G, lane: usize, tx: &Sender<Batch>) -> bool {
        if let Some(reported) = &self.reported {
            let mut seen = reported.lock().unwrap_or_else(PoisonError::into_inner);
            if !seen.insert(grid.key()) {
                return true;
            }
        }
        let slot = self.slot(lane);
        let mut batch = slot.lock();
        self.mark_oldest(slot, &batch);
        self.write_into(grid, &mut batch);
        self.added(slot, batch, 1, tx)
    }

    /// Writes `grid` at the end of `batch`, after the separator: the ordered search holds
    /// solutions written ahead of their turn this way, on the thread that found them.
    pub(crate) fn write_into(&self, grid: &G, batch: &mut Batch) {
        batch.bytes.extend_from_slice(self.writer.separator());
        self.writer.write(grid, &mut batch.bytes);
        batch.ends.push(batch.bytes.len());
    }

    /// Puts solutions written by [`Batcher::write_into`] into this thread's slot, as
    /// [`Batcher::put`] puts one; a batch that would fill the slot goes to the collector as it
    /// is, after the slot, without a copy. Only the ordered search holds solutions back, and it
    /// never races another search, so none of them can have been reported already.
    pub(crate) fn put_written(&self, written: Batch, lane: usize, tx: &Sender<Batch>) -> bool {
        debug_assert!(
            self.reported.is_none(),
            "a racing search holds nothing back"
        );
        let slot = self.slot(lane);
        let mut batch = slot.lock();
        let added = written.len() as u64;
        if batch.bytes.len() + written.bytes.len() < BATCH_BYTES {
            self.mark_oldest(slot, &batch);
            batch.append(&written);
            return self.added(slot, batch, added, tx);
        }
        // Both under the slot's lock, so that no other solution comes between them.
        let sent = slot.send(&mut batch, tx) && tx.send(written).is_ok();
        drop(batch);
        let enough = self.written.0.fetch_add(added, Ordering::Relaxed) + added >= self.limit;
        sent && (!enough || self.flush_all(tx))
    }

    /// Notes the collector's tick when an empty slot takes its first solution.
    fn mark_oldest(&self, slot: &Slot, batch: &Batch) {
        if batch.is_empty() {
            slot.since
                .0
                .store(self.tick.load(Ordering::Relaxed), Ordering::Relaxed);
        }
    }

    /// Sends the slot whose `batch` just took `added` solutions when it is full, and every
    /// slot once the solutions written reach the limit.
    fn added(
        &self,
        slot: &Slot,
        mut batch: MutexGuard<'_, Batch>,
        added: u64,
        tx: &Sender<Batch>,
    ) -> bool {
        let enough = self.written.0.fetch_add(added, Ordering::Relaxed) + added >= self.limit;
        if enough {
            // Another thread may hold some of the solutions the collector waits for.
            let sent = slot.send(&mut batch, tx);
            drop(batch);
            return sent && self.flush_all(tx);
        }
        if batch.bytes.len() >= BATCH_BYTES || batch.ends.len() >= BATCH_SOLUTIONS {
            return slot.send(&mut batch, tx);
        }
        true
    }

    /// Sends this thread's slot if the collector's clock has ticked since its oldest
    /// solution. Cheap when not: two relaxed loads.
    pub(crate) fn poll(&self, lane: usize, tx: &Sender<Batch>) -> bool {
        let slot = self.slot(lane);
        if slot.since.0.load(Ordering::Relaxed) >= self.tick.load(Ordering::Relaxed) {
            return true;
        }
        slot.send(&mut slot.lock(), tx)
    }

    /// Sends this thread's slot (its task ended: another thread may be next to find
    /// solutions, and this one may go idle).
    pub(crate) fn flush(&self, lane: usize, tx: &Sender<Batch>) -> bool {
        if self.shared {
            return true;
        }
        let slot = self.slot(lane);
        slot.send(&mut slot.lock(), tx)
    }

    /// Sends every slot (the search, or one of the racing searches, has ended, or the limit
    /// is reached); `false` when the collector has gone.
    pub(crate) fn flush_all(&self, tx: &Sender<Batch>) -> bool {
        self.slots
            .iter()
            .all(|slot| slot.send(&mut slot.lock(), tx))
    }

    /// Advances the collector's clock: slots holding solutions from before now are sent at
    /// their thread's next node.
    pub(crate) fn tick(&self) {
        let _ = self.tick.fetch_add(1, Ordering::Relaxed);
    }
}

/// How often the collector has workers hand over what they hold (see [`Batcher::tick`]).
const TICK: Duration = Duration::from_millis(100);

/// The collector: takes batches from `rx` until every sender has gone, `limit` solutions
/// were taken (the last batch cut after exactly as many), or `on_bytes` says stop. Passes on
/// whole solutions only, dropping the separator before the first one (`separator` bytes).
/// Calls `tick` every [`TICK`].
pub(super) fn collect(
    rx: Receiver<Batch>,
    separator: usize,
    limit: Option<u64>,
    tick: impl Fn(),
    mut on_bytes: impl FnMut(&[u8], u64) -> Flow,
) -> Collected {
    let mut collected = Collected::default();
    let mut last_tick = Instant::now();
    loop {
        let batch = match rx.recv_timeout(TICK) {
            Ok(batch) => Some(batch),
            Err(RecvTimeoutError::Timeout) => None,
            Err(RecvTimeoutError::Disconnected) => break,
        };
        if last_tick.elapsed() >= TICK {
            tick();
            last_tick = Instant::now();
        }
        let Some(batch) = batch else { continue };
        let left = limit.map_or(u64::MAX, |n| n - collected.received);
        let first = collected.received == 0;
        let (bytes, solutions) = batch.prefix(left, separator, first);
        collected.received += solutions;
        if on_bytes(bytes, solutions) == Flow::Stop || limit == Some(collected.received) {
            collected.stopped = true;
            break;
        }
    }
    collected
}

#[cfg(test)]
mod tests {
    use super::Batch;

    fn batch(solutions: &[&str], sep: &str) -> Batch {
        let mut b = Batch::default();
        for s in solutions {
            b.bytes.extend_from_slice(sep.as_bytes());
            b.bytes.extend_from_slice(s.as_bytes());
            b.ends.push(b.bytes.len());
        }
        b
    }

    #[test]
    fn a_prefix_is_whole_solutions() {
        let b = batch(&["ab\n", "cd\n", "ef\n"], "\n");
        let text = |take, first| {
            let (bytes, n) = b.prefix(take, 1, first);
            (String::from_utf8(bytes.to_vec()).expect("UTF-8"), n)
        };
        assert_eq!(text(u64::MAX, true), ("ab\n\ncd\n\nef\n".into(), 3));
        assert_eq!(text(3, false), ("\nab\n\ncd\n\nef\n".into(), 3));
        assert_eq!(text(2, true), ("ab\n\ncd\n".into(), 2));
        assert_eq!(text(1, false), ("\nab\n".into(), 1));
        assert_eq!(text(0, true), (String::new(), 0));
    }

    #[test]
    fn every_slot_goes_once_the_limit_is_written() {
        use super::{Batcher, LEARN_LANE, PROBE_LANE};
        use crate::grid::Grid;
        let writer = |_: &Grid, out: &mut Vec<u8>| out.push(b'#');
        let batcher = Batcher::new(&writer, 0, false, false, Some(3));
        let (tx, rx) = crossbeam_channel::unbounded();
        let grid = Grid::new(2, 2);
        assert!(batcher.put(&grid, PROBE_LANE, &tx));
        assert!(batcher.put(&grid, LEARN_LANE, &tx));
        assert!(rx.try_recv().is_err(), "held until the limit or a tick");
        assert!(batcher.put(&grid, PROBE_LANE, &tx));
        let sent: Vec<usize> = rx.try_iter().map(|b| b.ends.len()).collect();
        assert_eq!(sent.iter().sum::<usize>(), 3, "both lanes sent: {sent:?}");
        // Without a limit, solutions wait for a full batch, a tick or the end.
        let unlimited = Batcher::new(&writer, 0, false, false, None);
        assert!(unlimited.put(&grid, PROBE_LANE, &tx));
        assert!(rx.try_recv().is_err());
    }

    /// The collector's own ceiling: producers on every other core hand it ready batches of
    /// text (157 bytes a solution, a 12x12 grid) or compact lines (25 bytes), as fast as they
    /// can copy them, and it writes them to `/dev/null` and to a file. Run with
    /// `cargo test --release --lib -- --ignored --nocapture collector_ceiling`.
    #[test]
    #[ignore = "a measurement, not a check"]
    fn collector_ceiling() {
        use std::io::Write;
        use std::time::Instant;

        let producers = std::thread::available_parallelism()
            .map_or(1, |n| n.get())
            .saturating_sub(1)
            .max(1);
        let file = std::env::temp_dir().join("nonoenum-collector-ceiling");
        for (what, size) in [("text", 157), ("compact", 25)] {
            let solution = vec![b'#'; size];
            let per_batch = super::BATCH_BYTES.div_ceil(size);
            for target in ["/dev/null", file.to_str().expect("UTF-8 path")] {
                let batches_each = (4usize << 30) / super::BATCH_BYTES / producers;
                let (tx, rx) = crossbeam_channel::bounded(64);
                let start = Instant::now();
                let collected = std::thread::scope(|scope| {
                    for _ in 0..producers {
                        let (tx, solution) = (tx.clone(), &solution);
                        let _ = scope.spawn(move || {
                            for _ in 0..batches_each {
                                let mut b = Batch::default();
                                b.bytes.reserve(per_batch * size);
                                for _ in 0..per_batch {
                                    b.bytes.extend_from_slice(solution);
                                    b.ends.push(b.bytes.len());
                                }
                                if tx.send(b).is_err() {
                                    return;
                                }
                            }
                        });
                    }
                    drop(tx);
                    let out = std::fs::File::create(target).expect("opens");
                    let mut out = std::io::BufWriter::new(out);
                    let collected = super::collect(
                        rx,
                        0,
                        None,
                        || {},
                        |bytes, _| {
                            out.write_all(bytes).expect("writes");
                            super::Flow::Continue
                        },
                    );
                    out.flush().expect("flushes");
                    collected
                });
                let secs = start.elapsed().as_secs_f64();
                let bytes = collected.received as f64 * size as f64;
                println!(
                    "collector ceiling, {what} ({size} B a solution) to {target}, {producers} producer(s): {:.1} M solutions/s, {:.0} MB/s ({} solutions in {secs:.2} s)",
                    collected.received as f64 / secs / 1e6,
                    bytes / secs / 1e6,
                    collected.received
                );
            }
        }
        let _ = std::fs::remove_file(file);
    }
}
