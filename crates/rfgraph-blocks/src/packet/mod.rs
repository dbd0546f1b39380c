//! GNU Radio's packet blocks (`gr-digital`'s packet operators): CRCs on
//! tagged streams and PDUs ([`Crc32`], [`Crc32Async`]), the header
//! formats (`default`, `counter`, `crc`, `ofdm`) declared once
//! ([`HeaderFormatParams`], flattened into every
//! block that formats or parses headers) with their writer
//! ([`HeaderFormatter`]) and reader ([`HeaderParser`]), and the blocks
//! around them ([`ProtocolFormatter`], [`ProtocolFormatterAsync`],
//! [`ProtocolParser`]), and the older fixed-length header of the OFDM
//! examples, `packet_header_default` and `packet_header_ofdm`
//! ([`PacketHeaderParams`], [`PacketHeaderKind`], [`PacketHeader`],
//! [`PacketHeaderGenerator`], [`PacketHeaderParser`]). Each matches GNU
//! Radio 3.10 value for value; the checksums are [`crc32`] and [`crc8`].

mod crc;
mod crc32;
mod crc32_async;
mod header_format;
mod header_format_ofdm;
mod header_parser;
mod packet_header;
mod packet_header_ofdm;
mod packet_headergenerator;
mod packet_headerparser;
mod protocol_formatter;
mod protocol_formatter_async;
mod protocol_parser;

pub use crc::{crc8, crc32};
pub use crc32::{Crc32, Crc32Params};
pub use crc32_async::{Crc32Async, Crc32AsyncParams};
pub use header_format::{DEFAULT_ACCESS_CODE, HeaderFormat, HeaderFormatParams, HeaderFormatter};
pub use header_parser::{HeaderParser, Parsed};
pub use packet_header::{PacketHeader, PacketHeaderParams};
pub use packet_header_ofdm::PacketHeaderKind;
pub use packet_headergenerator::{PacketHeaderGenerator, PacketHeaderGeneratorParams};
pub use packet_headerparser::{PacketHeaderParser, PacketHeaderParserParams};
pub use protocol_formatter::{ProtocolFormatter, ProtocolFormatterParams};
pub use protocol_formatter_async::{ProtocolFormatterAsync, ProtocolFormatterAsyncParams};
pub use protocol_parser::{ProtocolParser, ProtocolParserParams};

pub(crate) use crc32::spec as crc32_spec;
pub(crate) use crc32_async::spec as crc32_async_spec;
pub(crate) use packet_headergenerator::spec as packet_headergenerator_spec;
pub(crate) use packet_headerparser::spec as packet_headerparser_spec;
pub(crate) use protocol_formatter::spec as protocol_formatter_spec;
pub(crate) use protocol_formatter_async::spec as protocol_formatter_async_spec;
pub(crate) use protocol_parser::spec as protocol_parser_spec;
