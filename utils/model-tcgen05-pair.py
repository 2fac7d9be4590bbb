#!/usr/bin/env python3
"""A model of the sm_100a GEMM's CTA-pair (cta_group::2) mbarrier protocol.

Checks the protocol the kernel builder emits (Tcgen05Pipeline,
Tcgen05MainLoop, Tcgen05Epilogue, Tcgen05Kernel), not the hardware: under
every schedule it tries, no role waits forever, every MMA reads the stage
contents of both CTAs that its K-block loaded, no load overwrites a stage
that an MMA still reads, every epilogue reads the accumulator of its tile,
no MMA overwrites an accumulator an epilogue still reads, and nothing is in
flight when the CTAs pass the final cluster barrier.

The hardware facts it assumes are the ones docs/gpu/sm100a.md lists as not
proven: a load with .cta_group::2 completes its bytes on the leader's
barrier (for a multicast, once per destination CTA); a commit fires its arrivals after
every MMA issued before it has completed (MMAs and commits of one thread
in issue order, the arrivals themselves delivered in any order); a
multicast commit arrives on the barrier at the same offset in each masked
CTA. Without the producers' and the MMA thread's drains before the final
cluster barrier, the model finds arrivals still in flight there.

Usage: model-tcgen05-pair.py [--runs N] [--seed S]
Prints one line per configuration and "all schedules ok"; exit status 1 on
the first violation, with the configuration and seed.
"""

import argparse
import random
import sys


class Violation(Exception):
    pass


class Barrier:
    """An mbarrier: arrivals and transaction bytes of the current phase."""

    def __init__(self, name, count):
        self.name, self.count = name, count
        self.pending, self.tx, self.phase = count, 0, 0

    def _maybe_complete(self):
        if self.pending == 0 and self.tx == 0:
            self.phase ^= 1
            self.pending = self.count

    def arrive(self, expect_tx=0):
        if self.pending == 0:
            raise Violation(f"{self.name}: arrival past its count")
        self.tx += expect_tx
        self.pending -= 1
        self._maybe_complete()

    def complete_tx(self, n):
        self.tx -= n
        self._maybe_complete()

    def passed(self, parity):
        # mbarrier.try_wait.parity: the phase of `parity` has completed.
        return self.phase != parity


class Model:
    """Two CTAs (ranks 0, 1) of one pair running `tiles` tiles."""

    def __init__(self, stages, accs, tiles, kblocks, promoted, rng):
        self.S, self.A, self.T, self.KB = stages, accs, tiles, kblocks
        self.promoted, self.rng = promoted, rng
        # Bytes each CTA receives per stage (Tcgen05GemmConfig::
        # stageTransferBytes, in units): A 2, B's half 2, A's scale chunk 1,
        # B's scale chunk as two halves of 1, one from each CTA. The
        # leader expects both CTAs' (stageExpectedBytes). With 6 here the
        # model finds an MMA reading a stage whose B had not landed.
        self.stage_bytes = 7
        self.full = [[Barrier(f"full{r}[{s}]", 1) for s in range(stages)]
                     for r in range(2)]
        self.empty = [[Barrier(f"empty{r}[{s}]", 1) for s in range(stages)]
                      for r in range(2)]
        self.acc_full = [[Barrier(f"accFull{r}[{a}]", 1) for a in range(accs)]
                         for r in range(2)]
        # Both CTAs' epilogues (one agent each here) free the leader's.
        self.acc_empty = [[Barrier(f"accEmpty{r}[{a}]", 2)
                           for a in range(accs)] for r in range(2)]
        # Shared memory: per CTA and stage, the (tile, kblock) of each part
        # that has landed; tensor memory: per CTA and accumulator, the tag
        # of the last MMA that completed into it.
        self.smem = [[dict() for _ in range(stages)] for _ in range(2)]
        self.readers = [[0] * stages for _ in range(2)]
        self.tmem = [[None] * accs for _ in range(2)]
        self.acc_readers = [[0] * accs for _ in range(2)]
        self.loads = []     # in-flight TMA loads, any order
        self.mma_pipe = []  # the leader's MMAs and commits, in order
        # In-flight arrivals, any order: a commit's on each masked CTA's
        # barrier once its MMAs have completed, an epilogue's on the
        # leader's (mapa, release at cluster scope).
        self.arrivals = []
        self.agents = {}

    # The roles, as generators: each `yield` gives a condition to wait on.

    def producer(self, r):
        c = 0
        for t in range(self.T):
            for kb in range(self.KB):
                s, par = c % self.S, (c // self.S) & 1
                yield lambda s=s, par=par: self.empty[r][s].passed(par ^ 1)
                if r == 0:
                    self.full[0][s].arrive(expect_tx=2 * self.stage_bytes)
                tag = (t, kb)
                for part, nbytes in (("a", 2), ("b", 2), ("sfa", 1)):
                    self.loads.append((r, s, part, tag, nbytes))
                # This CTA's half of B's scale chunk, multicast to both.
                for d in (0, 1):
                    self.loads.append((d, s, f"sfb{r}", tag, 1))
                c += 1
        for i in range(self.S):
            s, par = (c + i) % self.S, ((c + i) // self.S) & 1
            yield lambda s=s, par=par: self.empty[r][s].passed(par ^ 1)

    def mma(self):
        c = ac = 0
        for t in range(self.T):
            if not self.promoted:
                a, par = ac % self.A, (ac // self.A) & 1
                yield lambda a=a, par=par: self.acc_empty[0][a].passed(par ^ 1)
            for kb in range(self.KB):
                if self.promoted:
                    a, par = ac % self.A, (ac // self.A) & 1
                    yield lambda a=a, par=par: \
                        self.acc_empty[0][a].passed(par ^ 1)
                s, par = c % self.S, (c // self.S) & 1
                yield lambda s=s, par=par: self.full[0][s].passed(par)
                for d in (0, 1):
                    parts = self.smem[d][s]
                    want = {"a", "b", "sfa", "sfb0", "sfb1"}
                    if set(parts) != want or \
                            any(v != (t, kb) for v in parts.values()):
                        raise Violation(f"MMA of tile {t} K-block {kb} reads "
                                        f"CTA {d} stage {s} holding {parts}")
                    self.readers[d][s] += 1
                tag = (t, kb if self.promoted else None)
                self.mma_pipe.append(("mma", s, a, tag))
                self.mma_pipe.append(("commit", self.empty, s))
                if self.promoted:
                    self.mma_pipe.append(("commit", self.acc_full, a))
                    ac += 1
                c += 1
            if not self.promoted:
                self.mma_pipe.append(("commit", self.acc_full, a))
                ac += 1
        for i in range(self.A):
            a, par = (ac + i) % self.A, ((ac + i) // self.A) & 1
            yield lambda a=a, par=par: self.acc_empty[0][a].passed(par ^ 1)

    def epilogue(self, r):
        ac = 0
        for t in range(self.T):
            for kb in (range(self.KB) if self.promoted else [None]):
                a, par = ac % self.A, (ac // self.A) & 1
                yield lambda a=a, par=par: self.acc_full[r][a].passed(par)
                if self.tmem[r][a] != (t, kb):
                    raise Violation(f"CTA {r}'s epilogue of tile {t} reads "
                                    f"accumulator {a} holding "
                                    f"{self.tmem[r][a]}")
                self.acc_readers[r][a] += 1
                # tcgen05.ld ... wait::ld, then the arrival (a later step).
                yield lambda: True
                self.acc_readers[r][a] -= 1
                self.arrivals.append(self.acc_empty[0][a])
                ac += 1

    # The asynchronous agents: TMA and the tensor core.

    def land(self, i):
        d, s, part, tag, nbytes = self.loads.pop(i)
        if self.readers[d][s]:
            raise Violation(f"a load of {tag} overwrites CTA {d} stage {s} "
                            "while an MMA reads it")
        self.smem[d][s][part] = tag
        self.full[0][s].complete_tx(nbytes)

    def tensor_core(self):
        op = self.mma_pipe.pop(0)
        if op[0] == "mma":
            _, s, a, tag = op
            for d in (0, 1):
                if self.acc_readers[d][a]:
                    raise Violation(f"an MMA writes accumulator {a} of CTA "
                                    f"{d} while its epilogue reads it")
                self.tmem[d][a] = tag
                self.readers[d][s] -= 1
        else:
            _, barriers, i = op
            for d in (0, 1):  # .multicast::cluster, mask 0b11
                self.arrivals.append(barriers[d][i])

    def run(self):
        agents = {"producer0": self.producer(0), "producer1": self.producer(1),
                  "mma": self.mma(), "epilogue0": self.epilogue(0),
                  "epilogue1": self.epilogue(1)}
        waits = {name: (lambda: True) for name in agents}
        while agents or self.loads or self.mma_pipe or self.arrivals:
            ready = [n for n in agents if waits[n]()]
            choices = [("agent", n) for n in ready]
            choices += [("load", i) for i in range(len(self.loads))]
            choices += [("arrival", i) for i in range(len(self.arrivals))]
            if self.mma_pipe:
                choices.append(("tc", None))
            if not choices:
                raise Violation("deadlock: " + ", ".join(sorted(agents)) +
                                " wait forever")
            kind, what = self.rng.choice(choices)
            if kind == "load":
                self.land(what)
            elif kind == "arrival":
                self.arrivals.pop(what).arrive()
            elif kind == "tc":
                self.tensor_core()
            else:
                try:
                    waits[what] = next(agents[what])
                except StopIteration:
                    del agents[what]
                    # At the cluster barrier: nothing may still be in flight
                    # toward a CTA once every role of both has arrived.
                    if not agents and (self.loads or self.mma_pipe or
                                       self.arrivals):
                        raise Violation("in flight at the final cluster "
                                        "barrier")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=300)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    configs = [(stages, accs, tiles, kblocks, promoted)
               for stages in (2, 3) for accs in (1, 2)
               for tiles in (1, 3) for kblocks in (1, 4)
               for promoted in (False, True)]
    for stages, accs, tiles, kblocks, promoted in configs:
        for run in range(args.runs):
            seed = args.seed + run
            model = Model(stages, accs, tiles, kblocks, promoted,
                          random.Random(seed))
            try:
                model.run()
            except Violation as v:
                print(f"FAIL stages={stages} accumulators={accs} "
                      f"tiles={tiles} kblocks={kblocks} promoted={promoted} "
                      f"seed={seed}: {v}")
                return 1
        print(f"ok stages={stages} accumulators={accs} tiles={tiles} "
              f"kblocks={kblocks} promoted={promoted}: {args.runs} schedules")
    print("all schedules ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
