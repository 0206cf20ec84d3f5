"""The course-simulator agent in a simulator-like loop on every board size: a numpy board
of 0/1/2 handed over each move, a player who must pass skipped, the rules kept by the
simulator itself (the pipe client's pure-Python rules, not the engine's)."""

import pytest

from emilia.agents import EmiliaAgent
from emilia.engine import _Position

numpy = pytest.importorskip("numpy")

COLOURS = {1: "black", 2: "white"}


def array_of(position):
    code = {None: 0, "black": 1, "white": 2}
    cells = [code[c] for c in position.cells]
    return numpy.array(cells, dtype=numpy.int64).reshape(position.size, position.size)


def run_game(size, black, white):
    """Plays a game as a course simulator does; returns the final position."""
    position, agents = _Position(size), {1: black, 2: white}
    player, steps = 1, 0
    while not position.is_game_over():
        colour = COLOURS[player]
        if not position.moves(colour):
            player = 3 - player  # the simulator skips a player who must pass
            position.play("pass")
            continue
        move = agents[player].step(array_of(position), player, 3 - player)
        row, column = move
        name = "abcdefghijkl"[column] + str(row + 1)
        assert name in position.moves(colour), (size, name, position.moves(colour))
        position.play(name)
        player, steps = 3 - player, steps + 1
    return position, steps


@pytest.fixture(scope="module")
def agent():
    return EmiliaAgent(seconds=0.02, threads=1, hash=16)


@pytest.mark.parametrize("size", [6, 8, 10, 12])
def test_the_agent_plays_a_simulated_game_on_every_size(agent, size):
    position, steps = run_game(size, agent, agent)
    assert position.is_game_over() and steps > size * size // 2
    assert agent.last is not None and agent.last.seconds < 0.02 + 1.0


def test_the_agent_falls_back_to_a_legal_move_on_any_error(agent):
    position = _Position(8)
    position.play("f5")

    def broken(*args, **kwargs):
        raise RuntimeError("the engine failed")

    engine_play = agent.engine.play
    agent.engine.play = broken
    try:
        row, column = agent.step(array_of(position), 2, 1)
        assert "abcdefghijkl"[column] + str(row + 1) in position.moves("white")
        assert agent.last is None
        # A board the engine cannot read (7x7) still gets a legal move.
        odd = [[0] * 7 for _ in range(7)]
        odd[3][3], odd[3][4] = 2, 1
        assert agent.step(odd, 1, 2) == (3, 2)
    finally:
        agent.engine.play = engine_play
