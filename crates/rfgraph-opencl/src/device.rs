//! Device discovery and selection.
//!
//! Owns the enumeration of platforms and devices and the rule that picks
//! one: by platform and/or device name (case-insensitive substrings), else
//! the first GPU, else the first CPU device, else the first device.

use crate::error::OclError;
use opencl3::device::{CL_DEVICE_TYPE_ALL, CL_DEVICE_TYPE_CPU, CL_DEVICE_TYPE_GPU, Device};
use opencl3::platform::get_platforms;
use std::sync::Mutex;

/// Serialises enumeration. Some drivers set their devices up on the first
/// `clGetPlatformIDs`/`clGetDeviceIDs` of a process without a lock (PoCL
/// 3.1 does): concurrent first calls, e.g. two flowgraphs created on two
/// threads, then see no device or crash reading a device's name.
static ENUMERATION: Mutex<()> = Mutex::new(());

/// One OpenCL device and the platform it belongs to.
#[derive(Clone, Debug)]
pub struct DeviceInfo {
    /// The platform's name, e.g. `Portable Computing Language`.
    pub platform: String,
    /// The device's name, e.g. `cpu-haswell-...`.
    pub name: String,
    /// True for a GPU.
    pub is_gpu: bool,
    /// True for a CPU device.
    pub is_cpu: bool,
    /// The device's OpenCL version string.
    pub version: String,
    pub(crate) id: opencl3::types::cl_device_id,
}

// SAFETY: a cl_device_id of a root device is an opaque, immutable handle
// that stays valid for the whole process; OpenCL API calls taking it are
// thread-safe (OpenCL 1.2, appendix A.2).
unsafe impl Send for DeviceInfo {}
unsafe impl Sync for DeviceInfo {}

impl std::fmt::Display for DeviceInfo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} / {}", self.platform, self.name)
    }
}

/// Which device to use. The default picks the first GPU, else the first
/// CPU device.
#[derive(Clone, Debug, Default)]
pub struct DeviceSelector {
    /// Case-insensitive substring of the platform name.
    pub platform: Option<String>,
    /// Case-insensitive substring of the device name.
    pub device: Option<String>,
}

impl DeviceSelector {
    /// The first GPU, else the first CPU device.
    pub fn any() -> Self {
        Self::default()
    }

    /// The first device whose name contains `name` (case-insensitive).
    pub fn by_name(name: impl Into<String>) -> Self {
        Self {
            platform: None,
            device: Some(name.into()),
        }
    }

    /// The first device of the platform whose name contains `name`.
    pub fn by_platform(name: impl Into<String>) -> Self {
        Self {
            platform: Some(name.into()),
            device: None,
        }
    }

    fn describe(&self) -> String {
        match (&self.platform, &self.device) {
            (None, None) => "any device".to_string(),
            (Some(p), None) => format!("platform `{p}`"),
            (None, Some(d)) => format!("device `{d}`"),
            (Some(p), Some(d)) => format!("platform `{p}` and device `{d}`"),
        }
    }

    /// Picks a device among `devices`.
    pub fn pick<'a>(&self, devices: &'a [DeviceInfo]) -> Result<&'a DeviceInfo, OclError> {
        let contains = |hay: &str, needle: &Option<String>| {
            needle
                .as_ref()
                .is_none_or(|n| hay.to_lowercase().contains(&n.to_lowercase()))
        };
        let matching: Vec<&DeviceInfo> = devices
            .iter()
            .filter(|d| contains(&d.platform, &self.platform) && contains(&d.name, &self.device))
            .collect();
        matching
            .iter()
            .find(|d| d.is_gpu)
            .or_else(|| matching.iter().find(|d| d.is_cpu))
            .or_else(|| matching.first())
            .copied()
            .ok_or_else(|| OclError::NoDevice {
                wanted: self.describe(),
                available: if devices.is_empty() {
                    "none".to_string()
                } else {
                    devices
                        .iter()
                        .map(|d| d.to_string())
                        .collect::<Vec<_>>()
                        .join(", ")
                },
            })
    }
}

/// Every device of every platform. Fails with [`OclError::NoPlatform`] when
/// no OpenCL platform (or no ICD loader) exists.
pub fn devices() -> Result<Vec<DeviceInfo>, OclError> {
    let _serial = ENUMERATION.lock().unwrap_or_else(|p| p.into_inner());
    let platforms = get_platforms().map_err(|e| OclError::NoPlatform {
        cause: e.to_string(),
    })?;
    if platforms.is_empty() {
        return Err(OclError::NoPlatform {
            cause: "the ICD loader lists no platform".to_string(),
        });
    }
    let mut out = Vec::new();
    for p in platforms {
        let platform = p.name().unwrap_or_else(|_| "?".to_string());
        // A platform without devices reports an error here; skip it.
        let Ok(ids) = p.get_devices(CL_DEVICE_TYPE_ALL) else {
            continue;
        };
        for id in ids {
            let d = Device::new(id);
            let kind = d.dev_type().unwrap_or(0);
            out.push(DeviceInfo {
                platform: platform.clone(),
                name: d.name().unwrap_or_else(|_| "?".to_string()),
                is_gpu: kind & CL_DEVICE_TYPE_GPU != 0,
                is_cpu: kind & CL_DEVICE_TYPE_CPU != 0,
                version: d.version().unwrap_or_default(),
                id,
            });
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn info(platform: &str, name: &str, gpu: bool) -> DeviceInfo {
        DeviceInfo {
            platform: platform.into(),
            name: name.into(),
            is_gpu: gpu,
            is_cpu: !gpu,
            version: String::new(),
            id: std::ptr::null_mut(),
        }
    }

    #[test]
    fn default_prefers_a_gpu_and_names_filter() {
        let list = [
            info("PoCL", "cpu-haswell", false),
            info("NVIDIA", "GeForce", true),
        ];
        assert_eq!(DeviceSelector::any().pick(&list).unwrap().name, "GeForce");
        assert_eq!(
            DeviceSelector::by_name("HASWELL").pick(&list).unwrap().name,
            "cpu-haswell"
        );
        assert_eq!(
            DeviceSelector::by_platform("pocl")
                .pick(&list)
                .unwrap()
                .name,
            "cpu-haswell"
        );
        let err = DeviceSelector::by_name("tpu").pick(&list).unwrap_err();
        let text = err.to_string();
        assert!(
            text.contains("`tpu`") && text.contains("NVIDIA / GeForce"),
            "{text}"
        );
    }
}
