"""A referee written the way a user would write one: standard library only, its own Othello
rules, two `emilia` processes spoken to over pipes in the text protocol.

Run with the binary's path in EMILIA (cargo test does this):
    EMILIA=target/release/emilia python3 tests/python/test_referee.py
"""

import os
import queue
import subprocess
import threading
import time
import unittest

EMILIA = os.environ.get("EMILIA", "emilia")
REPLY_TIMEOUT = 30.0

DIRECTIONS = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]


class Board:
    """An 8x8 board with its own rules, independent of the engine's."""

    def __init__(self):
        self.cells = [["." for _ in range(8)] for _ in range(8)]
        self.cells[3][3] = self.cells[4][4] = "O"
        self.cells[3][4] = self.cells[4][3] = "X"

    def flips(self, row, col, disc):
        if self.cells[row][col] != ".":
            return []
        other = "O" if disc == "X" else "X"
        flipped = []
        for dr, dc in DIRECTIONS:
            r, c, line = row + dr, col + dc, []
            while 0 <= r < 8 and 0 <= c < 8 and self.cells[r][c] == other:
                line.append((r, c))
                r, c = r + dr, c + dc
            if line and 0 <= r < 8 and 0 <= c < 8 and self.cells[r][c] == disc:
                flipped += line
        return flipped

    def moves(self, disc):
        return [
            "abcdefgh"[c] + str(r + 1)
            for r in range(8)
            for c in range(8)
            if self.flips(r, c, disc)
        ]

    def play(self, square, disc):
        col, row = "abcdefgh".index(square[0].lower()), int(square[1:]) - 1
        flipped = self.flips(row, col, disc)
        if not flipped:
            raise ValueError(f"illegal move {square} for {disc}")
        self.cells[row][col] = disc
        for r, c in flipped:
            self.cells[r][c] = disc

    def count(self, disc):
        return sum(row.count(disc) for row in self.cells)

    def result(self):
        black, white = self.count("X"), self.count("O")
        empty = 64 - black - white
        if black > white:
            return f"B+{black - white + empty}"
        if white > black:
            return f"W+{white - black + empty}"
        return "0"


class Engine:
    """One `emilia` process."""

    def __init__(self):
        self.process = subprocess.Popen(
            [EMILIA],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            bufsize=1,
        )
        self.lines = queue.Queue()
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self):
        for line in self.process.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def ask(self, command):
        """Sends a command; returns (succeeded, answer text)."""
        self.process.stdin.write(command + "\n")
        self.process.stdin.flush()
        reply = []
        while True:
            line = self.lines.get(timeout=REPLY_TIMEOUT)
            if line is None:
                raise RuntimeError(f"emilia ended while answering {command!r}")
            if line == "":
                if reply:
                    break
                continue
            reply.append(line)
        first = reply[0]
        if first[0] not in "=?":
            raise RuntimeError(f"not a reply to {command!r}: {first!r}")
        head = first[1:].lstrip("0123456789").strip()
        text = "\n".join([head] + reply[1:]).strip()
        return first[0] == "=", text

    def close(self):
        ok, _ = self.ask("quit")
        self.process.stdin.close()
        self.process.wait(timeout=10)
        stderr = self.process.stderr.read()
        return ok, self.process.returncode, stderr


def disc(color):
    return "X" if color == "black" else "O"


def other(color):
    return "white" if color == "black" else "black"


class RefereeTest(unittest.TestCase):
    def play_game(self, clock_ms, send_passes):
        """Two engines play a whole game on clocks of clock_ms each; every move is checked
        by the referee's own rules. Returns the referee's board."""
        engines = {"black": Engine(), "white": Engine()}
        for engine in engines.values():
            self.assertEqual(engine.ask("name"), (True, "Emilia"))
            self.assertEqual(engine.ask("boardsize 8"), (True, ""))
            self.assertEqual(engine.ask("clear_board"), (True, ""))
        board = Board()
        left = {"black": clock_ms / 1000.0, "white": clock_ms / 1000.0}
        color = "black"
        passes_in_a_row = 0
        while True:
            legal = board.moves(disc(color))
            if not legal and not board.moves(disc(other(color))):
                # Neither side can move: both engines must say so.
                ok, text = engines[color].ask(f"genmove {color}")
                self.assertFalse(ok)
                self.assertTrue(text.startswith("game over: "), text)
                break
            if not legal and not send_passes:
                # Quarry's style: no pass is sent, the other colour simply moves again.
                color = other(color)
                continue
            start = time.monotonic()
            ok, move = engines[color].ask(f"genmove {color} {int(left[color] * 1000)}")
            left[color] -= time.monotonic() - start
            self.assertTrue(ok, move)
            self.assertGreater(left[color], 0, f"{color} lost on time")
            if legal:
                self.assertIn(move, legal)
                board.play(move, disc(color))
                passes_in_a_row = 0
            else:
                self.assertEqual(move, "pass")
                passes_in_a_row += 1
            ok, text = engines[other(color)].ask(f"play {color} {move}")
            self.assertTrue(ok, text)
            color = other(color)
            self.assertLess(passes_in_a_row, 2)
        for engine in engines.values():
            self.assertEqual(engine.ask("final_score"), (True, board.result()))
        history = engines["black"].ask("history")[1]
        self.assertEqual(len(history) // 2, board.count("X") + board.count("O") - 4)
        for engine in engines.values():
            ok, code, stderr = engine.close()
            self.assertTrue(ok)
            self.assertEqual(code, 0)
            self.assertEqual(stderr, "")
        return board

    def test_whole_game_with_explicit_passes(self):
        self.play_game(clock_ms=2000, send_passes=True)

    def test_whole_game_without_passes(self):
        self.play_game(clock_ms=2000, send_passes=False)

    def test_errors_leave_the_game_as_it_was(self):
        engine = Engine()
        engine.ask("play black f5")
        before = engine.ask("showboard")
        for bad in ["play black f5", "play white a1", "play white z9", "play red d6",
                    "genmove black", "frobnicate", "setboard XO X"]:
            ok, text = engine.ask(bad)
            self.assertFalse(ok, bad)
            self.assertTrue(text, bad)
            self.assertEqual(engine.ask("showboard"), before, bad)
        ok, text = engine.ask("frobnicate")
        self.assertIn("unknown command", text)
        ok, code, stderr = engine.close()
        self.assertEqual((ok, code, stderr), (True, 0, ""))


if __name__ == "__main__":
    unittest.main(verbosity=2)
