// fp8-pipeline{monitor=true} runs fp8-monitor-quantization after legalization
// and before fusion, which leaves the monitored quantizations unfused: X and
// dY are quantized along their rows and their columns by four monitored ops
// instead of two cast-transposes. monitor=false is the default pipeline.
// RUN: fp8-opt %S/../../../../examples/linear_fwd_bwd.mlir --fp8-pipeline='recipe=blockwise chip=sm_90a monitor=true' > %t.pipeline
// RUN: fp8-opt %S/../../../../examples/linear_fwd_bwd.mlir --fp8-quantize-matmuls=recipe=blockwise --fp8-derive-scaling --fp8-legalize=chip=sm_90a --canonicalize --cse --fp8-monitor-quantization --fp8-fuse-quantization > %t.passes
// RUN: diff %t.pipeline %t.passes
// RUN: FileCheck %s < %t.pipeline
// RUN: fp8-opt %S/../../../../examples/linear_fwd_bwd.mlir --fp8-pipeline='recipe=blockwise chip=sm_90a monitor=false' > %t.off
// RUN: fp8-opt %S/../../../../examples/linear_fwd_bwd.mlir --fp8-pipeline='recipe=blockwise chip=sm_90a' > %t.default
// RUN: diff %t.off %t.default
// RUN: FileCheck %s --check-prefix=OFF < %t.off

// CHECK-LABEL: func.func @linear_fwd_bwd(
// CHECK-SAME:    tensor<256x4xf32> {fp8.monitor = "activation:arg0/tile_amax"}, tensor<2xi64> {fp8.monitor = "activation:arg0/counts"}
// CHECK-SAME:    tensor<8x4xf32> {fp8.monitor = "weight:arg1/tile_amax"}
// CHECK-SAME:    {fp8.monitor = "gradient:arg2/counts"}
// CHECK-SAME:    tensor<1024x2xf32> {fp8.monitor = "gradient:arg2.T/tile_amax"}
// CHECK-SAME:    tensor<512x2xf32> {fp8.monitor = "activation:arg0.T/tile_amax"}, tensor<2xi64> {fp8.monitor = "activation:arg0.T/counts"})
// CHECK-COUNT-5: fp8.quantize_monitored
// CHECK-NOT:     fp8.quantize_transpose
// CHECK-NOT:     fp8.quantize 

// OFF-NOT:   fp8.monitor
// OFF-COUNT-2: fp8.quantize_transpose
