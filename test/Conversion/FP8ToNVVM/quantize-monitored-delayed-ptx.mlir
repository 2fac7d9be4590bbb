// The monitored tensorwise kernel with a given amax (delayed scaling) reads
// its input once and never waits for other CTAs: the scale comes from the
// given amax, and the data's amax (monitoring) is gathered by ticket after
// the quantization, the last CTA writing it. A grid-wide barrier would hang
// where not every CTA can be resident (other work on the GPU, or registers
// limiting CTAs per SM).
// RUN: rm -rf %t && fp8-opt %s --fp8-emit=dir=%t -o /dev/null
// RUN: FileCheck %s < %t/delayed_quantize_monitored_0.ptx
// RUN: FileCheck %s --check-prefix=CURRENT < %t/current_quantize_monitored_1.ptx
// RUN: %if ptxas-sm90a %{ %ptxas -arch=sm_90a %t/delayed_quantize_monitored_0.ptx -o /dev/null %}

// One pass: a loop iteration loads four chunks of 16 f32 (four 16-byte
// loads each), a grid apart; here the grid covers the input in one chunk a
// thread, and the other three, clamped to the last chunk, are one load.
// CHECK-COUNT-8: ld.global.v4.b32
// CHECK-NOT:     ld.global.v4.b32
// No spin: no poll of the arrival counter (slot 1, an atomic or of 0).
// CHECK-NOT:     atom.global.or.b32 {{.*}}+4], 0;
// CHECK:         atom.global.max.s32
// CHECK:         atom.global.add.u32 {{.*}}, 1;
// CHECK:         atom.global.exch.b32
// CHECK:         atom.global.add.u64
func.func @delayed(%x: tensor<1024x1024xf32>, %a: tensor<1x1xf32>)
    -> (tensor<1024x1024xf8E4M3FN>, tensor<1x1xf32>, tensor<1x1xf32>, tensor<2xi64>) {
  %q, %s, %t, %n = fp8.quantize_monitored %x amax(%a : tensor<1x1xf32>)
      {scaling = #fp8.scaling<tile = [*, *], scale = f32>}
      : tensor<1024x1024xf32> -> tensor<1024x1024xf8E4M3FN>, tensor<1x1xf32>, tensor<1x1xf32>, tensor<2xi64>
  return %q, %s, %t, %n : tensor<1024x1024xf8E4M3FN>, tensor<1x1xf32>, tensor<1x1xf32>, tensor<2xi64>
}

// Current scaling needs the amax before quantizing: two passes and the
// barrier's poll.
// CURRENT-COUNT-4: ld.global.v4.b32
// CURRENT:         atom.global.or.b32 {{.*}}+4], 0;
// CURRENT-COUNT-4: ld.global.v4.b32
func.func @current(%x: tensor<1024x1024xf32>)
    -> (tensor<1024x1024xf8E4M3FN>, tensor<1x1xf32>, tensor<1x1xf32>, tensor<2xi64>) {
  %q, %s, %t, %n = fp8.quantize_monitored %x
      {scaling = #fp8.scaling<tile = [*, *], scale = f32>}
      : tensor<1024x1024xf32> -> tensor<1024x1024xf8E4M3FN>, tensor<1x1xf32>, tensor<1x1xf32>, tensor<2xi64>
  return %q, %s, %t, %n : tensor<1024x1024xf8E4M3FN>, tensor<1x1xf32>, tensor<1x1xf32>, tensor<2xi64>
}
