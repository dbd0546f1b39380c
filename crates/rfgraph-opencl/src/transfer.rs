//! The host↔device transfer blocks the flowgraph inserts at domain
//! boundaries ([`ToDevice`], [`ToHost`]); usable by hand too.
//!
//! Each keeps up to the context's `in_flight` non-blocking copies queued.
//! The host side of a copy is held (not consumed, not produced) until its
//! event completes, because the driver reads or writes that host memory
//! until then; the device side moves at enqueue, since the in-order queue
//! orders every later command after the copy. Completion wakes the block
//! through its [`Waker`]; nothing waits in `clFinish`.
//!
//! Host memory a copy in flight writes ([`ToHost`]) is only ever held as a
//! raw pointer until the copy's event completed: no `&mut` slice covers it
//! meanwhile, since the device writes it behind Rust's back. When the
//! runtime ends a transfer early, `finishing` waits for the copies in
//! flight and counts their items (consumed, and produced for `ToHost`), so
//! the statistics show every item a transfer moved.

use crate::completion::InFlight;
use crate::context::OclContext;
use crate::item::DeviceItem;
use crate::port::{DeviceInput, DeviceOutput};
use crate::ring::{enqueue_read, enqueue_write};
use rfgraph::buffer::positions::PositionedBuffer;
use rfgraph::{Block, BoxError, Ports, StreamInput, StreamOutput, Tag, Waker, WorkIo};

/// Copies host items to device memory: host input `in`, device output `out`.
pub struct ToDevice<T: DeviceItem> {
    input: StreamInput<T>,
    output: DeviceOutput<T>,
    in_flight: InFlight,
}

impl<T: DeviceItem> ToDevice<T> {
    /// A transfer into `context`, with the context's in-flight limit.
    pub fn new(context: &OclContext) -> Self {
        Self {
            input: StreamInput::new("in"),
            output: DeviceOutput::new("out", context),
            in_flight: InFlight::new(context),
        }
    }

    /// Copies the tags of the `n` host items `skip` items past the
    /// input's position (after this call's consumption) to the `n` device
    /// items about to be produced. Device items are published when their
    /// copy is enqueued, while host items are consumed only when it
    /// completes: left to the runtime, a tag would reach the device ring
    /// after readers there moved past its item.
    fn forward_tags(&mut self, skip: usize, n: usize) {
        let host_first = self.input.position() + skip as u64;
        let host_end = host_first + n as u64;
        let device_first = self.output.writer().position();
        let ring = self.output.writer().ring().clone();
        for t in self.input.tags() {
            if (host_first..host_end).contains(&t.index) {
                ring.positions().add_tag(Tag {
                    index: device_first + (t.index - host_first),
                    ..t
                });
            }
        }
    }
}

impl<T: DeviceItem> Block for ToDevice<T> {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().input(&mut self.input).output(&mut self.output)
    }

    fn attach_waker(&mut self, waker: Waker) {
        self.in_flight.set_waker(waker);
    }

    fn work(&mut self, io: &mut WorkIo) -> Result<(), BoxError> {
        let host = self.input.slice();
        let (host_ptr, host_len) = (host.as_ptr(), host.len());
        let done = self.in_flight.retire()?;
        self.input.consume(done);
        self.output.refresh();
        let mut enqueued = false;
        while self.in_flight.has_room() {
            let skip = self.in_flight.items();
            let span = self.output.span(0);
            let n = (host_len - done - skip).min(span.len);
            if n == 0 {
                break;
            }
            // SAFETY: items [done + skip, done + skip + n) of the host slice
            // stay readable and unchanged until this copy's event completes:
            // they are consumed only then (`retire`), so the host writer
            // cannot reuse them, and when the runtime finishes this block
            // early (its readers gone, a stop) it calls `finishing`, which
            // waits for every copy, before it detaches the input. The
            // device range is free space of our ring, at most `span.len`
            // items from `span.offset`.
            let event = unsafe {
                let src = std::slice::from_raw_parts(host_ptr.add(done + skip), n);
                enqueue_write(self.output.writer().ring(), span.offset, src)
            }?;
            self.in_flight.push(event, n)?;
            self.forward_tags(skip, n);
            self.output.produce(n);
            enqueued = true;
        }
        Ok(self.in_flight.end_call(enqueued, io)?)
    }

    /// Copies in flight read host items the runtime is about to hand back
    /// to their writer: they complete first. Their items were produced on
    /// the device when enqueued; now they are consumed on the host too
    /// (the runtime publishes what `finishing` consumed).
    fn finishing(&mut self) {
        let done = self.in_flight.wait_all();
        self.input.consume(done);
    }

    fn deinit(&mut self) -> Result<(), BoxError> {
        self.in_flight.wait_all();
        Ok(())
    }

    /// Tags go out with the device items they belong to (see
    /// `forward_tags`), not when the host items are consumed.
    fn tag_policy(&self) -> rfgraph::TagPolicy {
        rfgraph::TagPolicy::Manual
    }
}

/// Copies device items to host memory: device input `in`, host output `out`.
pub struct ToHost<T: DeviceItem> {
    input: DeviceInput<T>,
    output: StreamOutput<T>,
    in_flight: InFlight,
}

impl<T: DeviceItem> ToHost<T> {
    /// A transfer out of `context`, with the context's in-flight limit.
    pub fn new(context: &OclContext) -> Self {
        Self {
            input: DeviceInput::new("in", context),
            output: StreamOutput::new("out"),
            in_flight: InFlight::new(context),
        }
    }
}

impl<T: DeviceItem> Block for ToHost<T> {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().input(&mut self.input).output(&mut self.output)
    }

    fn attach_waker(&mut self, waker: Waker) {
        self.in_flight.set_waker(waker);
    }

    fn work(&mut self, io: &mut WorkIo) -> Result<(), BoxError> {
        // The free space, raw: copies enqueued by earlier calls may still
        // be writing its first items (see the module doc).
        let host = self.output.slice_raw();
        let (host_ptr, host_len) = (host.cast::<T>(), host.len());
        let done = self.in_flight.retire()?;
        self.output.produce(done);
        self.input.refresh();
        self.input.consume(done);
        let mut enqueued = false;
        while self.in_flight.has_room() {
            let skip = self.in_flight.items();
            let span = self.input.span(skip);
            let n = (host_len - done - skip).min(span.len);
            if n == 0 {
                break;
            }
            // SAFETY: host items [done + skip, done + skip + n) lie inside
            // the free space `slice_raw` returned (`n <= host_len - done -
            // skip`), which only this block writes and which no reference
            // covers; the earlier copies in flight write the `skip` items
            // before them, not these. They are produced (made visible)
            // only after this copy's event completed, and `finishing` and
            // `deinit` wait for it before the output can end. The device
            // range holds `n` readable items from `span.offset`.
            let event = unsafe {
                enqueue_read(
                    self.input.reader().ring(),
                    span.offset,
                    host_ptr.add(done + skip),
                    n,
                )
            }?;
            self.in_flight.push(event, n)?;
            enqueued = true;
        }
        Ok(self.in_flight.end_call(enqueued, io)?)
    }

    /// Copies in flight write host items the runtime is about to end:
    /// they complete first, and then count as produced (and their device
    /// items as consumed), as if `work` had retired them.
    fn finishing(&mut self) {
        let done = self.in_flight.wait_all();
        self.output.produce(done);
        self.input.consume(done);
    }

    fn deinit(&mut self) -> Result<(), BoxError> {
        self.in_flight.wait_all();
        Ok(())
    }
}
