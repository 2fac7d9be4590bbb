// MXFP8 on sm_90a (1x32 E8M0 scales on both operands, promoted every 32):
// each consumer warpgroup converts a K-block's E8M0 codes to f32 once, into
// shared memory (SubBlockScales: one 32-bit word per thread, four scales),
// and its K-block is four 32-deep wgmmas into fresh accumulators, each
// queued before the previous one is promoted (HopperMainLoop,
// buildSubBlockPromoted; docs/gpu/gemm-sm90a.md, "MXFP8").
// RUN: rm -rf %t && fp8-opt %s --fp8-emit=dir=%t -o /dev/null
// RUN: FileCheck %s < %t/mxfp8_gemm_0.ptx
// RUN: FileCheck %s --check-prefix=MANIFEST < %t/manifest.json
// RUN: %if ptxas-sm90a %{ %ptxas -arch=sm_90a -v %t/mxfp8_gemm_0.ptx -o /dev/null 2>&1 | FileCheck %s --check-prefix=PTXAS %}

// The tile's first K-block: the consumer's barrier (128 threads), one word
// of codes per thread, four f32 stores 256 bytes apart (a sub-block's
// scales of the 64 rows, then of the 64 columns).
// CHECK: bar.sync [[SYNC:%r[0-9]+]], 128;
// CHECK: ld.global.nc.b32
// CHECK-COUNT-4: st.shared.b32
// The K-block loop: the barrier, the next K-block's word, sub-block 0's
// scales (two rows, 16 columns), the stage's wait. Each sub-block's scales
// are read one sub-block ahead, and each wgmma is queued before the wait
// that leaves it in flight while the previous sub-block is promoted.
// CHECK: .pragma "nounroll";
// CHECK: bar.sync [[SYNC]], 128;
// CHECK: ld.global.nc.b32 [[WORD:%r[0-9]+]],
// CHECK: ld.shared.v2.b32
// CHECK-COUNT-4: ld.shared.v4.b32
// CHECK: mbarrier.try_wait.parity.shared.b64
// CHECK: wgmma.mma_async.sync.aligned.m64n64k32.f32.e4m3.e4m3
// CHECK: wgmma.commit_group.sync.aligned;
// CHECK: ld.shared.v2.b32
// CHECK-COUNT-4: ld.shared.v4.b32
// CHECK: wgmma.mma_async.sync.aligned.m64n64k32.f32.e4m3.e4m3
// CHECK: wgmma.commit_group.sync.aligned;
// CHECK: ld.shared.v2.b32
// CHECK-COUNT-4: ld.shared.v4.b32
// CHECK-NEXT: wgmma.wait_group.sync.aligned 1;
// CHECK: fma.rn.f32
// CHECK: wgmma.mma_async.sync.aligned.m64n64k32.f32.e4m3.e4m3
// CHECK: wgmma.commit_group.sync.aligned;
// CHECK: ld.shared.v2.b32
// CHECK-COUNT-4: ld.shared.v4.b32
// CHECK-NEXT: wgmma.wait_group.sync.aligned 1;
// CHECK: wgmma.mma_async.sync.aligned.m64n64k32.f32.e4m3.e4m3
// CHECK: wgmma.commit_group.sync.aligned;
// CHECK-NEXT: wgmma.wait_group.sync.aligned 1;
// CHECK-NOT: ld.shared
// The next K-block's codes converted (code 0 is 2^-127, 0x00400000; code
// 255 NaN, 0x7FC00000) while the last wgmma runs.
// CHECK: and.b32 {{%r[0-9]+}}, [[WORD]], 255;
// CHECK: selp.b32 {{%r[0-9]+}}, 4194304,
// CHECK: selp.b32 {{%r[0-9]+}}, 2143289344,
// CHECK: st.shared.b32
// CHECK: st.shared.b32
// CHECK: st.shared.b32
// CHECK: st.shared.b32
// CHECK-NEXT: wgmma.wait_group.sync.aligned 0;
// CHECK: mbarrier.arrive.shared.b64

// Two buffers of 2304 bytes per consumer on top of the 8 stages.
// MANIFEST: "shared_bytes": 223360

// No spills, and ptxas keeps the wgmmas asynchronous (no C7514
// serialization warning).
// PTXAS-NOT: C7514
// PTXAS: 0 bytes spill stores, 0 bytes spill loads
// PTXAS-NOT: C7514

func.func @mxfp8(%a: tensor<256x512xf8E4M3FN>, %sa: tensor<256x16xf8E8M0FNU>, %b: tensor<256x512xf8E4M3FN>, %sb: tensor<256x16xf8E8M0FNU>) -> tensor<256x256xbf16> {
  %c = fp8.scaled_matmul %a, %sa, %b, %sb {
        a_scaling = #fp8.scaling<tile = [1, 32], scale = f8E8M0FNU, round = pow2_ceil>,
        b_scaling = #fp8.scaling<tile = [1, 32], scale = f8E8M0FNU, round = pow2_ceil>,
        contracting = array<i64: 1, 1>}
      : (tensor<256x512xf8E4M3FN>, tensor<256x16xf8E8M0FNU>, tensor<256x512xf8E4M3FN>, tensor<256x16xf8E8M0FNU>) -> tensor<256x256xbf16>
  return %c : tensor<256x256xbf16>
}
