//! The weights file: learned evaluation weights, one set per game stage, as 16-bit integers.
//!
//! Layout (little endian):
//!
//! | bytes | field |
//! |---|---|
//! | 8 | magic `EMILIAPW` |
//! | 4 | format version (1) |
//! | 4 | number of stages |
//! | 4 | weights per stage |
//! | 8 | fingerprint of the feature layout the weights belong to |
//! | 4 | body length in bytes |
//! | 4 | CRC-32 (IEEE) of the body |
//! | … | body |
//!
//! The body lists the weights stage by stage. Neighbouring stages are smoothed towards each
//! other when trained, so each weight is stored as its difference from the same weight one
//! stage earlier, zigzag-coded, and runs of zero differences are collapsed: token
//! `t = (zigzag(delta) << 1)` for one value, `t = ((run - 1) << 1) | 1` for `run` zeros, each
//! token a LEB128 varint.

use std::fmt;
use std::path::Path;

/// First bytes of every weights file.
pub(crate) const MAGIC: &[u8; 8] = b"EMILIAPW";
/// The format version this code reads and writes.
pub(crate) const VERSION: u32 = 1;
const HEADER_LEN: usize = 36;

/// Weights for every stage, as stored in a weights file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Weights {
    /// Number of stages.
    pub stages: usize,
    /// Weights per stage.
    pub per_stage: usize,
    /// Fingerprint of the feature layout.
    pub fingerprint: u64,
    /// `stages * per_stage` weights, stage by stage.
    pub values: Vec<i16>,
}

/// Why a weights file was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WeightsError {
    /// Shorter than its header, or than the body its header announces.
    Truncated {
        /// Bytes expected at least.
        expected: usize,
        /// Bytes present.
        found: usize,
    },
    /// Longer than its header announces.
    TrailingBytes(usize),
    /// Not a weights file at all.
    BadMagic,
    /// Written by a newer or older format.
    Version(u32),
    /// The body does not match its checksum: the file is damaged.
    Checksum {
        /// CRC-32 in the header.
        stored: u32,
        /// CRC-32 of the body as read.
        computed: u32,
    },
    /// The body decodes to the wrong number of weights or to out-of-range values.
    Corrupt(&'static str),
    /// Valid file, but made for another evaluation (other features, stages or sizes).
    Mismatch(String),
}

impl fmt::Display for WeightsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WeightsError::Truncated { expected, found } => write!(
                f,
                "weights file truncated: {found} bytes, at least {expected} expected"
            ),
            WeightsError::TrailingBytes(n) => {
                write!(f, "weights file has {n} unexpected bytes after its body")
            }
            WeightsError::BadMagic => write!(f, "not an Emilia weights file (bad magic bytes)"),
            WeightsError::Version(v) => write!(
                f,
                "weights file format version {v} is not supported (this build reads {VERSION})"
            ),
            WeightsError::Checksum { stored, computed } => write!(
                f,
                "weights file is damaged: checksum {computed:08x}, header says {stored:08x}"
            ),
            WeightsError::Corrupt(what) => write!(f, "weights file is damaged: {what}"),
            WeightsError::Mismatch(what) => {
                write!(f, "weights file does not fit this evaluation: {what}")
            }
        }
    }
}

impl std::error::Error for WeightsError {}

const fn crc_table() -> [u32; 256] {
    let mut table = [0u32; 256];
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
        table[n] = c;
        n += 1;
    }
    table
}

static CRC_TABLE: [u32; 256] = crc_table();

/// CRC-32 (IEEE 802.3, as in zip and PNG) of `bytes`.
pub(crate) fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &b in bytes {
        crc = CRC_TABLE[((crc ^ b as u32) & 0xFF) as usize] ^ (crc >> 8);
    }
    !crc
}

fn push_varint(out: &mut Vec<u8>, mut value: u64) {
    while value >= 0x80 {
        out.push((value as u8) | 0x80);
        value >>= 7;
    }
    out.push(value as u8);
}

fn read_varint(bytes: &[u8], pos: &mut usize) -> Result<u64, WeightsError> {
    let mut value = 0u64;
    for shift in (0..64).step_by(7) {
        let byte = *bytes
            .get(*pos)
            .ok_or(WeightsError::Corrupt("body ends inside a number"))?;
        *pos += 1;
        value |= ((byte & 0x7F) as u64) << shift;
        if byte & 0x80 == 0 {
            return Ok(value);
        }
    }
    Err(WeightsError::Corrupt("overlong number"))
}

fn u32_at(bytes: &[u8], at: usize) -> u32 {
    let mut b = [0u8; 4];
    b.copy_from_slice(&bytes[at..at + 4]);
    u32::from_le_bytes(b)
}

impl Weights {
    /// The file's bytes.
    pub fn encode(&self) -> Vec<u8> {
        debug_assert_eq!(self.values.len(), self.stages * self.per_stage);
        let mut body = Vec::new();
        let mut zeros = 0u64;
        for (i, &value) in self.values.iter().enumerate() {
            let previous = if i >= self.per_stage {
                self.values[i - self.per_stage]
            } else {
                0
            };
            let delta = value as i32 - previous as i32;
            if delta == 0 {
                zeros += 1;
                continue;
            }
            if zeros > 0 {
                push_varint(&mut body, ((zeros - 1) << 1) | 1);
                zeros = 0;
            }
            let zigzag = ((delta << 1) ^ (delta >> 31)) as u32 as u64;
            push_varint(&mut body, zigzag << 1);
        }
        if zeros > 0 {
            push_varint(&mut body, ((zeros - 1) << 1) | 1);
        }
        let mut out = Vec::with_capacity(HEADER_LEN + body.len());
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.extend_from_slice(&(self.stages as u32).to_le_bytes());
        out.extend_from_slice(&(self.per_stage as u32).to_le_bytes());
        out.extend_from_slice(&self.fingerprint.to_le_bytes());
        out.extend_from_slice(&(body.len() as u32).to_le_bytes());
        out.extend_from_slice(&crc32(&body).to_le_bytes());
        out.extend_from_slice(&body);
        out
    }

    /// Reads and checks a file's bytes: magic, version, length, checksum, weight count.
    pub fn decode(bytes: &[u8]) -> Result<Weights, WeightsError> {
        if bytes.len() < HEADER_LEN {
            if !bytes.is_empty() && !MAGIC.starts_with(&bytes[..bytes.len().min(8)]) {
                return Err(WeightsError::BadMagic);
            }
            return Err(WeightsError::Truncated {
                expected: HEADER_LEN,
                found: bytes.len(),
            });
        }
        if &bytes[..8] != MAGIC {
            return Err(WeightsError::BadMagic);
        }
        let version = u32_at(bytes, 8);
        if version != VERSION {
            return Err(WeightsError::Version(version));
        }
        let stages = u32_at(bytes, 12) as usize;
        let per_stage = u32_at(bytes, 16) as usize;
        let mut fp = [0u8; 8];
        fp.copy_from_slice(&bytes[20..28]);
        let fingerprint = u64::from_le_bytes(fp);
        let body_len = u32_at(bytes, 28) as usize;
        let stored = u32_at(bytes, 32);
        let end = HEADER_LEN + body_len;
        if bytes.len() < end {
            return Err(WeightsError::Truncated {
                expected: end,
                found: bytes.len(),
            });
        }
        if bytes.len() > end {
            return Err(WeightsError::TrailingBytes(bytes.len() - end));
        }
        let body = &bytes[HEADER_LEN..];
        let computed = crc32(body);
        if computed != stored {
            return Err(WeightsError::Checksum { stored, computed });
        }
        // A sane bound keeps a forged header from asking for gigabytes.
        let total = stages
            .checked_mul(per_stage)
            .filter(|&t| t <= 1 << 28)
            .ok_or(WeightsError::Corrupt("implausible number of weights"))?;
        let mut values = Vec::with_capacity(total);
        let mut pos = 0;
        while pos < body.len() {
            let token = read_varint(body, &mut pos)?;
            if token & 1 == 1 {
                let run = (token >> 1) + 1;
                if run > (total - values.len()) as u64 {
                    return Err(WeightsError::Corrupt("more weights than the header says"));
                }
                for _ in 0..run {
                    let i = values.len();
                    values.push(if i >= per_stage {
                        values[i - per_stage]
                    } else {
                        0
                    });
                }
            } else {
                let zigzag = token >> 1;
                if values.len() >= total || zigzag > u32::MAX as u64 {
                    return Err(WeightsError::Corrupt("more weights than the header says"));
                }
                let zigzag = zigzag as u32;
                let delta = (zigzag >> 1) as i32 ^ -((zigzag & 1) as i32);
                let i = values.len();
                let previous = if i >= per_stage {
                    values[i - per_stage] as i32
                } else {
                    0
                };
                let value = i16::try_from(previous + delta)
                    .map_err(|_| WeightsError::Corrupt("weight out of 16-bit range"))?;
                values.push(value);
            }
        }
        if values.len() != total {
            return Err(WeightsError::Corrupt("fewer weights than the header says"));
        }
        Ok(Weights {
            stages,
            per_stage,
            fingerprint,
            values,
        })
    }

    /// Writes the file at `path`.
    pub fn write(&self, path: &Path) -> anyhow::Result<()> {
        use anyhow::Context;
        std::fs::write(path, self.encode())
            .with_context(|| format!("cannot write weights file {}", path.display()))
    }

    /// Reads and checks the file at `path`.
    pub fn read(path: &Path) -> anyhow::Result<Weights> {
        use anyhow::Context;
        let bytes = std::fs::read(path)
            .with_context(|| format!("cannot read weights file {}", path.display()))?;
        Weights::decode(&bytes).with_context(|| format!("weights file {}", path.display()))
    }

    /// The weights of stage `stage`.
    pub fn stage(&self, stage: usize) -> &[i16] {
        &self.values[stage * self.per_stage..(stage + 1) * self.per_stage]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Weights {
        let mut state = 7u64;
        let values = (0..3 * 1000)
            .map(|i| {
                state = state.wrapping_mul(6364136223846793005).wrapping_add(1);
                match i % 7 {
                    0 => i16::MIN,
                    1 => i16::MAX,
                    2 | 3 => 0,
                    _ => (state >> 48) as i16,
                }
            })
            .collect();
        Weights {
            stages: 3,
            per_stage: 1000,
            fingerprint: 0x1234_5678_9ABC_DEF0,
            values,
        }
    }

    #[test]
    fn weights_survive_a_round_trip() {
        let w = sample();
        assert_eq!(Weights::decode(&w.encode()), Ok(w));
        let zeros = Weights {
            stages: 2,
            per_stage: 5,
            fingerprint: 1,
            values: vec![0; 10],
        };
        assert_eq!(Weights::decode(&zeros.encode()), Ok(zeros));
    }

    #[test]
    fn crc_matches_the_standard_check_value() {
        assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
    }

    #[test]
    fn damaged_files_are_refused_with_the_reason() {
        let bytes = sample().encode();
        assert!(matches!(
            Weights::decode(&bytes[..20]),
            Err(WeightsError::Truncated { .. })
        ));
        assert!(matches!(
            Weights::decode(&bytes[..bytes.len() - 1]),
            Err(WeightsError::Truncated { .. })
        ));
        let mut longer = bytes.clone();
        longer.push(0);
        assert_eq!(
            Weights::decode(&longer),
            Err(WeightsError::TrailingBytes(1))
        );
        let mut magic = bytes.clone();
        magic[0] = b'X';
        assert_eq!(Weights::decode(&magic), Err(WeightsError::BadMagic));
        let mut version = bytes.clone();
        version[8] = 9;
        assert_eq!(Weights::decode(&version), Err(WeightsError::Version(9)));
        for at in [HEADER_LEN, bytes.len() / 2, bytes.len() - 1] {
            let mut flipped = bytes.clone();
            flipped[at] ^= 0x10;
            let err = Weights::decode(&flipped).unwrap_err();
            assert!(matches!(err, WeightsError::Checksum { .. }), "{err}");
            assert!(err.to_string().contains("damaged"));
        }
        // A header that promises more weights than the body holds.
        let mut count = bytes.clone();
        count[16] = count[16].wrapping_add(1);
        assert!(matches!(
            Weights::decode(&count),
            Err(WeightsError::Corrupt(_))
        ));
    }
}
