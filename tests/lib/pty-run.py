#!/usr/bin/env python3
"""Run a command with its stderr on a pseudo-terminal (stdout and stdin
stay as they are), as a person at a terminal would see it.

    pty-run.py CAPTURE -- COMMAND [ARG...]

Writes what the command wrote on the terminal to CAPTURE, and
"exit STATUS seconds ELAPSED" (wall clock, for the redraw-rate check) to
CAPTURE.res; exits 0.  The terminal is 100 columns wide.
"""
import fcntl
import os
import pty
import struct
import subprocess
import sys
import termios
import time


def main():
    cap, sep, cmd = sys.argv[1], sys.argv[2], sys.argv[3:]
    if sep != "--" or not cmd:
        sys.exit("usage: pty-run.py CAPTURE -- COMMAND [ARG...]")
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 0, 0))
    t0 = time.monotonic()
    proc = subprocess.Popen(cmd, stderr=slave)
    os.close(slave)
    out = bytearray()
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:  # EIO: every writer closed the terminal
            break
        if not chunk:
            break
        out += chunk
    status = proc.wait()
    elapsed = time.monotonic() - t0
    os.close(master)
    with open(cap, "wb") as f:
        f.write(out)
    with open(cap + ".res", "w") as f:
        f.write("exit %d seconds %.3f\n" % (status, elapsed))


main()
