#!/usr/bin/env python3
"""Writes runtime/test/plan/manifest.json, its fake PTX files, and the
bad-plan-*.json manifests beside it, one per rule the plan reader checks.
Run it from anywhere after changing the plans; ctest reads the output."""
import copy
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))


def param(name, role, dtype, shape):
    return {"name": name, "role": role, "dtype": dtype, "shape": shape}


def kernel(name, grid, params, op="test.plan", pdl=False):
    k = {"name": name, "ptx": name + ".ptx", "op": op, "grid": grid,
         "block": [256, 1, 1], "shared_bytes": 0, "bytes_moved": 0,
         "params": params}
    # Launched with programmatic dependent launch: its PTX must wait for the
    # previous grid (the fake driver refuses the launch otherwise).
    if pdl:
        k["pdl"] = True
    return k


def nbytes(dtype, shape):
    size = {"f32": 4, "f64": 8, "i64": 8, "i32": 4}.get(dtype, 1)
    for d in shape:
        size *= d
    return size


def buf(i, name, kind, dtype, shape, **extra):
    b = {"id": i, "name": name, "kind": kind, "dtype": dtype, "shape": shape,
         "bytes": nbytes(dtype, shape)}
    b.update(extra)
    return b


V = [4, 256]   # The f32 tensors of "chain".
M = [200, 320]  # The byte matrix of "tma".
KERNELS = [
    kernel("scale2_f32", [4, 1, 1], [param("in", "input", "f32", V),
                                     param("out", "output", "f32", V)]),
    kernel("add_f32", [4, 1, 1], [param("a", "input", "f32", V),
                                  param("b", "input", "f32", V),
                                  param("out", "output", "f32", V)]),
    kernel("add_one_f32", [4, 1, 1], [param("in", "input", "f32", V),
                                      param("out", "output", "f32", V)],
           pdl=True),
    kernel("ws_add_f32", [4, 1, 1], [param("in", "input", "f32", V),
                                     param("out", "output", "f32", V),
                                     param("ws", "workspace", "i64", [2])],
           pdl=True),
    kernel("scale2_f32_flat", [4, 1, 1],
           [param("in", "input", "f32", [1024]),
            param("out", "output", "f32", [1024])]),
    kernel("invert_u8", [250, 1, 1], [param("in", "input", "f8e4m3", M),
                                      param("out", "output", "f8e4m3", M)]),
    kernel("tma_copy_f8", [3, 4, 1],
           [param("input", "input", "f8e4m3", M),
            param("output", "output", "f8e4m3", M),
            {"name": "input_map", "role": "tensormap", "tensor": "input",
             "box": [64, 128], "swizzle": "128B"}]),
    kernel("dtypes_probe", [1, 1, 1],
           [param("a", "input", "f64", [2]), param("b", "input", "i32", [4]),
            param("c", "input", "i8", [16]),
            param("d", "output", "i1", [16])]),
]


def launch(kernel_name, args):
    return {"kernel": kernel_name, "op": "test.plan",
            "location": "plan.mlir:1:1", "args": args}


# r0 = 2x + y + 1 (+ the zeroed workspace), r1 = 4x + 2y: each launch reads
# what an earlier one wrote, and t2 reuses t0's bytes once t0 is dead.
CHAIN = {
    "name": "chain", "location": "plan.mlir:3:1",
    "arguments": [0, 1], "results": [2, 3],
    "workspace_bytes": 8192, "zeroed_bytes": 16,
    "buffers": [
        buf(0, "x", "argument", "f32", V, index=0),
        buf(1, "y", "argument", "f32", V, index=1),
        buf(2, "result0", "result", "f32", V, index=0),
        buf(3, "result1", "result", "f32", V, index=1),
        buf(4, "t0", "intermediate", "f32", V, offset=0),
        buf(5, "t1", "intermediate", "f32", V, offset=4096),
        buf(6, "t2", "intermediate", "f32", V, offset=0),
        buf(7, "ws", "zeroed", "i64", [2], offset=0),
        buf(8, "t1_flat", "view", "f32", [1024], of=5),
        buf(9, "result1_flat", "view", "f32", [1024], of=3),
    ],
    "launches": [
        launch("scale2_f32", [0, 4]),
        launch("add_f32", [4, 1, 5]),
        launch("add_one_f32", [5, 6]),
        launch("ws_add_f32", [6, 2, 7]),
        launch("scale2_f32_flat", [8, 9]),
    ],
}

# result0 = ~~x, the middle copy through a tensor map of an intermediate.
TMA = {
    "name": "tma", "arguments": [0], "results": [1],
    "workspace_bytes": 128000, "zeroed_bytes": 0,
    "buffers": [
        buf(0, "x", "argument", "f8e4m3", M, index=0),
        buf(1, "result0", "result", "f8e4m3", M, index=0),
        buf(2, "inverted", "intermediate", "f8e4m3", M, offset=0),
        buf(3, "copied", "intermediate", "f8e4m3", M, offset=64000),
    ],
    "launches": [
        launch("invert_u8", [0, 2]),
        launch("tma_copy_f8", [2, 3, 2]),
        launch("invert_u8", [3, 1]),
    ],
}

DTYPES = {
    "name": "dtypes", "arguments": [0, 1, 2], "results": [3],
    "workspace_bytes": 0, "zeroed_bytes": 0,
    "buffers": [
        buf(0, "a", "argument", "f64", [2], index=0),
        buf(1, "b", "argument", "i32", [4], index=1),
        buf(2, "c", "argument", "i8", [16], index=2),
        buf(3, "d", "result", "i1", [16], index=0),
    ],
    "launches": [launch("dtypes_probe", [0, 1, 2, 3])],
}

GOOD = {"version": 2, "chip": "sm_90a", "kernels": KERNELS,
        "functions": [CHAIN, TMA, DTYPES]}


def chain_only(mutate):
    m = copy.deepcopy(GOOD)
    for k in m["kernels"]:
        k["ptx"] = "plan/" + k["ptx"]
    m["functions"] = [m["functions"][0]]
    mutate(m, m["functions"][0])
    return m


def tma_only(mutate):
    m = chain_only(lambda m, f: None)
    m["functions"] = [copy.deepcopy(TMA)]
    mutate(m, m["functions"][0])
    return m


def setitem(obj, key, value):
    obj[key] = value


# name -> the manifest that breaks one rule.
BAD = {
    "id": chain_only(lambda m, f: setitem(f["buffers"][1], "id", 7)),
    "kind": chain_only(lambda m, f: setitem(f["buffers"][4], "kind",
                                            "scratch")),
    "bytes": chain_only(lambda m, f: setitem(f["buffers"][4], "bytes", 4000)),
    "arg-index": chain_only(lambda m, f: setitem(f["buffers"][1], "index",
                                                 0)),
    "arguments": chain_only(lambda m, f: setitem(f, "arguments", [1, 0])),
    "results": chain_only(lambda m, f: setitem(f, "results", [2])),
    "view-of-view": chain_only(lambda m, f: setitem(f["buffers"][9], "of",
                                                    8)),
    "view-bytes": chain_only(lambda m, f: f["buffers"].__setitem__(
        8, buf(8, "t1_flat", "view", "f32", [512], of=5))),
    "offset-align": chain_only(lambda m, f: setitem(f["buffers"][5],
                                                    "offset", 4000)),
    "offset-range": chain_only(lambda m, f: setitem(f, "workspace_bytes",
                                                    6144)),
    "zeroed-range": chain_only(lambda m, f: setitem(f["buffers"][7],
                                                    "offset", 256)),
    "kernel": chain_only(lambda m, f: setitem(f["launches"][2], "kernel",
                                              "add_two_f32")),
    "args-count": chain_only(lambda m, f: setitem(f["launches"][1], "args",
                                                  [4, 1])),
    "arg-missing": chain_only(lambda m, f: setitem(f["launches"][3], "args",
                                                   [6, 2, 17])),
    "arg-dtype": chain_only(lambda m, f: f["buffers"].__setitem__(
        7, buf(7, "ws", "zeroed", "f64", [2], offset=0))),
    "arg-shape": chain_only(lambda m, f: setitem(f["launches"][4], "args",
                                                 [5, 9])),
    "tensormap": tma_only(lambda m, f: setitem(f["launches"][1], "args",
                                               [2, 3, 0])),
    "output-arg": chain_only(lambda m, f: setitem(f["launches"][0], "args",
                                                  [4, 0])),
    "workspace": chain_only(lambda m, f: setitem(f["buffers"][7], "kind",
                                                 "intermediate")),
    "unwritten": chain_only(lambda m, f: f["launches"].pop()),
    "version1": chain_only(lambda m, f: setitem(m, "version", 1)),
    "pdl-type": chain_only(lambda m, f: setitem(m["kernels"][0], "pdl", 1)),
    # scale2_f32's PTX has no griddepcontrol.wait.
    "pdl-no-wait": chain_only(lambda m, f: setitem(m["kernels"][0], "pdl",
                                                   True)),
}


# name -> a manifest that loads or runs into a broken kernel (RuntimeTest.c's
# `errors`): add_f32's PTX is missing, or is not PTX (the fake driver's JIT
# refuses PTX without an .entry), so chain fails and tma still runs.
def with_add_ptx(ptx):
    m = copy.deepcopy(GOOD)
    for k in m["kernels"]:
        k["ptx"] = "plan/" + (ptx if k["name"] == "add_f32" else k["ptx"])
    return m


BROKEN = {
    "missing-ptx": with_add_ptx("no-such.ptx"),
    "corrupt-ptx": with_add_ptx("corrupt.ptx.bin"),
}


def fmt(v, depth=0):
    """Objects and lists of objects nest by lines down to a kernel, a
    function and their lists; a param, buffer or launch is one line."""
    pad = "  " * (depth + 1)
    if isinstance(v, dict) and depth < 3:
        items = [pad + json.dumps(k) + ": " + fmt(x, depth + 1)
                 for k, x in v.items()]
        return "{\n" + ",\n".join(items) + "\n" + "  " * depth + "}"
    if isinstance(v, list) and v and isinstance(v[0], dict) and depth < 4:
        items = [pad + fmt(x, depth + 1) for x in v]
        return "[\n" + ",\n".join(items) + "\n" + "  " * depth + "]"
    return json.dumps(v, separators=(", ", ": "))


def write(path, manifest):
    with open(path, "w") as out:
        out.write(fmt(manifest) + "\n")


def main():
    write(os.path.join(HERE, "manifest.json"), GOOD)
    for k in KERNELS:
        with open(os.path.join(HERE, k["name"] + ".ptx"), "w") as out:
            out.write("// A stand-in: test/FakeCuda.cpp emulates %s by name.\n"
                      ".visible .entry %s(\n)\n{\n%s  ret;\n}\n"
                      % (k["name"], k["name"],
                         "  griddepcontrol.wait;\n" if k.get("pdl") else ""))
    for name, manifest in BAD.items():
        write(os.path.join(HERE, "..", "bad-plan-%s.json" % name), manifest)
    for name, manifest in BROKEN.items():
        write(os.path.join(HERE, "..", "%s.json" % name), manifest)
    with open(os.path.join(HERE, "corrupt.ptx.bin"), "wb") as out:
        out.write(bytes(range(1, 256)) * 4)


main()
