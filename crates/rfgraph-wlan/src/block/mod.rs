//! The receiver as rfgraph blocks: `wlan_sync` (every sample: detection,
//! synchronisation, the SIGNAL field) writes bursts to one or more
//! lanes, a `wlan_decoder` per lane decodes them (only frames: these can
//! run on other cores), and `wlan_frames` puts the frames back in
//! order. [`add_receiver`] joins them.

mod burst_tag;
mod decoder_block;
pub mod frame_pdu;
mod merge;
mod sync_block;

pub use burst_tag::{BURST_TAG, BurstMeta};
pub use decoder_block::{WlanDecoder, WlanDecoderParams};
pub use merge::{WlanFrames, WlanFramesParams};
pub use sync_block::{MAX_LANES, SyncCounts, WlanSync, WlanSyncParams};

use rfgraph::{BlockId, BoxError, Flowgraph};

/// The receiver's blocks in a flowgraph.
#[derive(Clone, Debug)]
pub struct ReceiverBlocks {
    pub sync: BlockId,
    pub decoders: Vec<BlockId>,
    /// Posts the frames in order on `out`.
    pub frames: BlockId,
}

/// Adds the receiver behind `from`'s output `port` (20 MS/s `c32`):
/// `wlan_sync` with `lanes` outputs, a decoder per lane, and
/// `frames` (which keeps every frame when `keep`).
pub fn add_receiver(
    fg: &mut Flowgraph,
    from: BlockId,
    port: &str,
    lanes: usize,
    frames: WlanFrames,
) -> Result<ReceiverBlocks, BoxError> {
    let sync = WlanSync::new(lanes)?;
    let sync = fg.add_named("wlan_sync", sync);
    fg.connect(from, port, sync, "in")?;
    let merge = fg.add_named("wlan_frames", frames);
    let mut decoders = Vec::new();
    for lane in 0..lanes {
        let d = fg.add_named(format!("wlan_decoder{lane}"), WlanDecoder::new());
        fg.connect(sync, &format!("out{lane}"), d, "in")?;
        fg.connect_message(d, "frames", merge, "in")?;
        decoders.push(d);
    }
    Ok(ReceiverBlocks {
        sync,
        decoders,
        frames: merge,
    })
}

/// This crate's blocks, described for the registry.
pub fn specs() -> Vec<rfgraph::registry::BlockSpec> {
    vec![sync_block::spec(), decoder_block::spec(), merge::spec()]
}
