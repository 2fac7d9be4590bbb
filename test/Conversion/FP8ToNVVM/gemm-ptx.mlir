// fp8.scaled_matmul on sm_90a: TMA loads into a multi-stage mbarrier ring, a
// producer warpgroup that gives registers back and two wgmma consumer
// warpgroups that promote every 128-deep K-block with its scales.
// RUN: rm -rf %t && fp8-opt %s --fp8-emit=dir=%t -o /dev/null
// RUN: FileCheck %s < %t/fprop_gemm_0.ptx
// RUN: FileCheck %s --check-prefix=PROMOTE < %t/fprop_gemm_0.ptx
// RUN: FileCheck %s --check-prefix=TENSOR < %t/wgrad_fast_gemm_1.ptx
// RUN: FileCheck %s --check-prefix=MANIFEST < %t/manifest.json
// RUN: %if ptxas-sm90a %{ %ptxas -arch=sm_90a -v %t/fprop_gemm_0.ptx -o /dev/null 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// RUN: %if ptxas-sm90a %{ %ptxas -arch=sm_90a -v %t/wgrad_fast_gemm_1.ptx -o /dev/null 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// RUN: FileCheck %s --check-prefix=TMASCALE < %t/fprop_tma_scales_gemm_2.ptx
// RUN: grep -c fma.rn.f32 %t/fprop_tma_scales_gemm_2.ptx | FileCheck %s --check-prefix=TMAFMA
// RUN: FileCheck %s --check-prefix=TMAMANIFEST < %t/manifest.json
// RUN: %if ptxas-sm90a %{ %ptxas -arch=sm_90a -v %t/fprop_tma_scales_gemm_2.ptx -o /dev/null 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// RUN: FileCheck %s --check-prefix=SPLIT < %t/fprop_split_gemm_3.ptx
// RUN: FileCheck %s --check-prefix=SPLITMANIFEST < %t/manifest.json
// RUN: %if ptxas-sm90a %{ %ptxas -arch=sm_90a -v %t/fprop_split_gemm_3.ptx -o /dev/null 2>&1 | FileCheck %s --check-prefix=PTXAS %}

// CHECK: .extern .shared .align 1024 .b8 fp8_gemm_shared[];
// CHECK: .maxntid 384, 1, 1
// CHECK-NEXT: .maxnreg 168
// Programmatic dependent launch: the next grid may start at once; each role
// waits for the previous grid after the setup, before any global access.
// CHECK: griddepcontrol.launch_dependents;
// CHECK-NOT: {{ld|st}}.global
// CHECK: mbarrier.init.shared.b64
// CHECK: prefetch.tensormap
// CHECK-NOT: {{ld|st}}.global
// CHECK: bar.sync 0;
// The producer: wait for a free stage, expect its bytes (A and B tiles and
// 16 bytes of B's block scales), two TMA loads and a bulk copy.
// CHECK-NOT: {{ld|st}}.global
// CHECK: setmaxnreg.dec.sync.aligned.u32 40;
// CHECK-NEXT: griddepcontrol.wait;
// CHECK-NOT: cp.async.bulk
// CHECK: mbarrier.try_wait.parity.shared.b64
// CHECK: mov.b32 [[BYTES:%r[0-9]+]], 32784;
// CHECK: mbarrier.arrive.expect_tx.shared.b64 {{.*}}, [[BYTES]];
// CHECK-COUNT-2: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// CHECK: cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes
// The consumers: A's row scales loaded before the wait, B's block scale
// read from the stage before the MMAs are issued (read after them, it waits
// for their operand reads), four K-steps, promotion.
// CHECK: setmaxnreg.inc.sync.aligned.u32 232;
// CHECK-NEXT: griddepcontrol.wait;
// CHECK: ld.global.nc.b32
// CHECK: mbarrier.try_wait.parity.shared.b64
// CHECK: ld.shared.b32
// CHECK: wgmma.fence.sync.aligned;
// CHECK-COUNT-4: wgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e4m3
// CHECK: wgmma.commit_group.sync.aligned;
// CHECK-NOT: ld.shared
// CHECK: wgmma.wait_group.sync.aligned 0;
// CHECK: mbarrier.arrive.shared.b64
// The epilogue: C staged in shared memory, then stored by TMA. Two
// staging buffers per consumer (they cost no stage here): a tile's first
// chunk waits for every store to have read its buffer, the second only for
// all but the latest, which read the other buffer.
// CHECK: cp.async.bulk.wait_group.read 0;
// CHECK: st.shared.b32
// CHECK: fence.proxy.async.shared::cta;
// CHECK: cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group
// CHECK: cp.async.bulk.commit_group;
// CHECK: cp.async.bulk.wait_group.read 1;
// CHECK: st.shared.b32
// CHECK: cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group
// Promotion (ScaledTerm.h): where the thread's scales (A's two row scales,
// B's block scale) lie in [2^-63, 2^63] (bits - 2^-63's <= 126 << 23), so
// that their products are normal f32s, one FMA per accumulator register (64
// per thread) and K-block; otherwise the branch that applies each pair as
// (P * first) * second, a multiply and an FMA per register.
// PROMOTE: wgmma.wait_group.sync.aligned 0;
// PROMOTE: add.s32 %r{{[0-9]+}}, %r{{[0-9]+}}, -536870912;
// PROMOTE: setp.gt.u32 [[SAFE:%p[0-9]+]], %r{{[0-9]+}}, 1056964608;
// PROMOTE: @[[SAFE]] bra
// PROMOTE-COUNT-64: fma.rn.f32
// PROMOTE: selp.f32
// PROMOTE: mul.rn.f32 [[P:%r[0-9]+]],
// PROMOTE-NEXT: fma.rn.f32 {{%r[0-9]+}}, [[P]],
// PROMOTE-COUNT-63: fma.rn.f32
// PROMOTE-NOT: fma.rn.f32

// Fast accumulation of tensorwise scales: no promotion, f32 output scaled
// in the epilogue; e5m2 x e4m3.
// TENSOR-COUNT-4: wgmma.mma_async.sync.aligned.m64n128k32.f32.e5m2.e4m3
// TENSOR-NOT: fma.rn.f32
// TENSOR: st.shared.v2.b32
// TENSOR: cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group

// MANIFEST: "block": [
// MANIFEST-NEXT: 384,
// MANIFEST: "flops": 4294967296,
// MANIFEST: "matmul": {
// MANIFEST: "accumulate": "promoted",
// MANIFEST: "stages": 6,
// MANIFEST-NEXT: "tile": [
// MANIFEST-NEXT: 128,
// MANIFEST-NEXT: 128,
// MANIFEST-NEXT: 128
// MANIFEST: "role": "tensormap",
// MANIFEST-NEXT: "swizzle": "128B",
// MANIFEST-NEXT: "tensor": "a"
// MANIFEST: "name": "c_map",
// MANIFEST-NOT: "b_scale_map"
// The kernel waits for the previous grid: it may be launched with PDL.
// MANIFEST: "pdl": true,
// MANIFEST-NEXT: "ptx": "fprop_gemm_0.ptx",
// MANIFEST: "shared_bytes": 231264

// Blockwise with A's scales in the col_major_tma layout (what fp8-legalize
// makes), on a problem large enough for 192 x 128 tiles: three consumer
// warpgroups; a third TMA load per stage brings the 192 A scales of the
// K-block (768 bytes) into shared memory and a bulk copy the 16 bytes of
// the B block's scales that hold the K-block's, where the consumers read
// them before the issue turn and the MMAs.
// TMASCALE: .maxntid 512, 1, 1
// TMASCALE-NEXT: .maxnreg 128
// TMASCALE: setmaxnreg.dec.sync.aligned.u32 24;
// TMASCALE: mov.b32 [[BYTES:%r[0-9]+]], 41744;
// TMASCALE: mbarrier.arrive.expect_tx.shared.b64 {{.*}}, [[BYTES]];
// TMASCALE-COUNT-3: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// TMASCALE: cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes
// TMASCALE: setmaxnreg.inc.sync.aligned.u32 160;
// TMASCALE: mbarrier.try_wait.parity.shared.b64
// TMASCALE: ld.shared.b32
// TMASCALE: ld.shared.b32
// TMASCALE: ld.shared.b32
// TMASCALE: bar.sync
// TMASCALE-COUNT-4: wgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e4m3
// TMASCALE-NOT: ld.shared
// TMASCALE: wgmma.wait_group.sync.aligned 0;
// Two promotion FMAs per accumulator register (the branch for normal scale
// products and the other), wherever LLVM placed them.
// TMAFMA: {{^}}128{{$}}

// TMAMANIFEST: "a_scale_layout": "col_major_tma",
// TMAMANIFEST: "stages": 4,
// TMAMANIFEST-NEXT: "tile": [
// TMAMANIFEST-NEXT: 192,
// TMAMANIFEST-NEXT: 128,
// TMAMANIFEST-NEXT: 128
// TMAMANIFEST: "name": "fprop_tma_scales_gemm_2",
// TMAMANIFEST: "name": "a_scale",
// TMAMANIFEST: "shape": [
// TMAMANIFEST-NEXT: 8,
// TMAMANIFEST-NEXT: 4096
// TMAMANIFEST: "name": "c_map",
// TMAMANIFEST: "box": [
// TMAMANIFEST-NEXT: 1,
// TMAMANIFEST-NEXT: 192
// TMAMANIFEST-NEXT: ],
// TMAMANIFEST-NEXT: "name": "a_scale_map",
// TMAMANIFEST-NEXT: "role": "tensormap",
// TMAMANIFEST-NEXT: "swizzle": "none",
// TMAMANIFEST-NEXT: "tensor": "a_scale"
// TMAMANIFEST: "shared_bytes": 217664

// 4096^3-like blockwise (704 tiles of 192 x 128): the last round's 44 tiles
// are split into 132 64-row sub-tiles. Whole tiles load 192 rows of A per
// stage (41744 bytes); a sub-tile loads its 64 rows through a second
// tensor map (25360 bytes). Its consumers take every third K-block, each
// releasing the stage for all three (an arrival count), then meet at named
// barrier 7, store their sums, meet again, and consumer 0 adds 2 x 64 sums
// and stores the sub-tile.
// SPLIT: mov.b32 [[WHOLE:%r[0-9]+]], 41744;
// SPLIT: mbarrier.arrive.expect_tx.shared.b64 {{.*}}, [[WHOLE]];
// SPLIT-COUNT-3: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// SPLIT: mov.b32 [[PART:%r[0-9]+]], 25360;
// SPLIT: mbarrier.arrive.expect_tx.shared.b64 {{.*}}, [[PART]];
// SPLIT-COUNT-3: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// SPLIT: setmaxnreg.inc.sync.aligned.u32 160;
// SPLIT-COUNT-4: wgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e4m3
// SPLIT: mbarrier.arrive.shared.b64 {{[^,]*}}, [{{[^]]*}}];
// SPLIT: cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group
// SPLIT-COUNT-4: wgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e4m3
// SPLIT: mbarrier.arrive.shared.b64 {{[^,]*}}, [{{[^]]*}}], %r{{[0-9]+}};
// SPLIT: bar.sync 7, 384;
// SPLIT-COUNT-64: st.shared.b32
// SPLIT: bar.sync 7, 384;
// SPLIT-COUNT-128: add.rn.f32
// SPLIT: cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group
// SPLITMANIFEST: "split_tiles": 44,
// SPLITMANIFEST: "name": "fprop_split_gemm_3",
// SPLITMANIFEST: "name": "a_scale_map",
// SPLITMANIFEST: "box": [
// SPLITMANIFEST-NEXT: 64,
// SPLITMANIFEST-NEXT: 128
// SPLITMANIFEST-NEXT: ],
// SPLITMANIFEST-NEXT: "name": "a_split_map",
// SPLITMANIFEST-NEXT: "role": "tensormap",
// SPLITMANIFEST-NEXT: "swizzle": "128B",
// SPLITMANIFEST-NEXT: "tensor": "a"

// ptxas honours setmaxnreg (no C7508) and never serializes the wgmmas (C7514).
// PTXAS-NOT: C75
// PTXAS: 0 bytes spill stores, 0 bytes spill loads
// PTXAS-NOT: error

func.func @fprop(%x: tensor<2048x1024xf8E4M3FN>, %sx: tensor<2048x8xf32>,
                 %w: tensor<1024x1024xf8E4M3FN>, %sw: tensor<8x8xf32>) -> tensor<2048x1024xbf16> {
  %y = fp8.scaled_matmul %x, %sx, %w, %sw {
        a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        b_scaling = #fp8.scaling<tile = [128, 128], scale = f32>,
        contracting = array<i64: 1, 1>}
      : (tensor<2048x1024xf8E4M3FN>, tensor<2048x8xf32>,
         tensor<1024x1024xf8E4M3FN>, tensor<8x8xf32>) -> tensor<2048x1024xbf16>
  return %y : tensor<2048x1024xbf16>
}

func.func @wgrad_fast(%dy: tensor<2048x1024xf8E5M2>, %sdy: tensor<1x1xf32>,
                      %x: tensor<1024x1024xf8E4M3FN>, %sx: tensor<1x1xf32>) -> tensor<2048x1024xf32> {
  %dw = fp8.scaled_matmul %dy, %sdy, %x, %sx {
        a_scaling = #fp8.scaling<tile = [*, *], scale = f32>,
        b_scaling = #fp8.scaling<tile = [*, *], scale = f32>,
        contracting = array<i64: 1, 1>, accumulate = #fp8.accumulate<fast>}
      : (tensor<2048x1024xf8E5M2>, tensor<1x1xf32>,
         tensor<1024x1024xf8E4M3FN>, tensor<1x1xf32>) -> tensor<2048x1024xf32>
  return %dw : tensor<2048x1024xf32>
}

func.func @fprop_tma_scales(%x: tensor<4096x1024xf8E4M3FN>, %sx: tensor<8x4096xf32>,
                            %w: tensor<2048x1024xf8E4M3FN>, %sw: tensor<16x8xf32>) -> tensor<4096x2048xbf16> {
  %y = fp8.scaled_matmul %x, %sx, %w, %sw {
        a_scale_layout = #fp8.scale_layout<col_major_tma>,
        a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        b_scaling = #fp8.scaling<tile = [128, 128], scale = f32>,
        contracting = array<i64: 1, 1>}
      : (tensor<4096x1024xf8E4M3FN>, tensor<8x4096xf32>,
         tensor<2048x1024xf8E4M3FN>, tensor<16x8xf32>) -> tensor<4096x2048xbf16>
  return %y : tensor<4096x2048xbf16>
}

func.func @fprop_split(%x: tensor<4096x1024xf8E4M3FN>, %sx: tensor<8x4096xf32>,
                       %w: tensor<4096x1024xf8E4M3FN>, %sw: tensor<32x8xf32>) -> tensor<4096x4096xbf16> {
  %y = fp8.scaled_matmul %x, %sx, %w, %sw {
        a_scale_layout = #fp8.scale_layout<col_major_tma>,
        a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        b_scaling = #fp8.scaling<tile = [128, 128], scale = f32>,
        contracting = array<i64: 1, 1>}
      : (tensor<4096x1024xf8E4M3FN>, tensor<8x4096xf32>,
         tensor<4096x1024xf8E4M3FN>, tensor<32x8xf32>) -> tensor<4096x4096xbf16>
  return %y : tensor<4096x4096xbf16>
}
