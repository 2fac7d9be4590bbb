#!/usr/bin/env python3
"""Writes fp8-fuzz's seed corpus: every test, example and benchmark input.

Each .mlir file under the given roots is split where -split-input-file would
split it (`// -----`), and each piece becomes one seed per distinct pass
selection of the file's `fp8-opt` RUN lines, as the "// fp8-fuzz: ..." line
that fp8-fuzz reads (tools/fp8-fuzz/fp8-fuzz.cpp). Options that name files
(fp8-emit's dir=, fp8-print-layouts' svg-dir=) are dropped: the fuzzer
chooses where files go. Seeds are named by the SHA-1 of their bytes, as
libFuzzer names corpus files.

Example: make-corpus.py build-sanitize/fuzz/seeds test examples bench
"""

import hashlib
import os
import re
import shlex
import sys

PASSES = {
    "fp8-quantize-matmuls", "fp8-derive-scaling", "fp8-insert-hadamard",
    "fp8-legalize", "fp8-fuse-quantization", "fp8-convert-scaling",
    "fp8-print-layouts",
    "fp8-lower-to-reference", "fp8-pipeline", "fp8-reference-pipeline",
    "convert-fp8-to-nvvm", "fp8-to-ptx", "fp8-emit", "canonicalize", "cse",
}
FILE_OPTIONS = re.compile(r"\b(dir|svg-dir)=\S*\s*")
STOP = {"|", ">", "2>&1", "&&", ";", "||", "-o"}


def element(name, options):
    """One pipeline element, or None if the fuzzer does not run it."""
    if name not in PASSES or "$" in options:
        return None
    options = FILE_OPTIONS.sub("", options).strip()
    return name + ("{" + options + "}" if options else "")


def pipelines(text):
    """The distinct pass selections of the file's fp8-opt RUN lines."""
    found = []
    runs = re.findall(r"//\s*RUN:(.*)", text)
    for run in runs:
        if "fp8-opt" not in run:
            continue
        try:
            tokens = shlex.split(run.split("fp8-opt", 1)[1])
        except ValueError:
            continue
        parts = []
        for token in tokens:
            if token in STOP:
                break
            m = re.match(r"--?pass-pipeline=builtin\.module\((.*)\)$", token)
            if m:
                if "(" not in m.group(1):
                    parts += [p for p in re.split(r",(?![^{]*})", m.group(1))]
                continue
            m = re.match(r"--?([a-z0-9-]+)(?:=(.*))?$", token, re.S)
            if not m:
                continue
            e = element(m.group(1), m.group(2) or "")
            if e:
                parts.append(e)
        selection = ",".join(parts)
        if selection not in found:
            found.append(selection)
    return found or [""]


def main():
    out, roots = sys.argv[1], sys.argv[2:]
    os.makedirs(out, exist_ok=True)
    count = 0
    for root in roots:
        for directory, _, files in sorted(os.walk(root)):
            for name in sorted(files):
                if not name.endswith(".mlir"):
                    continue
                with open(os.path.join(directory, name)) as f:
                    text = f.read()
                for piece in re.split(r"^// -----.*$", text, flags=re.M):
                    for selection in pipelines(text):
                        seed = "// fp8-fuzz: " + selection + "\n" + piece
                        data = seed.encode()
                        digest = hashlib.sha1(data).hexdigest()
                        with open(os.path.join(out, digest), "wb") as f:
                            f.write(data)
                        count += 1
    print("make-corpus: %d seeds in %s" % (count, out))


if __name__ == "__main__":
    main()
