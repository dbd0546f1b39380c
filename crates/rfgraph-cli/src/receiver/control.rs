//! The control port of the receiver commands (`rfgraph fm --control`,
//! `rfgraph adsb --control`): the options ([`ControlArgs`], the same as
//! `rfgraph run`'s) and starting the port on the running graph
//! ([`Control::start`], [`Control::serve`], called by
//! [`run`](super::run())), which says where on stderr.
//!
//! This module owns only the plumbing between the command line and
//! `rfgraph_control`; what the port serves is that crate's.

use crate::console::errln;
use clap::Args;
use std::net::SocketAddr;

/// `--control [ADDR]` and `--token`: flatten into a receiver command's
/// arguments and pass [`control`](Self::control) to [`RunArgs`](super::RunArgs).
#[derive(Args, Debug, Clone, Default)]
#[command(next_help_heading = "Control port")]
pub struct ControlArgs {
    /// Serves the running graph on a control port (HTTP and JSON, see the
    /// README): its blocks, counters, parameters, messages and readings.
    /// Listens on ADDR, `127.0.0.1:1337` when none is given. The process
    /// still ends with its input: play a file at its own rate with
    /// --throttle to watch it.
    #[arg(long, value_name = "ADDR", num_args = 0..=1,
          default_missing_value = rfgraph_control::DEFAULT_ADDR)]
    pub control: Option<SocketAddr>,
    /// The token control-port requests must carry. Without one, a port on
    /// any address but loopback generates one and prints it.
    #[arg(long, value_name = "TOKEN", requires = "control")]
    pub token: Option<String>,
}

impl ControlArgs {
    /// The port to start for the graph served as `name`, if `--control`
    /// asks for one.
    pub fn control(&self, name: &str) -> Option<Control> {
        self.control.map(|addr| Control {
            name: name.to_string(),
            addr,
            token: self.token.clone(),
        })
    }
}

/// A control port to start on a receiver's graph once it runs.
#[derive(Clone, Debug)]
pub struct Control {
    /// The graph's name in the URLs (`/api/flowgraphs/NAME`).
    pub name: String,
    /// Where to listen.
    pub addr: SocketAddr,
    /// The token requests must carry, if given.
    pub token: Option<String>,
}

impl Control {
    /// Starts the port (before the graph runs, so that an address in use
    /// fails the command before it reads anything).
    ///
    /// Errors: the address cannot be bound.
    pub fn start(&self) -> anyhow::Result<rfgraph_control::ControlPort> {
        Ok(rfgraph_control::ControlPort::start(
            rfgraph_control::ControlOptions {
                addr: self.addr,
                token: self.token.clone(),
            },
        )?)
    }

    /// Serves the graph behind `handle` on `port` under
    /// [`name`](Self::name), and says where on stderr as `rfgraph run
    /// --control` does: `rfgraph: control port:
    /// http://ADDR/api/flowgraphs/NAME` (with `(token TOKEN)` when one
    /// guards it), then `rfgraph: web UI: http://ADDR/?fg=NAME` (with
    /// `&token=TOKEN`). Keep the port until the run ends: dropping it
    /// stops it.
    pub fn serve(&self, port: &rfgraph_control::ControlPort, handle: &rfgraph::FlowgraphHandle) {
        port.serve(rfgraph_control::ServedGraph::new(
            self.name.clone(),
            handle.clone(),
        ));
        let at = format!("http://{}/api/flowgraphs/{}", port.local_addr(), self.name);
        match port.token() {
            Some(t) => errln!("rfgraph: control port: {at} (token {t})"),
            None => errln!("rfgraph: control port: {at}"),
        }
        errln!("rfgraph: web UI: {}", port.ui_url(&self.name));
    }
}
