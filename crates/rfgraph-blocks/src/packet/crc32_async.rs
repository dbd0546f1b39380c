//! `crc32_async`: appends or checks a CRC-32 on every byte PDU (GNU
//! Radio's `digital_crc32_async_bb`), as [`Crc32Async`] with its registry
//! entry.

use super::crc::crc32;
use crate::message::{parse, pdu};
use rfgraph::registry::BlockSpec;
use rfgraph::{Block, BoxError, MessageOutput, ParamError, ParamSet, Pmt, Ports, WorkIo};

/// The parameters of [`Crc32Async`] (`crc32_async`, GNU Radio's
/// `digital_crc32_async_bb`).
#[derive(ParamSet, Clone, Debug, PartialEq)]
pub struct Crc32AsyncParams {
    /// check and strip the CRC, dropping PDUs whose CRC fails (instead of
    /// appending one)
    #[param(default = false)]
    pub check: bool,
}

/// The data of a byte PDU with its CRC-32 appended (`check = false`), or
/// checked and stripped; `None` when the check fails or the data is
/// shorter than a CRC.
pub(crate) fn crc_bytes(check: bool, data: &[u8]) -> Option<Vec<u8>> {
    if !check {
        let mut out = data.to_vec();
        out.extend_from_slice(&crc32(data).to_le_bytes());
        return Some(out);
    }
    let len = data.len().checked_sub(4)?;
    (data[len..] == crc32(&data[..len]).to_le_bytes()).then(|| data[..len].to_vec())
}

/// Appends zlib's CRC-32 of every byte PDU's data to it as 4
/// little-endian bytes, or (`check`) verifies and strips it, dropping the
/// PDUs whose CRC fails, as GNU Radio's `digital_crc32_async_bb`. The
/// metadata passes unchanged. Checking drops PDUs shorter than 4 bytes (a
/// 4-byte PDU of CRC 0 passes, empty); a message that is no PDU of bytes
/// is an error.
///
/// # Parameters
/// [`Crc32AsyncParams`].
///
/// # Message Inputs
/// - `in`: byte PDUs.
///
/// # Message Outputs
/// - `out`: the PDUs with their CRC appended, or checked and stripped.
///
/// # Usage
/// ```
/// use rfgraph::{Flowgraph, Pmt, scheduler::Tpb};
/// use rfgraph_blocks::message::pdu;
/// use rfgraph_blocks::packet::{Crc32Async, Crc32AsyncParams};
/// use rfgraph_blocks::{MessageBurst, MessageSink};
///
/// let mut fg = Flowgraph::new();
/// let src = fg.add(MessageBurst::new(pdu(Default::default(), Pmt::Blob(b"123456789".to_vec())), 1));
/// let crc = fg.add(Crc32Async::new(Crc32AsyncParams::default())?);
/// let sink = fg.add(MessageSink::new());
/// fg.connect_message(src, "out", crc, "in")?;
/// fg.connect_message(crc, "out", sink, "in")?;
/// let done = fg.run(Tpb::new())?;
/// let out = &done.block::<MessageSink>(sink).unwrap().messages()[0];
/// let mut want = b"123456789".to_vec();
/// want.extend([0x26, 0x39, 0xF4, 0xCB]);
/// assert_eq!(*out, pdu(Default::default(), Pmt::Blob(want)));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Crc32Async {
    output: MessageOutput,
    params: Crc32AsyncParams,
}

impl Crc32Async {
    /// A CRC generator or checker as `params` say.
    pub fn new(params: Crc32AsyncParams) -> Result<Self, ParamError> {
        params.validate()?;
        Ok(Self {
            output: MessageOutput::new("out"),
            params,
        })
    }
}

impl Block for Crc32Async {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new()
            .message_input("in")
            .message_output(&mut self.output)
    }

    fn params(&mut self) -> Option<&mut dyn ParamSet> {
        Some(&mut self.params)
    }

    fn handle_message(&mut self, _port: &str, msg: Pmt, _io: &mut WorkIo) -> Result<Pmt, BoxError> {
        let (meta, data) = parse(&msg).ok_or("expected a PDU ([metadata map, vector])")?;
        let Pmt::Blob(bytes) = data else {
            return Err("crc32_async: the PDU's data is not a byte vector".into());
        };
        if let Some(out) = crc_bytes(self.params.check, bytes) {
            self.output.post(pdu(meta, Pmt::Blob(out)));
        }
        Ok(Pmt::Null)
    }
}

/// `crc32_async`: GNU Radio's `digital_crc32_async_bb`.
pub(crate) fn spec() -> BlockSpec {
    BlockSpec::of::<Crc32AsyncParams>(
        "crc32_async",
        "Packet Operators",
        "Appends or checks a CRC-32 on every byte PDU.",
        |p| Ok(Box::new(Crc32Async::new(p)?)),
    )
    .doc("Generating, each PDU from `in` gets zlib's CRC-32 of its data appended as 4 little-endian bytes and goes to `out`. Checking (`check`), the last 4 bytes must be the CRC of the rest: they are stripped, and PDUs whose CRC fails, or shorter than 4 bytes, are dropped. The metadata passes unchanged. A message that is no PDU of bytes is an error. GNU Radio's `digital_crc32_async_bb`.")
    .message_input("in")
    .message_output("out")
}
