// The linear layer's program under delayed scaling with a Hadamard
// rotation emits end to end. Unfused (fuse-producers=false), the amax
// histories read the rotations themselves, so the operands contracted
// along their first dim (X and dY along M for Wgrad, W along N for Dgrad)
// are rotated along dim 0 on the GPU rather than behind a transpose: the
// plan launches those three dim-0 rotations beside six dim-1 ones (dim,
// then shape, sorted). fp8-fuse-quantization then quantizes the rotated
// transposes with their own amax (fp8.quantize_delayed), which is the
// same: the dim-0 rotations go. Every rotation kernel assembles.
// RUN: rm -rf %t && fp8-opt %S/../../Integration/GPU/programs/linear_fwd_bwd.mlir \
// RUN:   '--fp8-pipeline=recipe="#fp8.recipe<delayed, hadamard = 128>" chip=sm_90a fuse-producers=false' \
// RUN:   --fp8-emit=dir=%t -o /dev/null
// RUN: %python -c "import json, sys; m = json.load(sys.stdin); ks = {k['name']: k for k in m['kernels']}; [print(ks[l['kernel']]['dim'], ks[l['kernel']]['params'][0]['shape']) for l in m['functions'][0]['launches'] if l['op'] == 'fp8.hadamard']" < %t/manifest.json | sort | FileCheck %s
// RUN: %if ptxas-sm90a %{ for f in %t/*hadamard*.ptx; do %ptxas -arch=sm_90a $f -o /dev/null || exit 1; done %}
// RUN: rm -rf %t.fused && fp8-opt %S/../../Integration/GPU/programs/linear_fwd_bwd.mlir \
// RUN:   '--fp8-pipeline=recipe="#fp8.recipe<delayed, hadamard = 128>" chip=sm_90a' \
// RUN:   --fp8-emit=dir=%t.fused -o /dev/null
// RUN: %python -c "import json, sys; m = json.load(sys.stdin); ks = {k['name']: k for k in m['kernels']}; [print(ks[l['kernel']]['dim'], ks[l['kernel']]['params'][0]['shape']) for l in m['functions'][0]['launches'] if l['op'] == 'fp8.hadamard']" < %t.fused/manifest.json | sort | FileCheck %s --check-prefix=FUSED
// RUN: %if ptxas-sm90a %{ for f in %t.fused/*hadamard*.ptx; do %ptxas -arch=sm_90a $f -o /dev/null || exit 1; done %}
// CHECK: 0 [512, 1024]
// CHECK-NEXT: 0 [512, 768]
// CHECK-NEXT: 0 [768, 1024]
// CHECK-NEXT: 1 [1024, 512]
// CHECK-NEXT: 1 [1024, 768]
// CHECK-NEXT: 1 [512, 1024]
// CHECK-NEXT: 1 [512, 768]
// CHECK-NEXT: 1 [768, 1024]
// CHECK-NEXT: 1 [768, 512]
// CHECK-NOT: {{.}}
// FUSED: 1 [1024, 512]
// FUSED-NEXT: 1 [1024, 768]
// FUSED-NEXT: 1 [512, 1024]
// FUSED-NEXT: 1 [512, 768]
// FUSED-NEXT: 1 [768, 1024]
// FUSED-NEXT: 1 [768, 512]
// FUSED-NOT: {{.}}
