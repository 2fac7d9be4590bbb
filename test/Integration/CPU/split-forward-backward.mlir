// fp8-split-forward-backward changes where values are computed, not their
// bits: the linear layer of examples/linear_fwd_bwd.mlir (Y, dX, dW in one
// joint function), compiled by fp8-pipeline for sm_90a and run on the CPU
// reference, gives the same bits called as it is and split, @main's call
// then being a call of @linear_fwd_bwd_fwd and one of @linear_fwd_bwd_bwd
// with the FP8 operands forward returns. Each run prints one checksum per
// result (Y, dX, dW).
// RUN: cat %S/../../../examples/linear_fwd_bwd.mlir %s | fp8-opt --fp8-pipeline=recipe=blockwise --fp8-split-forward-backward | FileCheck %s --check-prefix=SPLIT
// SPLIT: call @linear_fwd_bwd_fwd(
// SPLIT-NEXT: call @linear_fwd_bwd_bwd(
// SPLIT-NOT: call @linear_fwd_bwd(
// RUN: cat %S/../../../examples/linear_fwd_bwd.mlir %s | fp8-opt --fp8-pipeline=recipe=tensorwise --fp8-reference-pipeline | %mlir-run | grep -v '^Unranked' > %t.tensorwise
// RUN: cat %S/../../../examples/linear_fwd_bwd.mlir %s | fp8-opt --fp8-pipeline=recipe=tensorwise --fp8-split-forward-backward --fp8-reference-pipeline | %mlir-run | grep -v '^Unranked' > %t.tensorwise.split
// RUN: diff %t.tensorwise %t.tensorwise.split
// RUN: cat %S/../../../examples/linear_fwd_bwd.mlir %s | fp8-opt --fp8-pipeline=recipe=blockwise --fp8-reference-pipeline | %mlir-run | grep -v '^Unranked' > %t.blockwise
// RUN: cat %S/../../../examples/linear_fwd_bwd.mlir %s | fp8-opt --fp8-pipeline=recipe=blockwise --fp8-split-forward-backward --fp8-reference-pipeline | %mlir-run | grep -v '^Unranked' > %t.blockwise.split
// RUN: diff %t.blockwise %t.blockwise.split
// RUN: cat %S/../../../examples/linear_fwd_bwd.mlir %s | fp8-opt --fp8-pipeline=recipe=rowwise --fp8-reference-pipeline | %mlir-run | grep -v '^Unranked' > %t.rowwise
// RUN: cat %S/../../../examples/linear_fwd_bwd.mlir %s | fp8-opt --fp8-pipeline=recipe=rowwise --fp8-split-forward-backward --fp8-reference-pipeline | %mlir-run | grep -v '^Unranked' > %t.rowwise.split
// RUN: diff %t.rowwise %t.rowwise.split
// RUN: cat %S/../../../examples/linear_fwd_bwd.mlir %s | fp8-opt --fp8-pipeline=recipe=rowwise_gw_hp --fp8-reference-pipeline | %mlir-run | grep -v '^Unranked' > %t.rowwise_gw_hp
// RUN: cat %S/../../../examples/linear_fwd_bwd.mlir %s | fp8-opt --fp8-pipeline=recipe=rowwise_gw_hp --fp8-split-forward-backward --fp8-reference-pipeline | %mlir-run | grep -v '^Unranked' > %t.rowwise_gw_hp.split
// RUN: diff %t.rowwise_gw_hp %t.rowwise_gw_hp.split
// RUN: cat %S/../../../examples/linear_fwd_bwd.mlir %s | fp8-opt --fp8-pipeline=recipe=mxfp8 --fp8-reference-pipeline | %mlir-run | grep -v '^Unranked' > %t.mxfp8
// RUN: cat %S/../../../examples/linear_fwd_bwd.mlir %s | fp8-opt --fp8-pipeline=recipe=mxfp8 --fp8-split-forward-backward --fp8-reference-pipeline | %mlir-run | grep -v '^Unranked' > %t.mxfp8.split
// RUN: diff %t.mxfp8 %t.mxfp8.split
// recompute=weight (backward quantizes W again from bf16 W instead of
// taking forward's FP8 copy): the same bits.
// RUN: cat %S/../../../examples/linear_fwd_bwd.mlir %s | fp8-opt --fp8-pipeline=recipe=tensorwise --fp8-split-forward-backward=recompute=weight --fp8-reference-pipeline 2>/dev/null | %mlir-run | grep -v '^Unranked' > %t.tensorwise.recompute
// RUN: diff %t.tensorwise %t.tensorwise.recompute
// RUN: cat %S/../../../examples/linear_fwd_bwd.mlir %s | fp8-opt --fp8-pipeline=recipe=blockwise --fp8-split-forward-backward=recompute=weight --fp8-reference-pipeline 2>/dev/null | %mlir-run | grep -v '^Unranked' > %t.blockwise.recompute
// RUN: diff %t.blockwise %t.blockwise.recompute
// RUN: cat %S/../../../examples/linear_fwd_bwd.mlir %s | fp8-opt --fp8-pipeline=recipe=rowwise --fp8-split-forward-backward=recompute=weight --fp8-reference-pipeline 2>/dev/null | %mlir-run | grep -v '^Unranked' > %t.rowwise.recompute
// RUN: diff %t.rowwise %t.rowwise.recompute
// The checksums see the recipe (the runs are not trivially equal) and are
// not zero.
// RUN: not diff %t.blockwise %t.tensorwise > /dev/null
// RUN: FileCheck %s < %t.blockwise.split
// CHECK-COUNT-3: {{^}}[{{-?[1-9][0-9]*}}]{{$}}

func.func private @printMemrefI32(tensor<*xi32>) attributes {llvm.emit_c_interface}

// sum(bits * (linear index + 1)) mod 2^32 over the f32 bit patterns: one
// number that changes when any element or its position changes.
func.func @checksum(%x: tensor<?x?xf32>) {
  %c1 = arith.constant 1 : index
  %cols = tensor.dim %x, %c1 : tensor<?x?xf32>
  %bits = arith.bitcast %x : tensor<?x?xf32> to tensor<?x?xi32>
  %zero = arith.constant 0 : i32
  %e = tensor.empty() : tensor<1xi32>
  %init = linalg.fill ins(%zero : i32) outs(%e : tensor<1xi32>) -> tensor<1xi32>
  %s = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>,
                                        affine_map<(i, j) -> (0)>],
                       iterator_types = ["reduction", "reduction"]}
      ins(%bits : tensor<?x?xi32>) outs(%init : tensor<1xi32>) {
  ^bb0(%v: i32, %acc: i32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %r = arith.muli %i, %cols : index
    %l = arith.addi %r, %j : index
    %l1 = arith.addi %l, %c1 : index
    %w = arith.index_cast %l1 : index to i32
    %p = arith.muli %v, %w : i32
    %n = arith.addi %acc, %p : i32
    linalg.yield %n : i32
  } -> tensor<1xi32>
  %u = tensor.cast %s : tensor<1xi32> to tensor<*xi32>
  call @printMemrefI32(%u) : (tensor<*xi32>) -> ()
  return
}

// x[i][j] = ((a i + b j) mod 97 - 48) / 16 * 2^-(i mod 4) * (1 + 7 [j mod 61
// == 7]) in bf16: rows of four magnitudes and a few outlier columns, so that
// rows, columns and blocks all get different scales.
func.func @pattern(%rows: index, %cols: index, %a: index, %b: index) -> tensor<?x?xbf16> {
  %e = tensor.empty(%rows, %cols) : tensor<?x?xbf16>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      outs(%e : tensor<?x?xbf16>) {
  ^bb0(%o: bf16):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c4 = arith.constant 4 : index
    %c7 = arith.constant 7 : index
    %c48 = arith.constant 48 : index
    %c61 = arith.constant 61 : index
    %c97 = arith.constant 97 : index
    %ai = arith.muli %i, %a : index
    %bj = arith.muli %j, %b : index
    %s = arith.addi %ai, %bj : index
    %m = arith.remui %s, %c97 : index
    %v = arith.subi %m, %c48 : index
    %vi = arith.index_cast %v : index to i32
    %vf = arith.sitofp %vi : i32 to f32
    %sixteenth = arith.constant 0.0625 : f32
    %x = arith.mulf %vf, %sixteenth : f32
    %ir = arith.remui %i, %c4 : index
    %iri = arith.index_cast %ir : index to i32
    %c1i = arith.constant 1 : i32
    %pow = arith.shli %c1i, %iri : i32
    %powf = arith.sitofp %pow : i32 to f32
    %jr = arith.remui %j, %c61 : index
    %isOutlier = arith.cmpi eq, %jr, %c7 : index
    %eight = arith.constant 8.0 : f32
    %one = arith.constant 1.0 : f32
    %colScale = arith.select %isOutlier, %eight, %one : f32
    %xr = arith.divf %x, %powf : f32
    %xc = arith.mulf %xr, %colScale : f32
    %t = arith.truncf %xc : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<?x?xbf16>
  return %r : tensor<?x?xbf16>
}

func.func @main() {
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c11 = arith.constant 11 : index
  %c13 = arith.constant 13 : index
  %c37 = arith.constant 37 : index
  %c41 = arith.constant 41 : index
  %c256 = arith.constant 256 : index
  %c512 = arith.constant 512 : index
  %c1024 = arith.constant 1024 : index
  %xd = call @pattern(%c256, %c512, %c37, %c11) : (index, index, index, index) -> tensor<?x?xbf16>
  %wd = call @pattern(%c1024, %c512, %c13, %c5) : (index, index, index, index) -> tensor<?x?xbf16>
  %dyd = call @pattern(%c256, %c1024, %c41, %c3) : (index, index, index, index) -> tensor<?x?xbf16>
  %x = tensor.cast %xd : tensor<?x?xbf16> to tensor<256x512xbf16>
  %w = tensor.cast %wd : tensor<?x?xbf16> to tensor<1024x512xbf16>
  %dy = tensor.cast %dyd : tensor<?x?xbf16> to tensor<256x1024xbf16>
  %y, %dx, %dw = call @linear_fwd_bwd(%x, %w, %dy)
      : (tensor<256x512xbf16>, tensor<1024x512xbf16>, tensor<256x1024xbf16>)
      -> (tensor<256x1024xbf16>, tensor<256x512xbf16>, tensor<1024x512xf32>)
  %y32 = arith.extf %y : tensor<256x1024xbf16> to tensor<256x1024xf32>
  %dx32 = arith.extf %dx : tensor<256x512xbf16> to tensor<256x512xf32>
  %yu = tensor.cast %y32 : tensor<256x1024xf32> to tensor<?x?xf32>
  %dxu = tensor.cast %dx32 : tensor<256x512xf32> to tensor<?x?xf32>
  %dwu = tensor.cast %dw : tensor<1024x512xf32> to tensor<?x?xf32>
  call @checksum(%yu) : (tensor<?x?xf32>) -> ()
  call @checksum(%dxu) : (tensor<?x?xf32>) -> ()
  call @checksum(%dwu) : (tensor<?x?xf32>) -> ()
  return
}
