#!/usr/bin/env python3
"""Prints what a failed fuzz job needs to be reproduced, in few lines, for the
end of a CI log (where a log excerpt is cut): the input's pass pipeline, its
size and SHA-1 name, the input itself gzipped and base64-encoded (at most
MAX_B64 characters; `base64 -d | gunzip` restores it), and the first frames
of the stack trace that are not libFuzzer's or libc's, names only.

Usage: crash-summary.py JOB_LOG ARTIFACT_DIR
"""

import base64
import gzip
import os
import re
import sys

MAX_FRAMES = 8
MAX_B64 = 4000


def main(log_path, artifact_dir):
    with open(log_path, errors="replace") as f:
        log = f.read()
    # The failing unit (libFuzzer also writes slow-unit-* files as it goes).
    units = re.findall(r"Test unit written to (\S*(?:crash|timeout|oom|leak)-\w+)", log)
    frames, ours = [], []
    start = re.search(r"ERROR: (libFuzzer|AddressSanitizer|UndefinedBehavior)|runtime error", log)
    if start:
        for line in log[start.start():].splitlines():
            m = re.match(r"\s+#\d+ 0x[0-9a-f]+ in (.*?)(?: /\S+| \(/\S+)", line)
            if not m:
                continue
            name = m.group(1)
            if re.search(r"fuzzer::|__sanitizer|__asan|__ubsan|libc_start|_start\b|^abort|raise|pthread_kill", name):
                continue
            if len(frames) < MAX_FRAMES:
                frames.append(name[:160])
            if "fp8" in name and len(ours) < MAX_FRAMES:
                ours.append(name[:160])
    path = units[-1] if units else None
    if path and not os.path.exists(path):
        path = os.path.join(artifact_dir, os.path.basename(path))
    summary = "no crash input was written"
    if path and os.path.exists(path):
        data = open(path, "rb").read()
        header = data.split(b"\n", 1)[0].decode(errors="replace")
        summary = (f"crash input {os.path.basename(path)}: {len(data)} bytes, "
                   f"first line: {header[:200]}")
        encoded = base64.b64encode(gzip.compress(data, 9)).decode()
        if len(encoded) <= MAX_B64:
            print("crash input, gzip + base64 (base64 -d | gunzip):")
            for i in range(0, len(encoded), 100):
                print(encoded[i:i + 100])
        else:
            print(f"crash input too large to print ({len(encoded)} base64 characters)")
    # The most telling lines last: a log excerpt keeps the end.
    print("top frames:")
    for name in frames:
        print("  " + name)
    print("first frames in fp8-mlir's code:")
    for name in ours:
        print("  " + name)
    print(summary)
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1], sys.argv[2]))
