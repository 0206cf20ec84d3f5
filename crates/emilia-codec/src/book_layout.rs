//! Where the positions of a book file's body start (the layout is described with the core's
//! book format). Shared by the reader and by the build script, which indexes the built-in
//! book so that play looks positions up in place without reading them all.

/// Bytes of a position before its links: two bitboards, the games, the leaf, the number of
/// links.
pub const NODE_LEN: usize = 8 + 8 + 4 + 4 + 1;
/// Where in a position its number of links is.
pub const LINK_COUNT_AT: usize = NODE_LEN - 1;
/// Bytes of a move.
pub const MOVE_LEN: usize = 4;
/// Bytes of the built-in book file before its body: magic, version, number of positions,
/// body length, checksum.
pub const FILE_HEADER_LEN: usize = 8 + 4 + 4 + 4 + 4;

/// Where each of the `count` positions of `body` starts; `None` when they do not fill the
/// body exactly.
pub fn offsets(body: &[u8], count: usize) -> Option<Vec<u32>> {
    let mut offsets = Vec::with_capacity(count);
    let mut at = 0;
    for _ in 0..count {
        offsets.push(u32::try_from(at).ok()?);
        let links = *body.get(at + LINK_COUNT_AT)? as usize;
        at += NODE_LEN + links * MOVE_LEN;
    }
    (at == body.len()).then_some(offsets)
}
