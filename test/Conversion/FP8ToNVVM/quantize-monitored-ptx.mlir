// fp8.quantize_monitored in every quantize kernel shape: the tile amax is
// stored beside the scale, the counts are reduced per thread, per warp
// (shuffles), per CTA (shared memory) and added with 64-bit atomics into the
// monitor workspace, whose last CTA (a ticket) writes `counts` and re-zeroes
// it. The manifest says "monitor": true and lists the two outputs and the
// workspace; the plain quantize of the same input gets none of it.
// RUN: rm -rf %t && fp8-opt %s --fp8-emit=dir=%t -o /dev/null
// RUN: FileCheck %s --check-prefix=ROWS < %t/rows_quantize_monitored_0.ptx
// RUN: FileCheck %s --check-prefix=PLAIN < %t/rows_quantize_1.ptx
// RUN: FileCheck %s --check-prefix=ATOMICS < %t/blocks_quantize_monitored_2.ptx
// RUN: FileCheck %s --check-prefix=ATOMICS < %t/columns_quantize_monitored_3.ptx
// RUN: FileCheck %s --check-prefix=ATOMICS < %t/generic_quantize_monitored_4.ptx
// RUN: FileCheck %s --check-prefix=ATOMICS < %t/tensorwise_quantize_monitored_5.ptx
// RUN: FileCheck %s --check-prefix=SHARED < %t/tensorwise_quantize_monitored_5.ptx
// RUN: FileCheck %s --check-prefix=MANIFEST < %t/manifest.json
// RUN: %if ptxas-sm90a %{ %ptxas -arch=sm_90a %t/rows_quantize_monitored_0.ptx -o /dev/null %}
// RUN: %if ptxas-sm90a %{ %ptxas -arch=sm_90a %t/blocks_quantize_monitored_2.ptx -o /dev/null %}
// RUN: %if ptxas-sm90a %{ %ptxas -arch=sm_90a %t/columns_quantize_monitored_3.ptx -o /dev/null %}
// RUN: %if ptxas-sm90a %{ %ptxas -arch=sm_90a %t/generic_quantize_monitored_4.ptx -o /dev/null %}
// RUN: %if ptxas-sm90a %{ %ptxas -arch=sm_90a %t/tensorwise_quantize_monitored_5.ptx -o /dev/null %}

// Row tiles (1x128): the monitored kernel adds the count reduction and the
// tile_amax store to the plain one; counters stay in registers.
// ROWS-LABEL: .entry rows_quantize_monitored_0(
// ROWS-NOT:   .local
// ROWS:       cvt.rn.satfinite.e4m3x2.f32
// ROWS:       shfl.sync.bfly.b32
// ROWS:       bar.sync
// ROWS:       atom.global.add.u64 {{.*}}[[WS:%rd[0-9]+]]]
// ROWS:       atom.global.add.u64 {{.*}}[[WS]]+8]
// ROWS:       membar.gl
// ROWS:       atom.global.add.u64 {{.*}}[[WS]]+16], 1
// ROWS:       membar.gl
// ROWS:       atom.global.exch.b64 {{.*}}[[WS]]], 0
// ROWS:       atom.global.exch.b64 {{.*}}[[WS]]+8], 0
// ROWS:       atom.global.exch.b64 {{.*}}[[WS]]+16], 0
// PLAIN-LABEL: .entry rows_quantize_1(
// PLAIN-NOT:   atom.
// PLAIN-NOT:   bar.sync
// PLAIN:       ret;
func.func @rows(%x: tensor<256x512xbf16>)
    -> (tensor<256x4xf32> {fp8.monitor = "activation:arg0/tile_amax"},
        tensor<2xi64> {fp8.monitor = "activation:arg0/counts"}, tensor<256x512xf8E4M3FN>) {
  %q, %s, %a, %n = fp8.quantize_monitored %x {scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<256x512xbf16> -> tensor<256x512xf8E4M3FN>, tensor<256x4xf32>, tensor<256x4xf32>, tensor<2xi64>
  %pq, %ps = fp8.quantize %x {scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<256x512xbf16> -> tensor<256x512xf8E4M3FN>, tensor<256x4xf32>
  return %a, %n, %pq : tensor<256x4xf32>, tensor<2xi64>, tensor<256x512xf8E4M3FN>
}

// The tensorwise kernel has two shared arrays (the amax partials, then the
// counts), read back with 16-byte vector loads: both must be 16-byte
// aligned, or the second starts 36 bytes in (a misaligned-address fault
// seen on the H100).
// SHARED-COUNT-2: .shared .align 16 .b8
// SHARED: ld.shared.v4.b32

// ATOMICS: atom.global.add.u64
// ATOMICS: atom.global.add.u64 {{.*}}+16], 1
// ATOMICS: atom.global.exch.b64 {{.*}}+16], 0
func.func @blocks(%w: tensor<256x512xbf16>) -> (tensor<2x4xf32>, tensor<2xi64>) {
  %q, %s, %a, %n = fp8.quantize_monitored %w {scaling = #fp8.scaling<tile = [128, 128], scale = f32>}
      : tensor<256x512xbf16> -> tensor<256x512xf8E4M3FN>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2xi64>
  return %a, %n : tensor<2x4xf32>, tensor<2xi64>
}

func.func @columns(%g: tensor<256x64xf32>) -> (tensor<2x64xf32>, tensor<2xi64>) {
  %q, %s, %a, %n = fp8.quantize_monitored %g {scaling = #fp8.scaling<tile = [128, 1], scale = f32>}
      : tensor<256x64xf32> -> tensor<256x64xf8E5M2>, tensor<2x64xf32>, tensor<2x64xf32>, tensor<2xi64>
  return %a, %n : tensor<2x64xf32>, tensor<2xi64>
}

// Partial edge tiles, stochastic rounding: the generic kernel.
func.func @generic(%x: tensor<50x300xbf16>, %seed: i64) -> (tensor<50x3xf32>, tensor<2xi64>) {
  %q, %s, %a, %n = fp8.quantize_monitored %x seed(%seed) {rounding = #fp8.rounding<stochastic>, scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<50x300xbf16> -> tensor<50x300xf8E4M3FN>, tensor<50x3xf32>, tensor<50x3xf32>, tensor<2xi64>
  return %a, %n : tensor<50x3xf32>, tensor<2xi64>
}

// Tensorwise with a given amax: the grid-wide reduction still runs, for the
// data's amax; its scratch and the monitor workspace are two parameters.
func.func @tensorwise(%x: tensor<1024x1024xbf16>, %amax: tensor<1x1xf32>) -> (tensor<1x1xf32>, tensor<2xi64>) {
  %q, %s, %a, %n = fp8.quantize_monitored %x amax(%amax : tensor<1x1xf32>) {scaling = #fp8.scaling<tile = [*, *], scale = f32>}
      : tensor<1024x1024xbf16> -> tensor<1024x1024xf8E4M3FN>, tensor<1x1xf32>, tensor<1x1xf32>, tensor<2xi64>
  return %a, %n : tensor<1x1xf32>, tensor<2xi64>
}

// The launch plans (first: keys are sorted): a result labelled fp8.monitor
// carries the label; the tensorwise launch's two workspaces lie side by side.
// MANIFEST:      "functions": [
// MANIFEST:        "kind": "result",
// MANIFEST-NEXT:   "monitor": "activation:arg0/tile_amax",
// MANIFEST-NEXT:   "name": "result0",
// MANIFEST:        "kind": "result",
// MANIFEST-NEXT:   "monitor": "activation:arg0/counts",
// MANIFEST-NEXT:   "name": "result1",
// MANIFEST:        "kind": "result",
// MANIFEST-NEXT:   "name": "result2",
// MANIFEST:      "name": "tensorwise_quantize_monitored_5.workspace",
// MANIFEST-NEXT: "offset": 0,
// MANIFEST:      "name": "tensorwise_quantize_monitored_5.monitor_workspace",
// MANIFEST-NEXT: "offset": 256,
// MANIFEST:      "name": "tensorwise",
// MANIFEST:      "zeroed_bytes": 512
// The kernels.
// MANIFEST:      "kernels": [
// MANIFEST:      "monitor": true,
// MANIFEST-NEXT: "name": "rows_quantize_monitored_0",
// MANIFEST-NEXT: "op": "fp8.quantize_monitored",
// MANIFEST-NEXT: "params": [
// MANIFEST:        "name": "input"
// MANIFEST:        "name": "q"
// MANIFEST:        "name": "scale"
// MANIFEST:        "dtype": "f32",
// MANIFEST-NEXT:   "name": "tile_amax",
// MANIFEST-NEXT:   "role": "output",
// MANIFEST-NEXT:   "shape": [
// MANIFEST-NEXT:     256,
// MANIFEST-NEXT:     4
// MANIFEST:        "dtype": "i64",
// MANIFEST-NEXT:   "name": "counts",
// MANIFEST-NEXT:   "role": "output",
// MANIFEST:        "dtype": "i64",
// MANIFEST-NEXT:   "name": "monitor_workspace",
// MANIFEST-NEXT:   "role": "workspace",
// MANIFEST-NEXT:   "shape": [
// MANIFEST-NEXT:     3
// MANIFEST:        "location": "{{.*}}",
// MANIFEST-NEXT:   "name": "rows_quantize_1",
// MANIFEST-NEXT:   "op": "fp8.quantize",
