//! GNU Radio 3.10's OFDM blocks, value for value, one file each: the
//! transmitter's [`CarrierAllocator`] and [`CyclicPrefixer`]; the
//! receiver's [`SyncSc`] (Schmidl & Cox), [`HeaderPayloadDemux`],
//! [`Chanest`] (coarse carrier offset and channel taps),
//! [`FrameEqualizer`] (with GNU Radio's equalizer objects as
//! [`OfdmEqualizerParams`]) and [`Serializer`]. `packets` cuts tagged
//! streams into frames and writes them out, `carriers` owns the
//! nested-list parameters ([`CarrierSets`], [`SymbolSets`]) and
//! `ofdm_txrx.py`'s values, which are the blocks' defaults.
//!
//! GNU Radio's vector streams are flat streams here: an OFDM symbol is
//! `fft_len` consecutive items, and a tag on GNU Radio's vector `k` sits
//! on item `k · fft_len`; length tags keep GNU Radio's counts (symbols,
//! not items). Where GNU Radio reads outside its buffers (offsets past a
//! frame, carriers past the FFT) these blocks refuse the parameter or
//! read zeros; a frame longer than [`MAX_PACKET_ITEMS`] is dropped.

mod carrier_allocator;
mod carriers;
mod chanest;
mod cyclic_prefixer;
mod equalizer;
mod frame_equalizer;
mod header_payload_demux;
mod packets;
mod serializer;
mod sync_sc;

pub use carrier_allocator::{CarrierAllocator, CarrierAllocatorParams};
pub use carriers::{CarrierSets, SymbolSets, txrx_sync_word1, txrx_sync_word2};
pub use chanest::{CARR_OFFSET_KEY, CHAN_TAPS_KEY, Chanest, ChanestParams};
pub use cyclic_prefixer::{CpLengths, CyclicPrefixer, CyclicPrefixerParams};
pub use equalizer::{EqualizerKind, OfdmEqualizerParams};
pub use frame_equalizer::{FrameEqualizer, FrameEqualizerParams};
pub use header_payload_demux::{
    HeaderPayloadDemux, HeaderPayloadDemuxParams, MESSAGE_GRACE, TagKeys,
};
pub use packets::MAX_PACKET_ITEMS;
pub use serializer::{Serializer, SerializerParams};
pub use sync_sc::{MAX_PLATEAU, SyncSc, SyncScParams};

pub(crate) use carrier_allocator::spec as carrier_allocator_spec;
pub(crate) use chanest::spec as chanest_spec;
pub(crate) use cyclic_prefixer::spec as cyclic_prefixer_spec;
pub(crate) use frame_equalizer::spec as frame_equalizer_spec;
pub(crate) use header_payload_demux::spec as header_payload_demux_spec;
pub(crate) use serializer::spec as serializer_spec;
pub(crate) use sync_sc::spec as sync_sc_spec;
