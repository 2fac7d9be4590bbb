// fp8.tcgen05_scales on the CPU reference, exact bytes: 130 x 5 E8M0 scales
// (code(i, k) = (5 i + k) mod 254 + 1, never 0) are padded to 256 x 8 and cut
// into 2 x 2 chunks of 512 bytes, row-block major; row 32 j + r, K-block c of
// a chunk at byte 16 r + 4 j + c; padding is code 0.
// RUN: fp8-opt %s --fp8-reference-pipeline | %mlir-run | FileCheck %s

// Chunk (rows 0-127, K-blocks 0-3): bytes 0-15 are row 0, row 32, row 64 and
// row 96, four K-blocks each; bytes 16-19 are row 1.
// CHECK: {{^\[\[}}1,   2,   3,   4,   161,   162,   163,   164,   67,   68,   69,   70,   227,   228,   229,   230,   6,   7,   8,   9,
// Chunk (rows 0-127, K-blocks 4-7): only K-block 4 exists.
// CHECK-NEXT: [5,   0,   0,   0,   165,   0,   0,   0,   71,   0,   0,   0,   231,   0,   0,   0,   10,   0,   0,   0,
// Chunk (rows 128-255, K-blocks 0-3): rows 128 and 129 (r = 0, 1 of j = 0).
// CHECK-NEXT: [133,   134,   135,   136,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   138,   139,   140,   141,   0,
// Chunk (rows 128-255, K-blocks 4-7).
// CHECK-NEXT: [137,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   142,   0,   0,   0,   0,

func.func private @printMemrefI32(tensor<*xi32>) attributes {llvm.emit_c_interface}

func.func @main() {
  %e = tensor.empty() : tensor<130x5xi8>
  %codes = linalg.generic {indexing_maps = [affine_map<(i, k) -> (i, k)>],
                           iterator_types = ["parallel", "parallel"]}
      outs(%e : tensor<130x5xi8>) {
  ^bb0(%o: i8):
    %i = linalg.index 0 : index
    %k = linalg.index 1 : index
    %c1 = arith.constant 1 : index
    %c5 = arith.constant 5 : index
    %c254 = arith.constant 254 : index
    %a = arith.muli %i, %c5 : index
    %s = arith.addi %a, %k : index
    %m = arith.remui %s, %c254 : index
    %v = arith.addi %m, %c1 : index
    %b = arith.index_cast %v : index to i8
    linalg.yield %b : i8
  } -> tensor<130x5xi8>
  %scale = arith.bitcast %codes : tensor<130x5xi8> to tensor<130x5xf8E8M0FNU>
  %sf = fp8.tcgen05_scales %scale : tensor<130x5xf8E8M0FNU> -> tensor<4x512xf8E8M0FNU>
  %bytes = arith.bitcast %sf : tensor<4x512xf8E8M0FNU> to tensor<4x512xi8>
  %wide = arith.extui %bytes : tensor<4x512xi8> to tensor<4x512xi32>
  %u = tensor.cast %wide : tensor<4x512xi32> to tensor<*xi32>
  call @printMemrefI32(%u) : (tensor<*xi32>) -> ()
  return
}
