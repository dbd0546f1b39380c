//! The debug sinks: [`MessageDebug`] (GNU Radio's `message_debug`) prints
//! and stores messages, [`TagDebug`] (`tag_debug`) prints and keeps the
//! tags of a stream; both print in GNU Radio's format (`format_message`,
//! `format_tags`). With their registry entries.

use super::display::gr_string;
use super::pdu::parse;
use crate::stream::any_item;
use rfgraph::registry::{BlockSpec, ItemKind, ParamSpec, Params, PortItem, PortSpec};
use rfgraph::{Block, BoxError, Item, Pmt, Ports, StreamInput, Tag, WorkIo};
use std::fmt::Write;
use std::io::Write as _;

/// Writes `text` to standard output at once (one lock, so the lines of
/// two blocks never interleave); a closed stdout is ignored.
fn print(text: &str) {
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(text.as_bytes());
    let _ = out.flush();
}

/// A message as GNU Radio's `message_debug` prints it: PDUs in its
/// verbose PDU form (metadata, length, a hex dump of bytes), anything
/// else between two rows of stars.
pub fn format_message(msg: &Pmt) -> String {
    let mut s = String::new();
    match parse(msg) {
        Some((meta, data)) => {
            s.push_str("***** VERBOSE PDU DEBUG PRINT ******\n");
            s.push_str(&gr_string(&Pmt::Map(meta)));
            s.push('\n');
            match data {
                Pmt::Blob(bytes) => {
                    let _ = writeln!(s, "pdu length = {:>10} bytes", bytes.len());
                    s.push_str("pdu vector contents = \n");
                    for (row, chunk) in bytes.chunks(16).enumerate() {
                        let _ = write!(s, "{:04x}: ", row * 16);
                        for b in chunk {
                            let _ = write!(s, "{b:02x} ");
                        }
                        s.push('\n');
                    }
                }
                other => {
                    let len = match other {
                        Pmt::VecF32(v) => v.len(),
                        Pmt::VecComplexF32(v) => v.len(),
                        _ => 0,
                    };
                    let _ = writeln!(s, "pdu length = {len:>10} items");
                    s.push_str("pdu vector contents = \n");
                    s.push_str(&gr_string(other));
                    s.push('\n');
                }
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

/// Prints messages arriving on `print` (and GNU Radio's deprecated
/// `print_pdu`) to standard output in GNU Radio's format, and keeps those
/// arriving on `store`.
///
/// # Message Inputs
/// - `print`, `print_pdu`: messages to print.
/// - `store`: messages to keep ([`stored`](Self::stored)).
///
/// # Usage
/// ```
/// use rfgraph::{Flowgraph, Pmt};
/// use rfgraph_blocks::message::{Interval, MessageDebug, MessageStrobe};
///
/// let mut fg = Flowgraph::new();
/// let strobe = fg.add(MessageStrobe::new(Pmt::from("TEST"), Interval::Fixed(500.0)));
/// let debug = fg.add(MessageDebug::new());
/// fg.connect_message(strobe, "strobe", debug, "print")?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Default)]
pub struct MessageDebug {
    stored: Vec<Pmt>,
    quiet: bool,
}

impl MessageDebug {
    /// A debug sink printing to standard output.
    pub fn new() -> Self {
        Self::default()
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

    fn handle_message(&mut self, port: &str, msg: Pmt, _io: &mut WorkIo) -> Result<Pmt, BoxError> {
        match port {
            "store" => self.stored.push(msg),
            _ if !self.quiet => print(&format_message(&msg)),
            _ => {}
        }
        Ok(Pmt::Null)
    }
}

/// `message_debug`: GNU Radio's `blocks_message_debug`.
pub(crate) fn message_debug_spec() -> BlockSpec {
    BlockSpec::new(
        "message_debug",
        "Debug Tools",
        "Prints messages (`print`) and keeps them (`store`).",
        |_p: &Params| Ok(Box::new(MessageDebug::new())),
    )
    .doc("Messages on `print` (and GNU Radio's deprecated `print_pdu`) go to standard output as GNU Radio prints them, PDUs with a hex dump; messages on `store` are kept.")
    .param(
        ParamSpec::bool("en_uvec")
            .default(true)
            .doc("GNU Radio's vector printing switch (vectors are always printed)"),
    )
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

/// Consumes a stream and prints its tags (those whose key is `filter`,
/// or all when it is empty) in GNU Radio's format when `display` is on;
/// keeps them ([`tags`](Self::tags)).
///
/// # Stream Inputs
/// - `in`: `T`.
///
/// # Usage
/// ```
/// use rfgraph::{Flowgraph, Pmt, Tag, scheduler::Tpb};
/// use rfgraph_blocks::{VectorSource, message::TagDebug};
///
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(vec![0u8; 4]).with_tags(vec![Tag::new(2, "k", Pmt::U64(1))]));
/// let dbg = fg.add(TagDebug::<u8>::new("dbg", "").display(false));
/// fg.connect(src, "out", dbg, "in")?;
/// let done = fg.run(Tpb::new())?;
/// assert_eq!(done.block::<TagDebug<u8>>(dbg).unwrap().tags(), &[Tag::new(2, "k", Pmt::U64(1))]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct TagDebug<T: Item> {
    input: StreamInput<T>,
    name: String,
    filter: String,
    display: bool,
    tags: Vec<Tag>,
}

impl<T: Item> TagDebug<T> {
    /// A tag sink called `name`, keeping tags with key `filter` (all when
    /// empty).
    pub fn new(name: impl Into<String>, filter: impl Into<String>) -> Self {
        Self {
            input: StreamInput::new("in"),
            name: name.into(),
            filter: filter.into(),
            display: true,
            tags: Vec::new(),
        }
    }

    /// Prints the tags (`true`, the default) or only keeps them.
    pub fn display(mut self, on: bool) -> Self {
        self.display = on;
        self
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

    fn work(&mut self, _io: &mut WorkIo) -> Result<(), BoxError> {
        // Tags are those of the last slice.
        let n = self.input.slice().len();
        if n == 0 {
            return Ok(());
        }
        let start = self.input.position();
        let tags: Vec<Tag> = self
            .input
            .tags()
            .into_iter()
            .filter(|t| t.index >= start && t.index < start + n as u64)
            .filter(|t| self.filter.is_empty() || t.key == self.filter)
            .collect();
        if self.display && !tags.is_empty() {
            print(&format_tags(&self.name, &tags));
        }
        self.tags.extend(tags);
        self.input.consume(n);
        Ok(())
    }
}

/// `tag_debug`: GNU Radio's `blocks_tag_debug`.
pub(crate) fn tag_debug_spec() -> BlockSpec {
    BlockSpec::new(
        "tag_debug",
        "Debug Tools",
        "Prints the tags of a stream.",
        |p: &Params| {
            let (name, filter, display) = (p.string("name")?, p.string("filter")?, p.bool("display")?);
            any_item!(p, T => TagDebug::<T>::new(name, filter).display(display))
        },
    )
    .doc("Consumes a stream and prints its tags as GNU Radio does (one block per call that saw tags; the source is always `n/a`).")
    .param(ParamSpec::item_type(&ItemKind::ALL))
    .param(ParamSpec::string("name").default("").doc("shown in the header"))
    .param(ParamSpec::string("filter").default("").doc("only this key (empty: all)"))
    .param(ParamSpec::bool("display").default(true).doc("print (or only keep)"))
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
            format_message(&Pmt::from("TEST")),
            "******* MESSAGE DEBUG PRINT ********\nTEST\n************************************\n"
        );
        let bytes = pdu(
            Default::default(),
            Pmt::Blob(vec![0x22, 0xe7, 0xd5, 0x20, 0xf8]),
        );
        assert_eq!(
            format_message(&bytes),
            "***** VERBOSE PDU DEBUG PRINT ******\n()\npdu length =          5 bytes\npdu vector contents = \n0000: 22 e7 d5 20 f8 \n************************************\n"
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
