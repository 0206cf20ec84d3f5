//! The frame of Emilia's own binary files (pattern weights, opening books): magic bytes, a
//! format version, the format's own header fields, the body's length and its CRC-32, then
//! the body. Reading checks the whole frame before a format reads a byte of its body, so a
//! truncated, padded, damaged or foreign file is refused alike whatever it holds.
//!
//! Layout (little endian):
//!
//! | bytes | field |
//! |---|---|
//! | 8 | magic, one per format |
//! | 4 | format version |
//! | `fields` | the format's header fields |
//! | 4 | body length in bytes |
//! | 4 | CRC-32 (IEEE) of the body |
//! | … | body |

use std::fmt;

/// What a file format puts in its frame.
pub struct Frame {
    /// First bytes of every file of the format.
    pub magic: &'static [u8; 8],
    /// The format version this code reads and writes.
    pub version: u32,
    /// Bytes of the format's own header fields, between the version and the body length.
    pub fields: usize,
}

/// Why a file was refused by its frame, before its body was read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FrameError {
    /// Shorter than its header, or than the body its header announces.
    Truncated {
        /// Bytes expected at least.
        expected: usize,
        /// Bytes present.
        found: usize,
    },
    /// Longer than its header announces.
    TrailingBytes(usize),
    /// Not a file of this format at all.
    BadMagic,
    /// Written by another version of the format: the version read, and the one this build
    /// reads.
    Version {
        /// The file's version.
        found: u32,
        /// The version this build reads.
        supported: u32,
    },
    /// The body does not match its checksum: the file is damaged.
    Checksum {
        /// CRC-32 in the header.
        stored: u32,
        /// CRC-32 of the body as read.
        computed: u32,
    },
}

impl FrameError {
    /// The error in words, for a file that should hold `kind` ("book", "weights").
    pub fn describe(&self, kind: &str) -> String {
        match self {
            FrameError::Truncated { expected, found } => {
                format!("{kind} file truncated: {found} bytes, at least {expected} expected")
            }
            FrameError::TrailingBytes(n) => {
                format!("{kind} file has {n} unexpected bytes after its body")
            }
            FrameError::BadMagic => format!("not an Emilia {kind} file (bad magic bytes)"),
            FrameError::Version { found, supported } => format!(
                "{kind} file format version {found} is not supported (this build reads \
                 {supported})"
            ),
            FrameError::Checksum { stored, computed } => {
                format!("{kind} file is damaged: checksum {computed:08x}, header says {stored:08x}")
            }
        }
    }
}

impl fmt::Display for FrameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.describe("binary"))
    }
}

impl std::error::Error for FrameError {}

impl Frame {
    /// Bytes before the body.
    fn header_len(&self) -> usize {
        8 + 4 + self.fields + 4 + 4
    }

    /// The file's bytes: `fields` (exactly [`Frame::fields`] bytes) and `body` framed.
    pub fn wrap(&self, fields: &[u8], body: &[u8]) -> Vec<u8> {
        assert_eq!(fields.len(), self.fields, "header fields of the wrong size");
        let mut out = Vec::with_capacity(self.header_len() + body.len());
        out.extend_from_slice(self.magic);
        out.extend_from_slice(&self.version.to_le_bytes());
        out.extend_from_slice(fields);
        out.extend_from_slice(&(body.len() as u32).to_le_bytes());
        out.extend_from_slice(&crc32(body).to_le_bytes());
        out.extend_from_slice(body);
        out
    }

    /// The header fields and the body of `bytes`, once magic, version, length and checksum
    /// are found right.
    pub fn open<'a>(&self, bytes: &'a [u8]) -> Result<(&'a [u8], &'a [u8]), FrameError> {
        let header_len = self.header_len();
        if bytes.len() < header_len {
            // A short file that does not even start like one of the format is foreign.
            if !bytes.is_empty() && !self.magic.starts_with(&bytes[..bytes.len().min(8)]) {
                return Err(FrameError::BadMagic);
            }
            return Err(FrameError::Truncated {
                expected: header_len,
                found: bytes.len(),
            });
        }
        if &bytes[..8] != self.magic {
            return Err(FrameError::BadMagic);
        }
        let version = u32_at(bytes, 8);
        if version != self.version {
            return Err(FrameError::Version {
                found: version,
                supported: self.version,
            });
        }
        let fields = &bytes[12..12 + self.fields];
        let body_len = u32_at(bytes, 12 + self.fields) as usize;
        let stored = u32_at(bytes, 16 + self.fields);
        let end = header_len + body_len;
        if bytes.len() < end {
            return Err(FrameError::Truncated {
                expected: end,
                found: bytes.len(),
            });
        }
        if bytes.len() > end {
            return Err(FrameError::TrailingBytes(bytes.len() - end));
        }
        let body = &bytes[header_len..];
        let computed = crc32(body);
        if computed != stored {
            return Err(FrameError::Checksum { stored, computed });
        }
        Ok((fields, body))
    }
}

/// The little-endian number of four bytes at `at`.
pub fn u32_at(bytes: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(bytes[at..at + 4].try_into().expect("four bytes"))
}

/// The little-endian number of eight bytes at `at`.
pub fn u64_at(bytes: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(bytes[at..at + 8].try_into().expect("eight bytes"))
}

/// CRC tables for eight bytes at a time: `[0]` is the classic byte table, `[k]` the effect
/// of a byte followed by `k` zero bytes.
const fn crc_tables() -> [[u32; 256]; 8] {
    let mut tables = [[0u32; 256]; 8];
    let mut n = 0;
    while n < 256 {
        let mut c = n as u32;
        let mut k = 0;
        while k < 8 {
            c = if c & 1 != 0 {
                0xEDB8_8320 ^ (c >> 1)
            } else {
                c >> 1
            };
            k += 1;
        }
        tables[0][n] = c;
        n += 1;
    }
    let mut t = 1;
    while t < 8 {
        let mut n = 0;
        while n < 256 {
            let previous = tables[t - 1][n];
            tables[t][n] = tables[0][(previous & 0xFF) as usize] ^ (previous >> 8);
            n += 1;
        }
        t += 1;
    }
    tables
}

static CRC_TABLES: [[u32; 256]; 8] = crc_tables();

/// CRC-32 (IEEE 802.3, as in zip and PNG) of `bytes`, eight bytes a step: the embedded
/// weights are checked at every start-up, and a byte at a time took a few milliseconds.
pub fn crc32(bytes: &[u8]) -> u32 {
    let t = &CRC_TABLES;
    let mut crc = !0u32;
    let mut chunks = bytes.chunks_exact(8);
    for chunk in &mut chunks {
        let low = crc ^ u32::from_le_bytes([chunk[0], chunk[1], chunk[2], chunk[3]]);
        let high = u32::from_le_bytes([chunk[4], chunk[5], chunk[6], chunk[7]]);
        crc = t[7][(low & 0xFF) as usize]
            ^ t[6][(low >> 8 & 0xFF) as usize]
            ^ t[5][(low >> 16 & 0xFF) as usize]
            ^ t[4][(low >> 24) as usize]
            ^ t[3][(high & 0xFF) as usize]
            ^ t[2][(high >> 8 & 0xFF) as usize]
            ^ t[1][(high >> 16 & 0xFF) as usize]
            ^ t[0][(high >> 24) as usize];
    }
    for &b in chunks.remainder() {
        crc = t[0][((crc ^ b as u32) & 0xFF) as usize] ^ (crc >> 8);
    }
    !crc
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEST: Frame = Frame {
        magic: b"EMILIATS",
        version: 3,
        fields: 2,
    };

    #[test]
    fn a_framed_body_opens_to_its_fields_and_body() {
        let bytes = TEST.wrap(b"ab", b"the body");
        assert_eq!(bytes.len(), 8 + 4 + 2 + 4 + 4 + 8);
        assert_eq!(TEST.open(&bytes), Ok((&b"ab"[..], &b"the body"[..])));
        let empty = TEST.wrap(b"xy", b"");
        assert_eq!(TEST.open(&empty), Ok((&b"xy"[..], &b""[..])));
    }

    #[test]
    fn each_damage_is_named() {
        let bytes = TEST.wrap(b"ab", b"the body");
        assert_eq!(
            TEST.open(&bytes[..5]),
            Err(FrameError::Truncated {
                expected: 22,
                found: 5
            })
        );
        assert_eq!(
            TEST.open(&bytes[..bytes.len() - 1]),
            Err(FrameError::Truncated {
                expected: 30,
                found: 29
            })
        );
        let mut longer = bytes.clone();
        longer.push(0);
        assert_eq!(TEST.open(&longer), Err(FrameError::TrailingBytes(1)));
        // Foreign files, short or long, are named foreign rather than truncated.
        assert_eq!(TEST.open(b"(;GM"), Err(FrameError::BadMagic));
        assert_eq!(
            TEST.open(b"not a framed file at all, just text"),
            Err(FrameError::BadMagic)
        );
        let mut version = bytes.clone();
        version[8] = 4;
        let err = TEST.open(&version).unwrap_err();
        assert_eq!(
            err,
            FrameError::Version {
                found: 4,
                supported: 3
            }
        );
        assert_eq!(
            err.describe("test"),
            "test file format version 4 is not supported (this build reads 3)"
        );
        // A flip in the header fields is not covered by the checksum; in the body it is.
        let mut flipped = bytes.clone();
        let last = flipped.len() - 1;
        flipped[last] ^= 1;
        assert!(matches!(
            TEST.open(&flipped),
            Err(FrameError::Checksum { .. })
        ));
    }

    #[test]
    fn crc_of_eight_bytes_a_step_equals_the_bit_by_bit_definition() {
        fn bitwise(bytes: &[u8]) -> u32 {
            let mut crc = !0u32;
            for &b in bytes {
                crc ^= b as u32;
                for _ in 0..8 {
                    crc = if crc & 1 != 0 {
                        0xEDB8_8320 ^ (crc >> 1)
                    } else {
                        crc >> 1
                    };
                }
            }
            !crc
        }
        let bytes: Vec<u8> = (0..100u32).map(|i| (i * 37 + i / 3) as u8).collect();
        for len in 0..bytes.len() {
            assert_eq!(crc32(&bytes[..len]), bitwise(&bytes[..len]), "{len} bytes");
        }
    }

    #[test]
    fn crc_matches_the_standard_check_value() {
        assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
    }
}
