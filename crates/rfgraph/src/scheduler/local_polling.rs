//! Which blocks a polling thread (`single`, each core of `chain`) may
//! look at without a fence: [`mark_local_polling`].

use crate::runner::BlockRunner;

/// Marks which stream edges join blocks polled by one thread (see
/// [`BlockRunner::mark_same_thread_peers`]) and lets a block skip its
/// look's fence ([`Signal::set_polled_locally`]) only when every wake-up a
/// peer can send it comes from its own thread: its stream peers run there,
/// and so does every reader that frees its memory in place (the last
/// reader of an in-place chain wakes the chain's first writer directly; a
/// fence-free look could lose that wake-up, and the writer would wait for
/// ever). `same_thread(a, b)`: blocks `a` and `b` (flowgraph indices) are
/// polled by one thread. `freed_elsewhere`: blocks whose memory readers
/// not among `runners` free in place (blocks on threads of their own, see
/// [`OwnThreads::frees_space_of`]).
///
/// [`Signal::set_polled_locally`]: crate::signal::Signal::set_polled_locally
/// [`OwnThreads::frees_space_of`]: super::thread::OwnThreads::frees_space_of
pub(crate) fn mark_local_polling(
    runners: &mut [BlockRunner],
    freed_elsewhere: &[usize],
    same_thread: impl Fn(usize, usize) -> bool,
) {
    let mut freed_from_afar: std::collections::HashSet<usize> =
        freed_elsewhere.iter().copied().collect();
    let mut all_local = Vec::with_capacity(runners.len());
    for r in runners.iter_mut() {
        let me = r.index();
        all_local.push(r.mark_same_thread_peers(|peer| same_thread(me, peer)));
        freed_from_afar.extend(r.space_roots().filter(|&root| !same_thread(me, root)));
    }
    for (r, all_local) in runners.iter().zip(all_local) {
        r.signal()
            .set_polled_locally(all_local && !freed_from_afar.contains(&r.index()));
    }
}

#[cfg(test)]
mod tests {
    use super::mark_local_polling;
    use crate::test_blocks::{Sink, Source};
    use crate::{Flowgraph, Map};

    /// src → map (in place) → {sink A, sink B}: the map's readers free the
    /// source's memory. With sink B on another thread, the source hears
    /// from that thread and must keep its fence, though its only stream
    /// peer (the map) is local; with every block on one thread, it may
    /// skip it.
    #[test]
    fn a_writer_whose_memory_is_freed_from_another_thread_keeps_its_fence() {
        let mut fg = Flowgraph::new();
        let src = fg.add(Source::new(0));
        let map = fg.add(Map::new(|x: f32| x + 1.0));
        let a = fg.add(Sink::new(false));
        let b = fg.add(Sink::new(false));
        fg.chain(&[src, map, a]).unwrap();
        fg.connect(map, "out", b, "in").unwrap();
        let mut runners = crate::flowgraph::build::build(fg).unwrap().runners;
        let src_signal = runners[src.0].signal().clone();
        assert!(
            runners[b.0].space_roots().any(|r| r == src.0),
            "the map must work in place for this test"
        );
        let thread = |block: usize| usize::from(block == b.0);
        mark_local_polling(&mut runners, &[], |x, y| thread(x) == thread(y));
        assert!(!src_signal.is_polled_locally());
        assert!(runners[a.0].signal().is_polled_locally());
        mark_local_polling(&mut runners, &[], |_, _| true);
        assert!(src_signal.is_polled_locally());
    }

    /// src → map (in place) → blocking sink: the sink, on a thread of its
    /// own, frees the source's memory, so the source must keep its fence
    /// although the pollers never see the sink's runner.
    #[test]
    fn a_writer_whose_memory_a_blocking_block_frees_keeps_its_fence() {
        let mut fg = Flowgraph::new();
        let src = fg.add(Source::new(0));
        let map = fg.add(Map::new(|x: f32| x + 1.0));
        let snk = fg.add(Sink::new(true));
        fg.chain(&[src, map, snk]).unwrap();
        let runners = crate::flowgraph::build::build(fg).unwrap().runners;
        let src_signal = runners[src.0].signal().clone();
        // What `start_blocking` hands the pollers, and what it remembers.
        let (blocking, mut polled): (Vec<_>, Vec<_>) =
            runners.into_iter().partition(|r| r.is_blocking());
        let freed: Vec<usize> = blocking.iter().flat_map(|r| r.space_roots()).collect();
        assert_eq!(freed, [src.0], "the map must work in place for this test");
        let on_poller = |b: usize| b != snk.0;
        mark_local_polling(&mut polled, &[], |x, y| on_poller(x) && on_poller(y));
        assert!(src_signal.is_polled_locally(), "without the list, it skips");
        mark_local_polling(&mut polled, &freed, |x, y| on_poller(x) && on_poller(y));
        assert!(!src_signal.is_polled_locally());
    }
}
