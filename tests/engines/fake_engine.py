#!/usr/bin/env python3
"""A small Othello engine for referee tests: speaks GTP or NBoard, plays random legal
moves (seeded), and can misbehave on purpose at its Nth move:

  --proto gtp|nboard   protocol (default gtp)
  --fault KIND         illegal | garbage | hang | slow | exit | noblank | flood | none
                       (default none)
  --at N               misbehave on the Nth move this process is asked for (default 1)
  --seed S             random seed (default 1)
  --name NAME          name to report
  --implicit-pass      reject "play <colour> pass" and pass implicitly, as GRhino does
  --chatty             print a diagnostic line before every GTP reply, as Edax sometimes does
  --pidfile PATH       write the process id to PATH at start (to check it was ended)

In GTP, "garbage" prints a stray line and then a reply that is no move; in NBoard, an
answer that is no move. "noblank" answers a GTP genmove without the blank line that ends a
reply. "flood" writes 4 MiB without a line ending, then hangs. "slow" thinks for a second
before a legal move.
"""

import argparse
import os
import random
import re
import sys
import time

DIRECTIONS = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]


class Board:
    def __init__(self, size=8):
        self.size = size
        self.cells = [[None] * size for _ in range(size)]
        h = size // 2
        self.cells[h - 1][h - 1] = "W"
        self.cells[h][h] = "W"
        self.cells[h - 1][h] = "B"
        self.cells[h][h - 1] = "B"
        self.to_move = "B"

    def flips(self, r, c, color):
        if self.cells[r][c] is not None:
            return []
        other = "W" if color == "B" else "B"
        result = []
        for dr, dc in DIRECTIONS:
            line = []
            rr, cc = r + dr, c + dc
            while 0 <= rr < self.size and 0 <= cc < self.size and self.cells[rr][cc] == other:
                line.append((rr, cc))
                rr, cc = rr + dr, cc + dc
            if line and 0 <= rr < self.size and 0 <= cc < self.size and self.cells[rr][cc] == color:
                result.extend(line)
        return result

    def moves(self, color):
        return [(r, c) for r in range(self.size) for c in range(self.size) if self.flips(r, c, color)]

    def play(self, color, move):
        if move is None:
            self.to_move = "W" if color == "B" else "B"
            return True
        r, c = move
        flipped = self.flips(r, c, color)
        if not flipped:
            return False
        self.cells[r][c] = color
        for rr, cc in flipped:
            self.cells[rr][cc] = color
        self.to_move = "W" if color == "B" else "B"
        return True


def parse_square(text):
    text = text.strip().lower()
    if text in ("pass", "pa", "ps", "--"):
        return None
    return int(text[1:]) - 1, ord(text[0]) - ord("a")


def square_name(move):
    if move is None:
        return "pass"
    r, c = move
    return chr(ord("a") + c) + str(r + 1)


def color_of(word):
    return "B" if word.lower() in ("b", "black", "x") else "W"


class Engine:
    def __init__(self, args):
        self.args = args
        self.rng = random.Random(args.seed)
        self.board = Board(8)
        self.asked = 0

    def choose(self, color):
        """The move to answer, or raises SystemExit / sleeps when misbehaving."""
        self.asked += 1
        fault = self.args.fault if self.asked == self.args.at else "none"
        if fault == "hang":
            time.sleep(60)
        if fault == "slow":
            time.sleep(1)
        if fault == "exit":
            sys.exit(3)
        if fault == "flood":
            try:
                sys.stdout.write("x" * (4 << 20))
                sys.stdout.flush()
            except BrokenPipeError:
                pass
            time.sleep(60)
        if fault == "garbage":
            return "garbage"
        moves = self.board.moves(color)
        if fault == "illegal":
            size = self.board.size
            empties = [(r, c) for r in range(size) for c in range(size)
                       if self.board.cells[r][c] is None and (r, c) not in moves]
            return square_name(empties[0])
        return square_name(self.rng.choice(moves) if moves else None)


CHATTY = False


def reply(text="", ok=True):
    if CHATTY:
        sys.stdout.write("*** thinking out loud ***\n")
    sys.stdout.write(("= " if ok else "? ") + text + "\n\n")
    sys.stdout.flush()


def gtp(engine):
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        command, args = words[0], words[1:]
        if command == "name":
            reply(engine.args.name)
        elif command == "version":
            reply("1.0")
        elif command == "protocol_version":
            reply("2")
        elif command == "list_commands":
            reply("\n".join(["protocol_version", "name", "version", "list_commands", "boardsize",
                             "clear_board", "play", "genmove", "time_settings", "time_left",
                             "quit"]))
        elif command == "boardsize":
            size = int(args[0])
            if size not in (6, 8, 10, 12):
                reply("unacceptable size", ok=False)
            else:
                engine.board = Board(size)
                reply()
        elif command == "clear_board":
            engine.board = Board(engine.board.size)
            reply()
        elif command == "play":
            color = color_of(args[0])
            move = parse_square(args[1])
            if engine.args.implicit_pass:
                if move is None:
                    reply("syntax error", ok=False)
                    continue
                if color != engine.board.to_move:
                    engine.board.play(engine.board.to_move, None)
            if engine.board.play(color, move):
                reply()
            else:
                reply("illegal move", ok=False)
        elif command == "genmove":
            color = color_of(args[0])
            if engine.args.implicit_pass and color != engine.board.to_move:
                engine.board.play(engine.board.to_move, None)
            answer = engine.choose(color)
            if answer not in ("garbage",):
                engine.board.play(color, parse_square(answer))
            if answer == "garbage":
                sys.stdout.write("this is not a reply\n= ???\n\n")
                sys.stdout.flush()
            elif engine.args.fault == "noblank" and engine.asked == engine.args.at:
                sys.stdout.write("= " + answer + "\n")
                sys.stdout.flush()
            else:
                reply(answer)
        elif command in ("time_settings", "time_left"):
            reply()
        elif command == "quit":
            reply()
            return
        else:
            reply("unknown command", ok=False)


def nboard(engine):
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        command = words[0]
        if command == "nboard":
            continue
        if command == "set" and len(words) > 1 and words[1] == "depth":
            print("set myname " + engine.args.name, flush=True)
        elif command == "set" and len(words) > 1 and words[1] == "game":
            text = line.split("game", 1)[1]
            bo = re.search(r"BO\[(\d+) ([-*O]+) ([*O])\]", text)
            engine.board = Board(int(bo.group(1)))
            for color, move in re.findall(r"([BW])\[([A-Za-z0-9]+)", text.split("BO[", 1)[1]):
                engine.board.play(color, parse_square(move))
        elif command == "move":
            engine.board.play(engine.board.to_move, parse_square(words[1].split("/")[0]))
        elif command == "go":
            print("status thinking", flush=True)
            # The GUI, not the engine, plays the move: it comes back as a "move" command.
            answer = engine.choose(engine.board.to_move)
            print("=== " + ("zz" if answer == "garbage" else answer.upper()), flush=True)
        elif command == "ping":
            print("pong " + words[1], flush=True)
        elif command == "quit":
            return


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--proto", default="gtp")
    parser.add_argument("--fault", default="none")
    parser.add_argument("--at", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--name", default="fake")
    parser.add_argument("--implicit-pass", action="store_true")
    parser.add_argument("--chatty", action="store_true")
    parser.add_argument("--pidfile")
    args = parser.parse_args()
    if args.pidfile:
        with open(args.pidfile, "w") as f:
            f.write(str(os.getpid()))
    global CHATTY
    CHATTY = args.chatty
    engine = Engine(args)
    if args.proto == "nboard":
        nboard(engine)
    else:
        gtp(engine)


if __name__ == "__main__":
    main()
