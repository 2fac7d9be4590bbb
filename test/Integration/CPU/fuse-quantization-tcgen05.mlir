// fp8-fuse-quantization's tcgen05 scale store changes kernels, not bits: MX
// scales stored in sm_100a's chunks by the quantization (plain, 130 x 5
// K-blocks padded to 256 x 8; a fused GELU-like tanh, 256 x 12) equal
// fp8.tcgen05_scales of the row-major scales, padding zeros included. The
// run prints the scale bytes and the FP8 bytes as integers.
// RUN: fp8-opt %s --fp8-fuse-quantization | FileCheck %s --check-prefix=FUSED
// FUSED-LABEL: func.func @main
// FUSED-NOT: fp8.tcgen05_scales
// FUSED-COUNT-2: scale_layout = #fp8.scale_layout<tcgen05>
// RUN: fp8-opt %s --fp8-reference-pipeline | %mlir-run | grep -v '^Unranked' > %t.unfused
// RUN: fp8-opt %s --fp8-fuse-quantization --fp8-reference-pipeline | %mlir-run | grep -v '^Unranked' > %t.fused
// RUN: diff %t.unfused %t.fused
// Scales differ within a chunk; K-block 4 of the plain quantization is the
// last, so its second chunk row holds padding zeros.
// RUN: FileCheck %s < %t.fused
// CHECK: {{^\[\[}}{{[0-9]+}}, {{[0-9]+}}, {{[0-9]+}}
// CHECK-NEXT: [{{[0-9]+}},   0,   0,   0,   {{[0-9]+}},   0,   0,   0,

#id = affine_map<(i, j) -> (i, j)>

func.func private @printMemrefI32(tensor<*xi32>) attributes {llvm.emit_c_interface}

func.func @data(%unused: index) -> tensor<256x384xbf16> {
  %e = tensor.empty() : tensor<256x384xbf16>
  %r = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]}
      outs(%e : tensor<256x384xbf16>) {
  ^bb0(%o: bf16):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c2 = arith.constant 2 : index
    %c5 = arith.constant 5 : index
    %c7 = arith.constant 7 : index
    %c44 = arith.constant 44 : index
    %c89 = arith.constant 89 : index
    %a = arith.muli %i, %c7 : index
    %b = arith.muli %j, %c5 : index
    %s = arith.addi %a, %b : index
    %m = arith.remui %s, %c89 : index
    %v = arith.subi %m, %c44 : index
    %ir = arith.remui %i, %c5 : index
    %e1 = arith.subi %ir, %c2 : index
    %vi = arith.index_cast %v : index to i32
    %ei = arith.index_cast %e1 : index to i32
    %vf = arith.sitofp %vi : i32 to f32
    %ef = arith.sitofp %ei : i32 to f32
    %p = math.exp2 %ef : f32
    %eighth = arith.constant 0.125 : f32
    %x0 = arith.mulf %vf, %p : f32
    %x = arith.mulf %x0, %eighth : f32
    %xb = arith.truncf %x : f32 to bf16
    linalg.yield %xb : bf16
  } -> tensor<256x384xbf16>
  return %r : tensor<256x384xbf16>
}

func.func @printScales(%s: tensor<?x?xf8E8M0FNU>) {
  %bits = arith.bitcast %s : tensor<?x?xf8E8M0FNU> to tensor<?x?xi8>
  %wide = arith.extui %bits : tensor<?x?xi8> to tensor<?x?xi32>
  %u = tensor.cast %wide : tensor<?x?xi32> to tensor<*xi32>
  call @printMemrefI32(%u) : (tensor<*xi32>) -> ()
  return
}

func.func @printBytes(%q: tensor<?x?xf8E4M3FN>) {
  %bits = arith.bitcast %q : tensor<?x?xf8E4M3FN> to tensor<?x?xi8>
  %wide = arith.extsi %bits : tensor<?x?xi8> to tensor<?x?xi32>
  %u = tensor.cast %wide : tensor<?x?xi32> to tensor<*xi32>
  call @printMemrefI32(%u) : (tensor<*xi32>) -> ()
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %x = call @data(%c0) : (index) -> tensor<256x384xbf16>
  // 130 x 160, 1x32: 130 x 5 scales in 2 x 2 chunks.
  %x1 = tensor.extract_slice %x[0, 0] [130, 160] [1, 1] : tensor<256x384xbf16> to tensor<130x160xbf16>
  %q1, %s1 = fp8.quantize %x1 {scaling = #fp8.scaling<tile = [1, 32], scale = f8E8M0FNU, round = pow2_ceil>}
      : tensor<130x160xbf16> -> tensor<130x160xf8E4M3FN>, tensor<130x5xf8E8M0FNU>
  %a1 = fp8.tcgen05_scales %s1 : tensor<130x5xf8E8M0FNU> -> tensor<4x512xf8E8M0FNU>
  // A fused tanh, 256 x 12 scales in 2 x 3 chunks.
  %t = math.tanh %x : tensor<256x384xbf16>
  %q2, %s2 = fp8.quantize %t {scaling = #fp8.scaling<tile = [1, 32], scale = f8E8M0FNU, round = pow2_ceil>}
      : tensor<256x384xbf16> -> tensor<256x384xf8E4M3FN>, tensor<256x12xf8E8M0FNU>
  %a2 = fp8.tcgen05_scales %s2 : tensor<256x12xf8E8M0FNU> -> tensor<6x512xf8E8M0FNU>

  %a1d = tensor.cast %a1 : tensor<4x512xf8E8M0FNU> to tensor<?x?xf8E8M0FNU>
  %a2d = tensor.cast %a2 : tensor<6x512xf8E8M0FNU> to tensor<?x?xf8E8M0FNU>
  %q1d = tensor.cast %q1 : tensor<130x160xf8E4M3FN> to tensor<?x?xf8E4M3FN>
  %q2d = tensor.cast %q2 : tensor<256x384xf8E4M3FN> to tensor<?x?xf8E4M3FN>
  call @printScales(%a1d) : (tensor<?x?xf8E8M0FNU>) -> ()
  call @printScales(%a2d) : (tensor<?x?xf8E8M0FNU>) -> ()
  call @printBytes(%q1d) : (tensor<?x?xf8E4M3FN>) -> ()
  call @printBytes(%q2d) : (tensor<?x?xf8E4M3FN>) -> ()
  return
}
