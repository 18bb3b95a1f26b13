//! Learned clauses passed between learning searches that race on the same puzzle: each one
//! offers its short clauses to an exchange, and takes the others' at its restarts.
//!
//! A learned clause follows from the clues, so every search may use it. A clause learned after
//! a search has blocked a solution may follow from that blocking clause instead, which the
//! other searches do not have: a search stops offering clauses once it blocks one.

use std::sync::Mutex;

use super::lit::Lit;

/// The longest clause a search offers (whatever its literal block distance).
const SHARED_LEN: usize = 8;
/// The highest literal block distance of a clause a search offers (whatever its length).
const SHARED_LBD: u32 = 3;
/// The conflicts after which a search other than the first starts taking clauses (those
/// offered before are passed over). The first search of a race starts at once, from cell
/// order; the second starts later, in another order, so that the two take different paths, and
/// the faster wins. Taking the first one's clauses from the start draws the second onto its
/// path: on 300 tournament puzzles that take 10 to 250 ms, the two learned from 15% to 25%
/// more conflicts in all than without sharing, while 122 that take longer learned from 38%
/// fewer. From 3,000 conflicts on: 2% more, and 30% fewer.
const QUIET_CONFLICTS: u64 = 3000;
/// The most words the exchange holds. An offer that would pass it first drops the oldest
/// clauses, half the words held: a search that has not read them by then passes them over,
/// and the others go on sharing what they learn now. Sixteen megabytes: hundreds of thousands
/// of short clauses. A bound that refused offers instead was full after about 70 s of two
/// learners on Knotty (before 50 s of sixteen), which shared nothing from then on.
const CAPACITY: usize = 1 << 22;

/// The clauses offered so far by the searches of one run, one after another in one list of
/// words: the offering search, the literal block distance, the length, then the literals.
/// Positions in it count every word ever offered, so they stay valid when the oldest go.
#[derive(Debug)]
pub(crate) struct ClauseExchange {
    window: Mutex<Window>,
    /// The most words the window holds.
    capacity: usize,
}

/// The newest clauses offered, and the position of the first of them.
#[derive(Debug, Default)]
struct Window {
    words: Vec<u32>,
    /// Words dropped from the front so far: the position of `words[0]`.
    start: usize,
}

impl Default for ClauseExchange {
    fn default() -> Self {
        Self::with_capacity(CAPACITY)
    }
}

impl ClauseExchange {
    /// An empty exchange.
    pub(crate) fn new() -> Self {
        Self::default()
    }

    /// An empty exchange holding at most `capacity` words.
    fn with_capacity(capacity: usize) -> Self {
        ClauseExchange {
            window: Mutex::new(Window::default()),
            capacity,
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Window> {
        self.window
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Appends `offered` (clauses in the exchange's layout), first dropping the oldest
    /// clauses if the window would overflow; an offer larger than half the window is dropped.
    fn append(&self, offered: &[u32]) {
        if offered.len() > self.capacity / 2 {
            return;
        }
        let mut window = self.lock();
        if window.words.len() + offered.len() > self.capacity {
            // Cut at the first clause that starts in the newer half.
            let half = window.words.len() / 2;
            let mut cut = 0;
            while cut < half {
                cut += 3 + window.words[cut + 2] as usize;
            }
            let _ = window.words.drain(..cut);
            window.start += cut;
        }
        window.words.extend_from_slice(offered);
    }

    /// Appends to `out` the words from position `from` on (from the oldest held, if those
    /// before it have gone); returns the position where the list ends now.
    fn read_from(&self, from: usize, out: &mut Vec<u32>) -> usize {
        let window = self.lock();
        let skip = from.saturating_sub(window.start);
        out.extend_from_slice(&window.words[skip..]);
        window.start + window.words.len()
    }
}

/// One search's seat at an exchange.
#[derive(Debug)]
pub(super) struct Sharing<'x> {
    exchange: &'x ClauseExchange,
    /// The search's number among those sharing the exchange.
    id: u32,
    /// Words of the exchange read so far.
    read: usize,
    /// Clauses offered since the last visit to the exchange.
    outbox: Vec<u32>,
    /// `false` once the search has blocked a solution.
    offering: bool,
    /// Words read at the last visit (kept to save allocations).
    inbox: Vec<u32>,
}

impl<'x> Sharing<'x> {
    /// Search number `id`'s seat at `exchange`.
    pub(super) fn new(exchange: &'x ClauseExchange, id: u32) -> Self {
        Sharing {
            exchange,
            id,
            read: 0,
            outbox: Vec::new(),
            offering: true,
            inbox: Vec::new(),
        }
    }

    /// Offers a clause just learned, if it is short enough to be worth sharing.
    pub(super) fn offer(&mut self, lits: &[Lit], lbd: u32) {
        if self.offering && (lits.len() <= SHARED_LEN || lbd <= SHARED_LBD) {
            self.outbox
                .extend_from_slice(&[self.id, lbd, lits.len() as u32]);
            self.outbox.extend_from_slice(lits);
        }
    }

    /// Stops offering clauses: the search has blocked a solution, so what it learns next may
    /// hold only for its own search.
    pub(super) fn stop_offering(&mut self) {
        self.offering = false;
    }

    /// Hands over the clauses offered since the last visit and calls `take` with each clause
    /// that another search offered since then, and its literal block distance; a search other
    /// than the first passes them over until it has met [`QUIET_CONFLICTS`] `conflicts`.
    pub(super) fn visit(&mut self, conflicts: u64, mut take: impl FnMut(&[Lit], u32)) {
        let taking = self.id == 0 || conflicts >= QUIET_CONFLICTS;
        if !self.outbox.is_empty() {
            self.exchange.append(&self.outbox);
            self.outbox.clear();
        }
        let mut inbox = std::mem::take(&mut self.inbox);
        inbox.clear();
        self.read = self.exchange.read_from(self.read, &mut inbox);
        let mut at = 0;
        while at < inbox.len() {
            let (from, lbd, len) = (inbox[at], inbox[at + 1], inbox[at + 2] as usize);
            let lits = &inbox[at + 3..at + 3 + len];
            if from != self.id && taking {
                take(lits, lbd);
            }
            at += 3 + len;
        }
        self.inbox = inbox;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What `sharing` takes in a visit after `conflicts` conflicts.
    fn taken(sharing: &mut Sharing<'_>, conflicts: u64) -> Vec<(Vec<Lit>, u32)> {
        let mut taken = Vec::new();
        sharing.visit(conflicts, |lits, lbd| taken.push((lits.to_vec(), lbd)));
        taken
    }

    #[test]
    fn a_search_takes_the_short_clauses_of_the_others_once() {
        let exchange = ClauseExchange::new();
        let (mut first, mut second) = (Sharing::new(&exchange, 0), Sharing::new(&exchange, 1));
        first.offer(&[2, 5], 2);
        first.offer(&(0..40).collect::<Vec<_>>(), 20);
        assert!(taken(&mut first, 0).is_empty(), "only its own were offered");
        second.offer(&[7], 1);
        assert_eq!(taken(&mut second, QUIET_CONFLICTS), vec![(vec![2, 5], 2)]);
        assert!(
            taken(&mut second, QUIET_CONFLICTS).is_empty(),
            "each is taken once"
        );
        assert_eq!(taken(&mut first, 0), vec![(vec![7], 1)]);
    }

    #[test]
    fn a_full_exchange_drops_its_oldest_clauses_and_goes_on_sharing() {
        // Twenty words: three clauses of 6, 5 and 5 words fill 16 of them.
        let exchange = ClauseExchange::with_capacity(20);
        let (mut first, mut second) = (Sharing::new(&exchange, 0), Sharing::new(&exchange, 1));
        for clause in [&[1, 2, 3][..], &[4, 5], &[6, 7]] {
            first.offer(clause, 2);
            let _ = taken(&mut first, 0);
        }
        // Five more words overflow it: the clauses in its older half go, whole.
        first.offer(&[8, 9], 3);
        let _ = taken(&mut first, 0);
        assert_eq!(
            taken(&mut second, QUIET_CONFLICTS),
            vec![(vec![6, 7], 2), (vec![8, 9], 3)]
        );
        // A search that has read everything loses nothing when the oldest go.
        first.offer(&[10, 11, 12, 13], 2);
        let _ = taken(&mut first, 0);
        first.offer(&[14, 15], 2);
        let _ = taken(&mut first, 0);
        assert_eq!(
            taken(&mut second, QUIET_CONFLICTS),
            vec![(vec![10, 11, 12, 13], 2), (vec![14, 15], 2)]
        );
        // An offer of more than half the window is dropped.
        first.offer(&[16, 17, 18, 19, 20, 21, 22, 23], 2);
        let _ = taken(&mut first, 0);
        assert!(taken(&mut second, QUIET_CONFLICTS).is_empty());
    }

    #[test]
    fn a_search_that_blocked_a_solution_offers_nothing_more() {
        let exchange = ClauseExchange::new();
        let mut first = Sharing::new(&exchange, 0);
        first.offer(&[2, 5], 2);
        first.stop_offering();
        first.offer(&[4, 9], 2);
        let _ = taken(&mut first, 0);
        let mut second = Sharing::new(&exchange, 1);
        assert_eq!(taken(&mut second, QUIET_CONFLICTS), vec![(vec![2, 5], 2)]);
    }

    #[test]
    fn the_second_search_passes_over_what_was_offered_in_its_first_conflicts() {
        let exchange = ClauseExchange::new();
        let (mut first, mut second) = (Sharing::new(&exchange, 0), Sharing::new(&exchange, 1));
        first.offer(&[2, 5], 2);
        let _ = taken(&mut first, 0);
        assert!(
            taken(&mut second, QUIET_CONFLICTS - 1).is_empty(),
            "taken too early"
        );
        first.offer(&[4, 9], 2);
        let _ = taken(&mut first, 0);
        assert_eq!(taken(&mut second, QUIET_CONFLICTS), vec![(vec![4, 9], 2)]);
    }
}
