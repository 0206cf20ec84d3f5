//! Lays the shipped weights out at build time, so that start-up reads them as they are:
//! decoding three and a half million weights took most of the start-up, and expanding
//! them into the evaluation's full tables (34 MB) most of what was left, which a referee
//! timing the whole process counts against the move.
//!
//! `emilia-tables.bin` (not for WebAssembly): the full tables, every stage's one after the
//! other, 16-bit entries in the target's byte order, laid out by the evaluation's own
//! layout (`emilia_codec::pattern`); empty when the weights do not fit that layout, which the
//! program then reports.
//!
//! `emilia-weights.bin` (little endian): number of stages (u32), weights per stage (u32),
//! fingerprint (u64), then the weights stage by stage (i16 each): what WebAssembly, whose
//! module is downloaded, expands when it starts.

use emilia_codec::book_layout as layout_of_book;
use emilia_codec::pattern::layout;
use emilia_codec::weights;

fn main() {
    index_book();
    const SOURCE: &str = "weights/emilia.weights";
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
    let wasm = std::env::var("CARGO_CFG_TARGET_FAMILY").is_ok_and(|f| f.contains("wasm"));
    if !wasm {
        lay_out_tables(&weights, &dir);
    }
}

/// Writes the full tables of `weights` (see the module docs), or an empty file when they
/// do not fit the evaluation's layout.
fn lay_out_tables(weights: &weights::Weights, dir: &str) {
    let layout = layout::Layout::get();
    let fits = weights.stages == layout::STAGES
        && weights.per_stage == layout.dense_len
        && weights.fingerprint == layout.fingerprint();
    let big_endian = std::env::var("CARGO_CFG_TARGET_ENDIAN").is_ok_and(|e| e == "big");
    let mut out = Vec::new();
    if fits {
        out.reserve(2 * layout::STAGES * layout::FULL_LEN);
        for dense in weights.values.chunks_exact(weights.per_stage) {
            for &at in &layout.full_to_dense {
                let value = dense[at as usize];
                let bytes = if big_endian {
                    value.to_be_bytes()
                } else {
                    value.to_le_bytes()
                };
                out.extend_from_slice(&bytes);
            }
        }
    } else {
        println!(
            "cargo:warning=the shipped weights do not fit the evaluation's patterns: \
             the program will refuse its built-in weights until they are trained again"
        );
    }
    let path = std::path::Path::new(dir).join("emilia-tables.bin");
    std::fs::write(&path, out).unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
}

/// Writes where each position of the built-in book starts (u32 each, little endian), so
/// that play finds a position by binary search without reading the book first.
fn index_book() {
    const BOOK: &str = "weights/emilia.book";
    println!("cargo:rerun-if-changed={BOOK}");
    let bytes = std::fs::read(BOOK).unwrap_or_else(|e| panic!("cannot read {BOOK}: {e}"));
    let header = layout_of_book::FILE_HEADER_LEN;
    assert!(bytes.len() >= header, "{BOOK} is shorter than its header");
    let count = u32::from_le_bytes(bytes[12..16].try_into().expect("four bytes")) as usize;
    let offsets = layout_of_book::offsets(&bytes[header..], count)
        .unwrap_or_else(|| panic!("{BOOK}: its positions do not fill its body"));
    let out: Vec<u8> = offsets.iter().flat_map(|o| o.to_le_bytes()).collect();
    let dir = std::env::var("OUT_DIR").expect("cargo sets OUT_DIR");
    let path = std::path::Path::new(&dir).join("emilia-book-index.bin");
    std::fs::write(&path, out).unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
}
