"""The two sets of rules the package has agree: the in-process Board (the engine's library)
and the pipe client's own standard-library rules (``emilia.engine``), over random games on
every size, move by move: the same legal moves, discs, side to move and result. And the
Board's undo (python-chess's ``push``/``pop``/``move_stack``) walks the same games back."""

import random

import pytest

from emilia import Board, IllegalMoveError
from emilia.engine import _Position, _read_game

GAMES = {6: 60, 8: 40, 10: 15, 12: 8}


def pipe_result(position):
    black, white = position.count("black"), position.count("white")
    empty = position.size * position.size - black - white
    if black > white:
        return f"B+{black - white + empty}"
    if white > black:
        return f"W+{white - black + empty}"
    return "0"


def squares_of(position):
    return "".join({"black": "X", "white": "O", None: "-"}[c] for c in position.cells)


@pytest.mark.parametrize("size", sorted(GAMES))
def test_random_games_find_the_same_moves_and_results_by_both_rules(size):
    rng = random.Random(size)
    for _ in range(GAMES[size]):
        board, position = Board(size), _Position(size)
        while True:
            pipe_moves = position.moves() or ([] if position.is_game_over() else ["pass"])
            assert board.legal_moves() == pipe_moves, board.transcript()
            assert board.squares() == squares_of(position)
            assert board.turn == position.to_move
            assert board.is_game_over() == position.is_game_over()
            if board.is_game_over():
                break
            move = rng.choice(pipe_moves)
            board.push(move)
            position.play(move)
        assert board.result() == pipe_result(position), board.transcript()
        # The client reads the Board's transcript (passes implicit) into the same game.
        moves, replayed = _read_game(board, size)
        assert squares_of(replayed) == board.squares()
        assert moves == board.move_stack


@pytest.mark.parametrize("size", [6, 8, 10, 12])
def test_pop_takes_back_every_move_to_the_start(size):
    rng, board = random.Random(100 + size), Board(size)
    seen = [(board.squares(), board.side(), board.legal_moves())]
    while not board.is_game_over():
        board.push(rng.choice(board.legal_moves()))
        seen.append((board.squares(), board.side(), board.legal_moves()))
    stack = board.move_stack
    assert len(stack) == len(seen) - 1 and "".join(stack).replace("pass", "") == (
        board.transcript()
    )
    replayed = Board(size)
    for move in stack:
        replayed.play(move)
    assert replayed == board
    for expected in reversed(stack):
        assert board.pop() == expected
        seen.pop()
        assert (board.squares(), board.side(), board.legal_moves()) == seen[-1]
    assert board.move_stack == [] and board == Board(size)
    with pytest.raises(IndexError):
        board.pop()


def test_undo_keeps_every_method_working():
    board = Board.from_transcript("f5d6c3")
    assert board.move_stack == ["f5", "d6", "c3"]
    assert board.pop() == "c3"
    assert board.transcript() == "f5d6" and board.turn == "black"
    assert board.is_legal("c3") and not board.is_legal("a1")
    board.push("c5")
    assert board.transcript() == "f5d6c5" and board.discs() == (5, 2)
    copy = board.copy()
    copy.pop()
    assert board.move_stack == ["f5", "d6", "c5"] and copy.move_stack == ["f5", "d6"]
    with pytest.raises(IllegalMoveError):
        board.push("a1")
    assert board.move_stack == ["f5", "d6", "c5"]
    # A board set up from its squares has no moves to take back.
    with pytest.raises(IndexError):
        Board.from_squares(board.squares(), board.side()).pop()
