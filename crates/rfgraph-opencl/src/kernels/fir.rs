//! [`Fir`]: a streaming FIR filter on the device, `y[n] = Σ_k h[k]·x[n-k]`
//! with real taps on `f32` or `Complex32`, zero history at the start (the
//! same convention as `rfgraph_dsp::Fir`, so the host filter is its
//! reference).
//!
//! The block keeps the last `taps - 1` input items unconsumed as history:
//! they stay in the input ring, so no device-side copy is needed. The
//! kernel reads its window modulo the ring capacity (a window may cross
//! the ring's end); outputs are launched contiguous.

use super::launch::{Args, launch, launch_size};
use crate::context::OclContext;
use crate::error::OclError;
use crate::item::DeviceItem;
use crate::port::{DeviceInput, DeviceOutput};
use crate::ring::DeviceRing;
use opencl3::kernel::Kernel;
use opencl3::memory::{Buffer, ClMem};
use rfgraph::buffer::EdgeBuffer;
use rfgraph::buffer::positions::PositionedBuffer;
use rfgraph::{Block, BoxError, Ports, Tag, WorkIo};

fn source<T: DeviceItem>() -> String {
    format!(
        r#"
#define T {ty}
__kernel void rf_fir(__global const T *in, uint in_cap, ulong first,
                     __global T *out, uint out_off,
                     __global const float *taps, uint ntaps) {{
    size_t i = get_global_id(0);
    /* absolute index of the oldest input in this output's window */
    long j0 = (long)(first + i) - (long)(ntaps - 1);
    uint k0 = j0 < 0 ? (uint)(-j0) : 0u;         /* taps before index 0 see zeros */
    uint idx = (uint)((j0 + (long)k0) % (long)in_cap);
    T acc = (T)(0.0f);
    for (uint k = k0; k < ntaps; k++) {{
        acc += taps[ntaps - 1 - k] * in[idx];
        idx++;
        if (idx == in_cap) idx = 0;
    }}
    out[out_off + i] = acc;
}}
"#,
        ty = T::CL_TYPE
    )
}

/// A device FIR filter with real taps.
pub struct Fir<T: DeviceItem> {
    input: DeviceInput<T>,
    output: DeviceOutput<T>,
    kernel: Kernel,
    taps: Buffer<f32>,
    ntaps: usize,
    /// Outputs enqueued so far (absolute index of the next output).
    next_out: u64,
    context: OclContext,
}

impl<T: DeviceItem> Fir<T> {
    /// A filter with `taps` (at least one) on `context`.
    pub fn new(context: &OclContext, taps: &[f32]) -> Result<Self, OclError> {
        if taps.is_empty() {
            return Err(OclError::InvalidParameter {
                block: "Fir",
                reason: "an FIR filter needs at least one tap".into(),
            });
        }
        let kernel = context.kernel(&source::<T>(), "rf_fir")?;
        let buffer = context.alloc::<f32>(taps.len())?;
        crate::ring::write_blocking(context, &buffer, taps)?;
        Ok(Self {
            input: DeviceInput::new("in", context),
            output: DeviceOutput::new("out", context),
            kernel,
            taps: buffer,
            ntaps: taps.len(),
            next_out: 0,
            context: context.clone(),
        })
    }

    /// Input items kept back as history.
    fn history(&self) -> u64 {
        self.ntaps as u64 - 1
    }

    /// Copies the tags of inputs `[next_out, next_out + n)` to the `n`
    /// outputs about to be produced, at the same offsets.
    fn forward_tags(&mut self, input: &DeviceRing, n: usize) {
        let first_out = self.output.writer().position();
        let out = self.output.writer().ring().clone();
        let from = self.next_out;
        input
            .positions()
            .for_each_tag(from..from + n as u64, &mut |t| {
                out.positions().add_tag(Tag {
                    index: first_out + (t.index - from),
                    ..t.clone()
                });
            });
    }
}

impl<T: DeviceItem> Block for Fir<T> {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().input(&mut self.input).output(&mut self.output)
    }

    /// Tags go out with the outputs they belong to (see `forward_tags`),
    /// not when their inputs leave the history.
    fn tag_policy(&self) -> rfgraph::TagPolicy {
        rfgraph::TagPolicy::Manual
    }

    fn init(&mut self) -> Result<(), BoxError> {
        let capacity = self.input.reader().ring().capacity();
        if capacity <= 2 * self.history() as usize {
            return Err(format!(
                "the input ring holds {capacity} items; a {}-tap FIR needs more than {} (connect it with a larger buffer)",
                self.ntaps,
                2 * self.history()
            )
            .into());
        }
        Ok(())
    }

    fn work(&mut self, _io: &mut WorkIo) -> Result<(), BoxError> {
        let readable = self.input.refresh() as u64;
        let read_pos = self.input.reader().position();
        // Every input up to `written` can be filtered.
        let written = read_pos + readable;
        let mut launched = false;
        self.output.refresh();
        while self.next_out < written {
            let span = self.output.span(0);
            let n = launch_size(((written - self.next_out) as usize).min(span.len));
            if n == 0 {
                break;
            }
            let ring = self.input.reader().ring().clone();
            let mut args = Args::new(&self.kernel);
            args.mem(&ring.mem())?
                .value(&(ring.capacity() as u32))?
                .value(&self.next_out)?
                .span(&span)?
                .mem(&self.taps.get())?
                .value(&(self.ntaps as u32))?;
            launch(&self.context, &self.kernel, n)?;
            // Outputs are published now but their inputs are consumed
            // `taps - 1` items later (history): their tags must go now.
            self.forward_tags(&ring, n);
            self.output.produce(n);
            self.next_out += n as u64;
            launched = true;
        }
        // Keep `taps - 1` inputs as history, unless the stream ended and
        // every output was launched: inputs still waiting for output space
        // must stay (consuming them all would also end this block).
        let ring = self.input.reader().ring();
        let ended = self.next_out == written && ring.writer_finished() && ring.written() == written;
        let keep_from = if ended {
            written
        } else {
            self.next_out.saturating_sub(self.history())
        };
        if keep_from > read_pos {
            self.input.consume((keep_from - read_pos) as usize);
        }
        if launched {
            self.context.flush()?;
        }
        Ok(())
    }
}
