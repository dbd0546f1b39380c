//! Runs the README's SigMF example (kept in `examples/readme_sigmf.rs`)
//! on a recording, and checks the README shows its `read` function as it
//! is, so the README cannot drift from the API.

#![allow(dead_code)]

include!("../examples/readme_sigmf.rs");

use rfgraph_blocks::SampleFormat;
use rfgraph_blocks::sigmf::{Capture, SigmfMeta};

#[test]
fn readme_sigmf_example_reads_a_recording() {
    let dir = std::env::temp_dir().join(format!("rfgraph-readme-sigmf-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let meta_path = dir.join("capture.sigmf-meta");
    let mut meta = SigmfMeta::new(SampleFormat::CS16);
    meta.global.sample_rate = Some(2.4e6);
    meta.captures = vec![Capture {
        frequency: Some(100e6),
        ..Capture::at(0)
    }];
    meta.write(&meta_path).unwrap();
    std::fs::write(dir.join("capture.sigmf-data"), vec![0u8; 4 * 1000]).unwrap();
    let n = read(meta_path.to_str().unwrap()).expect("the README example runs");
    assert_eq!(n, 1000);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_readme_shows_the_example_as_it_is() {
    let example = include_str!("../examples/readme_sigmf.rs");
    let start = example.find("use num_complex").unwrap();
    let end = example.find("fn main()").unwrap();
    let shown = example[start..end].trim_end();
    let readme = include_str!("../../../README.md");
    assert!(
        readme.contains(shown),
        "README.md must show examples/readme_sigmf.rs from its `use` lines to `read`:\n{shown}"
    );
}
