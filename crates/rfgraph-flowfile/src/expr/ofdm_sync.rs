//! The default Schmidl & Cox sync words of GNU Radio's OFDM hier blocks
//! (`digital/ofdm_txrx.py`'s `_make_sync_word1` and `_make_sync_word2`)
//! in expressions, as `digital.ofdm_txrx._make_sync_word1(fft_len,
//! occupied_carriers, pilot_carriers)` (also `_make_sync_word2`). GNU
//! Radio draws their BPSK symbols from numpy's legacy generator seeded
//! with 42 (`numpy.random.randint(2)`: a Mersenne Twister word's lowest
//! bit); this module owns the two words.

use super::builtins::Call;
use super::error::{ExprError, ExprErrorKind};
use super::value::Value;
use rfgraph_blocks::Mt19937 as Mt;

/// The largest FFT length a sync word is made for.
const MAX_FFT: i64 = 1 << 16;

/// Calls `path` when it is one of the sync word makers.
pub(crate) fn construct(path: &str, call: &Call) -> Option<Result<Value, ExprError>> {
    let first = match path {
        "digital.ofdm_txrx._make_sync_word1" => true,
        "digital.ofdm_txrx._make_sync_word2" => false,
        _ => return None,
    };
    Some(make(first, call))
}

fn make(first: bool, call: &Call) -> Result<Value, ExprError> {
    let args = call.bind(&["fft_len", "occupied_carriers", "pilot_carriers"], 3, &[])?;
    let arg = |i: usize| &args[i].expect("bind checks the required arguments").value;
    let bad = |what: String| call.error(ExprErrorKind::Value(format!("{}: {what}", call.name)));
    let fft_len = arg(0)
        .as_i64()
        .filter(|n| (1..=MAX_FFT).contains(n))
        .ok_or_else(|| bad(format!("the FFT length must be 1 to {MAX_FFT}")))?;
    let first_list = |v: &Value, what: &str| -> Result<Vec<i64>, ExprError> {
        let inner = match v {
            Value::List(l) => l.first(),
            _ => None,
        };
        match inner {
            Some(Value::List(l)) => l
                .iter()
                .map(|c| {
                    c.as_i64()
                        .ok_or_else(|| bad(format!("{what}: {c} is no carrier")))
                })
                .collect(),
            _ => Err(bad(format!("{what} must be a list of lists of carriers"))),
        }
    };
    let mut active = first_list(arg(1), "occupied_carriers")?;
    active.extend(first_list(arg(2), "pilot_carriers")?);
    let active: Vec<i64> = active
        .into_iter()
        .map(|c| if c < 0 { c + fft_len } else { c })
        .collect();
    let mut mt = Mt::new(42);
    let n = fft_len as usize;
    let mut word = vec![0.0f64; n];
    for (x, w) in word.iter_mut().enumerate() {
        let on = active.contains(&(x as i64)) && (!first || x % 2 == 1);
        if on {
            let scale = if first { std::f64::consts::SQRT_2 } else { 1.0 };
            // numpy's `randint(2)`: the word's lowest bit.
            *w = if mt.next_u32() & 1 == 1 {
                -scale
            } else {
                scale
            };
        }
    }
    if !first {
        word[0] = 0.0;
    }
    // numpy.fft.fftshift
    let mut shifted = vec![0.0; n];
    for (i, w) in word.into_iter().enumerate() {
        shifted[(i + n / 2) % n] = w;
    }
    Ok(Value::List(shifted.into_iter().map(Value::Float).collect()))
}

#[cfg(test)]
mod words {
    use crate::expr::{Env, Value, eval};

    fn word(n: u8) -> Vec<f32> {
        let text = format!(
            "digital.ofdm_txrx._make_sync_word{n}(64, (list(range(-26, -21)) + list(range(-20, -7)) \
             + list(range(-6, 0)) + list(range(1, 7)) + list(range(8, 21)) + list(range(22, 27)),), \
             ((-21, -7, 7, 21),))"
        );
        match eval(&text, &Env::new()).unwrap() {
            Value::List(v) => v.iter().map(|x| x.as_f64().unwrap() as f32).collect(),
            other => panic!("{other:?}"),
        }
    }

    /// `ofdm_txrx.py`'s words for its default carriers, as the OFDM
    /// blocks hold them (taken from GNU Radio).
    #[test]
    fn default_words_are_gnu_radios() {
        let re = |w: Vec<num_complex::Complex32>| w.iter().map(|c| c.re).collect::<Vec<f32>>();
        assert_eq!(word(1), re(rfgraph_blocks::ofdm::txrx_sync_word1()));
        assert_eq!(word(2), re(rfgraph_blocks::ofdm::txrx_sync_word2()));
        let env = Env::new();
        assert!(
            eval(
                "digital.ofdm_txrx._make_sync_word1(0, ((1,),), ((2,),))",
                &env
            )
            .is_err()
        );
        assert!(eval("digital.ofdm_txrx._make_sync_word1(64, 5, ((2,),))", &env).is_err());
    }
}
