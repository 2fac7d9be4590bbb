#!/usr/bin/env python3
"""Runs the shell commands of README.md's "first hour" section as written.

    python3 utils/check-readme-commands.py [--fp8-opt PATH] [README.md]
    python3 utils/check-readme-commands.py --self-test

The section lies between `<!-- first-hour: begin ... -->` and
`<!-- first-hour: end -->`. Each fenced block in it may follow a mark,
`<!-- first-hour: KIND -->`:

  run         a sh block that runs here (CPU, Python 3, build/bin/fp8-opt):
              run by bash -e from the repository root, in order
  gpu, torch  a sh block that needs an NVIDIA GPU or PyTorch: skipped
  make        a sh block of make targets that `make check` runs itself:
              skipped
  file PATH   the block is the text of PATH (compared, not run)

A sh block without a mark fails the check, so no command in the section
is left unchecked by accident. `--fp8-opt PATH` runs the commands against
another build's fp8-opt (for `build/bin/fp8-opt` in their text, and as
$FP8_OPT for the Python package). Their outputs go to build/first-hour/,
which is removed first. Exits 1 with the block's line and its output
where a command fails. Python 3's standard library only.
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KINDS = ("run", "gpu", "torch", "make", "file")
_MARK = re.compile(r"^<!--\s*first-hour:\s*(\S+)\s*(.*?)\s*(-->)?\s*$")
_FENCE = re.compile(r"^(```+)\s*(\w*)\s*$")


class Block:
    def __init__(self, line, lang, text, kind, arg):
        self.line, self.lang, self.text = line, lang, text
        self.kind, self.arg = kind, arg


def parse(text, path="README.md"):
    """The fenced blocks of the section with their marks; ValueError
    naming the line for a missing section, an unknown mark or an
    unmarked sh block."""
    lines = text.splitlines()
    begin = end = None
    for i, line in enumerate(lines):
        m = _MARK.match(line.strip())
        if m and m.group(1) == "begin":
            begin = i
        elif m and m.group(1) == "end" and begin is not None:
            end = i
            break
    if begin is None or end is None:
        raise ValueError("%s: no `<!-- first-hour: begin -->` ... "
                         "`<!-- first-hour: end -->` section" % path)
    blocks, mark, i = [], None, begin + 1
    # The begin mark may span lines: skip to its end.
    while i < end and "-->" not in lines[i - 1]:
        i += 1
    while i < end:
        line = lines[i]
        m = _MARK.match(line.strip())
        if m:
            kind, arg = m.group(1), m.group(2)
            if kind not in KINDS:
                raise ValueError("%s:%d: unknown mark %r (expected one of "
                                 "%s)" % (path, i + 1, kind,
                                          ", ".join(KINDS)))
            if kind == "file" and not arg:
                raise ValueError("%s:%d: `file` needs a path" %
                                 (path, i + 1))
            mark = (kind, arg, i + 1)
            i += 1
            continue
        f = _FENCE.match(line)
        if f:
            fence, lang, start = f.group(1), f.group(2), i + 1
            i += 1
            body = []
            while i < end and lines[i].strip() != fence:
                body.append(lines[i])
                i += 1
            if i >= end:
                raise ValueError("%s:%d: unclosed code block" %
                                 (path, start))
            kind, arg = (mark[0], mark[1]) if mark else (None, None)
            if lang == "sh" and kind is None:
                raise ValueError(
                    "%s:%d: sh block without a mark: put `<!-- first-hour: "
                    "run -->` (or gpu, torch, make) before it" %
                    (path, start))
            if kind in ("run", "gpu", "torch", "make") and lang != "sh":
                raise ValueError("%s:%d: a `%s` mark before a %s block, "
                                 "not sh" % (path, start, kind,
                                             lang or "plain"))
            blocks.append(Block(start, lang, "\n".join(body) + "\n",
                                kind, arg))
            mark = None
        elif line.strip() and mark:
            raise ValueError("%s:%d: the mark at line %d is not followed "
                             "by a code block" % (path, i + 1, mark[2]))
        i += 1
    return blocks


def check(readme, fp8_opt=None, repo=REPO, out=sys.stdout):
    """Runs the README's blocks; returns the exit status."""
    with open(readme, encoding="utf-8") as f:
        text = f.read()
    try:
        blocks = parse(text, os.path.relpath(readme, repo))
    except ValueError as e:
        print("check-readme: %s" % e, file=sys.stderr)
        return 1
    env = dict(os.environ)
    if fp8_opt:
        env["FP8_OPT"] = os.path.abspath(fp8_opt)
    shutil.rmtree(os.path.join(repo, "build", "first-hour"),
                  ignore_errors=True)
    ran = skipped = 0
    for b in blocks:
        where = "%s:%d" % (os.path.basename(readme), b.line)
        if b.kind == "file":
            try:
                with open(os.path.join(repo, b.arg), encoding="utf-8") as f:
                    actual = f.read()
            except OSError as e:
                print("check-readme: %s: %s" % (where, e), file=sys.stderr)
                return 1
            if b.text.strip() not in actual:
                print("check-readme: %s: the block is not the text of %s "
                      "(update one or the other)" % (where, b.arg),
                      file=sys.stderr)
                return 1
            continue
        if b.kind != "run":
            if b.lang == "sh":
                skipped += 1
                print("check-readme: %s: skipped (%s)" % (where, b.kind),
                      file=out)
            continue
        script = b.text
        if fp8_opt:
            script = script.replace("build/bin/fp8-opt",
                                    os.path.abspath(fp8_opt))
        print("check-readme: %s: running\n%s" % (where, script.rstrip()),
              file=out)
        out.flush()
        proc = subprocess.run(["bash", "-e", "-o", "pipefail", "-c",
                               script], cwd=repo, env=env,
                              capture_output=True, text=True)
        if proc.returncode != 0:
            print("check-readme: %s: failed (exit %d):\n%s%s" % (
                where, proc.returncode, proc.stdout, proc.stderr),
                file=sys.stderr)
            return 1
        ran += 1
    print("check-readme: %d blocks ran, %d skipped: passed" % (ran, skipped),
          file=out)
    return 0


def self_test():
    """The checker's own errors, on small READMEs."""
    cases = [
        ("no section", "# x\n```sh\nls\n```\n", "no `<!-- first-hour"),
        ("unmarked", "<!-- first-hour: begin -->\n```sh\nls\n```\n"
         "<!-- first-hour: end -->\n", ":2: sh block without a mark"),
        ("unknown mark", "<!-- first-hour: begin -->\n"
         "<!-- first-hour: cpu -->\n```sh\nls\n```\n"
         "<!-- first-hour: end -->\n", ":2: unknown mark 'cpu'"),
        ("dangling mark", "<!-- first-hour: begin -->\n"
         "<!-- first-hour: run -->\ntext\n<!-- first-hour: end -->\n",
         ":3: the mark at line 2 is not followed"),
        ("failing command", "<!-- first-hour: begin -->\n"
         "<!-- first-hour: run -->\n```sh\necho ok\nfalse\n```\n"
         "<!-- first-hour: end -->\n", ":3: failed (exit 1)"),
        ("file mismatch", "<!-- first-hour: begin -->\n"
         "<!-- first-hour: file a.mlir -->\n```mlir\nfunc\n```\n"
         "<!-- first-hour: end -->\n", "not the text of a.mlir"),
        ("passes", "<!-- first-hour: begin\nmore -->\n"
         "<!-- first-hour: run -->\n```sh\ntest -f a.mlir\n```\n"
         "<!-- first-hour: gpu -->\n```sh\nnvidia-smi\n```\n"
         "<!-- first-hour: file a.mlir -->\n```mlir\nmodule\n```\n"
         "```python\nimport torch\n```\n"
         "<!-- first-hour: end -->\n```sh\nunchecked\n```\n", None),
    ]
    failed = 0
    for name, text, expected in cases:
        root = tempfile.mkdtemp(prefix="check-readme-")
        try:
            with open(os.path.join(root, "README.md"), "w") as f:
                f.write(text)
            with open(os.path.join(root, "a.mlir"), "w") as f:
                f.write("module\n")
            err, log = tempfile.TemporaryFile("w+"), tempfile.TemporaryFile(
                "w+")
            saved = sys.stderr
            sys.stderr = err
            try:
                rc = check(os.path.join(root, "README.md"), repo=root,
                           out=log)
            finally:
                sys.stderr = saved
            err.seek(0)
            message = err.read()
            ok = (rc == 0) if expected is None else (
                rc == 1 and expected in message)
            if not ok:
                failed += 1
                print("check-readme self-test %s: FAILED (rc %d): %s" % (
                    name, rc, message), file=sys.stderr)
        finally:
            shutil.rmtree(root, ignore_errors=True)
    print("check-readme self-test: %d cases, %s" % (
        len(cases), "passed" if not failed else "%d failed" % failed))
    return 1 if failed else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("readme", nargs="?",
                        default=os.path.join(REPO, "README.md"))
    parser.add_argument("--fp8-opt", help="the fp8-opt to run instead of "
                        "build/bin/fp8-opt")
    parser.add_argument("--self-test", action="store_true")
    args = parser.parse_args()
    if args.self_test:
        return self_test()
    fp8_opt = args.fp8_opt
    if fp8_opt and not os.path.isfile(fp8_opt):
        print("check-readme: no fp8-opt at %s (make build)" % fp8_opt,
              file=sys.stderr)
        return 1
    if not fp8_opt and not os.path.isfile(
            os.path.join(REPO, "build", "bin", "fp8-opt")):
        print("check-readme: no build/bin/fp8-opt: run `make build` first, "
              "or pass --fp8-opt PATH", file=sys.stderr)
        return 1
    return check(args.readme, fp8_opt)


if __name__ == "__main__":
    sys.exit(main())
