// The sm_100a GEMM's CTA pairs (cta_group::2, M = 256), which the
// configuration takes for large tiles: the PTX of MXFP8 (K-major and
// MN-major) and blockwise pairs, FileChecked without ptxas and assembled
// where ptxas exists (no stack frame, no spills).
// RUN: rm -rf %t && fp8-opt %s --fp8-emit="dir=%t chip=sm_100a" -o /dev/null
// Every tcgen05 instruction of a pair's kernel is cta_group::2 (PTX allows
// one group per kernel), and one thread issues the MMAs: no elect.sync.
// RUN: FileCheck %s --check-prefix=MX --implicit-check-not=cta_group::1 --implicit-check-not=elect.sync < %t/mx_pair_fprop_gemm_0.ptx
// RUN: FileCheck %s --check-prefix=MXMN --implicit-check-not=cta_group::1 < %t/mx_pair_wgrad_gemm_1.ptx
// RUN: FileCheck %s --check-prefix=BLOCK --implicit-check-not=cta_group::1 --implicit-check-not=elect.sync < %t/blockwise_pair_fprop_gemm_2.ptx
// RUN: FileCheck %s --check-prefix=LOADS < %t/mx_pair_fprop_gemm_0.ptx
// RUN: FileCheck %s --check-prefix=MANIFEST < %t/manifest.json
// RUN: %if ptxas-sm100a %{ bash -c 'for f in %t/*.ptx; do %ptxas -arch=sm_100a -v "$f" -o /dev/null 2>&1; done' | FileCheck %s --check-prefix=PTXAS %}
// PTXAS-COUNT-3: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// PTXAS-NOT: error

// MXFP8 Fprop, 4096 x 4096 x 512, bf16: 256 x 256 pair tiles (16 x 16 =
// 256 >= 74 SM pairs). Clusters of two at compile time; the CTA's share of
// the register file for ptxas. Thread 0 initializes the barriers and fences
// them for the cluster, every thread passes a cluster barrier before any
// CTA signals its peer's barriers; the two MMA warps allocate tensor memory
// together. The leader (%cluster_ctarank 0) issues four M = 256 block32
// MMAs per K-block (instruction descriptors 0x10C00000 | scale ids:
// 281018368, 817889296, 1354760224, 1891631152) after copying the scale
// chunks (each CTA's into its own tensor memory), and commits to both CTAs'
// barriers (mask 0b11). Each CTA's epilogue arrives on the leader's
// accumulator-empty barrier (mapa to rank 0, release at cluster scope);
// a cluster barrier precedes the deallocation.
// MX: .maxntid 192, 1, 1
// MX-NEXT: .maxnreg 255
// MX-NEXT: .explicitcluster
// MX-NEXT: .reqnctapercluster 2, 1, 1
// MX: fence.mbarrier_init.release.cluster;
// MX: barrier.cluster.arrive.aligned;
// MX-NEXT: barrier.cluster.wait.aligned;
// MX: tcgen05.alloc.cta_group::2.sync.aligned.shared::cta.b32
// MX-NEXT: tcgen05.relinquish_alloc_permit.cta_group::2.sync.aligned;
// MX: mov.u32 [[RANK:%r[0-9]+]], %cluster_ctarank;
// MX: setp.ne.b32 [[NOTTHREAD32:%p[0-9]+]], %r{{[0-9]+}}, 32;
// MX-NEXT: setp.ne.b32 [[FOLLOWER:%p[0-9]+]], [[RANK]], 0;
// MX-NEXT: or.pred [[SKIP:%p[0-9]+]], [[NOTTHREAD32]], [[FOLLOWER]];
// MX-NEXT: @[[SKIP]] bra
// MX-COUNT-3: tcgen05.cp.cta_group::2.32x128b.warpx4
// MX: mov.b32 {{%r[0-9]+}}, 281018368;
// MX: tcgen05.mma.cta_group::2.kind::mxf8f6f4.block_scale.block32
// MX: mov.b32 {{%r[0-9]+}}, 817889296;
// MX: tcgen05.mma.cta_group::2.kind::mxf8f6f4.block_scale.block32
// MX: mov.b32 {{%r[0-9]+}}, 1354760224;
// MX: tcgen05.mma.cta_group::2.kind::mxf8f6f4.block_scale.block32
// MX: mov.b32 {{%r[0-9]+}}, 1891631152;
// MX: tcgen05.mma.cta_group::2.kind::mxf8f6f4.block_scale.block32
// MX-NEXT: mov.b16 [[MASK:%rs[0-9]+]], 3;
// MX-NEXT: tcgen05.commit.cta_group::2.mbarrier::arrive::one.shared::cluster.multicast::cluster.b64 [{{.*}}], [[MASK]];
// MX: tcgen05.commit.cta_group::2.mbarrier::arrive::one.shared::cluster.multicast::cluster.b64 [{{.*}}], [[MASK]];
// MX: tcgen05.ld.sync.aligned.32x32b.x64.b32
// MX: mapa.shared::cluster.u32 leader, %r{{[0-9]+}}, 0;
// MX-NEXT: mbarrier.arrive.release.cluster.shared::cluster.b64 _, [leader];
// MX: barrier.cluster.arrive.aligned;
// MX-NEXT: barrier.cluster.wait.aligned;
// MX: tcgen05.fence::after_thread_sync;
// MX-NEXT: mov.b32 [[COLUMNS:%r[0-9]+]], 512;
// MX-NEXT: tcgen05.dealloc.cta_group::2.sync.aligned.b32 {{%r[0-9]+}}, [[COLUMNS]];

// The producer of each CTA: the leader alone arms its full barrier, with
// both CTAs' bytes (2 x (16384 of A + 16384 of B's half + 1536 of scale
// chunks) = 68608); every load is a TMA with .cta_group::2 completing on
// the leader's barrier (mapa to rank 0): A, B's half, A's scale chunk as
// two 256-byte boxes, and this CTA's half of each of B's two chunks,
// multicast to both CTAs (mask 3).
// LOADS: mov.u32 [[RANK:%r[0-9]+]], %cluster_ctarank;
// LOADS: setp.ne.b32 [[FOLLOWER:%p[0-9]+]], [[RANK]], 0;
// LOADS: @[[FOLLOWER]] bra
// LOADS-NEXT: .loc
// LOADS-NEXT: mov.b32 [[BYTES:%r[0-9]+]], 68608;
// LOADS-NEXT: .loc
// LOADS-NEXT: mbarrier.arrive.expect_tx.shared.b64 {{.*}}, [[BYTES]];
// LOADS: mapa.shared::cluster.u64 [[LEADER:%rd[0-9]+]], {{%rd[0-9]+}}, 0;
// LOADS-COUNT-4: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.cta_group::2 [{{%rd[0-9]+}}], [{{%rd[0-9]+}}, {{{%r[0-9]+}}, {{%r[0-9]+}}}], [[[LEADER]]];
// LOADS-COUNT-2: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster.cta_group::2 [{{%rd[0-9]+}}], [{{%rd[0-9]+}}, {{{%r[0-9]+}}, {{%r[0-9]+}}}], [[[LEADER]]], {{%rs[0-9]+}};
// LOADS-NOT: cp.async.bulk.shared::cluster.global
func.func @mx_pair_fprop(%x: tensor<4096x512xf8E4M3FN>, %sx: tensor<128x512xf8E8M0FNU>,
                         %w: tensor<4096x512xf8E4M3FN>, %sw: tensor<128x512xf8E8M0FNU>) -> tensor<4096x4096xbf16> {
  %y = fp8.scaled_matmul %x, %sx, %w, %sw {
         a_scale_layout = #fp8.scale_layout<tcgen05>,
         a_scaling = #fp8.scaling<tile = [1, 32], scale = f8E8M0FNU, round = pow2_ceil>,
         b_scale_layout = #fp8.scale_layout<tcgen05>,
         b_scaling = #fp8.scaling<tile = [1, 32], scale = f8E8M0FNU, round = pow2_ceil>,
         contracting = array<i64: 1, 1>}
      : (tensor<4096x512xf8E4M3FN>, tensor<128x512xf8E8M0FNU>, tensor<4096x512xf8E4M3FN>, tensor<128x512xf8E8M0FNU>) -> tensor<4096x4096xbf16>
  return %y : tensor<4096x4096xbf16>
}

// MXFP8 Wgrad, both MN-major, f32: a pair needs N = 256 so that each CTA's
// half of B is one 128-column swizzle atom; the MMA's descriptor has both
// MN-major bits (0x18000) and M = 256.
// MXMN: .reqnctapercluster 2, 1, 1
// MXMN: mov.b32 [[IDESC:%r[0-9]+]], 281116672;
// MXMN-NEXT: tcgen05.mma.cta_group::2.kind::mxf8f6f4.block_scale.block32.collector::a::discard [{{%r[0-9]+}}], {{%rd[0-9]+}}, {{%rd[0-9]+}}, [[IDESC]],
// MXMN: tcgen05.dealloc.cta_group::2
func.func @mx_pair_wgrad(%dy: tensor<256x4096xf8E4M3FN>, %sdy: tensor<64x512xf8E8M0FNU>,
                         %x: tensor<256x4096xf8E4M3FN>, %sx: tensor<64x512xf8E8M0FNU>) -> tensor<4096x4096xf32> {
  %dw = fp8.scaled_matmul %dy, %sdy, %x, %sx {
          a_scale_layout = #fp8.scale_layout<tcgen05>,
          a_scaling = #fp8.scaling<tile = [32, 1], scale = f8E8M0FNU, round = pow2_ceil>,
          b_scale_layout = #fp8.scale_layout<tcgen05>,
          b_scaling = #fp8.scaling<tile = [32, 1], scale = f8E8M0FNU, round = pow2_ceil>,
          contracting = array<i64: 0, 0>}
      : (tensor<256x4096xf8E4M3FN>, tensor<64x512xf8E8M0FNU>, tensor<256x4096xf8E4M3FN>, tensor<64x512xf8E8M0FNU>) -> tensor<4096x4096xf32>
  return %dw : tensor<4096x4096xf32>
}

// Blockwise Fprop (promoted), 4096 x 4096 x 512: 256 x 128 pair tiles, no
// scale chunks (no tcgen05.cp); the leader expects 2 x (16384 + 8192) =
// 49152 bytes per stage; four kind::f8f6f4 MMAs (M = 256, N = 128:
// 0x10200010 = 270532624) per K-block, each K-block's partial sum committed
// to both CTAs; 320 threads, at most 204 registers each.
// BLOCK: .maxntid 320, 1, 1
// BLOCK-NEXT: .maxnreg 204
// BLOCK-NEXT: .explicitcluster
// BLOCK-NEXT: .reqnctapercluster 2, 1, 1
// BLOCK-NOT: tcgen05.cp
// BLOCK: mov.b32 {{%r[0-9]+}}, 49152;
// BLOCK: mov.b32 {{%r[0-9]+}}, 270532624;
// BLOCK-COUNT-4: tcgen05.mma.cta_group::2.kind::f8f6f4
// BLOCK-COUNT-2: tcgen05.commit.cta_group::2.mbarrier::arrive::one.shared::cluster.multicast::cluster.b64
// BLOCK: mbarrier.arrive.release.cluster.shared::cluster.b64 _, [leader];
// BLOCK: tcgen05.dealloc.cta_group::2
func.func @blockwise_pair_fprop(%x: tensor<4096x512xf8E4M3FN>, %sx: tensor<4096x4xf32>,
                                %w: tensor<4096x512xf8E4M3FN>, %sw: tensor<32x4xf32>) -> tensor<4096x4096xbf16> {
  %y = fp8.scaled_matmul %x, %sx, %w, %sw {
          a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
          b_scaling = #fp8.scaling<tile = [128, 128], scale = f32>,
          contracting = array<i64: 1, 1>}
      : (tensor<4096x512xf8E4M3FN>, tensor<4096x4xf32>, tensor<4096x512xf8E4M3FN>, tensor<32x4xf32>) -> tensor<4096x4096xbf16>
  return %y : tensor<4096x4096xbf16>
}

// The manifest: a cluster of two (the grid, 74 pairs, is a multiple of
// it), the pair's 256-row tile and cta_group, B's box of half the tile's
// columns, and the scale chunks' tensor maps (1 x 256 bytes, no swizzle).
// MANIFEST: "cluster": [
// MANIFEST-NEXT: 2,
// MANIFEST-NEXT: 1,
// MANIFEST-NEXT: 1
// MANIFEST: "grid": [
// MANIFEST-NEXT: 148,
// MANIFEST: "cta_group": 2,
// MANIFEST: "tile": [
// MANIFEST-NEXT: 256,
// MANIFEST-NEXT: 256,
// MANIFEST-NEXT: 128
// MANIFEST: "name": "a_map",
// MANIFEST: "box": [
// MANIFEST-NEXT: 128,
// MANIFEST-NEXT: 128
// MANIFEST-NEXT: ],
// MANIFEST-NEXT: "name": "b_map",
// MANIFEST: "box": [
// MANIFEST-NEXT: 1,
// MANIFEST-NEXT: 256
// MANIFEST-NEXT: ],
// MANIFEST-NEXT: "name": "a_scale_map",
// MANIFEST-NEXT: "role": "tensormap",
// MANIFEST-NEXT: "swizzle": "none",
// MANIFEST-NEXT: "tensor": "a_scale"
// MANIFEST: "name": "b_scale_map",
