//! Boards drawn for people: a grid with column letters and row numbers, `X` for Black, `O`
//! for White, `.` for an empty square and, when asked, `*` for a legal move.

use emilia_core::board::{Color, Move, Position};

/// The board as lines of text (no blank line inside), legal moves marked when `mark_legal`,
/// followed by a line with the disc counts and the side to move.
pub(crate) fn diagram(position: &Position, mark_legal: bool) -> String {
    let size = position.size();
    let legal: Vec<usize> = if mark_legal {
        position
            .legal_moves()
            .into_iter()
            .filter_map(|m| match m {
                Move::Play(sq) => sq.index(size),
                Move::Pass => None,
            })
            .collect()
    } else {
        Vec::new()
    };
    let letters: String = (0..size)
        .map(|c| format!(" {}", (b'a' + c as u8) as char))
        .collect();
    let mut out = format!("   {letters}\n");
    for row in 0..size {
        out.push_str(&format!("{:>2} ", row + 1));
        for col in 0..size {
            let index = row * size + col;
            let mark = match position.disc(index) {
                Some(color) => color.disc_char(),
                None if legal.contains(&index) => '*',
                None => '.',
            };
            out.push(' ');
            out.push(mark);
        }
        out.push_str(&format!(" {}\n", row + 1));
    }
    out.push_str(&format!("   {letters}\n"));
    let black = position.count(Color::Black);
    let white = position.count(Color::White);
    let state = if position.is_game_over() {
        "game over".to_string()
    } else {
        format!("{} to move", position.to_move)
    };
    out.push_str(&format!("Black (X) {black}, White (O) {white}; {state}"));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_the_start_with_legal_moves() {
        let start = Position::start(8).unwrap();
        let text = diagram(&start, true);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 11);
        assert_eq!(lines[0], "    a b c d e f g h");
        assert_eq!(lines[3], " 3  . . . * . . . . 3");
        assert_eq!(lines[4], " 4  . . * O X . . . 4");
        assert_eq!(lines[10], "Black (X) 2, White (O) 2; black to move");
        assert!(!diagram(&start, false).contains('*'));
        let twelve = diagram(&Position::start(12).unwrap(), false);
        assert!(twelve.lines().any(|l| l.starts_with("12 ")), "{twelve}");
    }
}
