// Elementwise linalg ops in a program with fp8 ops get kernels of their own.
// A bf16 GELU reads and writes 16 bytes a thread (ld/st.global.v4) and
// calls nothing (tanh is expanded, no libdevice); a bias row broadcast over
// rows is contiguous along the innermost loop, so it is read with 16-byte
// loads too; linalg.fill,
// linalg.map and arith ops on tensors become kernels too.
// RUN: rm -rf %t && split-file --leading-lines %s %t
// RUN: rm -rf %t/out && fp8-opt %t/kernels.mlir --fp8-emit=dir=%t/out -o /dev/null
// RUN: FileCheck %s --check-prefix=GELU < %t/out/gelu_generic_0.ptx
// RUN: FileCheck %s --check-prefix=BIAS < %t/out/bias_generic_2.ptx
// RUN: FileCheck %s --check-prefix=MANIFEST < %t/out/manifest.json
// RUN: FileCheck %s --check-prefix=EXP < %t/out/silu_map_8.ptx
// RUN: %if ptxas-sm90a %{ for f in %t/out/*.ptx; do %ptxas -arch=sm_90a $f -o /dev/null || exit 1; done %}
// GELU-NOT: call
// GELU-NOT: __nv_
// GELU-NOT: div.rn
// Programmatic dependent launch (ProgrammaticLaunch.cpp): every kernel but
// the GEMMs waits for the previous grid before its first global access,
// then lets the next one launch; the manifest says "pdl".
// GELU-NOT: ld.global
// GELU: griddepcontrol.wait;
// GELU-NEXT: griddepcontrol.launch_dependents;
// GELU: ld.global.v4
// tanh (MathExpansion.cpp's TanhToArith): clamps by min/max, p / q by
// rcp.approx and Newton's corrections, not div.rn.
// GELU: min.NaN.f32 {{.*}}, 0f40FFF644;
// GELU-NEXT: max.NaN.f32 {{.*}}, 0fC0FFF644;
// GELU: rcp.approx.ftz.f32
// GELU-NOT: div.rn
// GELU-NOT: call
// GELU-NOT: __nv_
// GELU: st.global.v4
// GELU-NOT: call
// GELU-NOT: __nv_
// BIAS-NOT: ld.global.b16
// BIAS: ld.global.v4
// BIAS: ld.global.v4
// BIAS: st.global.v4
// BIAS-NOT: ld.global.b16
// exp (MathExpansion.cpp's ExpToArith, MLIR's expansion in fewer
// instructions): clamps by max/min, floor by the rounding shift 1.5 * 2^23,
// 2^n from the bits of n + 1.5 * 2^23 + 127; no conversion to an integer.
// EXP-NOT: cvt.rzi
// EXP: max.NaN.f32 {{.*}}, 0fC2AF999A;
// EXP-NEXT: min.NaN.f32 {{.*}}, 0f42B1999A;
// EXP-NEXT: fma.rn.f32 {{.*}}, 0f3FB8AA3B, 0f3F000000;
// EXP-NEXT: max.NaN.f32 {{.*}}, 0fC2FE0000;
// EXP-NEXT: min.NaN.f32 {{.*}}, 0f42FE0000;
// EXP-NEXT: add.rn.f32 {{.*}}, 0f4B400000;
// EXP-NEXT: add.rn.f32 {{.*}}, 0fCB400000;
// EXP: add.rn.f32 [[BIASED:%r[0-9]+]], {{.*}}, 0f4B40007F;
// EXP-NEXT: shl.b32 {{.*}}, [[BIASED]], 23;
// EXP-NOT: cvt.rzi
// The kernels in program order, each from its op.
// MANIFEST: "name": "gelu_generic_0",
// MANIFEST-NEXT: "op": "linalg.generic",
// MANIFEST: "pdl": true,
// MANIFEST: "name": "bias_generic_2",
// MANIFEST-NEXT: "op": "linalg.generic",
// MANIFEST: "name": "others_fill_4",
// MANIFEST-NEXT: "op": "linalg.fill",
// MANIFEST: "name": "others_map_5",
// MANIFEST-NEXT: "op": "linalg.map",
// MANIFEST: "name": "others_generic_6",
// MANIFEST-NEXT: "op": "linalg.generic",

// RUN: not fp8-opt %t/body-op.mlir --fp8-emit=dir=%t/err 2>&1 | FileCheck %s --check-prefix=BODYOP
// RUN: not fp8-opt %t/captured.mlir --fp8-emit=dir=%t/err 2>&1 | FileCheck %s --check-prefix=CAPTURED
// RUN: test ! -e %t/err/manifest.json

//--- kernels.mlir
#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (j)>
func.func @gelu(%h: tensor<256x1024xbf16>) -> (tensor<256x1024xf8E4M3FN>, tensor<256x8xf32>) {
  %e = tensor.empty() : tensor<256x1024xbf16>
  %a = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
         ins(%h : tensor<256x1024xbf16>) outs(%e : tensor<256x1024xbf16>) {
  ^bb0(%v: bf16, %o: bf16):
    %f = arith.extf %v : bf16 to f32
    %c0 = arith.constant 0.7978846 : f32
    %c1 = arith.constant 0.044715 : f32
    %half = arith.constant 0.5 : f32
    %one = arith.constant 1.0 : f32
    %v2 = arith.mulf %f, %f : f32
    %v3 = arith.mulf %v2, %f : f32
    %t0 = arith.mulf %c1, %v3 : f32
    %t1 = arith.addf %f, %t0 : f32
    %t2 = arith.mulf %c0, %t1 : f32
    %t3 = math.tanh %t2 : f32
    %t4 = arith.addf %one, %t3 : f32
    %t5 = arith.mulf %half, %f : f32
    %g = arith.mulf %t5, %t4 : f32
    %gb = arith.truncf %g : f32 to bf16
    linalg.yield %gb : bf16
  } -> tensor<256x1024xbf16>
  %q, %s = fp8.quantize %a {scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<256x1024xbf16> -> tensor<256x1024xf8E4M3FN>, tensor<256x8xf32>
  return %q, %s : tensor<256x1024xf8E4M3FN>, tensor<256x8xf32>
}
func.func @bias(%x: tensor<256x1024xbf16>, %b: tensor<1024xbf16>) -> (tensor<256x1024xf8E4M3FN>, tensor<256x8xf32>) {
  %e = tensor.empty() : tensor<256x1024xbf16>
  %y = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
         ins(%x, %b : tensor<256x1024xbf16>, tensor<1024xbf16>) outs(%e : tensor<256x1024xbf16>) {
  ^bb0(%v: bf16, %c: bf16, %o: bf16):
    %s = arith.addf %v, %c : bf16
    linalg.yield %s : bf16
  } -> tensor<256x1024xbf16>
  %q, %s = fp8.quantize %y {scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<256x1024xbf16> -> tensor<256x1024xf8E4M3FN>, tensor<256x8xf32>
  return %q, %s : tensor<256x1024xf8E4M3FN>, tensor<256x8xf32>
}
func.func @others(%x: tensor<64x128xf32>, %y: tensor<64x128xf32>) -> (tensor<64x128xf32>, tensor<64x128xf32>, tensor<64x128xf32>) {
  %one = arith.constant 1.0 : f32
  %e = tensor.empty() : tensor<64x128xf32>
  %ones = linalg.fill ins(%one : f32) outs(%e : tensor<64x128xf32>) -> tensor<64x128xf32>
  %neg = linalg.map { arith.negf } ins(%x : tensor<64x128xf32>) outs(%e : tensor<64x128xf32>)
  %sum = arith.addf %x, %y : tensor<64x128xf32>
  return %ones, %neg, %sum : tensor<64x128xf32>, tensor<64x128xf32>, tensor<64x128xf32>
}
func.func @fp8(%x: tensor<64x128xf32>) -> tensor<1x1xf32> {
  %a = fp8.amax %x {tile = #fp8.tile<[*, *]>} : tensor<64x128xf32> -> tensor<1x1xf32>
  return %a : tensor<1x1xf32>
}
func.func @silu(%x: tensor<64x128xf32>) -> tensor<64x128xf32> {
  %e = tensor.empty() : tensor<64x128xf32>
  %y = linalg.map ins(%x : tensor<64x128xf32>) outs(%e : tensor<64x128xf32>)
    (%v: f32, %o: f32) {
      %n = arith.negf %v : f32
      %x1 = math.exp %n : f32
      %one = arith.constant 1.0 : f32
      %d = arith.addf %one, %x1 : f32
      %s = arith.divf %v, %d : f32
      linalg.yield %s : f32
    }
  return %y : tensor<64x128xf32>
}

//--- body-op.mlir
#id = affine_map<(i, j) -> (i, j)>
func.func @f(%x: tensor<64x128xbf16>) -> (tensor<64x128xf8E4M3FN>, tensor<64x1xf32>) {
  %e = tensor.empty() : tensor<64x128xbf16>
  // BODYOP: body-op.mlir:[[@LINE+1]]:8: error: 'linalg.generic' op convert-fp8-to-nvvm: 'linalg.index' in the body has no GPU lowering
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
         ins(%x : tensor<64x128xbf16>) outs(%e : tensor<64x128xbf16>) {
  ^bb0(%v: bf16, %o: bf16):
    %i = linalg.index 0 : index
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to bf16
    %s = arith.addf %v, %f : bf16
    linalg.yield %s : bf16
  } -> tensor<64x128xbf16>
  %q, %s = fp8.quantize %y {scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<64x128xbf16> -> tensor<64x128xf8E4M3FN>, tensor<64x1xf32>
  return %q, %s : tensor<64x128xf8E4M3FN>, tensor<64x1xf32>
}

//--- captured.mlir
#id = affine_map<(i, j) -> (i, j)>
func.func @f(%x: tensor<64x128xbf16>, %k: bf16) -> (tensor<64x128xf8E4M3FN>, tensor<64x1xf32>) {
  %e = tensor.empty() : tensor<64x128xbf16>
  // CAPTURED: captured.mlir:[[@LINE+1]]:8: error: 'linalg.generic' op convert-fp8-to-nvvm: the body uses <block argument> of type 'bf16' at index: 1 from outside, which is not a constant
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
         ins(%x : tensor<64x128xbf16>) outs(%e : tensor<64x128xbf16>) {
  ^bb0(%v: bf16, %o: bf16):
    %s = arith.mulf %v, %k : bf16
    linalg.yield %s : bf16
  } -> tensor<64x128xbf16>
  %q, %s = fp8.quantize %y {scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<64x128xbf16> -> tensor<64x128xf8E4M3FN>, tensor<64x1xf32>
  return %q, %s : tensor<64x128xf8E4M3FN>, tensor<64x1xf32>
}
