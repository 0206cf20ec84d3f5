//! Names a user meant: the known name closest to one mistyped, for a "did you mean" answer.

/// The name among `known` closest to `name` (the first of the closest, in order), if it is
/// close enough to be what was meant: within a third of its length in edits (at least 3),
/// or starting with `name`.
pub(crate) fn closest<'a>(name: &str, known: impl Iterator<Item = &'a str>) -> Option<&'a str> {
    known
        .map(|c| (edit_distance(name, c), c))
        .min()
        .filter(|(d, c)| *d <= 3.max(c.len() / 3) || c.starts_with(name) && !name.is_empty())
        .map(|(_, c)| c)
}

/// Levenshtein distance between two short strings.
fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().take(64).collect();
    let b: Vec<char> = b.chars().collect();
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut current = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let substitute = previous[j] + usize::from(ca != cb);
            current.push(substitute.min(previous[j + 1] + 1).min(current[j] + 1));
        }
        previous = current;
    }
    previous[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edit_distance_counts_edits() {
        assert_eq!(edit_distance("genmov", "genmove"), 1);
        assert_eq!(edit_distance("", "abc"), 3);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
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
    }
}
