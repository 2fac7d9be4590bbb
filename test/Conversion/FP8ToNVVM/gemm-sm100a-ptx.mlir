// The sm_100a (tcgen05) GEMM's PTX, FileChecked without ptxas (and
// assembled where ptxas exists): the instruction chain of each scaling
// (MXFP8 block-scaled, blockwise promoted, tensorwise), either operand
// major, and a partial last tile.
// RUN: rm -rf %t && fp8-opt %s --fp8-emit="dir=%t chip=sm_100a" -o /dev/null
// RUN: FileCheck %s --check-prefix=MX < %t/mx_fprop_gemm_0.ptx
// RUN: FileCheck %s --check-prefix=MXMN < %t/mx_wgrad_gemm_1.ptx
// RUN: FileCheck %s --check-prefix=BLOCK < %t/blockwise_dgrad_gemm_2.ptx
// RUN: FileCheck %s --check-prefix=TENSOR < %t/tensorwise_odd_m_gemm_3.ptx
// RUN: FileCheck %s --check-prefix=DIRECT < %t/promoted_narrow_gemm_4.ptx
// RUN: FileCheck %s --check-prefix=MANIFEST < %t/manifest.json
// RUN: FileCheck %s --check-prefix=CMAP < %t/manifest.json
// RUN: %if ptxas-sm100a %{ bash -c 'for f in %t/*.ptx; do %ptxas -arch=sm_100a -v "$f" -o /dev/null 2>&1; done' | FileCheck %s --check-prefix=PTXAS %}
// PTXAS-COUNT-4: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// PTXAS-NOT: error
// The tcgen05 GEMM has no griddepcontrol.wait yet, so its manifest must not
// offer it to programmatic dependent launch.
// RUN: not grep -l griddepcontrol %t/mx_fprop_gemm_0.ptx %t/mx_wgrad_gemm_1.ptx %t/blockwise_dgrad_gemm_2.ptx %t/tensorwise_odd_m_gemm_3.ptx %t/promoted_narrow_gemm_4.ptx
// RUN: FileCheck %s --check-prefix=NOPDL < %t/manifest.json
// NOPDL: "kernels": [
// NOPDL-NOT: "pdl"
// NOPDL: "version": 2
// One thread issues the MMAs by its index: no elect.sync anywhere.
// RUN: not grep -l elect.sync %t/mx_fprop_gemm_0.ptx %t/mx_wgrad_gemm_1.ptx %t/blockwise_dgrad_gemm_2.ptx %t/tensorwise_odd_m_gemm_3.ptx %t/promoted_narrow_gemm_4.ptx

// MXFP8, both K-major, 256 x 1024 x 512, bf16: one warp allocates 512
// tensor-memory columns (the manifest's tmem_columns) (256 accumulator + 4 stages x 12 scale columns,
// rounded up); TMA loads A and B and bulk copies bring three 512-byte scale
// chunks per stage (A's, and B's two for 256 columns); tcgen05.cp moves them
// to tensor memory; four block32 MMAs per K-block (K = 32 each), issued by
// one thread (no elect.sync), then commits to the stage's empty barrier and
// the accumulator's; the epilogue reads 64 columns at a time (4 loads of a
// 256-wide row) and stores each through its warp's 128-byte-swizzled staging
// buffer and a TMA store (the previous store's read waited for first).
// MX: .version 8.8
// MX: .target sm_100a
// MX: .maxntid 192, 1, 1
// MX: tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [{{.*}}], %r{{[0-9]+}};
// MX: tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;
// MX-COUNT-2: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// MX: mov.b32 [[CHUNK:%r[0-9]+]], 512;
// MX-COUNT-3: cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes {{.*}}, [[CHUNK]],
// MX-COUNT-3: tcgen05.cp.cta_group::1.32x128b.warpx4
// MX-COUNT-4: tcgen05.mma.cta_group::1.kind::mxf8f6f4.block_scale.block32
// MX-NOT: tcgen05.mma
// MX-COUNT-2: tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64
// MX-NOT: tcgen05.mma
// MX: cp.async.bulk.wait_group.read 0;
// MX-NEXT: bar.warp.sync -1;
// MX-NEXT: tcgen05.ld.sync.aligned.32x32b.x64.b32
// MX-COUNT-8: st.shared.v4.b32
// MX: fence.proxy.async.shared::cta;
// MX-NEXT: bar.warp.sync -1;
// MX: cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group
// MX-NEXT: cp.async.bulk.commit_group;
// MX-NOT: st.global
// MX: cp.async.bulk.wait_group 0;
// MX: tcgen05.dealloc.cta_group::1.sync.aligned.b32
func.func @mx_fprop(%x: tensor<256x512xf8E4M3FN>, %sx: tensor<8x512xf8E8M0FNU>,
                    %w: tensor<1024x512xf8E4M3FN>, %sw: tensor<32x512xf8E8M0FNU>) -> tensor<256x1024xbf16> {
  %y = fp8.scaled_matmul %x, %sx, %w, %sw {
         a_scale_layout = #fp8.scale_layout<tcgen05>,
         a_scaling = #fp8.scaling<tile = [1, 32], scale = f8E8M0FNU, round = pow2_ceil>,
         b_scale_layout = #fp8.scale_layout<tcgen05>,
         b_scaling = #fp8.scaling<tile = [1, 32], scale = f8E8M0FNU, round = pow2_ceil>,
         contracting = array<i64: 1, 1>}
      : (tensor<256x512xf8E4M3FN>, tensor<8x512xf8E8M0FNU>, tensor<1024x512xf8E4M3FN>, tensor<32x512xf8E8M0FNU>) -> tensor<256x1024xbf16>
  return %y : tensor<256x1024xbf16>
}

// MXFP8 Wgrad, both MN-major (contracting their rows, no transposes), f32:
// B's 256 columns come as two 128-wide TMA boxes per stage, and the MMAs
// step 4096 bytes (32 K-rows of 128 bytes) along K.
// MXMN: .target sm_100a
// MXMN-COUNT-3: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// MXMN: tcgen05.mma.cta_group::1.kind::mxf8f6f4.block_scale.block32
// MXMN: add.s32 {{.*}}, 4096;
// MXMN: tcgen05.mma.cta_group::1.kind::mxf8f6f4.block_scale.block32
// MXMN: tcgen05.ld.sync.aligned.32x32b.x64.b32
// MXMN-COUNT-2: cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group
// MXMN-NOT: st.global
func.func @mx_wgrad(%dy: tensor<256x1024xf8E4M3FN>, %sdy: tensor<16x512xf8E8M0FNU>,
                    %x: tensor<256x512xf8E4M3FN>, %sx: tensor<8x512xf8E8M0FNU>) -> tensor<1024x512xf32> {
  %dw = fp8.scaled_matmul %dy, %sdy, %x, %sx {
          a_scale_layout = #fp8.scale_layout<tcgen05>,
          a_scaling = #fp8.scaling<tile = [32, 1], scale = f8E8M0FNU, round = pow2_ceil>,
          b_scale_layout = #fp8.scale_layout<tcgen05>,
          b_scaling = #fp8.scaling<tile = [32, 1], scale = f8E8M0FNU, round = pow2_ceil>,
          contracting = array<i64: 0, 0>}
      : (tensor<256x1024xf8E4M3FN>, tensor<16x512xf8E8M0FNU>, tensor<256x512xf8E4M3FN>, tensor<8x512xf8E8M0FNU>) -> tensor<1024x512xf32>
  return %dw : tensor<1024x512xf32>
}

// Blockwise Dgrad (B MN-major): kind::f8f6f4, a partial sum per K-block
// (the first MMA of every block overwrites: predicate false), promoted by
// the eight epilogue warps (320 threads) with FMAs, 64 sums per thread: 32
// per load of 32 columns where the scales lie in [2^-63, 2^63], and again
// in the branch that takes the scaled term's other case (ScaledTerm.h).
// BLOCK: .maxntid 320, 1, 1
// BLOCK-NOT: block_scale
// BLOCK-NOT: tcgen05.cp
// BLOCK: tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32
// BLOCK-COUNT-4: tcgen05.mma.cta_group::1.kind::f8f6f4
// BLOCK: tcgen05.commit
// BLOCK: tcgen05.commit
// BLOCK: .pragma "nounroll";
// BLOCK: tcgen05.ld.sync.aligned.32x32b.x32.b32
// BLOCK: tcgen05.wait::ld.sync.aligned;
// BLOCK-COUNT-32: fma.rn.f32
// BLOCK: tcgen05.ld.sync.aligned.32x32b.x32.b32
func.func @blockwise_dgrad(%dy: tensor<256x1024xf8E4M3FN>, %sdy: tensor<256x8xf32>,
                           %w: tensor<1024x512xf8E4M3FN>, %sw: tensor<8x4xf32>) -> tensor<256x512xbf16> {
  %dx = fp8.scaled_matmul %dy, %sdy, %w, %sw {
          a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
          b_scaling = #fp8.scaling<tile = [128, 128], scale = f32>,
          contracting = array<i64: 1, 0>}
      : (tensor<256x1024xf8E4M3FN>, tensor<256x8xf32>, tensor<1024x512xf8E4M3FN>, tensor<8x4xf32>) -> tensor<256x512xbf16>
  return %dx : tensor<256x512xbf16>
}

// Tensorwise, M = 200 (a partial second tile), N = 64, f32: one
// accumulator over all of K with kind::f8f6f4, the scales multiplied in the
// epilogue (the scaled term of ScaledTerm.h, two columns per mul.rn.f32x2),
// two 32-column f32 segments per warp through TMA, which clips the rows
// past M (no row test).
// TENSOR: .maxntid 192, 1, 1
// TENSOR-COUNT-4: tcgen05.mma.cta_group::1.kind::f8f6f4
// TENSOR: tcgen05.ld.sync.aligned.32x32b.x64.b32
// TENSOR: mul.rn.f32
// TENSOR: mul.rn.f32x2
// TENSOR-NOT: 200;
// TENSOR-COUNT-2: cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group
// TENSOR-NOT: st.global
func.func @tensorwise_odd_m(%a: tensor<200x256xf8E4M3FN>, %sa: tensor<1x1xf32>,
                            %b: tensor<64x256xf8E5M2>, %sb: tensor<1x1xf32>) -> tensor<200x64xf32> {
  %c = fp8.scaled_matmul %a, %sa, %b, %sb {
         a_scaling = #fp8.scaling<tile = [*, *], scale = f32>,
         b_scaling = #fp8.scaling<tile = [*, *], scale = f32>,
         contracting = array<i64: 1, 1>}
      : (tensor<200x256xf8E4M3FN>, tensor<1x1xf32>, tensor<64x256xf8E5M2>, tensor<1x1xf32>) -> tensor<200x64xf32>
  return %c : tensor<200x64xf32>
}

// Promoted, N = 64: two epilogue warps per row share its 64 columns, 32 bf16
// each, less than a 128-byte TMA segment: their threads store their rows
// directly (16-byte stores, rows past M skipped).
// DIRECT: .maxntid 320, 1, 1
// DIRECT-NOT: cp.async.bulk.tensor.2d.global.shared::cta
// DIRECT: st.global.v4.b32
// DIRECT-NOT: cp.async.bulk.tensor.2d.global.shared::cta
func.func @promoted_narrow(%a: tensor<200x256xf8E4M3FN>, %sa: tensor<200x2xf32>,
                           %b: tensor<64x256xf8E4M3FN>, %sb: tensor<1x2xf32>) -> tensor<200x64xbf16> {
  %c = fp8.scaled_matmul %a, %sa, %b, %sb {
         a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
         b_scaling = #fp8.scaling<tile = [128, 128], scale = f32>,
         contracting = array<i64: 1, 1>}
      : (tensor<200x256xf8E4M3FN>, tensor<200x2xf32>, tensor<64x256xf8E4M3FN>, tensor<1x2xf32>) -> tensor<200x64xbf16>
  return %c : tensor<200x64xbf16>
}

// The tensor map of C for the TMA stores (Tcgen05GemmConfigTest pins its
// box).
// CMAP: "name": "c_map",
// CMAP-NEXT: "role": "tensormap",
// CMAP-NEXT: "swizzle": "128B",
// CMAP-NEXT: "tensor": "c"

// The manifest names the tcgen05 tiles and budgets.

// MANIFEST: "accumulators": 1,
// MANIFEST: "contracting": [
// MANIFEST-NEXT: 1,
// MANIFEST-NEXT: 1
// MANIFEST: "tile": [
// MANIFEST-NEXT: 128,
// MANIFEST-NEXT: 256,
// MANIFEST-NEXT: 128
// MANIFEST: "tmem_columns": 512
// MANIFEST: "name": "mx_fprop_gemm_0"
// MANIFEST: "contracting": [
// MANIFEST-NEXT: 0,
// MANIFEST-NEXT: 0
// MANIFEST: "name": "mx_wgrad_gemm_1"
// MANIFEST: "accumulators": 2,
// MANIFEST: "tmem_columns": 256
// MANIFEST: "name": "blockwise_dgrad_gemm_2"
