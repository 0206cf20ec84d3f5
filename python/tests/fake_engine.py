"""Engines that misbehave, for the fault tests.

`silent PID_FILE [after-hello]` reads and never answers (or answers only `name` and
`list_commands`), with a child process of its own that must end with it; `garbage` answers
every line with text that is no protocol's.

`gtp COMMAND=REPLY...` answers GTP: `name` (Fake), `list_commands` (the usual ones and each
COMMAND given), each COMMAND with its REPLY and a blank line, anything else with `=`.
`nboard COMMAND=REPLY...` answers NBoard: `nboard` with `set myname Fake`, `ping N` with
`pong N`, each COMMAND with its REPLY. A REPLY is text with Python's escapes (`\\n`,
`\\xff`), or one that never ends: FLOOD (blank lines), STATUS (`status` lines), LINES (`=
f5`, then lines of text) or ENDLESS (one line without its end).
"""

import subprocess
import sys
import time

ENDLESS = {  # what comes first, then what comes again and again, in large writes
    "FLOOD": (b"", b"\n" * 4096),
    "STATUS": (b"", b"status thinking\n" * 4096),
    "LINES": (b"= f5\n", b"more\n" * 4096),
    "ENDLESS": (b"", b"x" * 4096),
}


def answer(reply, end):
    out = sys.stdout.buffer
    if reply in ENDLESS:
        first, again = ENDLESS[reply]
        out.write(first)
        while True:
            out.write(again)
            out.flush()
    out.write(reply.encode().decode("unicode_escape").encode("latin-1") + end)
    out.flush()


def scripted(protocol, replies):
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] in replies:
            answer(replies[words[0]], b"\n\n" if protocol == "gtp" else b"\n")
        elif protocol == "gtp" and words[0] == "name":
            answer("= Fake", b"\n\n")
        elif protocol == "gtp" and words[0] == "list_commands":
            usual = ["name", "list_commands", "boardsize", "clear_board", "play", "genmove"]
            answer("= " + "\n".join(usual + list(replies)), b"\n\n")
        elif protocol == "gtp":
            answer("=", b"\n\n")
            if words[0] == "quit":
                return
        elif words[0] == "nboard":
            answer("set myname Fake", b"\n")
        elif words[0] == "ping":
            answer(" ".join(["pong"] + words[1:2]), b"\n")
        elif words[0] == "quit":
            return


if sys.argv[1] == "silent":
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
    with open(sys.argv[2], "w") as pid_file:
        pid_file.write(str(child.pid))
    for line in sys.stdin:
        if sys.argv[3:] == ["after-hello"] and line.split()[0] in ("name", "list_commands"):
            print("= Silent\n", flush=True)
    time.sleep(600)
elif sys.argv[1] in ("gtp", "nboard"):
    scripted(sys.argv[1], dict(arg.split("=", 1) for arg in sys.argv[2:]))
else:
    for _line in sys.stdin:
        print("hello, I am not an engine", flush=True)
        print("", flush=True)
