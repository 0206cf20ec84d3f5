//! Names a user meant: the known name closest to one mistyped, for a "did you mean" answer.

/// The name among `known` closest to `name` (the first of the closest, in order), if it is
/// close enough to be what was meant: within a third of the longer name's length in edits
/// (at least one; a swap of two neighbours is one edit), or a name it begins of at least
/// three characters. `foo` is no `komi`; `genmov` is `genmove`.
pub(crate) fn closest<'a>(name: &str, known: impl Iterator<Item = &'a str>) -> Option<&'a str> {
    let length = name.chars().count();
    known
        .map(|c| (edit_distance(name, c), c))
        .filter(|(d, c)| {
            let longer = length.max(c.chars().count());
            *d <= (longer / 3).max(1) || length >= 3 && c.starts_with(name)
        })
        .min()
        .map(|(_, c)| c)
}

/// Edits (insertions, deletions, substitutions, swaps of neighbours) between two short
/// strings; only the first 64 characters of `a` count.
fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().take(64).collect();
    let b: Vec<char> = b.chars().collect();
    // rows[i][j]: the distance between a[..i] and b[..j].
    let mut rows = vec![(0..=b.len()).collect::<Vec<usize>>()];
    for (i, ca) in a.iter().enumerate() {
        let mut current = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let previous = &rows[i];
            let mut best = (previous[j] + usize::from(ca != cb))
                .min(previous[j + 1] + 1)
                .min(current[j] + 1);
            if i > 0 && j > 0 && *ca == b[j - 1] && a[i - 1] == *cb {
                best = best.min(rows[i - 1][j - 1] + 1);
            }
            current.push(best);
        }
        rows.push(current);
    }
    rows[a.len()][b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edit_distance_counts_edits() {
        assert_eq!(edit_distance("genmov", "genmove"), 1);
        assert_eq!(edit_distance("", "abc"), 3);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(edit_distance("quti", "quit"), 1);
    }

    #[test]
    fn the_closest_name_is_offered_only_when_close() {
        let known = ["genmove", "reg_genmove", "undo", "list_commands"];
        assert_eq!(closest("genmov", known.into_iter()), Some("genmove"));
        assert_eq!(
            closest("list_comands", known.into_iter()),
            Some("list_commands")
        );
        assert_eq!(closest("xyzzyxyzzy", known.into_iter()), None);
        // Three edits in a name of three or four letters is another name.
        assert_eq!(closest("foo", ["komi", "undo"].into_iter()), None);
        assert_eq!(closest("quti", ["quit"].into_iter()), Some("quit"));
        assert_eq!(closest("list", known.into_iter()), Some("list_commands"));
    }
}
