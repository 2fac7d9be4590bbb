// The sm_90a grouped GEMM (fp8.grouped_scaled_matmul): the GEMM's pipeline
// over the tiles of every group, whose bounds it reads from group_rows at
// run time, clamped to the rows that exist; B read as one (G x N) x K
// matrix; C stored by TMA where a consumer's 64 rows lie in the tile's
// group, else directly, stopping at the group's end; and zeros in the rows
// of no group.
// RUN: rm -rf %t && fp8-opt %s --fp8-emit=dir=%t -o /dev/null
// RUN: FileCheck %s < %t/contiguous_grouped_gemm_0.ptx
// RUN: FileCheck %s --check-prefix=TMASTORE < %t/contiguous_grouped_gemm_0.ptx
// RUN: FileCheck %s --check-prefix=MASKED < %t/masked_grouped_gemm_1.ptx
// RUN: FileCheck %s --check-prefix=MANIFEST < %t/manifest.json
// RUN: FileCheck %s --check-prefix=TMASCALE < %t/contiguous_tma_scales_grouped_gemm_2.ptx
// RUN: FileCheck %s --check-prefix=TMAMANIFEST < %t/manifest.json
// RUN: %if ptxas-sm90a %{ %ptxas -arch=sm_90a -v %t/contiguous_grouped_gemm_0.ptx -o /dev/null 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// RUN: %if ptxas-sm90a %{ %ptxas -arch=sm_90a -v %t/masked_grouped_gemm_1.ptx -o /dev/null 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// RUN: %if ptxas-sm90a %{ %ptxas -arch=sm_90a -v %t/contiguous_tma_scales_grouped_gemm_2.ptx -o /dev/null 2>&1 | FileCheck %s --check-prefix=PTXAS %}

// Contiguous: group g's rows run from group_rows[g - 1] (0 for the first)
// to group_rows[g], each clamped to [0, M] = [0, 1000].
// CHECK: .maxntid 384, 1, 1
// group_rows may be written by the previous grid: read after the PDL wait.
// CHECK: setmaxnreg.dec.sync.aligned.u32 40;
// CHECK-NEXT: griddepcontrol.wait;
// CHECK: ld.global.nc.b32 [[END:%r[0-9]+]], [%rd{{[0-9]+}}];
// CHECK: ld.global.nc.b32 [[PREV:%r[0-9]+]], [%rd{{[0-9]+}}+-4];
// CHECK: max.s32 [[LO:%r[0-9]+]], [[PREV]], 0;
// CHECK: min.s32 {{%r[0-9]+}}, [[LO]], 1000;
// CHECK: wgmma.mma_async.sync.aligned.m64n64k32.f32.e4m3.e4m3
// CHECK: st.global.b32
// Rows of no group (past the last group's end) are stored as zeros, 16
// bytes at a time.
// CHECK: st.global.v4.b32 [%rd{{[0-9]+}}], {0, 0, 0, 0};
// A consumer whose rows end past its group's end (only in a group's last
// row tile) stores its pairs below that end; the others stage their 64
// rows in shared memory and store them by TMA at the consumer's first row
// (its end less 64), which may be any row: a TMA box's rows are its outer
// dimension, and only the innermost start must be 16-byte aligned.
// TMASTORE: setp.gt.u32 {{%p[0-9]+}}, [[CEND:%r[0-9]+]], {{%r[0-9]+}};
// TMASTORE: st.global.b32
// TMASTORE: cp.async.bulk.wait_group.read 0;
// TMASTORE: fence.proxy.async.shared::cta;
// TMASTORE: add.s32 [[CROW:%r[0-9]+]], [[CEND]], -64;
// TMASTORE: cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%rd{{[0-9]+}}, {%r{{[0-9]+}}, [[CROW]]}]
// TMASTORE: cp.async.bulk.commit_group;
// The last stores have read shared memory before the CTA exits.
// TMASTORE: cp.async.bulk.wait_group 0;
// Masked: group g starts at g * 256 and holds min(max(group_rows[g], 0), 256) rows.
// MASKED: max.s32 [[C:%r[0-9]+]], {{%r[0-9]+}}, 0;
// MASKED-NEXT: min.s32 {{%r[0-9]+}}, [[C]], 256;
// MASKED: shl.b32 {{%r[0-9]+}}, {{%r[0-9]+}}, 8;

// The buffers as the kernel reads them, group_rows marked for the runtime,
// one CTA per SM (the tile count is the run's), and the groups.
// MANIFEST: "b_scaling"
// MANIFEST: "groups": {
// MANIFEST-NEXT: "capacity": 0,
// MANIFEST-NEXT: "count": 4,
// MANIFEST-NEXT: "layout": "contiguous"
// MANIFEST: "name": "contiguous_grouped_gemm_0",
// MANIFEST: "op": "fp8.grouped_scaled_matmul",
// MANIFEST: "name": "b",
// MANIFEST: 1024,
// MANIFEST-NEXT: 512
// MANIFEST: "group_rows": {
// MANIFEST-NEXT: "layout": "contiguous",
// MANIFEST-NEXT: "rows": 1000
// MANIFEST-NEXT: },
// MANIFEST-NEXT: "name": "group_rows",
// MANIFEST: "name": "b_map",
// MANIFEST: "box": [
// MANIFEST-NEXT: 64,
// MANIFEST-NEXT: 64
// MANIFEST-NEXT: ],
// MANIFEST-NEXT: "name": "c_map",
// MANIFEST: "group_rows": {
// MANIFEST-NEXT: "layout": "masked",
// MANIFEST-NEXT: "rows": 256

// A's scales in the col_major_tma layout (what fp8-legalize makes): a third
// TMA load per stage (128 x 64 tiles here: 24576 bytes of A and B) brings
// 132 of A's scales of the K-block (528 bytes, in a 640-byte slot): a box
// must start at a 16-byte-aligned row, so it starts at the multiple of 4
// at or before the tile's first row, which may be anywhere in a group;
// beside it a bulk copy brings the 16 bytes that hold the B block's scale.
// Each consumer thread reads its two rows' A scales (8 rows, 32 bytes
// apart) from the stage before it issues the MMAs.
// TMASCALE: and.b32 [[START:%r[0-9]+]], [[ROW:%r[0-9]+]], -4;
// TMASCALE: mov.b32 [[BYTES:%r[0-9]+]], 25120;
// TMASCALE: mbarrier.arrive.expect_tx.shared.b64 {{.*}}, [[BYTES]];
// TMASCALE: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [{{%rd[0-9]+}}], [{{%rd[0-9]+}}, {{{%r[0-9]+}}, [[ROW]]}]
// TMASCALE: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// TMASCALE: mul.lo.s32 {{%r[0-9]+}}, {{%r[0-9]+}}, 640;
// TMASCALE: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [{{%rd[0-9]+}}], [{{%rd[0-9]+}}, {[[START]], {{%r[0-9]+}}}]
// TMASCALE: cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes
// TMASCALE: setmaxnreg.inc.sync.aligned.u32 232;
// TMASCALE: ld.shared.b32 {{%r[0-9]+}}, [[[S:%rd[0-9]+]]];
// TMASCALE-NEXT: ld.shared.b32 {{%r[0-9]+}}, [[[S]]+32];
// TMASCALE: wgmma.mma_async.sync.aligned.m64n64k32.f32.e4m3.e4m3
// TMASCALE: st.global.b32

// TMAMANIFEST: "a_scale_layout": "col_major_tma",
// TMAMANIFEST: "name": "contiguous_tma_scales_grouped_gemm_2",
// TMAMANIFEST: "name": "a_scale",
// TMAMANIFEST: "shape": [
// TMAMANIFEST-NEXT: 4,
// TMAMANIFEST-NEXT: 2000
// TMAMANIFEST: "tensor": "b"
// TMAMANIFEST: "tensor": "c"
// TMAMANIFEST: "box": [
// TMAMANIFEST-NEXT: 1,
// TMAMANIFEST-NEXT: 132
// TMAMANIFEST-NEXT: ],
// TMAMANIFEST-NEXT: "name": "a_scale_map",
// TMAMANIFEST-NEXT: "role": "tensormap",
// TMAMANIFEST-NEXT: "swizzle": "none",
// TMAMANIFEST-NEXT: "tensor": "a_scale"

// PTXAS: 0 bytes spill stores, 0 bytes spill loads
// PTXAS-NOT: error

func.func @contiguous(%a: tensor<1000x512xf8E4M3FN>, %sa: tensor<1000x4xf32>, %b: tensor<4x256x512xf8E4M3FN>, %sb: tensor<4x2x4xf32>, %r: tensor<4xi32>) -> tensor<1000x256xbf16> {
  %c = fp8.grouped_scaled_matmul %a, %sa, %b, %sb, %r {
        a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        b_scaling = #fp8.scaling<tile = [128, 128], scale = f32>}
      : (tensor<1000x512xf8E4M3FN>, tensor<1000x4xf32>, tensor<4x256x512xf8E4M3FN>, tensor<4x2x4xf32>, tensor<4xi32>) -> tensor<1000x256xbf16>
  return %c : tensor<1000x256xbf16>
}

func.func @masked(%a: tensor<4x256x512xf8E4M3FN>, %sa: tensor<4x256x4xf32>, %b: tensor<4x256x512xf8E4M3FN>, %sb: tensor<4x2x4xf32>, %r: tensor<4xi32>) -> tensor<4x256x256xbf16> {
  %c = fp8.grouped_scaled_matmul %a, %sa, %b, %sb, %r {
        a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        b_scaling = #fp8.scaling<tile = [128, 128], scale = f32>,
        layout = #fp8.group_layout<masked>}
      : (tensor<4x256x512xf8E4M3FN>, tensor<4x256x4xf32>, tensor<4x256x512xf8E4M3FN>, tensor<4x2x4xf32>, tensor<4xi32>) -> tensor<4x256x256xbf16>
  return %c : tensor<4x256x256xbf16>
}

func.func @contiguous_tma_scales(%a: tensor<2000x512xf8E4M3FN>, %sa: tensor<4x2000xf32>, %b: tensor<4x256x512xf8E4M3FN>, %sb: tensor<4x2x4xf32>, %r: tensor<4xi32>) -> tensor<2000x256xbf16> {
  %c = fp8.grouped_scaled_matmul %a, %sa, %b, %sb, %r {
        a_scale_layout = #fp8.scale_layout<col_major_tma>,
        a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        b_scaling = #fp8.scaling<tile = [128, 128], scale = f32>}
      : (tensor<2000x512xf8E4M3FN>, tensor<4x2000xf32>, tensor<4x256x512xf8E4M3FN>, tensor<4x2x4xf32>, tensor<4xi32>) -> tensor<2000x256xbf16>
  return %c : tensor<2000x256xbf16>
}
