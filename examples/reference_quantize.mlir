// Quantize four values tensorwise to e4m3 on the CPU reference and print the
// dequantized values and the stored scale: amax = 1000, so the scale is
// 1000/448 = 2.23214; 448 scales to 200.7, which rounds to the FP8 value 208
// and dequantizes to 464.29, while 1000 scales to exactly 448.
func.func private @printMemrefF32(tensor<*xf32>) attributes {llvm.emit_c_interface}

func.func @main() {
  %x = arith.constant dense<[[1.0, -2.5, 448.0, 1000.0]]> : tensor<1x4xf32>
  %q, %s = fp8.quantize %x {scaling = #fp8.scaling<tile = [*, *], scale = f32>}
      : tensor<1x4xf32> -> tensor<1x4xf8E4M3FN>, tensor<1x1xf32>
  %d = fp8.dequantize %q, %s {scaling = #fp8.scaling<tile = [*, *], scale = f32>}
      : tensor<1x4xf8E4M3FN>, tensor<1x1xf32> -> tensor<1x4xf32>
  %du = tensor.cast %d : tensor<1x4xf32> to tensor<*xf32>
  call @printMemrefF32(%du) : (tensor<*xf32>) -> ()
  %su = tensor.cast %s : tensor<1x1xf32> to tensor<*xf32>
  call @printMemrefF32(%su) : (tensor<*xf32>) -> ()
  return
}
