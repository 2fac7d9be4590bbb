// Every chip option is parsed by fp8::Target: a chip without an FP8 kernel
// path is an error that says why, never a crash in the backend (these
// inputs aborted in NVPTX instruction selection, in the PTX version check,
// or crashed in NVVMTargetAttr's verifier).
// RUN: not fp8-opt %s --fp8-to-ptx=chip=sm_89 2>&1 | FileCheck %s --check-prefix=ADA
// RUN: not fp8-opt %s "--fp8-emit=dir=%t chip=sm_89" 2>&1 | FileCheck %s --check-prefix=ADA
// ADA: error: {{convert-fp8-to-nvvm|fp8-emit}}: chip 'sm_89' is not supported (Ada (sm_89) has FP8 mma.sync and cvt but no TMA, mbarrier transactions, wgmma or tcgen05, which every kernel here is built on): expected one of sm_90a, sm_100a
// RUN: not fp8-opt %s --fp8-to-ptx=chip=sm_80 2>&1 | FileCheck %s --check-prefix=AMPERE
// AMPERE: error: convert-fp8-to-nvvm: chip 'sm_80' is not supported (Ampere
// RUN: not fp8-opt %s --fp8-to-ptx=chip=sm_75 2>&1 | FileCheck %s --check-prefix=TURING
// TURING: error: convert-fp8-to-nvvm: chip 'sm_75' is not supported (this GPU has no FP8
// RUN: not fp8-opt %s --fp8-to-ptx=chip=sm_ 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: error: convert-fp8-to-nvvm: unknown chip 'sm_': expected one of sm_90a, sm_100a
// RUN: not fp8-opt %s '--fp8-to-ptx=chip=sm_90a,sm_100a' 2>&1 | FileCheck %s --check-prefix=LIST
// LIST: error: convert-fp8-to-nvvm: unknown chip 'sm_90a,sm_100a'
// RUN: not fp8-opt %s --fp8-to-ptx=chip=sm_120a 2>&1 | FileCheck %s --check-prefix=CONSUMER
// CONSUMER: error: convert-fp8-to-nvvm: chip 'sm_120a' is not supported (consumer Blackwell has no tcgen05
// An empty chip is no chip: fp8-legalize needs one, while kernel generation
// then builds for the module's fp8.target, else sm_90a (emit-target.mlir).
// RUN: not fp8-opt %s --fp8-legalize=chip= 2>&1 | FileCheck %s --check-prefix=EMPTY
// RUN: fp8-opt %s --convert-fp8-to-nvvm=chip= | FileCheck %s --check-prefix=EMPTYNVVM
// EMPTY: error: fp8-legalize: no chip given: expected one of sm_90a, sm_100a
// EMPTYNVVM: #nvvm.target<{{.*}}chip = "sm_90a"
// RUN: not fp8-opt %s --convert-fp8-to-nvvm=chip=sm_90 2>&1 | FileCheck %s --check-prefix=NOA
// NOA: error: convert-fp8-to-nvvm: chip 'sm_90' is not supported (wgmma and setmaxnreg are arch-specific features of sm_90a; use chip=sm_90a)
// RUN: not fp8-opt %s --convert-fp8-to-nvvm=chip=sm_100 2>&1 | FileCheck %s --check-prefix=NOA100
// NOA100: error: convert-fp8-to-nvvm: chip 'sm_100' is not supported (tcgen05 is an arch-specific feature of sm_100a; use chip=sm_100a)
// The module is not dumped with the error.
// RUN: not fp8-opt %s --fp8-to-ptx=chip=sm_89 2>&1 | FileCheck %s --check-prefix=NODUMP
// NODUMP-NOT: see current operation
// Both targets are accepted.
// RUN: fp8-opt %s --fp8-to-ptx=chip=sm_90a -o /dev/null
// RUN: fp8-opt %s --fp8-to-ptx=chip=sm_100a -o /dev/null
func.func @quantize(%x: tensor<64x256xbf16>) -> (tensor<64x256xf8E4M3FN>, tensor<64x2xf32>) {
  %q, %s = fp8.quantize %x {scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<64x256xbf16> -> tensor<64x256xf8E4M3FN>, tensor<64x2xf32>
  return %q, %s : tensor<64x256xf8E4M3FN>, tensor<64x2xf32>
}
