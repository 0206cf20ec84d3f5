"""A client for Emilia's text protocol (protocol.md), standard library only.

    engine = Emilia(["emilia"])                  # starts the engine
    print(engine.ask("genmove black depth 4"))   # c4
    engine.close()                               # quit; returns the exit status

`ask` sends one command and returns the answer's text. A refused command (`? ...`) raises
Refused and the session goes on. If the engine exits, or gives no answer within `timeout`
seconds, `ask` raises EngineError (and ends the engine) instead of waiting for ever.

Run as a script, it plays a game between two engines and prints the moves and the result:

    python3 examples/emilia_client.py [ENGINE COMMAND...]    # default: emilia
"""

import queue
import subprocess
import sys
import threading
import time


class EngineError(Exception):
    """The engine exited, or did not answer in time: the session is over."""


class Refused(Exception):
    """The engine answered `? message`: the command was refused, the session goes on."""


class Emilia:
    def __init__(self, command=("emilia",), timeout=60.0):
        self.timeout = timeout
        self.process = subprocess.Popen(
            list(command), stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )
        self.lines = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        with self.process.stdout:
            for line in self.process.stdout:
                self.lines.put(line.rstrip("\n"))
        self.lines.put(None)  # end of file: the engine has exited

    def ask(self, command, timeout=None):
        """Sends `command`, returns the text of its answer (`= text`)."""
        try:
            self.process.stdin.write(command + "\n")
            self.process.stdin.flush()
        except (OSError, ValueError):  # the pipe is closed: the engine has exited
            raise EngineError(f"emilia has exited (status {self.end()}); {command!r} not sent")
        wait = self.timeout if timeout is None else timeout
        deadline = time.monotonic() + wait
        reply = []
        while True:
            try:
                line = self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                self.end()
                raise EngineError(f"emilia gave no answer to {command!r} within {wait:g} s")
            if line is None:
                raise EngineError(f"emilia exited (status {self.end()}) before answering {command!r}")
            if line == "":  # a blank line ends an answer
                if reply:
                    break
                continue
            reply.append(line)
        status, text = reply[0][0], "\n".join([reply[0][1:].strip()] + reply[1:])
        if status == "?":
            raise Refused(text)
        if status != "=":
            self.end()
            raise EngineError(f"not an answer to {command!r}: {reply[0]!r}")
        return text

    def end(self):
        """Ends the engine if it still runs; returns its exit status."""
        if self.process.poll() is None:
            self.process.kill()
        try:
            self.process.stdin.close()
        except OSError:  # what was left unsent cannot be sent
            pass
        return self.process.wait()

    def close(self):
        """Asks the engine to quit; returns its exit status."""
        self.ask("quit")
        self.process.stdin.close()
        return self.process.wait(timeout=self.timeout)


def play_game(black, white, limit="movetime 100", on_move=None):
    """Plays a game between two engines; returns the result, such as `B+12`."""
    engines = {"black": black, "white": white}
    for engine in engines.values():
        engine.ask("clear_board")
    color, other = "black", "white"
    while True:
        try:
            move = engines[color].ask(f"genmove {color} {limit}")
        except Refused as refusal:  # "game over: B+12 (neither side can move)"
            if str(refusal).startswith("game over: "):
                return str(refusal).split()[2]
            raise
        if on_move:
            on_move(color, move)
        engines[other].ask(f"play {color} {move}")
        color, other = other, color


if __name__ == "__main__":
    command = sys.argv[1:] or ["emilia"]
    black, white = Emilia(command), Emilia(command)
    try:
        print(play_game(black, white, on_move=lambda color, move: print(color, move)))
        black.close()
        white.close()
    except EngineError as error:
        black.end()
        white.end()
        sys.exit(f"error: {error}")
