// fp8-pad-contraction changes no bit: the linear layer of
// split-forward-backward.mlir at 100 tokens (Wgrad contracts 100, not a
// multiple of 16, so fp8-pipeline pads dY and X to 112 rows with zeros)
// gives, on the CPU reference, the checksums of Y, dX and dW that the same
// passes give without the padding (the reference needs none), for every
// recipe, and split into forward and backward too.
// RUN: cat %S/../../../examples/linear_fwd_bwd.mlir %S/split-forward-backward.mlir | grep -v '^// ' | sed 's/256x/100x/g; s/constant 256 : index/constant 100 : index/' > %t.mlir
// RUN: fp8-opt %t.mlir --fp8-pipeline=recipe=blockwise | FileCheck %s --check-prefix=PADDED
// PADDED: tensor.pad %{{.*}} low[0, 0] high[12, 0]
// PADDED: tensor<100x1024xbf16> to tensor<112x1024xbf16>
// PADDED: tensor.pad %{{.*}} low[0, 0] high[12, 0]
// PADDED: tensor<100x512xbf16> to tensor<112x512xbf16>
// PADDED: fp8.scaled_matmul {{.*}} -> tensor<1024x512xf32>
// RUN: fp8-opt %t.mlir --fp8-quantize-matmuls=recipe=tensorwise --fp8-derive-scaling --fp8-legalize --canonicalize --cse --fp8-fuse-quantization --fp8-reference-pipeline | %mlir-run | grep -v '^Unranked' > %t.tensorwise
// RUN: fp8-opt %t.mlir --fp8-pipeline=recipe=tensorwise --fp8-reference-pipeline | %mlir-run | grep -v '^Unranked' > %t.tensorwise.padded
// RUN: diff %t.tensorwise %t.tensorwise.padded
// RUN: fp8-opt %t.mlir --fp8-quantize-matmuls=recipe=blockwise --fp8-derive-scaling --fp8-legalize --canonicalize --cse --fp8-fuse-quantization --fp8-reference-pipeline | %mlir-run | grep -v '^Unranked' > %t.blockwise
// RUN: fp8-opt %t.mlir --fp8-pipeline=recipe=blockwise --fp8-reference-pipeline | %mlir-run | grep -v '^Unranked' > %t.blockwise.padded
// RUN: diff %t.blockwise %t.blockwise.padded
// RUN: fp8-opt %t.mlir --fp8-pipeline=recipe=blockwise --fp8-split-forward-backward --fp8-reference-pipeline 2>/dev/null | %mlir-run | grep -v '^Unranked' > %t.blockwise.split
// RUN: diff %t.blockwise %t.blockwise.split
// RUN: fp8-opt %t.mlir --fp8-quantize-matmuls=recipe=rowwise --fp8-derive-scaling --fp8-legalize --canonicalize --cse --fp8-fuse-quantization --fp8-reference-pipeline | %mlir-run | grep -v '^Unranked' > %t.rowwise
// RUN: fp8-opt %t.mlir --fp8-pipeline=recipe=rowwise --fp8-reference-pipeline | %mlir-run | grep -v '^Unranked' > %t.rowwise.padded
// RUN: diff %t.rowwise %t.rowwise.padded
// RUN: fp8-opt %t.mlir --fp8-quantize-matmuls=recipe=rowwise_gw_hp --fp8-derive-scaling --fp8-legalize --canonicalize --cse --fp8-fuse-quantization --fp8-reference-pipeline | %mlir-run | grep -v '^Unranked' > %t.rowwise_gw_hp
// RUN: fp8-opt %t.mlir --fp8-pipeline=recipe=rowwise_gw_hp --fp8-split-forward-backward --fp8-reference-pipeline 2>/dev/null | %mlir-run | grep -v '^Unranked' > %t.rowwise_gw_hp.split
// RUN: diff %t.rowwise_gw_hp %t.rowwise_gw_hp.split
// RUN: fp8-opt %t.mlir --fp8-quantize-matmuls=recipe=mxfp8 --fp8-derive-scaling --fp8-legalize --canonicalize --cse --fp8-fuse-quantization --fp8-reference-pipeline | %mlir-run | grep -v '^Unranked' > %t.mxfp8
// RUN: fp8-opt %t.mlir --fp8-pipeline=recipe=mxfp8 --fp8-reference-pipeline | %mlir-run | grep -v '^Unranked' > %t.mxfp8.padded
// RUN: diff %t.mxfp8 %t.mxfp8.padded
// The runs see the recipe and print three nonzero checksums.
// RUN: not diff %t.blockwise %t.tensorwise > /dev/null
// RUN: FileCheck %s --check-prefix=SUMS < %t.blockwise.padded
// SUMS-COUNT-3: {{^}}[{{-?[1-9][0-9]*}}]{{$}}
