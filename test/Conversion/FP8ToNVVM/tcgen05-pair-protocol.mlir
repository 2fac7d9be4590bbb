// The sm_100a GEMM's CTA-pair (cta_group::2) mbarrier protocol, modelled
// role by role (utils/model-tcgen05-pair.py: the producers of both CTAs,
// the leader's MMA thread, both epilogues, TMA and the tensor core as
// asynchronous agents) and run under random schedules for 2-3 stages, 1-2
// accumulators, 1-3 tiles, 1-4 K-blocks, promoted or not: no deadlock, no
// MMA reading a stage before both CTAs' bytes landed, no load overwriting a
// stage an MMA reads, no epilogue reading another tile's accumulator,
// nothing in flight at the final cluster barrier. The model assumes the
// hardware facts docs/gpu/sm100a.md lists as unproven.
// RUN: %python %S/../../../utils/model-tcgen05-pair.py --runs 150 | FileCheck %s
// CHECK-COUNT-32: ok stages=
// CHECK: all schedules ok
