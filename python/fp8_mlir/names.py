"""Readable names and roles for a compiled function's inputs and outputs.

fp8-emit names a function's buffers by position (`arg0`, `result1`):
MLIR keeps no SSA names once it has parsed a graph. The graph the program
was compiled from usually still exists (the manifest's `location` names
its file, line and column; a cache entry keeps it as graph.mlir beside
the entry), and its `func.func` signature has the names the author wrote
(`%x`, `%w`) and their `fp8.role`s. This module reads them back:

  - an argument named `arg<i>` takes the name and role of the source
    function's argument it comes from;
  - an amax history the delayed recipe added (the `history` operand of an
    `fp8.quantize_delayed` launch) is `amax_history_<tensor>`, after the
    tensor it scales (`amax_history_<k>` for a tensor the function
    computes), with role "amax_history"; the updated histories the
    function returns, last among its results in the same order, are named
    the same;
  - in the halves of a split training function (fp8-split-forward-
    backward), the `arg<N>` of a `saved` label (`arg0:qt`) is replaced by
    the joint function's argument name (`x:qt`), and so are the `arg<N>`
    of monitor labels.

Anything that cannot be matched keeps the manifest's name. Needs nothing
but the manifest and the source text; no libfp8rt, no PyTorch.
"""

import os
import re

_LOCATION = re.compile(r"^(.*):(\d+):(\d+)$")
_GENERIC = re.compile(r"^(arg|result)\d+$")
_ARG_REF = re.compile(r"\barg(\d+)\b")


def source_arguments(location, base_dir=None):
    """[(name, role or None)] of the arguments of the `func.func` that
    starts at `location` ("FILE:LINE:COL", FILE absolute or relative to
    `base_dir` or the working directory), or None where the file or the
    function cannot be read."""
    found = _source(location, base_dir)
    return found[0] if found else None


def _source(location, base_dir=None):
    """(source_arguments, the file's lines), or None."""
    m = _LOCATION.match(location or "")
    if not m:
        return None
    path, line = m.group(1), int(m.group(2))
    candidates = [path]
    if base_dir and not os.path.isabs(path):
        candidates.insert(0, os.path.join(base_dir, path))
    for candidate in candidates:
        try:
            with open(candidate, encoding="utf-8") as f:
                lines = f.read().splitlines()
        except (OSError, UnicodeDecodeError):
            continue
        if 1 <= line <= len(lines):
            args = parse_arguments("\n".join(lines[line - 1:line + 200]))
            return (args, lines) if args is not None else None
    return None


def parse_arguments(text):
    """[(name, role or None)] of the first `func.func @f(...)` in `text`,
    or None where there is none."""
    m = re.search(r"func\.func\s+(?:\w+\s+)?@[\w$.-]+\s*\(", text)
    if not m:
        return None
    depth, start, pieces, quoted = 0, m.end(), [], False
    for i in range(m.end(), len(text)):
        c = text[i]
        if quoted:
            quoted = c != '"' or text[i - 1] == "\\"
            continue
        if c == '"':
            quoted = True
        elif c in "(<[{":
            depth += 1
        elif c in ">]}" or (c == ")" and depth > 0):
            depth -= 1
        elif c == ")":
            pieces.append(text[start:i])
            break
        elif c == "," and depth == 0:
            pieces.append(text[start:i])
            start = i + 1
    else:
        return None
    out = []
    for piece in pieces:
        piece = piece.strip()
        if not piece:
            continue
        name = re.match(r"%([\w$.-]+)\s*:", piece)
        if not name:
            return None
        role = re.search(r"fp8\.role\s*=\s*\"([^\"]*)\"", piece)
        out.append((name.group(1), role.group(1) if role else None))
    return out


def _history_inputs(function, kernels):
    """{history argument index: id of the buffer it scales}. Plain
    delayed scaling quantizes with fp8.quantize_delayed(input, history);
    with monitor=true the history is rolled on its own: extract_slice of
    the history, insert_slice into a new one, and insert_slice of the
    amax that an fp8.amax launch took of the tensor."""
    buffers = function["buffers"]
    arg_index = {b: i for i, b in enumerate(function["arguments"])}
    launches = []
    for launch in function.get("launches", []):
        params = kernels.get(launch.get("kernel"), {}).get("params", [])
        args = launch.get("args", [])
        if len(params) != len(args):
            continue
        launches.append((launch.get("op"),
                         {p.get("name"): a for p, a in zip(params, args)}))

    def root(buf):
        # Through views, to the buffer whose bytes they are.
        seen = set()
        while 0 <= buf < len(buffers) and \
                buffers[buf].get("kind") == "view" and buf not in seen:
            seen.add(buf)
            buf = buffers[buf].get("of", buf)
        return buf

    out = {}
    for op, p in launches:
        if op == "fp8.quantize_delayed" and "history" in p and "input" in p \
                and p["history"] in arg_index:
            out.setdefault(arg_index[p["history"]], root(p["input"]))
    amax_of = {p["amax"]: p["input"] for op, p in launches
               if op == "fp8.amax" and "amax" in p and "input" in p}
    for op, p in launches:
        if op != "tensor.extract_slice" or \
                p.get("source") not in arg_index or \
                arg_index[p["source"]] in out:
            continue
        rolled = [q.get("out") for o, q in launches
                  if o == "tensor.insert_slice" and "dest" not in q and
                  q.get("source") == p.get("out")]
        for o, q in launches:
            if o == "tensor.insert_slice" and rolled and \
                    q.get("dest") == rolled[0] and \
                    q.get("source") in amax_of:
                out[arg_index[p["source"]]] = root(amax_of[q["source"]])
                break
    return out


def _computed_name(function, buf, source_lines):
    """The SSA name a graph gives the computed tensor `buf` scales, read
    from the source line of the matmul that quantizes it: its one operand
    that is not a function argument; None where that is not clear."""
    if not source_lines:
        return None
    for launch in function.get("launches", []):
        if buf not in launch.get("args", []) or \
                not launch.get("op", "").startswith("fp8.quantize"):
            continue
        m = _LOCATION.match(launch.get("location") or "")
        if not m or not 1 <= int(m.group(2)) <= len(source_lines[1]):
            continue
        lines = source_lines[1][int(m.group(2)) - 1:int(m.group(2)) + 3]
        ins = re.search(r"ins\(([^:)]*)", " ".join(lines))
        if not ins:
            continue
        operands = re.findall(r"%([\w$.-]+)", ins.group(1))
        computed = [o for o in operands if o not in source_lines[0]]
        if len(computed) == 1:
            return computed[0]
    return None


def describe(manifest, base_dir=None):
    """{function name: (argument (name, role) list, result (name, role)
    list)} for every function of `manifest` (the parsed manifest.json)."""
    kernels = {k.get("name"): k for k in manifest.get("kernels", [])}
    out = {}
    for f in manifest.get("functions", []):
        try:
            out[f["name"]] = _describe_function(f, kernels, base_dir)
        except (KeyError, IndexError, TypeError, ValueError):
            continue
    return out


def _describe_function(f, kernels, base_dir):
    buffers = f["buffers"]
    args = [buffers[i] for i in f["arguments"]]
    results = [buffers[i] for i in f["results"]]
    names = [[b["name"], None] for b in args]
    result_names = [[b["name"], None] for b in results]
    found = _source(f.get("location"), base_dir)
    source = found[0] if found else []
    histories = _history_inputs(f, kernels)
    plain = [i for i in range(len(args)) if i not in histories]

    # Which source argument each plain argument is.
    joint = {}
    if any(args[i].get("saved") for i in plain):
        # The backward half: gradients, then what forward saved.
        gradients = [s for s in source if s[1] == "gradient"]
        unsaved = [i for i in plain if not args[i].get("saved")]
        if len(unsaved) == len(gradients):
            joint.update(zip(unsaved, gradients))
    elif len(plain) == len(source):
        joint.update(zip(plain, source))
    else:
        # The forward half: the joint function's arguments but gradients.
        inputs = [s for s in source if s[1] != "gradient"]
        if len(plain) == len(inputs):
            joint.update(zip(plain, inputs))
    for i, (name, role) in joint.items():
        if _GENERIC.match(names[i][0]):
            names[i] = [name, role]

    def label(text):
        def sub(m):
            n = int(m.group(1))
            return source[n][0] if n < len(source) else m.group(0)
        return _ARG_REF.sub(sub, text)

    for i, b in enumerate(args):
        if b.get("saved") and _GENERIC.match(names[i][0]):
            names[i] = [label(b["saved"]), "saved"]

    # Histories, after the tensor each scales.
    hist_names = []
    arg_of = {b: i for i, b in enumerate(f["arguments"])}
    source_lines = ({n for n, _ in source}, found[1]) if found else None
    for k, i in enumerate(sorted(histories)):
        src = arg_of.get(histories[i])
        if src is not None:
            tensor = names[src][0]
        else:
            tensor = _computed_name(f, histories[i], source_lines) or \
                "%d" % k
        hist_names.append("amax_history_" + tensor)
        if _GENERIC.match(names[i][0]):
            names[i] = [hist_names[-1], "amax_history"]
    # The updated histories: the last results that are neither saved nor
    # monitored, in the order of the history arguments, same shapes.
    own = [j for j, b in enumerate(results)
           if not b.get("saved") and not b.get("monitor")]
    if hist_names and len(own) >= len(hist_names):
        tail = own[len(own) - len(hist_names):]
        shapes = [args[i]["shape"] for i in sorted(histories)]
        if [results[j]["shape"] for j in tail] == shapes:
            for j, name in zip(tail, hist_names):
                if _GENERIC.match(result_names[j][0]):
                    result_names[j] = [name, "amax_history"]
    for j, b in enumerate(results):
        if not _GENERIC.match(result_names[j][0]):
            continue
        if b.get("saved"):
            result_names[j] = [label(b["saved"]), "saved"]
        elif b.get("monitor"):
            result_names[j] = [label(b["monitor"]), "monitor"]
    return ([tuple(n) for n in names], [tuple(n) for n in result_names])
