"""Child process of test_crash.py: performs numbered writes (adds and replies) through the
service and acknowledges each one, after it returned, with a fsynced line in an ack log.

    python crash_worker.py WORKSPACE ACK_LOG TOTAL

It resumes after the last acknowledged write, so a killed run is simply started again.
Every choice is derived from the write's number: no randomness, the same run every time.
"""

from __future__ import annotations

import os
import sys

from limpet.server.core import Service

FILES = (("src/auth.py", 18), ("PLAN.md", 7), ("src/app.ts", 7), ("main.go", 7))


def read_acks(path: str) -> list[tuple[str, str, str]]:
    """(kind, thread id, body) per complete ack line; a torn last line is not an ack."""
    try:
        with open(path, "rb") as fh:
            data = fh.read()
    except FileNotFoundError:
        return []
    lines = data.split(b"\n")[:-1]  # whatever follows the last newline is incomplete
    return [tuple(line.decode().split(" ", 2)) for line in lines]  # type: ignore[misc]


def main(workspace: str, ack_log: str, total: int) -> None:
    service = Service(workspace, lock_timeout=60)
    acks = read_acks(ack_log)
    threads = [tid for kind, tid, _ in acks if kind == "add"]
    fd = os.open(ack_log, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    print("ready", flush=True)
    for i in range(len(acks), total):
        body = f"write-{i:04d}"
        if not threads or i % 4 == 0:
            file, lines = FILES[i % len(FILES)]
            line = 1 + (i * 5) % lines
            tid, kind = service.add(file, line, line, body).id, "add"
            threads.append(tid)
        else:
            tid, kind = threads[(i * 7) % len(threads)], "reply"
            service.reply(tid, body)
        os.write(fd, f"{kind} {tid} {body}\n".encode())
        os.fsync(fd)
        print(i, flush=True)
    os.close(fd)
    print("done", flush=True)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]))
