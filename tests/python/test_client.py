"""The client of examples/emilia_client.py against the real binary: a whole game, a refused
command, and above all the ends: an engine killed in the middle of a game, or one that stops
answering, must end the client with EngineError, not leave it waiting.

Run with the binary's path in EMILIA (cargo test does this):
    EMILIA=target/release/emilia python3 tests/python/test_client.py
"""

import os
import signal
import sys
import time
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "examples"))
from emilia_client import Emilia, EngineError, Refused, play_game  # noqa: E402

EMILIA = [os.environ.get("EMILIA", "emilia")]


class ClientTest(unittest.TestCase):
    def test_a_whole_game_ends_with_its_result(self):
        black, white = Emilia(EMILIA), Emilia(EMILIA)
        moves = []
        result = play_game(black, white, "depth 2", lambda color, move: moves.append(move))
        self.assertRegex(result, r"^(B\+\d+|W\+\d+|0)$")
        self.assertEqual(black.ask("final_score"), result)
        self.assertGreaterEqual(len(moves), 9)  # the shortest possible game has 9 moves
        self.assertEqual((black.close(), white.close()), (0, 0))

    def test_a_refused_command_leaves_the_session_going(self):
        engine = Emilia(EMILIA)
        with self.assertRaises(Refused) as refusal:
            engine.ask("play black a1")
        self.assertIn("illegal", str(refusal.exception))
        self.assertEqual(engine.ask("name"), "Emilia")
        self.assertEqual(engine.close(), 0)

    def test_an_engine_killed_mid_game_ends_the_client(self):
        black, white = Emilia(EMILIA), Emilia(EMILIA)
        played = []
        killed_after = []

        def kill_white_in_the_middle(color, move):
            played.append(move)
            if len(played) >= 10 and color == "black" and not killed_after:
                white.process.kill()  # before it is told Black's move
                killed_after.append(len(played))

        start = time.monotonic()
        with self.assertRaises(EngineError) as error:
            play_game(black, white, "depth 2", kill_white_in_the_middle)
        self.assertLess(time.monotonic() - start, 20)
        self.assertEqual(len(played), killed_after[0])
        self.assertIn("emilia", str(error.exception))
        self.assertIsNotNone(white.process.poll())
        # The other engine is unharmed, and the dead one stays dead to every command.
        self.assertEqual(black.ask("name"), "Emilia")
        with self.assertRaises(EngineError):
            white.ask("name")
        self.assertEqual(black.close(), 0)

    def test_an_engine_that_exits_ends_the_client(self):
        engine = Emilia(EMILIA)
        engine.process.stdin.write("quit\n")  # behind the client's back
        engine.process.stdin.flush()
        engine.process.wait(timeout=10)
        with self.assertRaises(EngineError) as error:
            engine.ask("name")
        self.assertIn("exited", str(error.exception))

    @unittest.skipUnless(hasattr(signal, "SIGSTOP"), "needs SIGSTOP (POSIX)")
    def test_an_engine_that_stops_answering_times_out(self):
        engine = Emilia(EMILIA, timeout=1.0)
        self.assertEqual(engine.ask("name"), "Emilia")
        os.kill(engine.process.pid, signal.SIGSTOP)  # alive, but answers nothing
        start = time.monotonic()
        with self.assertRaises(EngineError) as error:
            engine.ask("genmove black depth 1")
        self.assertLess(time.monotonic() - start, 10)
        self.assertIn("no answer", str(error.exception))
        self.assertIsNotNone(engine.process.poll())  # the client ended it


if __name__ == "__main__":
    unittest.main(verbosity=2)
