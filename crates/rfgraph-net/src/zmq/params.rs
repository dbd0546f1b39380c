//! The parameters of the ZeroMQ blocks, declared once: GNU Radio's
//! names, defaults and meanings (`zeromq_*.block.yml`).

use rfgraph::params::ItemKind;

/// The parameters every gr-zeromq stream block has:
/// `push_sink`/`pull_source`/`rep_sink`/`req_source` take exactly these.
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
pub struct StreamSocketParams {
    /// stream item type (GNU Radio's complex, float, int, short, byte)
    #[param(name = "type", kinds(C32, F32, I32, I16, U8))]
    pub item: ItemKind,
    /// items per GNU Radio item (a frame holds whole vectors)
    #[param(default = 1, min = 1)]
    pub vlen: usize,
    /// tcp://host:port; sinks bind to it, sources connect to it
    #[param(default = "tcp://127.0.0.1:5555")]
    pub address: String,
    /// how long one wait on the socket lasts before the block looks
    /// again (GNU Radio's poll timeout)
    #[param(default = 100.0, unit = "ms", above = 0.0)]
    pub timeout: f64,
    /// carry stream tags in a header before the items (both ends must agree)
    #[param(default = false)]
    pub pass_tags: bool,
    /// the most frames the socket may hold for a sink before the sink
    /// waits (GNU Radio's high-water mark; 0: no limit; -1: 8 frames, a
    /// few megabytes of items)
    #[param(default = -1)]
    pub hwm: i64,
}

impl StreamSocketParams {
    /// `address` for items of `item` type, the rest at GNU Radio's defaults.
    pub fn new(item: ItemKind, address: impl Into<String>) -> Self {
        Self {
            item,
            vlen: 1,
            address: address.into(),
            timeout: 100.0,
            pass_tags: false,
            hwm: -1,
        }
    }

    /// The poll timeout.
    pub(crate) fn wait(&self) -> std::time::Duration {
        std::time::Duration::from_secs_f64(self.timeout / 1000.0)
    }

    /// The most frames a sink lets the socket hold (`hwm`); `None`: no
    /// limit.
    pub(crate) fn frames_held(&self) -> Option<usize> {
        match self.hwm {
            0 => None,
            h if h > 0 => Some(h as usize),
            _ => Some(DEFAULT_FRAMES_HELD),
        }
    }
}

/// The frames a sink lets its socket hold when `hwm` is GNU Radio's
/// default (-1).
pub const DEFAULT_FRAMES_HELD: usize = 8;

/// `pub_sink`'s parameters: the stream socket's, a key and what to do
/// when a subscriber is slow.
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
pub struct PubSinkParams {
    /// the stream socket
    #[param(flatten)]
    pub socket: StreamSocketParams,
    /// sent as a first frame before every data frame, for subscribers
    /// to filter on (none when empty)
    #[param(default = "")]
    pub key: String,
    /// drop frames for a slow subscriber (true, GNU Radio's default) or block
    #[param(default = true)]
    pub drop_on_hwm: bool,
}

/// `sub_source`'s parameters: the stream socket's and the key it
/// subscribes to.
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
pub struct SubSourceParams {
    /// the stream socket
    #[param(flatten)]
    pub socket: StreamSocketParams,
    /// receive only frames sent under this key (everything when empty)
    #[param(default = "")]
    pub key: String,
}

/// The parameters of the message blocks (`*_msg_sink`, `*_msg_source`).
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
pub struct MsgSocketParams {
    /// tcp://host:port
    #[param(default = "tcp://127.0.0.1:5555")]
    pub address: String,
    /// how long one wait on the socket lasts
    #[param(default = 100.0, unit = "ms", above = 0.0)]
    pub timeout: f64,
    /// bind to the address (GNU Radio's default for sinks) or connect
    /// (its default for sources); unset: the block's default
    pub bind: Option<bool>,
}

impl MsgSocketParams {
    /// The poll timeout.
    pub(crate) fn wait(&self) -> std::time::Duration {
        std::time::Duration::from_secs_f64(self.timeout / 1000.0)
    }
}
