// The README's declared block, compiled and run by the test suite: one
// parameter struct, the block that holds it, and its registry entry.

use rfgraph::registry::{BlockSpec, ItemKind, PortItem, PortSpec, Registry};
use rfgraph::scheduler::Tpb;
use rfgraph::{
    Block, BoxError, Flowgraph, ParamError, ParamSet, Pmt, Ports, StreamInput, StreamOutput, WorkIo,
};
use rfgraph_blocks::{VectorSink, VectorSource};

/// The parameters of `gain_db`: each field is one parameter, declared
/// once. Its `///` line is its documentation.
#[derive(ParamSet, Clone, Debug)]
pub struct GainDbParams {
    /// gain applied to every sample
    #[param(default = 0.0, unit = "dB", min = -120.0, max = 120.0, settable)]
    pub gain: f64,
}

/// Multiplies every sample by `10^(gain / 20)`.
pub struct GainDb {
    input: StreamInput<f32>,
    output: StreamOutput<f32>,
    params: GainDbParams,
    /// `params.gain` as a factor, kept up to date by `params_changed`.
    factor: f32,
}

impl GainDb {
    /// Rust code meets the same rules as a flowgraph file.
    pub fn new(params: GainDbParams) -> Result<Self, ParamError> {
        params.validate()?;
        Ok(Self {
            input: StreamInput::new("in"),
            output: StreamOutput::new("out"),
            factor: factor(params.gain),
            params,
        })
    }
}

fn factor(db: f64) -> f32 {
    10f64.powf(db / 20.0) as f32
}

impl Block for GainDb {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().input(&mut self.input).output(&mut self.output)
    }

    // The declaration the runtime, the registry and the control port read.
    fn params(&mut self) -> Option<&mut dyn rfgraph::params::ParamSet> {
        Some(&mut self.params)
    }

    // Between two `work` calls, after `gain` took a checked new value.
    fn params_changed(&mut self, _name: &str) -> Result<(), BoxError> {
        self.factor = factor(self.params.gain);
        Ok(())
    }

    fn work(&mut self, _io: &mut WorkIo) -> Result<(), BoxError> {
        let (i, o) = (self.input.slice(), self.output.slice());
        let n = i.len().min(o.len());
        for (o, i) in o[..n].iter_mut().zip(i) {
            *o = self.factor * i;
        }
        self.input.consume(n);
        self.output.produce(n);
        Ok(())
    }
}

/// The registry entry: `rfgraph blocks`, flowgraph files, GRC import and
/// the control port all read the block from here.
pub fn spec() -> BlockSpec {
    BlockSpec::of::<GainDbParams>(
        "gain_db",
        "Level Controllers",
        "Multiplies every sample by a gain given in dB.",
        |p| Ok(Box::new(GainDb::new(p)?)),
    )
    .doc("`y = 10^(gain / 20) · x`; `gain` may change while the block runs.")
    .input(PortSpec::new("in", PortItem::Fixed(ItemKind::F32)))
    .output(PortSpec::new("out", PortItem::Fixed(ItemKind::F32)))
}

fn main() -> Result<(), BoxError> {
    let mut registry = Registry::new();
    registry.add(spec());
    // What a flowgraph file gives, checked against the declaration.
    let given = |db: f64| [("gain".to_string(), Pmt::F64(db))].into_iter().collect();
    let too_loud = registry.build("gain_db", given(1e3)).err().unwrap();
    assert_eq!(
        too_loud.to_string(),
        "block `gain_db`, parameter `gain`: 1000 is out of range: must be in [-120, 120]"
    );
    let mut fg = Flowgraph::new();
    let src = fg.add(VectorSource::new(vec![1.0f32; 4]));
    let gain = fg.add_boxed("gain", "gain_db", registry.build("gain_db", given(20.0))?);
    let sink = fg.add(VectorSink::<f32>::new());
    fg.chain(&[src, gain, sink])?;
    let done = fg.run(Tpb::new())?;
    assert_eq!(
        done.block::<VectorSink<f32>>(sink).unwrap().items(),
        [10.0; 4]
    );

    // A message on input `gain` does this between two `work` calls.
    let mut block = GainDb::new(GainDbParams { gain: 0.0 })?;
    rfgraph::params::apply(&mut block, "gain", Pmt::I64(-20))?;
    assert!((block.factor - 0.1).abs() < 1e-7);
    assert!(rfgraph::params::apply(&mut block, "gain", Pmt::from("loud")).is_err());
    Ok(())
}
