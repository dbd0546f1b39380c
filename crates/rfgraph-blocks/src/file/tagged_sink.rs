//! `TaggedFileSink`: writes each burst of a stream (between `burst` tags)
//! to a file of its own, named by its number and start time as GNU
//! Radio's `tagged_file_sink` names them.

use super::FileError;
use crate::spec_util::{for_any_item, kind_of};
use rfgraph::params::{ItemKind, limits};
use rfgraph::{Block, BoxError, Item, ParamError, ParamSet, Pmt, Ports, StreamInput, WorkIo};
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

/// The parameters of [`TaggedFileSink`] (`tagged_file_sink`, GNU Radio's
/// `blocks_tagged_file_sink`).
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
pub struct TaggedFileSinkParams {
    /// stream item type
    #[param(name = "type", kinds(C32, F32, F64, I32, I16, I8, U8))]
    pub item: ItemKind,
    /// GNU Radio vector length: stream items per file item (tags count
    /// file items)
    #[param(default = 1, min = 1, max = limits::MAX_VLEN)]
    pub vlen: usize,
    /// file items per second, for the bursts' start times
    #[param(default = 1.0, above = 0.0, unit = "Hz")]
    pub samp_rate: f64,
    /// the directory the files go to
    #[param(default = ".")]
    pub directory: String,
    /// the number after `file` in the names (GNU Radio's block's
    /// `unique_id()`)
    #[param(default = 0)]
    pub unique_id: u64,
}

/// Writes each burst of its input to a new file, as GNU Radio's
/// `tagged_file_sink`: a `burst` tag of any value but `#f` starts one at
/// its item, a `burst = #f` tag ends it before its item; items outside
/// bursts are dropped. Burst `n` (from 0) goes to
/// `<directory>/file<unique_id>_<n>_<time>.dat`, `time` its start in
/// seconds with 8 decimals: from the last `rx_time` tag (a tuple of
/// uint64 seconds and double fraction) before it, moved on by the items
/// since over `samp_rate`, or without one from the previous burst's
/// time (GNU Radio's arithmetic, quirks included: a window's first
/// `rx_time` tag counts from item 0, `time + offset / samp_rate`).
///
/// GNU Radio looks back for `rx_time` tags only as far as its buffers
/// still hold them; this sink remembers every one since the last burst
/// start. A file that cannot be created, a write that fails and an
/// `rx_time` that is no time fail the run. The burst open when the run
/// ends is written out and closed.
///
/// # Parameters
/// [`TaggedFileSinkParams`].
///
/// # Stream Inputs
/// - `in`: `T`, `vlen` per file item.
///
/// # Usage
/// ```
/// use rfgraph_blocks::{TaggedFileSink, TaggedFileSinkParams};
/// let sink = TaggedFileSink::<f32>::new(TaggedFileSinkParams {
///     samp_rate: 48_000.0,
///     directory: "/tmp".into(),
///     ..Default::default()
/// })?;
/// # let _ = sink;
/// # Ok::<(), rfgraph::ParamError>(())
/// ```
pub struct TaggedFileSink<T: Item> {
    input: StreamInput<T>,
    params: TaggedFileSinkParams,
    /// The burst's file, while in a burst.
    file: Option<(BufWriter<File>, PathBuf)>,
    /// Bursts started (`d_n`).
    bursts: u64,
    /// The item of the last time reference (`d_last_N`).
    last_n: u64,
    /// The last burst's start time (`d_timeval`).
    timeval: f64,
    /// `rx_time` tags seen at or after `last_n`: (file item, seconds).
    times: Vec<(u64, f64)>,
    /// An error from `finishing`, returned by `deinit`.
    deferred: Option<FileError>,
}

impl<T: Item> TaggedFileSink<T> {
    /// A sink with `params` (the item type is `T`'s).
    ///
    /// Errors: a parameter out of its range.
    pub fn new(mut params: TaggedFileSinkParams) -> Result<Self, ParamError> {
        params.item = kind_of::<T>().unwrap_or(params.item);
        params.validate()?;
        Ok(Self {
            input: StreamInput::new("in").with_min_items(params.vlen),
            params,
            file: None,
            bursts: 0,
            last_n: 0,
            timeval: 0.0,
            times: Vec::new(),
            deferred: None,
        })
    }

    /// The parameters.
    pub fn params(&self) -> &TaggedFileSinkParams {
        &self.params
    }

    /// The name of burst `n` starting at `time` seconds.
    fn name(&self, n: u64, time: f64) -> PathBuf {
        Path::new(&self.params.directory)
            .join(format!("file{}_{n}_{time:.8}.dat", self.params.unique_id))
    }

    fn open(&mut self) -> Result<(), FileError> {
        let path = self.name(self.bursts, self.timeval);
        self.bursts += 1;
        let file = File::create(&path).map_err(|source| FileError::Open {
            path: path.clone(),
            source,
        })?;
        self.file = Some((BufWriter::new(file), path));
        Ok(())
    }

    fn close(&mut self) -> Result<(), FileError> {
        if let Some((mut w, path)) = self.file.take() {
            w.flush().map_err(|source| FileError::Io {
                path,
                op: "writing",
                offset: 0,
                source,
            })?;
        }
        Ok(())
    }

    /// GNU Radio's `work` on what the input holds.
    fn take_input(&mut self) -> Result<(), BoxError> {
        let vlen = self.params.vlen;
        let flat = self.input.position();
        let start = flat / vlen as u64;
        let n = self.input.slice().len() / vlen;
        if n == 0 {
            return Ok(());
        }
        let tags: Vec<(u64, String, Pmt)> = self
            .input
            .tags()
            .into_iter()
            .filter(|t| t.index >= flat && t.index < flat + (n * vlen) as u64)
            .map(|t| (t.index / vlen as u64, t.key, t.value))
            .collect();
        let rate = self.params.samp_rate;
        let mut times = Vec::new();
        for (at, key, value) in &tags {
            if key == "rx_time" {
                let secs = time_of(value)
                    .ok_or_else(|| format!("an `rx_time` tag of {value:?} is no time"))?;
                times.push((*at, secs));
            }
        }
        if let Some(&(at, secs)) = times.first() {
            self.timeval = secs + at as f64 / rate;
            self.last_n = at;
        }
        self.times.extend(times);
        self.times.retain(|t| t.0 >= self.last_n);
        let mut idx = 0usize;
        let mut next = 0usize;
        while idx < n {
            if self.file.is_none() {
                while next < tags.len() {
                    let (at, key, value) = &tags[next];
                    if key == "burst" && *value != Pmt::Bool(false) {
                        let at = *at;
                        idx = (at - start) as usize;
                        let last = self
                            .times
                            .iter()
                            .rfind(|t| t.0 >= self.last_n && t.0 < at)
                            .copied();
                        self.timeval = match last {
                            Some((t_at, secs)) => secs + (at - t_at) as f64 / rate,
                            // GNU Radio's unsigned difference, wrapping
                            // when a time tag came after the burst start.
                            None => self.timeval + at.wrapping_sub(self.last_n) as f64 / rate,
                        };
                        self.last_n = at;
                        self.times.retain(|t| t.0 >= at);
                        self.open()?;
                        break;
                    }
                    next += 1;
                }
                if self.file.is_none() {
                    break;
                }
            } else {
                let mut stop = None;
                while next < tags.len() {
                    let (at, key, value) = &tags[next];
                    next += 1;
                    if key == "burst" && *value == Pmt::Bool(false) {
                        stop = Some((at - start) as usize);
                        break;
                    }
                }
                let upto = stop.unwrap_or(n);
                if let Some((w, path)) = self.file.as_mut() {
                    let items = &self.input.slice()[idx * vlen..upto * vlen];
                    w.write_all(bytemuck::cast_slice(items))
                        .map_err(|source| FileError::Io {
                            path: path.clone(),
                            op: "writing",
                            offset: 0,
                            source,
                        })?;
                }
                idx = upto;
                if stop.is_some() {
                    self.close()?;
                }
            }
        }
        self.input.consume(n * vlen);
        Ok(())
    }
}

/// An `rx_time` value in seconds: a tuple (or list) of a non-negative
/// integer and a number.
fn time_of(value: &Pmt) -> Option<f64> {
    match value {
        Pmt::Tuple(v) | Pmt::List(v) if v.len() == 2 => {
            Some(v[0].as_u64()? as f64 + v[1].as_f64()?)
        }
        _ => None,
    }
}

impl<T: Item> Block for TaggedFileSink<T> {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().input(&mut self.input)
    }

    fn params(&mut self) -> Option<&mut dyn ParamSet> {
        Some(&mut self.params)
    }

    fn is_blocking(&self) -> bool {
        true
    }

    fn work(&mut self, _io: &mut WorkIo) -> Result<(), BoxError> {
        self.take_input()
    }

    /// However the run ends: writes what reached the input and closes
    /// the burst under way.
    fn finishing(&mut self) {
        if let Err(e) = self.take_input() {
            self.deferred = Some(FileError::Meta {
                path: PathBuf::from(&self.params.directory),
                reason: e.to_string(),
            });
            return;
        }
        if let Err(e) = self.close() {
            self.deferred = Some(e);
        }
    }

    fn deinit(&mut self) -> Result<(), BoxError> {
        match self.deferred.take() {
            Some(e) => Err(e.into()),
            None => Ok(()),
        }
    }
}

/// The registry entry: `tagged_file_sink`.
pub(crate) fn spec() -> rfgraph::registry::BlockSpec {
    use rfgraph::registry::{BlockSpec, PortItem, PortSpec};

    BlockSpec::of::<TaggedFileSinkParams>(
        "tagged_file_sink",
        "File Operators",
        "Writes each burst (between `burst` tags) to a file of its own.",
        |p| for_any_item!(kind = p.item, T => TaggedFileSink::<T>::new(p)?),
    )
    .doc(
        "GNU Radio's `blocks_tagged_file_sink`: a `burst` tag of any value but false starts \
         a burst at its item, `burst = false` ends it before its item; each burst goes to \
         `<directory>/file<unique_id>_<n>_<time>.dat` (n from 0, time its start in seconds \
         with 8 decimals, from the last `rx_time` tag and `samp_rate` as GNU Radio reckons \
         it); items outside bursts are dropped. The burst open when the run ends is \
         written out and closed.",
    )
    .input(PortSpec::new("in", PortItem::OfType))
}
