#!/usr/bin/env python3
"""Checks the SASS of fp8-mlir's sm_100a kernels (no Blackwell GPU needed).

Run on a machine with CUDA's ptxas and cuobjdump (the H100 machine):

    fp8-opt in.mlir --fp8-pipeline="recipe=mxfp8 chip=sm_100a" \
        --fp8-emit="dir=DIR chip=sm_100a" -o /dev/null     # here, with MLIR
    utils/check-sm100a-sass.py DIR                         # there

Every DIR/*.ptx is assembled with `ptxas -arch=sm_100a -v` and
disassembled with `cuobjdump -sass`. For every kernel:
  - no local memory: ptxas reports 0 bytes of stack frame and spills, and
    the SASS has no LDL/STL;
and for every kernel with tensor-core MMAs (a tcgen05 GEMM):
  - UTCQMMA (tcgen05.mma) count, and per 128-deep K-block: the main loop
    body must hold a multiple of 4 (K = 32 each);
  - UTCBAR (tcgen05.commit) and LDTM (tcgen05.ld) present, and UTCCP
    (tcgen05.cp of the scale factors) where the PTX has block-scaled MMAs
    (MXFP8; blockwise and tensorwise apply their scales in the epilogue);
  - no ELECT ... BRA loop around UTCQMMA: the MMA issuer is one thread
    (the GEMM guards it by its thread index), so a backward branch whose
    body holds both ELECT and UTCQMMA means ptxas serialized an MMA that
    was not provably issued by one thread.
and for every kernel with CTA pairs (PTX with cta_group::2: the GEMM's
M = 256 configuration for large tiles):
  - every UTCQMMA, UTCCP and UTCBAR in its 2-CTA form (ptxas maps
    .cta_group::2 to the .2CTA modifier; a plain form would be a one-SM
    MMA, copy or commit), and the MMA side's commits multicast to both
    CTAs (UTCBAR.2CTA.MULTICAST, from .multicast::cluster);
  - cluster barriers (barrier.cluster.arrive/wait: UCGABAR_*);
  - the ELF's compile-time cluster (EIATTR_EXPLICIT_CLUSTER and
    EIATTR_CTA_PER_CLUSTER, from .explicitcluster/.reqnctapercluster),
    which is what lets a plain launch of an even grid form the pairs;
and no .2CTA form in a kernel without cta_group::2;
and for every kernel: registers x threads (the PTX's .maxntid) within the
65536-register file. Exit status 1 if any check fails; a table of counts
goes to stdout (2CTA: the UTCQMMA.2CTA among the UTCQMMA).
"""

import os
import re
import subprocess
import sys
import tempfile

CUDA = os.environ.get("CUDA_HOME", "/usr/local/cuda")
PTXAS = os.path.join(CUDA, "bin", "ptxas")
CUOBJDUMP = os.path.join(CUDA, "bin", "cuobjdump")

INSTR = re.compile(r"/\*[0-9a-f]{4,}\*/\s+(@!?U?P\w+\s+)?([A-Z][A-Z0-9_.]*)")
LABEL = re.compile(r"^\s*(\.L_x_\d+):")
BRANCH = re.compile(r"\bBRA\b.*?(\.L_x_\d+)")


def assemble(ptx, cubin):
    out = subprocess.run([PTXAS, "-arch=sm_100a", "-v", ptx, "-o", cubin],
                         capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(f"ptxas failed on {ptx}:\n{out.stderr}")
    return out.stderr


def disassemble(cubin):
    out = subprocess.run([CUOBJDUMP, "-sass", cubin], capture_output=True,
                         text=True, check=True)
    return out.stdout.splitlines()


def elf(cubin):
    out = subprocess.run([CUOBJDUMP, "-elf", cubin], capture_output=True,
                         text=True, check=True)
    return out.stdout


def pair_errors(full_ops, elf_text):
    """The 2-CTA checks of a kernel whose PTX has cta_group::2."""
    errors = []
    for op in ("UTCQMMA", "UTCCP", "UTCBAR"):
        plain = [o for o in full_ops
                 if o.split(".")[0] == op and ".2CTA" not in o]
        if plain:
            errors.append(f"{len(plain)} {op} without .2CTA in a cta_group::2 "
                          f"kernel (e.g. {plain[0]})")
    if not any(o.startswith("UTCBAR.2CTA.MULTICAST") for o in full_ops):
        errors.append("no UTCBAR.2CTA.MULTICAST: the MMA commits do not "
                      "reach both CTAs")
    if sum(o.startswith("UCGABAR") for o in full_ops) < 2:
        errors.append("no cluster barriers (UCGABAR_*)")
    for attr in ("EXPLICIT_CLUSTER", "CTA_PER_CLUSTER"):
        if attr not in elf_text:
            errors.append(f"the ELF has no EIATTR_{attr}: no compile-time "
                          "cluster")
    return errors


def elect_loops(lines):
    """Backward branches whose body has both ELECT and UTCQMMA."""
    labels = {}
    for i, line in enumerate(lines):
        m = LABEL.match(line)
        if m:
            labels[m.group(1)] = i
    loops = []
    for i, line in enumerate(lines):
        m = BRANCH.search(line)
        if not m or m.group(1) not in labels or labels[m.group(1)] >= i:
            continue
        body = lines[labels[m.group(1)]:i + 1]
        if any("ELECT" in b for b in body) and \
                any("UTCQMMA" in b for b in body):
            loops.append(m.group(1))
    return loops


def check(ptx, tmp):
    cubin = os.path.join(tmp, os.path.basename(ptx) + ".cubin")
    info = assemble(ptx, cubin)
    lines = disassemble(cubin)
    full_ops = [m.group(2) for m in map(INSTR.search, lines) if m]
    ops = [op.split(".")[0] for op in full_ops]
    count = {op: ops.count(op) for op in
             ("UTCQMMA", "UTCCP", "UTCBAR", "LDTM", "ELECT", "LDL", "STL")}
    count["2CTA"] = sum(o.startswith("UTCQMMA.2CTA") for o in full_ops)
    errors = []
    frames = re.findall(r"(\d+) bytes stack frame, (\d+) bytes spill stores, "
                        r"(\d+) bytes spill loads", info)
    if any(int(x) for frame in frames for x in frame):
        errors.append("local memory (stack frame or spills): " + str(frames))
    if count["LDL"] or count["STL"]:
        errors.append(f"{count['LDL']} LDL / {count['STL']} STL")
    with open(ptx) as f:
        text = f.read()
    if count["UTCQMMA"]:
        needed = ["UTCBAR", "LDTM"]
        if "block_scale" in text:
            needed.append("UTCCP")
        for op in needed:
            if not count[op]:
                errors.append(f"a tcgen05 GEMM without {op}")
        if count["UTCQMMA"] % 4:
            errors.append(f"{count['UTCQMMA']} UTCQMMA: not 4 per 128-deep "
                          "K-block")
        loops = elect_loops(lines)
        if loops:
            errors.append("ELECT ... BRA loop around UTCQMMA at " +
                          ", ".join(loops))
    if "cta_group::2" in text:
        errors += pair_errors(full_ops, elf(cubin))
    elif any(".2CTA" in o for o in full_ops):
        errors.append("a .2CTA instruction in a kernel without cta_group::2")
    regs = re.findall(r"Used (\d+) registers", info)
    threads = re.search(r"\.(?:maxntid|reqntid) (\d+)", text)
    if threads and any(int(r) * int(threads.group(1)) > 65536 for r in regs):
        errors.append(f"{','.join(regs)} registers x {threads.group(1)} "
                      "threads exceed the 65536-register file")
    return count, regs, errors


def main():
    if len(sys.argv) != 2 or sys.argv[1] in ("-h", "--help"):
        print(__doc__, file=sys.stderr)
        return 0 if len(sys.argv) == 2 else 2
    if not os.path.isdir(sys.argv[1]):
        print(f"{sys.argv[1]}: not a directory", file=sys.stderr)
        return 2
    ptxs = sorted(os.path.join(sys.argv[1], f)
                  for f in os.listdir(sys.argv[1]) if f.endswith(".ptx"))
    if not ptxs:
        print(f"no .ptx files in {sys.argv[1]}", file=sys.stderr)
        return 2
    failed = False
    print(f"{'kernel':48} regs UTCQMMA 2CTA UTCCP UTCBAR LDTM  result")
    with tempfile.TemporaryDirectory() as tmp:
        for ptx in ptxs:
            count, regs, errors = check(ptx, tmp)
            print(f"{os.path.basename(ptx)[:-4]:48} {','.join(regs):>4} "
                  f"{count['UTCQMMA']:7} {count['2CTA']:4} {count['UTCCP']:5} "
                  f"{count['UTCBAR']:6} {count['LDTM']:4}  "
                  f"{'ok' if not errors else 'FAIL'}")
            for error in errors:
                print(f"    {error}")
            failed |= bool(errors)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
