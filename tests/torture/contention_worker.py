"""Child process of test_contention.py: N writes through the service, started together.

    python contention_worker.py WORKSPACE GO_FILE reply THREAD_ID N NAME
    python contention_worker.py WORKSPACE GO_FILE add FILE N NAME

It imports and opens the store, says "ready", waits for GO_FILE to appear (so every worker
writes at the same time), then prints one line per acknowledged write.
"""

from __future__ import annotations

import os
import sys
import time

from limpet.server.core import Service


def main(workspace: str, go: str, mode: str, target: str, count: int, name: str) -> None:
    service = Service(workspace, lock_timeout=120)
    print("ready", flush=True)
    while not os.path.exists(go):
        time.sleep(0.001)
    for i in range(count):
        body = f"{name}-{i:03d}"
        if mode == "reply":
            service.reply(target, body, author=name)
        else:
            line = 1 + i % 7
            print(service.add(target, line, line, body, author=name).id, flush=True)
            continue
        print(body, flush=True)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5]), sys.argv[6])
