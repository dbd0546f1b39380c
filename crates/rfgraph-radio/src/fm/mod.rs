//! FM broadcast reception: blocks and the assembled receiver.
