//! Averaged power spectra and waterfalls.
