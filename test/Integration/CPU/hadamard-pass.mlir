// fp8-insert-hadamard on an outlier-heavy Fprop: activations with four
// outlier channels (x100) under the OCP MX recipe. Its floor rule puts a
// block's amax in [256, 512) times the scale, so the largest elements of a
// block saturate at 448; spreading the outliers over 256 channels before
// quantization avoids that. The product's error against the f32 product
// drops, while the rotation alone leaves the f32 product unchanged to f32
// rounding. (With other scale rules FP8's error hardly depends on the
// scale: see docs/Passes.md.)
// RUN: fp8-opt %s --fp8-quantize-matmuls=recipe=mxfp8_ocp --fp8-reference-pipeline | %mlir-run > %t.plain
// RUN: fp8-opt %s --fp8-quantize-matmuls=recipe=mxfp8_ocp --fp8-insert-hadamard=size=256 --fp8-reference-pipeline | %mlir-run > %t.rotated
// RUN: fp8-opt %s --fp8-quantize-matmuls=recipe=mxfp8_ocp '--fp8-insert-hadamard=size=256 seed=2' --fp8-reference-pipeline | %mlir-run > %t.signed
// RUN: %python %S/compare_errors.py %t.plain %t.rotated %t.signed | FileCheck %s
// CHECK: f32 product, rotated vs plain: max relative difference below 1e-05
// CHECK: quantized, plain: relative error 0.05184
// CHECK: quantized, rotated: relative error 0.03572, smaller by a factor above 1.25
// CHECK: quantized, rotated with signs: relative error 0.03811, smaller by a factor above 1.25

func.func private @printMemrefF32(tensor<*xf32>) attributes {llvm.emit_c_interface}

#nk = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
       affine_map<(m, n, k) -> (m, n)>]
#id = affine_map<(i, j) -> (i, j)>
#all = affine_map<(i, j) -> ()>

// The layer: quantized by the passes under test.
func.func @fprop(%x: tensor<16x256xf32> {fp8.role = "activation"},
                 %w: tensor<32x256xf32> {fp8.role = "weight"}) -> tensor<16x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x32xf32>
  %i = linalg.fill ins(%zero : f32) outs(%e : tensor<16x32xf32>) -> tensor<16x32xf32>
  %y = linalg.matmul indexing_maps = #nk ins(%x, %w : tensor<16x256xf32>, tensor<32x256xf32>)
         outs(%i : tensor<16x32xf32>) -> tensor<16x32xf32>
  return %y : tensor<16x32xf32>
}

// Deterministic data: ((a*i + b*k) mod p) / p - 1/2, times 100 on every
// 64th channel (k = 3, 67, 131, 195) when `outliers` is set.
func.func @pattern(%a: index, %b: index, %p: index, %outliers: i1, %init: tensor<?x256xf32>) -> tensor<?x256xf32> {
  %r = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]}
      outs(%init : tensor<?x256xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %k = linalg.index 1 : index
    %ai = arith.muli %a, %i : index
    %bk = arith.muli %b, %k : index
    %s = arith.addi %ai, %bk : index
    %m = arith.remui %s, %p : index
    %mi = arith.index_cast %m : index to i32
    %mf = arith.sitofp %mi : i32 to f32
    %pi = arith.index_cast %p : index to i32
    %pf = arith.sitofp %pi : i32 to f32
    %u = arith.divf %mf, %pf : f32
    %half = arith.constant 0.5 : f32
    %v = arith.subf %u, %half : f32
    %c64 = arith.constant 64 : index
    %c3 = arith.constant 3 : index
    %km = arith.remui %k, %c64 : index
    %isOut = arith.cmpi eq, %km, %c3 : index
    %big = arith.andi %isOut, %outliers : i1
    %hundred = arith.constant 100.0 : f32
    %one = arith.constant 1.0 : f32
    %f = arith.select %big, %hundred, %one : f32
    %r = arith.mulf %v, %f : f32
    linalg.yield %r : f32
  } -> tensor<?x256xf32>
  return %r : tensor<?x256xf32>
}

// sqrt(sum (y - r)^2 / sum r^2) and max |y - r| / max |r|.
func.func @errors(%y: tensor<16x32xf32>, %r: tensor<16x32xf32>) -> tensor<2xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %sums:4 = linalg.generic {indexing_maps = [#id, #id, #all, #all, #all, #all], iterator_types = ["reduction", "reduction"]}
      ins(%y, %r : tensor<16x32xf32>, tensor<16x32xf32>) outs(%acc, %acc, %acc, %acc : tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) {
  ^bb0(%a: f32, %b: f32, %se: f32, %sr: f32, %me: f32, %mr: f32):
    %d = arith.subf %a, %b : f32
    %d2 = arith.mulf %d, %d : f32
    %b2 = arith.mulf %b, %b : f32
    %se2 = arith.addf %se, %d2 : f32
    %sr2 = arith.addf %sr, %b2 : f32
    %ad = math.absf %d : f32
    %ab = math.absf %b : f32
    %me2 = arith.maximumf %me, %ad : f32
    %mr2 = arith.maximumf %mr, %ab : f32
    linalg.yield %se2, %sr2, %me2, %mr2 : f32, f32, f32, f32
  } -> (tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>)
  %se = tensor.extract %sums#0[] : tensor<f32>
  %sr = tensor.extract %sums#1[] : tensor<f32>
  %me = tensor.extract %sums#2[] : tensor<f32>
  %mr = tensor.extract %sums#3[] : tensor<f32>
  %q = arith.divf %se, %sr : f32
  %rel = math.sqrt %q : f32
  %maxrel = arith.divf %me, %mr : f32
  %out = tensor.from_elements %rel, %maxrel : tensor<2xf32>
  return %out : tensor<2xf32>
}

func.func @main() {
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %true = arith.constant true
  %false = arith.constant false
  %c131 = arith.constant 131 : index
  %c71 = arith.constant 71 : index
  %c97 = arith.constant 97 : index
  %c37 = arith.constant 37 : index
  %c11 = arith.constant 11 : index
  %c89 = arith.constant 89 : index
  %xe = tensor.empty(%c16) : tensor<?x256xf32>
  %we = tensor.empty(%c32) : tensor<?x256xf32>
  %xd = call @pattern(%c131, %c71, %c97, %true, %xe) : (index, index, index, i1, tensor<?x256xf32>) -> tensor<?x256xf32>
  %wd = call @pattern(%c37, %c11, %c89, %false, %we) : (index, index, index, i1, tensor<?x256xf32>) -> tensor<?x256xf32>
  %x = tensor.cast %xd : tensor<?x256xf32> to tensor<16x256xf32>
  %w = tensor.cast %wd : tensor<?x256xf32> to tensor<32x256xf32>

  // The f32 product, and the f32 product of the rotated operands (no roles:
  // the passes leave these matmuls alone).
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x32xf32>
  %i = linalg.fill ins(%zero : f32) outs(%e : tensor<16x32xf32>) -> tensor<16x32xf32>
  %ref = linalg.matmul indexing_maps = #nk ins(%x, %w : tensor<16x256xf32>, tensor<32x256xf32>)
           outs(%i : tensor<16x32xf32>) -> tensor<16x32xf32>
  %xr = fp8.hadamard %x {dim = 1 : i64, size = 256 : i64} : tensor<16x256xf32>
  %wr = fp8.hadamard %w {dim = 1 : i64, size = 256 : i64} : tensor<32x256xf32>
  %rot = linalg.matmul indexing_maps = #nk ins(%xr, %wr : tensor<16x256xf32>, tensor<32x256xf32>)
           outs(%i : tensor<16x32xf32>) -> tensor<16x32xf32>
  %hp = call @errors(%rot, %ref) : (tensor<16x32xf32>, tensor<16x32xf32>) -> tensor<2xf32>
  %hpu = tensor.cast %hp : tensor<2xf32> to tensor<*xf32>
  call @printMemrefF32(%hpu) : (tensor<*xf32>) -> ()

  // The layer as the passes compiled it.
  %y = call @fprop(%x, %w) : (tensor<16x256xf32>, tensor<32x256xf32>) -> tensor<16x32xf32>
  %q = call @errors(%y, %ref) : (tensor<16x32xf32>, tensor<16x32xf32>) -> tensor<2xf32>
  %qu = tensor.cast %q : tensor<2xf32> to tensor<*xf32>
  call @printMemrefF32(%qu) : (tensor<*xf32>) -> ()
  return
}
