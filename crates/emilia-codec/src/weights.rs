//! The weights file: learned evaluation weights, one set per game stage, as 16-bit integers.
//!
//! Layout (little endian), in the frame of [`crate::frame`] (magic `EMILIAPW`, version 1):
//!
//! | bytes | field |
//! |---|---|
//! | 4 | number of stages |
//! | 4 | weights per stage |
//! | 8 | fingerprint of the feature layout the weights belong to |
//! | … | body |
//!
//! The body lists the weights stage by stage. Neighbouring stages are smoothed towards each
//! other when trained, so each weight is stored as its difference from the same weight one
//! stage earlier, zigzag-coded, and runs of zero differences are collapsed: token
//! `t = (zigzag(delta) << 1)` for one value, `t = ((run - 1) << 1) | 1` for `run` zeros, each
//! token a LEB128 varint.

use std::fmt;
use std::path::PathBuf;

use crate::frame::{u32_at, u64_at, Frame, FrameError};

/// The weights file's frame.
pub const FRAME: Frame = Frame {
    magic: b"EMILIAPW",
    version: 1,
    fields: 16,
};

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
    /// Refused by its frame: truncated, padded, foreign, of another version or damaged.
    Frame(FrameError),
    /// The body decodes to the wrong number of weights or to out-of-range values.
    Corrupt(&'static str),
    /// Valid file, but made for another evaluation (other features, stages or sizes).
    Mismatch(String),
    /// The memory for the evaluation's tables cannot be had.
    Memory(String),
}

impl fmt::Display for WeightsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WeightsError::Frame(e) => f.write_str(&e.describe("weights")),
            WeightsError::Corrupt(what) => write!(f, "weights file is damaged: {what}"),
            WeightsError::Mismatch(what) => {
                write!(f, "weights file does not fit this evaluation: {what}")
            }
            WeightsError::Memory(why) => write!(f, "no memory for the evaluation: {why}"),
        }
    }
}

impl std::error::Error for WeightsError {}

/// Why a weights file could not be read, written or used.
#[derive(Debug)]
pub enum WeightsFileError {
    /// The file could not be read.
    Read(PathBuf, std::io::Error),
    /// The file could not be written.
    Write(PathBuf, std::io::Error),
    /// The file was read but its weights were refused.
    Refused(PathBuf, WeightsError),
}

impl fmt::Display for WeightsFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WeightsFileError::Read(path, e) => {
                write!(f, "cannot read weights file {}: {e}", path.display())
            }
            WeightsFileError::Write(path, e) => {
                write!(f, "cannot write weights file {}: {e}", path.display())
            }
            WeightsFileError::Refused(path, e) => write!(f, "weights file {}: {e}", path.display()),
        }
    }
}

impl std::error::Error for WeightsFileError {}

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
        let mut fields = Vec::with_capacity(FRAME.fields);
        fields.extend_from_slice(&(self.stages as u32).to_le_bytes());
        fields.extend_from_slice(&(self.per_stage as u32).to_le_bytes());
        fields.extend_from_slice(&self.fingerprint.to_le_bytes());
        FRAME.wrap(&fields, &body)
    }

    /// Reads and checks a file's bytes: magic, version, length, checksum, weight count.
    pub fn decode(bytes: &[u8]) -> Result<Weights, WeightsError> {
        let (fields, body) = FRAME.open(bytes).map_err(WeightsError::Frame)?;
        let stages = u32_at(fields, 0) as usize;
        let per_stage = u32_at(fields, 4) as usize;
        let fingerprint = u64_at(fields, 8);
        // A sane bound keeps a forged header from asking for gigabytes.
        let total = stages
            .checked_mul(per_stage)
            .filter(|&t| t <= 1 << 28)
            .ok_or(WeightsError::Corrupt("implausible number of weights"))?;
        // Runs at every start-up: one pass writing into a table of the final size, with
        // one-byte numbers (most of them) read without the general loop.
        let mut values = vec![0i16; total];
        let mut filled = 0;
        let mut pos = 0;
        while pos < body.len() {
            let token = match body[pos] {
                byte if byte < 0x80 => {
                    pos += 1;
                    byte as u64
                }
                _ => read_varint(body, &mut pos)?,
            };
            if token & 1 == 1 {
                let run = (token >> 1) + 1;
                if run > (total - filled) as u64 {
                    return Err(WeightsError::Corrupt("more weights than the header says"));
                }
                // Each weight of the run repeats the one a stage before (zero in the
                // first stage), copied a stage at most at a time so that no copy reads
                // what it writes.
                let end = filled + run as usize;
                while filled < end {
                    if filled < per_stage {
                        filled = end.min(per_stage);
                        continue;
                    }
                    let stop = end.min(filled + per_stage);
                    values.copy_within(filled - per_stage..stop - per_stage, filled);
                    filled = stop;
                }
            } else {
                let zigzag = token >> 1;
                if filled >= total || zigzag > u32::MAX as u64 {
                    return Err(WeightsError::Corrupt("more weights than the header says"));
                }
                let zigzag = zigzag as u32;
                let delta = (zigzag >> 1) as i32 ^ -((zigzag & 1) as i32);
                let previous = if filled >= per_stage {
                    values[filled - per_stage] as i32
                } else {
                    0
                };
                values[filled] = i16::try_from(previous + delta)
                    .map_err(|_| WeightsError::Corrupt("weight out of 16-bit range"))?;
                filled += 1;
            }
        }
        if filled != total {
            return Err(WeightsError::Corrupt("fewer weights than the header says"));
        }
        Ok(Weights {
            stages,
            per_stage,
            fingerprint,
            values,
        })
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
        // Runs of repeated weights that cross a stage's end and last longer than a stage.
        let mut values = vec![0i16; 20];
        for stage in 0..3 {
            values[stage * 5 + 2] = 3;
        }
        values[17] = -4;
        let repeats = Weights {
            stages: 4,
            per_stage: 5,
            fingerprint: 2,
            values,
        };
        assert_eq!(Weights::decode(&repeats.encode()), Ok(repeats));
    }

    #[test]
    fn damaged_files_are_refused_with_the_reason() {
        let bytes = sample().encode();
        assert!(matches!(
            Weights::decode(&bytes[..20]),
            Err(WeightsError::Frame(FrameError::Truncated { .. }))
        ));
        assert!(matches!(
            Weights::decode(&bytes[..bytes.len() - 1]),
            Err(WeightsError::Frame(FrameError::Truncated { .. }))
        ));
        let mut longer = bytes.clone();
        longer.push(0);
        assert_eq!(
            Weights::decode(&longer),
            Err(WeightsError::Frame(FrameError::TrailingBytes(1)))
        );
        let mut magic = bytes.clone();
        magic[0] = b'X';
        assert_eq!(
            Weights::decode(&magic),
            Err(WeightsError::Frame(FrameError::BadMagic))
        );
        let mut version = bytes.clone();
        version[8] = 9;
        assert_eq!(
            Weights::decode(&version),
            Err(WeightsError::Frame(FrameError::Version {
                found: 9,
                supported: 1
            }))
        );
        for at in [36, bytes.len() / 2, bytes.len() - 1] {
            let mut flipped = bytes.clone();
            flipped[at] ^= 0x10;
            let err = Weights::decode(&flipped).unwrap_err();
            assert!(
                matches!(err, WeightsError::Frame(FrameError::Checksum { .. })),
                "{err}"
            );
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
