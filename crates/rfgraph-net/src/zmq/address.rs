//! GNU Radio's ZeroMQ addresses, made usable by the pure-Rust socket:
//! `tcp://*:5555` (libzmq's "every interface") becomes `0.0.0.0`, and an
//! address without a host (`tcp://:5555`) listens on or connects to
//! `127.0.0.1` only. Anything else passes unchanged (`ipc://` paths,
//! host names, IPv6 in brackets).

/// `address` as the socket takes it.
pub fn normalize(address: &str) -> String {
    let address = address.trim();
    match address.strip_prefix("tcp://") {
        Some(rest) if rest.starts_with("*:") => format!("tcp://0.0.0.0:{}", &rest[2..]),
        Some(rest) if rest.starts_with(':') => format!("tcp://127.0.0.1{rest}"),
        _ => address.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::normalize;

    #[test]
    fn wildcards_and_missing_hosts() {
        assert_eq!(normalize("tcp://*:5555"), "tcp://0.0.0.0:5555");
        assert_eq!(normalize("tcp://:5555"), "tcp://127.0.0.1:5555");
        assert_eq!(normalize(" tcp://10.0.0.2:1 "), "tcp://10.0.0.2:1");
        assert_eq!(normalize("ipc:///tmp/x"), "ipc:///tmp/x");
    }
}
