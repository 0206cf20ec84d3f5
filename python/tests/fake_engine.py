"""Engines that misbehave, for the fault tests: `silent PID_FILE [after-hello]` reads and
never answers (or answers only `name` and `list_commands`), with a child process of its own
that must end with it; `garbage` answers every line with text that is no protocol's."""

import subprocess
import sys
import time

if sys.argv[1] == "silent":
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
    with open(sys.argv[2], "w") as pid_file:
        pid_file.write(str(child.pid))
    for line in sys.stdin:
        if sys.argv[3:] == ["after-hello"] and line.split()[0] in ("name", "list_commands"):
            print("= Silent\n", flush=True)
    time.sleep(600)
else:
    for _line in sys.stdin:
        print("hello, I am not an engine", flush=True)
        print("", flush=True)
