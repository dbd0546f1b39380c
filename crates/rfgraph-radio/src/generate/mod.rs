//! Generators of realistic test signals with known contents.
