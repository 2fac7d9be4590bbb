#!/usr/bin/env python3
"""Checks that every relative link of the repository's Markdown files resolves.

A link `[text](path)` or `[text](path#anchor)` must name a file or directory
that exists, relative to the file that holds it, and an anchor into a Markdown
file must be one of its headings as GitHub spells it. Links with a scheme
(https:, mailto:) and links inside code are skipped. Standard library only;
`make check-docs` runs it on the files git tracks or would add.

  utils/check-doc-links.py [FILE.md ...]   # default: every *.md git tracks or would add
"""

import os
import re
import subprocess
import sys

LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(([^()\s]+(?:\([^()\s]*\))?[^()\s]*)(?:\s+\"[^\"]*\")?\)")
FENCE = re.compile(r"^\s*(```|~~~)")
INLINE_CODE = re.compile(r"(`+)(?:.+?)\1")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")


def slug(heading):
    """GitHub's anchor for a heading: lowercase, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)
    text = text.lower()
    text = "".join(c for c in text if c.isalnum() or c in " -_")
    return text.replace(" ", "-")


def lines_outside_code(path):
    with open(path, encoding="utf-8") as f:
        in_fence = False
        for number, line in enumerate(f, 1):
            if FENCE.match(line):
                in_fence = not in_fence
                continue
            if not in_fence:
                yield number, line


_anchors = {}


def anchors(path):
    if path not in _anchors:
        found, seen = set(), {}
        for _, line in lines_outside_code(path):
            match = HEADING.match(line)
            if not match:
                continue
            base = slug(match.group(2))
            count = seen.get(base, 0)
            seen[base] = count + 1
            found.add(base if count == 0 else "%s-%d" % (base, count))
        _anchors[path] = found
    return _anchors[path]


def check(path):
    errors = []
    for number, line in lines_outside_code(path):
        for match in LINK.finditer(INLINE_CODE.sub("", line)):
            target = match.group(1)
            if re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:", target):
                continue
            file_part, _, anchor = target.partition("#")
            resolved = (
                os.path.normpath(os.path.join(os.path.dirname(path), file_part))
                if file_part
                else path
            )
            where = "%s:%d: %s" % (path, number, target)
            if not os.path.exists(resolved):
                errors.append("%s: no such file %s" % (where, resolved))
            elif anchor and resolved.endswith(".md") and anchor not in anchors(resolved):
                errors.append("%s: no heading #%s in %s" % (where, anchor, resolved))
    return errors


def markdown_files():
    """The *.md files git tracks or would add; outside a git tree, every one
    under the current directory but build and install trees."""
    try:
        return subprocess.run(
            ["git", "ls-files", "--cached", "--others", "--exclude-standard", "*.md"],
            check=True, capture_output=True, text=True,
        ).stdout.split()
    except (OSError, subprocess.CalledProcessError):
        found = []
        for root, dirs, names in os.walk("."):
            dirs[:] = [d for d in dirs if not d.startswith((".", "build", "install"))]
            found += [os.path.relpath(os.path.join(root, n)) for n in names if n.endswith(".md")]
        return sorted(found)


def main(argv):
    files = argv or markdown_files()
    errors = [error for path in files for error in check(path)]
    for error in errors:
        print(error)
    print("check-docs: %d files, %s" % (len(files), "%d broken links" % len(errors) if errors else "passed"))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
