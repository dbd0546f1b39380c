//! The Radio Data System (RDS) on FM broadcast: decoder and encoder.
