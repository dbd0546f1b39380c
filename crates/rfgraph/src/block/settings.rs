//! Run-time parameters: a message input bound to a setter, declared once.
//!
//! A receiver retunes while it runs: a frequency-translating filter moves its
//! centre, a gain block changes its gain. Rather than a hand-written message
//! handler per parameter, a block holds a [`Settings`] table. Each
//! [`Setting`] names a parameter, says its type, unit and meaning
//! ([`ParamInfo`]), and binds a typed setter. From that one declaration:
//!
//! - the block gets one message input per setting, named after it;
//! - a message to that input is converted from [`Pmt`] to the setter's type
//!   ([`FromPmt`]), with a [`PmtTypeError`] that names the parameter, the
//!   expected and the found type when it does not fit;
//! - the runtime applies it between two `work` calls, never during one (a
//!   block's messages are handled before its `work`);
//! - [`Block::settings`](crate::Block::settings) lists the parameters, so the
//!   block registry, the control port and the bindings describe them without
//!   knowing the block.
//!
//! [`FixedRateBlock`](super::fixed_rate::FixedRateBlock) takes settings on its kernel;
//! a hand-written block keeps a `Settings<Self>` (or one on a field) and
//! forwards its messages with [`Settings::dispatch`]:
//!
//! ```
//! use rfgraph::block::settings::{Setting, Settings};
//! use rfgraph::{Block, BoxError, Pmt, Ports, StreamInput, StreamOutput, WorkIo};
//!
//! struct Gain { input: StreamInput<f32>, output: StreamOutput<f32>, k: f32, settings: Settings<Self> }
//!
//! impl Gain {
//!     fn new(k: f32) -> Self {
//!         let settings = Settings::new()
//!             .with(Setting::new("gain", |g: &mut Gain, k: f32| g.k = k).doc("linear gain"));
//!         Self { input: StreamInput::new("in"), output: StreamOutput::new("out"), k, settings }
//!     }
//! }
//!
//! impl Block for Gain {
//!     fn ports(&mut self) -> Ports<'_> {
//!         self.settings
//!             .message_inputs(Ports::new().input(&mut self.input).output(&mut self.output))
//!     }
//!     fn handle_message(&mut self, port: &str, msg: Pmt, _io: &mut WorkIo) -> Result<Pmt, BoxError> {
//!         Settings::dispatch(self, |g| &mut g.settings, port, msg)
//!     }
//!     fn settings(&self) -> Vec<rfgraph::block::settings::ParamInfo> {
//!         self.settings.infos()
//!     }
//!     fn work(&mut self, _io: &mut WorkIo) -> Result<(), BoxError> {
//!         let (i, o) = (self.input.slice(), self.output.slice());
//!         let n = i.len().min(o.len());
//!         for (o, i) in o[..n].iter_mut().zip(i) { *o = self.k * i; }
//!         self.input.consume(n);
//!         self.output.produce(n);
//!         Ok(())
//!     }
//! }
//! # let mut g = Gain::new(1.0);
//! # let mut io = WorkIo::default();
//! # g.handle_message("gain", Pmt::F64(2.0), &mut io).unwrap();
//! # assert_eq!(g.k, 2.0);
//! # assert!(g.handle_message("gain", Pmt::from("loud"), &mut io).is_err());
//! ```
//!
//! This module owns the declaration and the conversion; it never looks at
//! ports' data or at scheduling.

use crate::error::BoxError;
use crate::params::ParamType;
pub use crate::params::ParamValue as FromPmt;
use crate::pmt::Pmt;
use crate::port::Ports;
use std::sync::Arc;

/// What a settable parameter is: its name (also the name of its message
/// input), value type, unit and one line of documentation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParamInfo {
    /// The parameter's name, also its message input's name.
    pub name: &'static str,
    /// The value's type.
    pub ty: ParamType,
    /// The unit (`"Hz"`, `"dB"`), empty when it has none.
    pub unit: &'static str,
    /// One line saying what the parameter does.
    pub doc: &'static str,
}

type Apply<S> = dyn Fn(&mut S, Pmt) -> Result<(), BoxError> + Send + Sync;

/// One settable parameter of a target `S` (a block, a kernel or a field of
/// a block): its description and its typed setter.
pub struct Setting<S> {
    info: ParamInfo,
    apply: Arc<Apply<S>>,
}

impl<S> Clone for Setting<S> {
    fn clone(&self) -> Self {
        Self {
            info: self.info.clone(),
            apply: Arc::clone(&self.apply),
        }
    }
}

impl<S: 'static> Setting<S> {
    /// A parameter named `name` set by `set`, which cannot fail (beyond
    /// the conversion to `T`).
    pub fn new<T: FromPmt + 'static>(
        name: &'static str,
        set: impl Fn(&mut S, T) + Send + Sync + 'static,
    ) -> Self {
        Self::try_new(name, move |s: &mut S, v: T| {
            set(s, v);
            Ok::<(), BoxError>(())
        })
    }

    /// A parameter named `name` set by `set`, which may reject the value
    /// (a cutoff above Nyquist); its error reaches the sender.
    pub fn try_new<T: FromPmt + 'static, E: Into<BoxError> + 'static>(
        name: &'static str,
        set: impl Fn(&mut S, T) -> Result<(), E> + Send + Sync + 'static,
    ) -> Self {
        Self {
            info: ParamInfo {
                name,
                ty: T::TYPE,
                unit: "",
                doc: "",
            },
            apply: Arc::new(move |s: &mut S, pmt: Pmt| {
                let value = T::from_pmt(pmt).map_err(|mut e| {
                    e.param = Some(name);
                    e
                })?;
                set(s, value).map_err(|e| {
                    let e: BoxError = e.into();
                    format!("parameter `{name}`: {e}").into()
                })
            }),
        }
    }

    /// Sets the unit (`"Hz"`).
    pub fn unit(mut self, unit: &'static str) -> Self {
        self.info.unit = unit;
        self
    }

    /// Sets the one-line documentation.
    pub fn doc(mut self, doc: &'static str) -> Self {
        self.info.doc = doc;
        self
    }

    /// The same parameter on a larger target `T` that holds this one's
    /// target: `project` finds it (a block whose parameters live in a
    /// field, a kernel inside its block).
    pub fn project<T: 'static>(
        self,
        project: impl Fn(&mut T) -> &mut S + Send + Sync + 'static,
    ) -> Setting<T> {
        let apply = self.apply;
        Setting {
            info: self.info,
            apply: Arc::new(move |t: &mut T, pmt: Pmt| apply(project(t), pmt)),
        }
    }

    /// The parameter's description.
    pub fn info(&self) -> &ParamInfo {
        &self.info
    }

    /// Converts `value` and applies it to `target`.
    pub fn apply(&self, target: &mut S, value: Pmt) -> Result<(), BoxError> {
        (self.apply)(target, value)
    }
}

/// The settable parameters of a target `S`, in declaration order.
pub struct Settings<S> {
    list: Vec<Setting<S>>,
}

impl<S> Default for Settings<S> {
    fn default() -> Self {
        Self { list: Vec::new() }
    }
}

impl<S> Clone for Settings<S> {
    fn clone(&self) -> Self {
        Self {
            list: self.list.clone(),
        }
    }
}

impl<S: 'static> Settings<S> {
    /// No settings.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds `setting`. A later setting with the same name replaces the
    /// earlier one, so the list never holds two message inputs of one name.
    pub fn with(mut self, setting: Setting<S>) -> Self {
        self.list.retain(|s| s.info.name != setting.info.name);
        self.list.push(setting);
        self
    }

    /// True when there are none.
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// Every parameter's description, in declaration order.
    pub fn infos(&self) -> Vec<ParamInfo> {
        self.list.iter().map(|s| s.info.clone()).collect()
    }

    /// Declares one message input per setting on `ports`.
    pub fn message_inputs<'a>(&self, mut ports: Ports<'a>) -> Ports<'a> {
        for s in &self.list {
            ports = ports.message_input(s.info.name);
        }
        ports
    }

    /// Applies a message that arrived on input `port` to `target`: `None`
    /// when `port` is not a setting, otherwise the reply (null) or the
    /// error.
    pub fn apply(&self, target: &mut S, port: &str, msg: Pmt) -> Option<Result<Pmt, BoxError>> {
        let setting = self.list.iter().find(|s| s.info.name == port)?;
        Some(setting.apply(target, msg).map(|()| Pmt::Null))
    }

    /// Applies a message that arrived on input `port` to `target`, as a
    /// block's `handle_message` answers it: the reply (null), the setter's
    /// or conversion's error, or an error naming a port that is not a
    /// setting.
    pub fn handle(&self, target: &mut S, port: &str, msg: Pmt) -> Result<Pmt, BoxError> {
        self.apply(target, port, msg)
            .unwrap_or_else(|| Err(no_handler(port)))
    }

    /// For a block that holds its own settings: applies a message on input
    /// `port` to `block`, with the settings found at `field` (taken out of
    /// the block while the setter runs, then put back). A port that is not
    /// a setting is an error naming it.
    pub fn dispatch(
        block: &mut S,
        field: impl Fn(&mut S) -> &mut Settings<S>,
        port: &str,
        msg: Pmt,
    ) -> Result<Pmt, BoxError> {
        let settings = std::mem::take(field(block));
        let result = settings.handle(block, port, msg);
        *field(block) = settings;
        result
    }
}

/// The error for a message on an input the block does not handle.
fn no_handler(port: &str) -> BoxError {
    format!("no handler for message input `{port}`").into()
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Tuner {
        freq: f64,
        gain: f32,
    }

    fn tuner_settings() -> Settings<Tuner> {
        Settings::new()
            .with(
                Setting::new("freq", |t: &mut Tuner, f: f64| t.freq = f)
                    .unit("Hz")
                    .doc("centre frequency"),
            )
            .with(Setting::try_new("gain", |t: &mut Tuner, g: f32| {
                if g < 0.0 {
                    return Err(format!("gain {g} dB is negative"));
                }
                t.gain = g;
                Ok(())
            }))
    }

    #[test]
    fn a_message_reaches_its_setter_with_the_converted_value() {
        let settings = tuner_settings();
        let mut t = Tuner {
            freq: 0.0,
            gain: 0.0,
        };
        let reply = settings
            .apply(&mut t, "freq", Pmt::U64(98_500_000))
            .unwrap();
        assert_eq!(reply.unwrap(), Pmt::Null);
        assert_eq!(t.freq, 98.5e6);
        settings
            .apply(&mut t, "gain", Pmt::F64(20.0))
            .unwrap()
            .unwrap();
        assert_eq!(t.gain, 20.0);
        assert!(settings.apply(&mut t, "antenna", Pmt::Null).is_none());
    }

    #[test]
    fn errors_name_the_parameter_and_both_types() {
        let settings = tuner_settings();
        let mut t = Tuner {
            freq: 1.0,
            gain: 1.0,
        };
        let e = settings
            .apply(&mut t, "freq", Pmt::from("98.5 MHz"))
            .unwrap()
            .unwrap_err()
            .to_string();
        assert_eq!(
            e,
            "parameter `freq`: expected float, found string \"98.5 MHz\""
        );
        let e = settings
            .apply(&mut t, "gain", Pmt::F64(-3.0))
            .unwrap()
            .unwrap_err()
            .to_string();
        assert_eq!(e, "parameter `gain`: gain -3 dB is negative");
        assert_eq!(
            (t.freq, t.gain),
            (1.0, 1.0),
            "rejected values change nothing"
        );
    }

    #[test]
    fn infos_list_every_setting_once_in_order() {
        let settings = tuner_settings().with(Setting::new("freq", |t: &mut Tuner, f: f64| {
            t.freq = 2.0 * f
        }));
        let infos = settings.infos();
        let names: Vec<_> = infos.iter().map(|i| i.name).collect();
        assert_eq!(names, ["gain", "freq"]);
        assert_eq!(infos[1].ty, ParamType::Float);
    }

    struct Holder {
        x: i64,
        settings: Settings<Holder>,
    }

    #[test]
    fn dispatch_puts_the_settings_back() {
        let mut h = Holder {
            x: 0,
            settings: Settings::new().with(Setting::new("x", |h: &mut Holder, v: i64| h.x = v)),
        };
        Settings::dispatch(&mut h, |h| &mut h.settings, "x", Pmt::I64(4)).unwrap();
        assert_eq!(h.x, 4);
        assert!(!h.settings.is_empty());
        let e = Settings::dispatch(&mut h, |h| &mut h.settings, "y", Pmt::I64(4)).unwrap_err();
        assert_eq!(e.to_string(), "no handler for message input `y`");
        Settings::dispatch(&mut h, |h| &mut h.settings, "x", Pmt::I64(5)).unwrap();
        assert_eq!(h.x, 5);
    }
}
