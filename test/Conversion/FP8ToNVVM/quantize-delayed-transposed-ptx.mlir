// The linear layer under #fp8.recipe<delayed, hadamard = 128> on sm_90a:
// fp8-fuse-quantization makes all six quantizations fp8.quantize_delayed,
// the three of rotated transposes (Wgrad's X and dY, Dgrad's W: fp8-legalize
// quantizes them as the rotation of the transpose along dim 1) too. The
// plan has no amax, history reduction, choice or given-amax quantization
// left, nor the dim-0 rotations that only the amax read: 36 launches
// instead of 52 (docs/Passes.md). Each quantize_delayed kernel assembles
// without spills, the transposed ones as the others (e5m2 for dY^T).
// RUN: rm -rf %t && fp8-opt %S/../../Integration/GPU/programs/linear_fwd_bwd.mlir \
// RUN:   '--fp8-pipeline=recipe="#fp8.recipe<delayed, hadamard = 128>" chip=sm_90a' \
// RUN:   --fp8-emit=dir=%t -o /dev/null
// RUN: %python -c "import json, sys, collections; m = json.load(sys.stdin); f = m['functions'][0]; print(len(f['launches'])); [print(op, n) for op, n in sorted(collections.Counter(l['op'] for l in f['launches']).items())]" < %t/manifest.json | FileCheck %s
// RUN: %python -c "import json, sys; m = json.load(sys.stdin); ks = {k['name']: k for k in m['kernels']}; [print(l['kernel'], *[p['shape'] + [p['dtype']] for p in ks[l['kernel']]['params'] if p['name'] in ('input', 'q')]) for l in m['functions'][0]['launches'] if l['op'] == 'fp8.quantize_delayed']" < %t/manifest.json | FileCheck %s --check-prefix=KERNELS
// RUN: FileCheck %s --check-prefix=PTX < %t/linear_fwd_bwd_quantize_delayed_29.ptx
// RUN: %if ptxas-sm90a %{ for f in %t/*quantize_delayed*.ptx; do %ptxas -arch=sm_90a -v $f -o /dev/null 2>&1 | FileCheck %s --check-prefix=PTXAS || exit 1; done %}
// CHECK: 36
// CHECK-NEXT: fp8.hadamard 6
// CHECK-NEXT: fp8.quantize_delayed 6
// CHECK-NEXT: fp8.scaled_matmul 3
// CHECK-NEXT: linalg.transpose 3
// CHECK-NEXT: tensor.extract_slice 6
// CHECK-NEXT: tensor.insert_slice 12
// CHECK-NOT: {{.}}
// Fprop's X and W, Dgrad's dY, then Dgrad's W^T, Wgrad's dY^T and X^T.
// KERNELS: quantize_delayed_{{[0-9]+}} [512, 1024, 'bf16'] [512, 1024, 'f8e4m3']
// KERNELS-NEXT: quantize_delayed_{{[0-9]+}} [768, 1024, 'bf16'] [768, 1024, 'f8e4m3']
// KERNELS-NEXT: quantize_delayed_{{[0-9]+}} [512, 768, 'bf16'] [512, 768, 'f8e5m2']
// KERNELS-NEXT: quantize_delayed_{{[0-9]+}} [1024, 768, 'bf16'] [1024, 768, 'f8e4m3']
// KERNELS-NEXT: quantize_delayed_29 [768, 512, 'bf16'] [768, 512, 'f8e5m2']
// KERNELS-NEXT: quantize_delayed_{{[0-9]+}} [1024, 512, 'bf16'] [1024, 512, 'f8e4m3']
// KERNELS-NOT: {{.}}
// dY^T: the history's max, then usable: one pass to e5m2 with the data's
// amax by ticket; else the grid-wide amax and a second pass.
// PTX: .minnctapersm 2
// PTX: max.NaN.f32
// PTX: cvt.rn.satfinite.e5m2x2.f32
// PTX: atom.global.max.s32
// PTX: atom.global.or.b32
// PTX: cvt.rn.satfinite.e5m2x2.f32
// PTXAS: 0 bytes spill stores, 0 bytes spill loads
