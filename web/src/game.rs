//! The game on the page: the record of [`emilia::game::Game`] with a redo list, read from
//! the protocol's formats, and what the page draws from it.

use emilia::board::{Color, Move, Position};
use emilia::formats::ggf;
use emilia::game::Game;
use wasm_bindgen::prelude::*;

/// A game being played or looked at on the page.
#[wasm_bindgen]
pub struct WebGame {
    game: Game,
    /// Moves taken back, the latest last: [`WebGame::redo`] plays them again.
    undone: Vec<Move>,
}

/// Why a game could not be set up or a move not be played: the message says what was wrong.
#[derive(Debug)]
pub struct GameError(String);

impl std::fmt::Display for GameError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for GameError {}

fn error(message: impl ToString) -> GameError {
    GameError(message.to_string())
}

impl WebGame {
    fn of(game: Game) -> WebGame {
        let mut web = WebGame {
            game,
            undone: Vec::new(),
        };
        web.pass_if_forced();
        web
    }

    /// A game read from `text`: a GGF record, a board string (`<squares> <side>`), or a
    /// transcript from the start of a `size`x`size` board (passes implicit or explicit).
    pub fn read(text: &str, size: usize) -> Result<WebGame, GameError> {
        let text = text.trim();
        if ggf::is_ggf(text) {
            return ggf::parse(text).map(WebGame::of).map_err(error);
        }
        if text.split_whitespace().count() == 2 {
            let position: Position = text.parse().map_err(error)?;
            return Ok(WebGame::of(Game::new(position)));
        }
        let start = Position::start(size).map_err(|e| error(e.to_string()))?;
        let (_, moves) = start.play_transcript(text).map_err(error)?;
        let mut web = WebGame::of(Game::new(start));
        for mv in moves.into_iter().filter(|m| *m != Move::Pass) {
            web.play_move(mv)?;
        }
        Ok(web)
    }

    /// Plays `mv` for the side to move, then a forced pass of the other side, if any.
    fn play_move(&mut self, mv: Move) -> Result<(), GameError> {
        self.game.play(mv).map_err(error)?;
        self.pass_if_forced();
        Ok(())
    }

    /// Records the pass of a side to move that has no move (undone with the move before).
    fn pass_if_forced(&mut self) {
        if self.game.must_pass() {
            let other = self.game.position().to_move.opponent();
            // A side with no move while the game goes on can always pass.
            let _ = self.game.turn_for(other);
        }
    }

    /// Plays the move named `name` (`f5`) for the side to move; on error nothing changes.
    pub fn play_named(&mut self, name: &str) -> Result<(), GameError> {
        let mv: Move = name.parse().map_err(error)?;
        self.play_move(mv)?;
        self.undone.clear();
        Ok(())
    }

    /// The position before ply `ply` (0 is the start; the number of plies is now).
    pub fn position_at(&self, ply: usize) -> Option<&Position> {
        self.game.positions().get(ply)
    }
}

fn color_name(color: Color) -> String {
    match color {
        Color::Black => "black",
        Color::White => "white",
    }
    .to_string()
}

#[wasm_bindgen]
impl WebGame {
    /// A game from the start of a `size`x`size` board.
    #[wasm_bindgen(constructor)]
    pub fn new(size: usize) -> Result<WebGame, JsError> {
        Game::standard(size)
            .map(WebGame::of)
            .map_err(|e| JsError::new(&e.to_string()))
    }

    /// [`WebGame::read`] for JavaScript.
    #[wasm_bindgen(js_name = fromText)]
    pub fn from_text(text: &str, size: usize) -> Result<WebGame, JsError> {
        WebGame::read(text, size).map_err(|e| JsError::new(&e.0))
    }

    /// Squares per side.
    pub fn size(&self) -> usize {
        self.game.position().size()
    }

    /// The board now, as the protocol's board string (`<squares> <side>`).
    pub fn board(&self) -> String {
        self.game.position().to_string()
    }

    /// The board string before ply `ply`, or an empty string past the end.
    #[wasm_bindgen(js_name = boardAt)]
    pub fn board_at(&self, ply: usize) -> String {
        self.position_at(ply)
            .map_or(String::new(), Position::to_string)
    }

    /// `black` or `white`: who is to move.
    #[wasm_bindgen(js_name = toMove)]
    pub fn to_move(&self) -> String {
        color_name(self.game.position().to_move)
    }

    /// The legal moves, space separated (`pass` never: forced passes are played at once;
    /// empty once the game is over).
    pub fn legal(&self) -> String {
        let moves: Vec<String> = self
            .game
            .position()
            .legal_moves()
            .iter()
            .map(Move::to_string)
            .collect();
        moves.join(" ")
    }

    /// [`WebGame::play_named`] for JavaScript.
    pub fn play(&mut self, name: &str) -> Result<(), JsError> {
        self.play_named(name).map_err(|e| JsError::new(&e.0))
    }

    /// Takes back the last move (with the forced pass after it); false at the start.
    pub fn undo(&mut self) -> bool {
        match self.game.undo() {
            Some(mv) => {
                self.undone.push(mv);
                // A forced pass at the start of the record (a board string) stays.
                self.pass_if_forced();
                true
            }
            None => false,
        }
    }

    /// Plays the last move taken back again; false when there is none.
    pub fn redo(&mut self) -> bool {
        match self.undone.pop() {
            Some(mv) => self.play_move(mv).is_ok(),
            None => false,
        }
    }

    /// Whether neither side can move.
    #[wasm_bindgen(js_name = isOver)]
    pub fn is_over(&self) -> bool {
        self.game.is_over()
    }

    /// Black's discs.
    pub fn black(&self) -> u32 {
        self.game.position().count(Color::Black)
    }

    /// White's discs.
    pub fn white(&self) -> u32 {
        self.game.position().count(Color::White)
    }

    /// The result once over (`B+12`, `W+4`, `Draw`…, as the program writes it).
    pub fn result(&self) -> String {
        self.game.result()
    }

    /// Every ply, space separated: `black f5`, `white pass`, …, comma separated.
    pub fn plies(&self) -> String {
        let plies: Vec<String> = self
            .game
            .plies()
            .iter()
            .map(|p| format!("{} {}", color_name(p.color), p.mv))
            .collect();
        plies.join(",")
    }

    /// Plies played (passes included).
    #[wasm_bindgen(js_name = plyCount)]
    pub fn ply_count(&self) -> usize {
        self.game.plies().len()
    }

    /// The transcript (`f5d6c3`, passes implicit) from the start position.
    pub fn transcript(&self) -> String {
        self.game.transcript()
    }

    /// The game as a GGF record.
    pub fn ggf(&self) -> String {
        ggf::write_game(&self.game, "Emilia web")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transcripts_board_strings_and_bad_text_are_read() {
        let game = WebGame::read("f5d6c3", 8).unwrap();
        assert_eq!(game.ply_count(), 3);
        assert_eq!(game.to_move(), "white");
        assert_eq!(game.transcript(), "f5d6c3");
        let board = game.board();
        let same = WebGame::read(&board, 8).unwrap();
        assert_eq!(same.board(), board);
        assert_eq!(same.ply_count(), 0);
        assert!(WebGame::read("f5f5", 8).is_err());
        assert!(WebGame::read("XO- X", 8).is_err());
        let ggf_text = game.ggf();
        assert_eq!(WebGame::read(&ggf_text, 6).unwrap().transcript(), "f5d6c3");
    }

    #[test]
    fn undo_and_redo_walk_the_record() {
        let mut game = WebGame::read("f5d6c3", 8).unwrap();
        let after = game.board();
        assert!(game.undo() && game.undo());
        assert_eq!(game.transcript(), "f5");
        assert!(game.redo() && game.redo());
        assert_eq!(game.board(), after);
        assert!(!game.redo());
        assert!(game.undo());
        game.play_named("c4").unwrap();
        assert!(!game.redo());
    }

    #[test]
    fn a_forced_pass_is_played_and_undone_with_its_move() {
        // After d1 White has no disc that flanks anything: it passes, Black moves again.
        let board = format!("XOO-----{}XO------ X", "-".repeat(48));
        let mut game = WebGame::read(&board, 8).unwrap();
        game.play_named("d1").unwrap();
        assert_eq!(game.plies(), "black d1,white pass");
        assert_eq!(game.to_move(), "black");
        assert!(!game.is_over());
        assert!(game.undo());
        assert_eq!(game.ply_count(), 0);
        assert_eq!(game.board(), board);
        assert!(game.play_named("a1").is_err());
        assert_eq!(game.board(), board, "a refused move changes nothing");
    }
}
