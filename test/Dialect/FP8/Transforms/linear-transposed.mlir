// One linear layer written with linalg.transpose and default-map linalg.matmul
// gives the quantizations and kernels of the same graph written with indexing
// maps (examples/linear_fwd_bwd.mlir): a transposed operand is the stored tensor
// contracted along its other dim, so it is quantized (and, under delayed
// scaling, given an amax history) once.
// RUN: for r in tensorwise delayed rowwise rowwise_gw_hp blockwise mxfp8 mxfp8_ocp; do \
// RUN:   fp8-opt %s --fp8-pipeline=recipe=$r --fp8-print-layouts > %t.transposed.$r || exit 1; \
// RUN:   fp8-opt %S/../../../../examples/linear_fwd_bwd.mlir --fp8-pipeline=recipe=$r --fp8-print-layouts > %t.maps.$r || exit 1; \
// RUN:   grep '^// [0-9]' %t.transposed.$r > %t.transposed.$r.layouts; \
// RUN:   grep '^// [0-9]' %t.maps.$r | diff %t.transposed.$r.layouts - || exit 1; \
// RUN: done
// Where every matmul is quantized the IR is the same, not only the layouts.
// RUN: for r in tensorwise delayed rowwise blockwise mxfp8 mxfp8_ocp; do \
// RUN:   diff %t.transposed.$r %t.maps.$r || exit 1; \
// RUN: done
// RUN: FileCheck %s --check-prefix=DELAYED < %t.transposed.delayed
// RUN: FileCheck %s --check-prefix=BLOCKWISE < %t.transposed.blockwise
// The recipe's Hadamard rotations reach the same ops in both forms.
// RUN: fp8-opt %s '--fp8-pipeline=recipe="#fp8.recipe<mxfp8, hadamard = 32>"' > %t.transposed.hadamard
// RUN: fp8-opt %S/../../../../examples/linear_fwd_bwd.mlir '--fp8-pipeline=recipe="#fp8.recipe<mxfp8, hadamard = 32>"' | diff %t.transposed.hadamard -
// Both forms emit the same kernels with rotations, those along the rows
// (Dgrad's W, Wgrad's operands) included.
// RUN: rm -rf %t.kt %t.km
// RUN: fp8-opt %s '--fp8-pipeline=recipe="#fp8.recipe<blockwise, hadamard = 128>"' --fp8-emit=dir=%t.kt -o /dev/null
// RUN: fp8-opt %S/../../../../examples/linear_fwd_bwd.mlir '--fp8-pipeline=recipe="#fp8.recipe<blockwise, hadamard = 128>"' --fp8-emit=dir=%t.km -o /dev/null
// RUN: ls %t.kt > %t.kt.ls
// RUN: ls %t.km | diff %t.kt.ls -
// RUN: FileCheck %s --check-prefix=KERNELS < %t.kt.ls
// The weights' two rotations have kernels of their own; the other four are
// fused into their quantizations' kernels.
// KERNELS-COUNT-2: linear_fwd_bwd_hadamard_{{[0-9]+}}.ptx
// KERNELS-COUNT-4: linear_fwd_bwd_quantize_elementwise_{{[0-9]+}}.ptx
// One amax (and one history) per tensor: X, W and dY, each fused into its
// quantization (fp8.quantize_delayed).
// DELAYED: 3 quantizations (3 fresh, 0 requantized), 0 reused, 3 transposed
// DELAYED-NEXT: fused: 3 delayed amaxes (fp8.quantize_delayed)
// DELAYED-LABEL: func.func @linear_fwd_bwd
// DELAYED-COUNT-3: = fp8.quantize_delayed %
// DELAYED-NOT: = fp8.amax %
// DELAYED-NOT: linalg.transpose
// BLOCKWISE: 5 quantizations (3 fresh, 2 requantized), 0 reused, 1 transposed

func.func @linear_fwd_bwd(%x: tensor<256x512xbf16> {fp8.role = "activation"},
                          %w: tensor<1024x512xbf16> {fp8.role = "weight"},
                          %dy: tensor<256x1024xbf16> {fp8.role = "gradient"})
    -> (tensor<256x1024xbf16>, tensor<256x512xbf16>, tensor<1024x512xf32>) {
  %zero = arith.constant 0.0 : bf16
  %zero32 = arith.constant 0.0 : f32
  %wt0 = tensor.empty() : tensor<512x1024xbf16>
  %wt = linalg.transpose ins(%w : tensor<1024x512xbf16>) outs(%wt0 : tensor<512x1024xbf16>) permutation = [1, 0]
  %y0 = tensor.empty() : tensor<256x1024xbf16>
  %yi = linalg.fill ins(%zero : bf16) outs(%y0 : tensor<256x1024xbf16>) -> tensor<256x1024xbf16>
  %y = linalg.matmul ins(%x, %wt : tensor<256x512xbf16>, tensor<512x1024xbf16>)
         outs(%yi : tensor<256x1024xbf16>) -> tensor<256x1024xbf16>
  %dx0 = tensor.empty() : tensor<256x512xbf16>
  %dxi = linalg.fill ins(%zero : bf16) outs(%dx0 : tensor<256x512xbf16>) -> tensor<256x512xbf16>
  %dx = linalg.matmul ins(%dy, %w : tensor<256x1024xbf16>, tensor<1024x512xbf16>)
          outs(%dxi : tensor<256x512xbf16>) -> tensor<256x512xbf16>
  %dyt0 = tensor.empty() : tensor<1024x256xbf16>
  %dyt = linalg.transpose ins(%dy : tensor<256x1024xbf16>) outs(%dyt0 : tensor<1024x256xbf16>) permutation = [1, 0]
  %dw0 = tensor.empty() : tensor<1024x512xf32>
  %dwi = linalg.fill ins(%zero32 : f32) outs(%dw0 : tensor<1024x512xf32>) -> tensor<1024x512xf32>
  %dw = linalg.matmul ins(%dyt, %x : tensor<1024x256xbf16>, tensor<256x512xbf16>)
          outs(%dwi : tensor<1024x512xf32>) -> tensor<1024x512xf32>
  return %y, %dx, %dw : tensor<256x1024xbf16>, tensor<256x512xbf16>, tensor<1024x512xf32>
}
