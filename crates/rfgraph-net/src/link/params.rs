//! The parameters of both ends of a host link, declared once.

use rfgraph::params::ItemKind;

/// What a host link does when its peer host goes silent.
#[derive(Clone, Copy, Debug, PartialEq, Eq, rfgraph::ParamChoice)]
pub enum OnLoss {
    /// Fail the run, naming the peer host.
    Stop,
    /// Log it, forget what was in flight, and wait for the peer to come
    /// back.
    Reconnect,
}

/// The parameters of [`HostLinkSink`](super::HostLinkSink) and
/// [`HostLinkSource`](super::HostLinkSource).
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
pub struct LinkParams {
    /// stream item type
    #[param(name = "type", kinds(C32, F32, F64, I32, I16, I8, U8))]
    pub item: ItemKind,
    /// tcp://host:port of the data; the acknowledgements use the next port
    #[param(default = "tcp://127.0.0.1:5600")]
    pub address: String,
    /// the host at the other end, named in messages
    #[param(default = "peer")]
    pub peer: String,
    /// the most bytes sent and not yet acknowledged (the sink's; the
    /// source acknowledges whatever it writes)
    #[param(default = 4_194_304, min = 1, unit = "bytes")]
    pub window: usize,
    /// how long the peer may be silent, after first contact, before it
    /// counts as lost
    #[param(default = 5.0, unit = "s", above = 0.0, max = 86_400.0)]
    pub peer_timeout: f64,
    /// what a lost peer does to this host's run
    #[param(default = OnLoss::Stop)]
    pub on_loss: OnLoss,
}

impl LinkParams {
    /// A link of `item`s at `address` to the host `peer`, the rest at
    /// the defaults.
    pub fn new(item: ItemKind, address: impl Into<String>, peer: impl Into<String>) -> Self {
        Self {
            item,
            address: address.into(),
            peer: peer.into(),
            window: 4 << 20,
            peer_timeout: 5.0,
            on_loss: OnLoss::Stop,
        }
    }

    /// `peer_timeout` as a duration.
    pub(crate) fn timeout(&self) -> std::time::Duration {
        std::time::Duration::from_secs_f64(self.peer_timeout)
    }
}
