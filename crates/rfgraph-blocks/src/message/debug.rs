//! The debug sinks: [`MessageDebug`] (GNU Radio's `message_debug`) prints
//! and stores messages, [`TagDebug`] (`tag_debug`) prints and keeps the
//! tags of a stream; both print in GNU Radio's format (`format_message`,
//! `format_tags`). With their registry entries.

use super::display::gr_string;
use super::pdu::parse;
use rfgraph::params::ItemKind;
use rfgraph::registry::{BlockSpec, PortItem, PortSpec};
use rfgraph::{Block, BoxError, Item, ParamError, ParamSet, Pmt, Ports, StreamInput, Tag, WorkIo};
use std::fmt::Write;
use std::io::Write as _;

/// Writes `text` to standard output at once (one lock, so the lines of
/// two blocks never interleave); a closed stdout is ignored.
fn print(text: &str) {
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(text.as_bytes());
    let _ = out.flush();
}

/// The bytes of PDU data as GNU Radio holds them in memory: `u8` as
/// they are, `f32` and complex parts little-endian.
fn data_bytes(data: &Pmt) -> Vec<u8> {
    match data {
        Pmt::Blob(bytes) => bytes.clone(),
        Pmt::VecF32(v) => v.iter().flat_map(|x| x.to_le_bytes()).collect(),
        Pmt::VecComplexF32(v) => v.iter().flatten().flat_map(|x| x.to_le_bytes()).collect(),
        _ => Vec::new(),
    }
}

/// A message as GNU Radio's `message_debug` prints it: PDUs in its
/// verbose PDU form (metadata, length in bytes, and with `vectors` a hex
/// dump of the data's bytes, `f32` and complex data little-endian as in
/// memory), anything else between two rows of stars.
pub fn format_message(msg: &Pmt, vectors: bool) -> String {
    let mut s = String::new();
    match parse(msg) {
        Some((meta, data)) => {
            s.push_str("***** VERBOSE PDU DEBUG PRINT ******\n");
            s.push_str(&gr_string(&Pmt::Map(meta)));
            s.push('\n');
            let bytes = data_bytes(data);
            if vectors {
                let _ = writeln!(s, "pdu length = {:>10} bytes", bytes.len());
                s.push_str("pdu vector contents = \n");
                for (row, chunk) in bytes.chunks(16).enumerate() {
                    let _ = write!(s, "{:04x}: ", row * 16);
                    for b in chunk {
                        let _ = write!(s, "{b:02x} ");
                    }
                    s.push('\n');
                }
            } else {
                let _ = writeln!(
                    s,
                    "pdu length = {:>10} bytes (printing disabled)",
                    bytes.len()
                );
            }
            s.push_str("************************************\n");
        }
        None => {
            s.push_str("******* MESSAGE DEBUG PRINT ********\n");
            s.push_str(&gr_string(msg));
            s.push_str("\n************************************\n");
        }
    }
    s
}

/// The parameters of [`MessageDebug`] (`message_debug`).
#[derive(ParamSet, Clone, Debug, PartialEq)]
pub struct MessageDebugParams {
    /// print the bytes of PDUs (GNU Radio's PDU vector printing); when
    /// off, only their metadata and length
    #[param(default = true, settable)]
    pub en_uvec: bool,
}

/// Prints messages arriving on `print` (and GNU Radio's deprecated
/// `print_pdu`) to standard output in GNU Radio's format, and keeps those
/// arriving on `store`.
///
/// # Parameters
/// [`MessageDebugParams`]; `en_uvec` has a message input of its name.
///
/// # Message Inputs
/// - `print`, `print_pdu`: messages to print.
/// - `store`: messages to keep ([`stored`](Self::stored)).
///
/// # Usage
/// ```
/// use rfgraph::{Flowgraph, Pmt};
/// use rfgraph_blocks::message::{MessageDebug, MessageStrobe, MessageStrobeParams};
///
/// let mut fg = Flowgraph::new();
/// let strobe = fg.add(MessageStrobe::new(MessageStrobeParams {
///     period: 500.0,
///     ..Default::default()
/// })?);
/// let debug = fg.add(MessageDebug::default());
/// fg.connect_message(strobe, "strobe", debug, "print")?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Default)]
pub struct MessageDebug {
    params: MessageDebugParams,
    stored: Vec<Pmt>,
    quiet: bool,
}

impl MessageDebug {
    /// A debug sink printing to standard output.
    pub fn new(params: MessageDebugParams) -> Result<Self, ParamError> {
        params.validate()?;
        Ok(Self {
            params,
            ..Self::default()
        })
    }

    /// Does not print (for tests): printed messages are dropped.
    pub fn quiet(mut self) -> Self {
        self.quiet = true;
        self
    }

    /// The messages that arrived on `store`, in order.
    pub fn stored(&self) -> &[Pmt] {
        &self.stored
    }
}

impl Block for MessageDebug {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new()
            .message_input("print")
            .message_input("store")
            .message_input("print_pdu")
    }

    fn params(&mut self) -> Option<&mut dyn ParamSet> {
        Some(&mut self.params)
    }

    fn handle_message(&mut self, port: &str, msg: Pmt, _io: &mut WorkIo) -> Result<Pmt, BoxError> {
        match port {
            "store" => self.stored.push(msg),
            _ if !self.quiet => print(&format_message(&msg, self.params.en_uvec)),
            _ => {}
        }
        Ok(Pmt::Null)
    }
}

/// `message_debug`: GNU Radio's `blocks_message_debug`.
pub(crate) fn message_debug_spec() -> BlockSpec {
    BlockSpec::of::<MessageDebugParams>(
        "message_debug",
        "Debug Tools",
        "Prints messages (`print`) and keeps them (`store`).",
        |p| Ok(Box::new(MessageDebug::new(p)?)),
    )
    .doc("Messages on `print` (and GNU Radio's deprecated `print_pdu`) go to standard output as GNU Radio prints them, PDUs with a hex dump of their bytes unless `en_uvec` is off (it may change while running, GNU Radio's `set_vector_print`); messages on `store` are kept.")
    .message_input("print")
    .message_input("store")
    .message_input("print_pdu")
}

/// Tags as GNU Radio's `tag_debug` prints those of one call.
pub fn format_tags(name: &str, tags: &[Tag]) -> String {
    let mut s =
        String::from("\n----------------------------------------------------------------------\n");
    let _ = writeln!(s, "Tag Debug: {name}\nInput Stream: 00");
    for t in tags {
        let _ = writeln!(
            s,
            "  Offset: {}  Source: n/a     Key: {}   Value: {}",
            t.index,
            t.key,
            gr_string(&t.value)
        );
    }
    s.push_str("----------------------------------------------------------------------\n");
    s
}

/// The parameters of [`TagDebug`] (`tag_debug`).
#[derive(ParamSet, Clone, Debug, PartialEq)]
pub struct TagDebugParams {
    /// stream item type
    #[param(name = "type", kinds(F32, C32, F64, I32, I16, I8, U8))]
    pub item: ItemKind,
    /// shown in the header
    #[param(default = "")]
    pub name: String,
    /// only tags of this key (empty: all)
    #[param(default = "")]
    pub filter: String,
    /// print the tags (or only keep them); GNU Radio's `set_display`
    #[param(default = true, settable)]
    pub display: bool,
}

/// Consumes a stream and prints its tags (those whose key is `filter`,
/// or all when it is empty) in GNU Radio's format when `display` is on;
/// keeps them ([`tags`](Self::tags)).
///
/// # Parameters
/// [`TagDebugParams`]; `display` has a message input of its name.
///
/// # Stream Inputs
/// - `in`: `T`.
///
/// # Usage
/// ```
/// use rfgraph::{Flowgraph, Pmt, Tag, scheduler::Tpb};
/// use rfgraph_blocks::{VectorSource, message::{TagDebug, TagDebugParams}};
///
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(vec![0u8; 4]).with_tags(vec![Tag::new(2, "k", Pmt::U64(1))]));
/// let dbg = fg.add(TagDebug::<u8>::new(TagDebugParams {
///     name: "dbg".into(),
///     display: false,
///     ..Default::default()
/// })?);
/// fg.connect(src, "out", dbg, "in")?;
/// let done = fg.run(Tpb::new())?;
/// assert_eq!(done.block::<TagDebug<u8>>(dbg).unwrap().tags(), &[Tag::new(2, "k", Pmt::U64(1))]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct TagDebug<T: Item> {
    input: StreamInput<T>,
    params: TagDebugParams,
    tags: Vec<Tag>,
}

impl<T: Item> TagDebug<T> {
    /// A tag sink with `params` (the item type is `T`'s; `params.item` is
    /// what the registry builds from).
    pub fn new(params: TagDebugParams) -> Result<Self, ParamError> {
        params.validate()?;
        Ok(Self {
            input: StreamInput::new("in"),
            params,
            tags: Vec::new(),
        })
    }

    /// The tags seen so far.
    pub fn tags(&self) -> &[Tag] {
        &self.tags
    }
}

impl<T: Item> Block for TagDebug<T> {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().input(&mut self.input)
    }

    fn params(&mut self) -> Option<&mut dyn ParamSet> {
        Some(&mut self.params)
    }

    fn work(&mut self, _io: &mut WorkIo) -> Result<(), BoxError> {
        // Tags are those of the last slice.
        let n = self.input.slice().len();
        if n == 0 {
            return Ok(());
        }
        let start = self.input.position();
        let filter = &self.params.filter;
        let tags: Vec<Tag> = self
            .input
            .tags()
            .into_iter()
            .filter(|t| t.index >= start && t.index < start + n as u64)
            .filter(|t| filter.is_empty() || t.key == *filter)
            .collect();
        if self.params.display && !tags.is_empty() {
            print(&format_tags(&self.params.name, &tags));
        }
        self.tags.extend(tags);
        self.input.consume(n);
        Ok(())
    }
}

/// `tag_debug`: GNU Radio's `blocks_tag_debug`.
pub(crate) fn tag_debug_spec() -> BlockSpec {
    BlockSpec::of::<TagDebugParams>(
        "tag_debug",
        "Debug Tools",
        "Prints the tags of a stream.",
        |p| crate::spec_util::for_any_item!(kind = p.item, T => TagDebug::<T>::new(p)?),
    )
    .doc("Consumes a stream and prints its tags as GNU Radio does (one block per call that saw tags; the source is always `n/a`). `display` may change while running (GNU Radio's `set_display`): from the next call on, tags are printed or only kept.")
    .input(PortSpec::new("in", PortItem::OfType))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::message::pdu;

    /// GNU Radio 3.10's output for the same messages.
    #[test]
    fn messages_and_tags_print_as_gnu_radio_prints_them() {
        assert_eq!(
            format_message(&Pmt::from("TEST"), true),
            "******* MESSAGE DEBUG PRINT ********\nTEST\n************************************\n"
        );
        let bytes = pdu(
            Default::default(),
            Pmt::Blob(vec![0x22, 0xe7, 0xd5, 0x20, 0xf8]),
        );
        assert_eq!(
            format_message(&bytes, true),
            "***** VERBOSE PDU DEBUG PRINT ******\n()\npdu length =          5 bytes\npdu vector contents = \n0000: 22 e7 d5 20 f8 \n************************************\n"
        );
        assert_eq!(
            format_message(&bytes, false),
            "***** VERBOSE PDU DEBUG PRINT ******\n()\npdu length =          5 bytes (printing disabled)\n************************************\n"
        );
        // GNU Radio dumps the bytes of float and complex PDUs too.
        let floats = pdu(Default::default(), Pmt::VecF32(vec![1.5, 2.0]));
        assert_eq!(
            format_message(&floats, true),
            "***** VERBOSE PDU DEBUG PRINT ******\n()\npdu length =          8 bytes\npdu vector contents = \n0000: 00 00 c0 3f 00 00 00 40 \n************************************\n"
        );
        let complex = pdu(Default::default(), Pmt::VecComplexF32(vec![[1.0, 2.0]]));
        assert_eq!(
            format_message(&complex, false),
            "***** VERBOSE PDU DEBUG PRINT ******\n()\npdu length =          8 bytes (printing disabled)\n************************************\n"
        );
        let tags = [
            Tag::new(0, "packet_len", Pmt::U64(2)),
            Tag::new(2, "packet_len", Pmt::U64(2)),
        ];
        assert_eq!(
            format_tags("dbg", &tags),
            "\n----------------------------------------------------------------------\nTag Debug: dbg\nInput Stream: 00\n  Offset: 0  Source: n/a     Key: packet_len   Value: 2\n  Offset: 2  Source: n/a     Key: packet_len   Value: 2\n----------------------------------------------------------------------\n"
        );
    }
}
