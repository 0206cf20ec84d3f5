//! Decodes the shipped weights file once, at build time, into the plain table of 16-bit
//! weights the program embeds: decoding three and a half million weights took most of the
//! start-up, which a referee timing the whole process counts against the move.
//!
//! Output (little endian): number of stages (u32), weights per stage (u32), fingerprint
//! (u64), then the weights stage by stage (i16 each).

use emilia_codec::book_layout as layout;
use emilia_codec::weights;

fn main() {
    index_book();
    const SOURCE: &str = "../../weights/emilia.weights";
    println!("cargo:rerun-if-changed={SOURCE}");
    let bytes = std::fs::read(SOURCE).unwrap_or_else(|e| panic!("cannot read {SOURCE}: {e}"));
    let weights =
        weights::Weights::decode(&bytes).unwrap_or_else(|e| panic!("{SOURCE} refused: {e}"));
    let mut out = Vec::with_capacity(16 + 2 * weights.values.len());
    out.extend_from_slice(&(weights.stages as u32).to_le_bytes());
    out.extend_from_slice(&(weights.per_stage as u32).to_le_bytes());
    out.extend_from_slice(&weights.fingerprint.to_le_bytes());
    for value in &weights.values {
        out.extend_from_slice(&value.to_le_bytes());
    }
    let dir = std::env::var("OUT_DIR").expect("cargo sets OUT_DIR");
    let path = std::path::Path::new(&dir).join("emilia-weights.bin");
    std::fs::write(&path, out).unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
}

/// Writes where each position of the built-in book starts (u32 each, little endian), so
/// that play finds a position by binary search without reading the book first.
fn index_book() {
    const BOOK: &str = "../../weights/emilia.book";
    println!("cargo:rerun-if-changed={BOOK}");
    let bytes = std::fs::read(BOOK).unwrap_or_else(|e| panic!("cannot read {BOOK}: {e}"));
    let header = layout::FILE_HEADER_LEN;
    assert!(bytes.len() >= header, "{BOOK} is shorter than its header");
    let count = u32::from_le_bytes(bytes[12..16].try_into().expect("four bytes")) as usize;
    let offsets = layout::offsets(&bytes[header..], count)
        .unwrap_or_else(|| panic!("{BOOK}: its positions do not fill its body"));
    let out: Vec<u8> = offsets.iter().flat_map(|o| o.to_le_bytes()).collect();
    let dir = std::env::var("OUT_DIR").expect("cargo sets OUT_DIR");
    let path = std::path::Path::new(&dir).join("emilia-book-index.bin");
    std::fs::write(&path, out).unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
}
