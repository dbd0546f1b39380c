//! Device discovery from several threads at once, as the very first OpenCL
//! calls of a process (this file is its own test binary and has one test),
//! finds the same devices on every thread. PoCL 3.1 sets its devices up on
//! the first call without a lock: unserialised, concurrent first calls saw
//! no device or crashed reading a device name.

mod common;

use rfgraph_opencl::{OclContext, OclError};
use std::sync::{Arc, Barrier};

#[test]
fn concurrent_first_discovery_sees_every_device() {
    const THREADS: usize = 8;
    let start = Arc::new(Barrier::new(THREADS));
    let found: Vec<Result<Vec<String>, OclError>> = (0..THREADS)
        .map(|_| {
            let start = start.clone();
            std::thread::spawn(move || {
                start.wait();
                rfgraph_opencl::devices().map(|d| d.iter().map(|d| d.to_string()).collect())
            })
        })
        .collect::<Vec<_>>()
        .into_iter()
        .map(|t| t.join().expect("device discovery panicked"))
        .collect();
    if let Some(Err(e @ OclError::NoPlatform { .. })) = found.first()
        && found
            .iter()
            .all(|r| matches!(r, Err(OclError::NoPlatform { .. })))
    {
        common::skip_without_platform("concurrent_first_discovery_sees_every_device", e);
        return;
    }
    let first = found[0].as_ref().unwrap();
    assert!(!first.is_empty(), "a platform without devices");
    for r in &found {
        assert_eq!(r.as_ref().unwrap(), first);
    }
    // Contexts from several threads at once work too.
    let contexts: Vec<_> = (0..4)
        .map(|_| std::thread::spawn(OclContext::any))
        .collect::<Vec<_>>()
        .into_iter()
        .map(|t| t.join().unwrap().unwrap().domain())
        .collect();
    for (i, a) in contexts.iter().enumerate() {
        assert!(
            contexts[i + 1..].iter().all(|b| b != a),
            "two contexts share a domain"
        );
    }
}
