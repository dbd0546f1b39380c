//! Mode S / ADS-B reception at 1090 MHz.
