//! Which seify drivers this build can open ([`drivers`]), and the hint an
//! open error gets when seify's own message does not say what to do.
//!
//! Owns the mapping from seify's drivers to this crate's cargo features;
//! it never opens a device.

/// The `driver=` names this build can open, one per cargo feature that is
/// on: `dummy`, `soapy`, `rtlsdr`, `hackrf`, `hydrasdr`, `pluto`, `uhd`,
/// `bladerf`.
pub fn drivers() -> Vec<&'static str> {
    [
        (cfg!(feature = "dummy"), "dummy"),
        (cfg!(feature = "soapy"), "soapy"),
        (cfg!(feature = "rtlsdr"), "rtlsdr"),
        (cfg!(feature = "hackrf"), "hackrf"),
        (cfg!(feature = "hydrasdr"), "hydrasdr"),
        (cfg!(feature = "pluto"), "pluto"),
        (cfg!(feature = "uhd"), "uhd"),
        (cfg!(feature = "bladerf1"), "bladerf"),
    ]
    .into_iter()
    .filter_map(|(on, name)| on.then_some(name))
    .collect()
}

/// This crate's cargo feature for a seify driver, if it offers one.
fn feature(driver: seify::Driver) -> Option<&'static str> {
    use seify::Driver::*;
    Some(match driver {
        Dummy => "dummy",
        Soapy => "soapy",
        RtlSdr => "rtlsdr",
        HackRf => "hackrf",
        HydraSdr => "hydrasdr",
        Pluto => "pluto",
        Uhd => "uhd",
        BladeRf => "bladerf1",
        _ => return None,
    })
}

/// What to add to seify's error `cause` for opening `args` (with its
/// leading separator), or nothing.
pub(crate) fn hint(args: &seify::Args, cause: &seify::Error) -> String {
    let Ok(name) = args.get::<String>("driver") else {
        return String::new();
    };
    let this_build = || match drivers().as_slice() {
        [] => "this build has no driver: enable a cargo feature of rfgraph-hw".to_string(),
        names => format!("this build opens driver={}", names.join(", driver=")),
    };
    match (name.parse::<seify::Driver>(), cause) {
        (Err(_), _) => format!(" (`{name}` is not a seify driver; {})", this_build()),
        (Ok(driver), seify::Error::DriverFeatureNotEnabled { .. }) => {
            let build = feature(driver).map_or_else(String::new, |f| {
                format!("build rfgraph-hw with its `{f}` feature, or ")
            });
            let soapy = if cfg!(feature = "soapy") {
                format!("open it through SoapySDR: driver=soapy,soapy_driver={name}")
            } else {
                this_build()
            };
            format!(" ({build}{soapy})")
        }
        _ => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hint_for(args: &str, cause: seify::Error) -> String {
        hint(&args.parse().unwrap(), &cause)
    }

    #[test]
    fn an_unknown_name_lists_the_drivers_of_this_build() {
        let h = hint_for("driver=warp", seify::Error::DeviceNotFound);
        assert!(
            h.starts_with(" (`warp` is not a seify driver; this build "),
            "{h}"
        );
        for name in drivers() {
            assert!(h.contains(&format!("driver={name}")), "{h}");
        }
        if drivers().is_empty() {
            assert!(h.contains("no driver: enable a cargo feature"), "{h}");
        }
    }

    #[test]
    fn a_driver_left_out_names_its_feature() {
        let cause = seify::Error::DriverFeatureNotEnabled {
            driver: seify::Driver::RtlSdr,
        };
        let h = hint_for("driver=rtlsdr", cause);
        assert!(
            h.starts_with(" (build rfgraph-hw with its `rtlsdr` feature, or "),
            "{h}"
        );
        if cfg!(feature = "soapy") {
            assert!(h.ends_with("driver=soapy,soapy_driver=rtlsdr)"), "{h}");
        }
    }

    #[test]
    fn other_errors_and_no_driver_get_no_hint() {
        assert_eq!(hint_for("driver=dummy", seify::Error::Busy), "");
        assert_eq!(hint_for("serial=123", seify::Error::DeviceNotFound), "");
    }
}
