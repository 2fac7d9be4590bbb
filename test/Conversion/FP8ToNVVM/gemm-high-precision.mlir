// The sm_90a GEMM of a matmul the recipe keeps in high precision
// (rowwise_gw_hp's Wgrad; fp8-quantize-matmuls marks it
// fp8_high_precision): bf16 or f16 operands, wgmma k16 with f32
// accumulation, no scales and no promotion, the FP8 GEMM's TMA pipeline and
// epilogue. An MN-major operand (Wgrad contracts M) is read as stored, in
// 64-element atoms, with the instruction's transpose bit.
// RUN: rm -rf %t && fp8-opt %s --fp8-emit=dir=%t -o /dev/null
// RUN: FileCheck %s --check-prefix=KMAJOR < %t/kmajor_gemm_1.ptx
// RUN: FileCheck %s --check-prefix=WGRAD < %t/wgrad_gemm_3.ptx
// RUN: FileCheck %s --check-prefix=F16 < %t/f16_gemm_5.ptx
// RUN: %python -c "import json, sys; [print(json.dumps(k, sort_keys=True)) for k in json.load(open(sys.argv[1]))['kernels']]" %t/manifest.json | FileCheck %s --check-prefix=MANIFEST
// RUN: %if ptxas-sm90a %{ %ptxas -arch=sm_90a -v %t/kmajor_gemm_1.ptx -o /dev/null 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// RUN: %if ptxas-sm90a %{ %ptxas -arch=sm_90a -v %t/wgrad_gemm_3.ptx -o /dev/null 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// RUN: %if ptxas-sm90a %{ %ptxas -arch=sm_90a -v %t/f16_gemm_5.ptx -o /dev/null 2>&1 | FileCheck %s --check-prefix=PTXAS %}

// K-major operands (A M x K, B N x K), a bf16 result: one TMA box each per
// 64-element K-block, four k16 wgmmas without transpose bits, the start
// address 32 bytes (2 in the descriptor) further each; no scale is loaded
// or multiplied.
// KMAJOR: .maxntid 384, 1, 1
// KMAJOR: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [{{%rd[0-9]+}}], {{\[}}[[A:%rd[0-9]+]], {[[K:%r[0-9]+]], %r{{[0-9]+}}}]
// KMAJOR-NOT: {{\[}}[[A]],
// KMAJOR: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [{{%rd[0-9]+}}], {{\[}}[[B:%rd[0-9]+]], {[[K]], %r{{[0-9]+}}}]
// KMAJOR: wgmma.fence.sync.aligned;
// KMAJOR: wgmma.mma_async.sync.aligned.m64n{{[0-9]+}}k16.f32.bf16.bf16
// KMAJOR: p, 1, 1, 0, 0;
// KMAJOR-COUNT-3: wgmma.mma_async.sync.aligned.m64n{{[0-9]+}}k16.f32.bf16.bf16
// KMAJOR: wgmma.commit_group.sync.aligned;
// KMAJOR-NOT: ld.global.nc
// KMAJOR-NOT: mul.rn.f32
// KMAJOR: cvt.rn.bf16x2.f32
// KMAJOR: cp.async.bulk.tensor.2d.global.shared::cta

// Wgrad, dY^T * X with both operands MN-major (stored M x N and M x K): two
// 64-column boxes of A per K-block (a 128-row tile) and one of B (64
// columns), both transpose bits set, f32 stored.
// WGRAD: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [{{%rd[0-9]+}}], {{\[}}[[WA:%rd[0-9]+]], {%r{{[0-9]+}}, [[WK:%r[0-9]+]]}]
// WGRAD: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [{{%rd[0-9]+}}], {{\[}}[[WA]], {%r{{[0-9]+}}, [[WK]]}]
// WGRAD: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [{{%rd[0-9]+}}], {{\[}}[[WB:%rd[0-9]+]], {%r{{[0-9]+}}, [[WK]]}]
// WGRAD: wgmma.fence.sync.aligned;
// WGRAD: wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16
// WGRAD: p, 1, 1, 1, 1;
// WGRAD-NOT: mul.rn.f32
// WGRAD: cp.async.bulk.tensor.2d.global.shared::cta

// f16 operands, A K-major and B MN-major (stored K x N).
// F16: wgmma.mma_async.sync.aligned.m64n{{[0-9]+}}k16.f32.f16.f16
// F16: p, 1, 1, 0, 1;

// One manifest line per kernel (sorted keys): the zero fill of C's init,
// then the GEMM, whose `contracting` is each operand's contracted dim as
// stored (1 K-major, 0 MN-major).
// MANIFEST: "name": "kmajor_fill_0", "op": "linalg.fill"
// MANIFEST: "matmul": {"accumulate": "f32", "contracting": [1, 1], "k": 1024, "m": 2048, "n": 1024, "out_dtype": "bf16", "split_tiles": 0, "stages": {{[0-9]+}}, "tile": [128, {{[0-9]+}}, 64]}, "name": "kmajor_gemm_1", "op": "linalg.matmul", "params": [{"dtype": "bf16", "name": "a", "role": "input", "shape": [2048, 1024]}, {"dtype": "bf16", "name": "b", "role": "input", "shape": [1024, 1024]}, {"dtype": "bf16", "name": "c", "role": "output", "shape": [2048, 1024]}, {"box": [128, 64], "name": "a_map"
// MANIFEST: "matmul": {"accumulate": "f32", "contracting": [0, 0], "k": 512, "m": 768, "n": 1024, "out_dtype": "f32", {{.*}}"name": "wgrad_gemm_3", "op": "linalg.matmul", {{.*}}{"box": [64, 64], "name": "a_map", {{.*}}{"box": [64, 64], "name": "b_map"
// MANIFEST: "matmul": {"accumulate": "f32", "contracting": [1, 0], {{.*}}"name": "f16_gemm_5", "op": "linalg.matmul", "params": [{"dtype": "f16", "name": "a"{{.*}}{"box": [128, 64], "name": "a_map", {{.*}}{"box": [64, 64], "name": "b_map"

// PTXAS: 0 bytes spill stores, 0 bytes spill loads
// PTXAS-NOT: error

#kmajor = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
           affine_map<(m, n, k) -> (m, n)>]
#wgrad = [affine_map<(n, k, m) -> (m, n)>, affine_map<(n, k, m) -> (m, k)>,
          affine_map<(n, k, m) -> (n, k)>]
#kn = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>,
       affine_map<(m, n, k) -> (m, n)>]

func.func @kmajor(%a: tensor<2048x1024xbf16>, %b: tensor<1024x1024xbf16>) -> tensor<2048x1024xbf16> {
  %zero = arith.constant 0.0 : bf16
  %e = tensor.empty() : tensor<2048x1024xbf16>
  %init = linalg.fill ins(%zero : bf16) outs(%e : tensor<2048x1024xbf16>) -> tensor<2048x1024xbf16>
  %c = linalg.matmul indexing_maps = #kmajor {fp8_high_precision}
         ins(%a, %b : tensor<2048x1024xbf16>, tensor<1024x1024xbf16>)
         outs(%init : tensor<2048x1024xbf16>) -> tensor<2048x1024xbf16>
  return %c : tensor<2048x1024xbf16>
}

func.func @wgrad(%dy: tensor<512x768xbf16>, %x: tensor<512x1024xbf16>) -> tensor<768x1024xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<768x1024xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<768x1024xf32>) -> tensor<768x1024xf32>
  %dw = linalg.matmul indexing_maps = #wgrad {fp8_high_precision}
          ins(%dy, %x : tensor<512x768xbf16>, tensor<512x1024xbf16>)
          outs(%init : tensor<768x1024xf32>) -> tensor<768x1024xf32>
  return %dw : tensor<768x1024xf32>
}

func.func @f16(%a: tensor<256x512xf16>, %b: tensor<512x256xf16>) -> tensor<256x256xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256x256xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<256x256xf32>) -> tensor<256x256xf32>
  %c = linalg.matmul indexing_maps = #kn {fp8_high_precision}
         ins(%a, %b : tensor<256x512xf16>, tensor<512x256xf16>)
         outs(%init : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %c : tensor<256x256xf32>
}
