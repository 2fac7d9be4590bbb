// The tcgen05 instruction chain of the sm_100a MXFP8 GEMM
// (docs/gpu/sm100a.md), written in the NVVM dialect and lowered by
// MLIR 22 / LLVM 22 to PTX that ptxas 13 assembles for sm_100a: one warp
// allocates tensor memory, tcgen05.cp copies a 512-byte scale chunk
// (32x128b, multicast to the four lane quarters), four block32 MMAs of
// K = 32 step the descriptors' start address by 32 bytes (2 in the encoded
// field) and the instruction descriptor's scale ids by one, tcgen05.commit
// signals an mbarrier, tcgen05.ld reads 32 accumulator columns. The
// descriptor constants are those of unittests/Gemm/Tcgen05DescriptorsTest:
// 0x08A00000 (kind::mxf8f6f4, e4m3 x e4m3, M = N = 128, E8M0) | scale ids
// (k << 29 | k << 4), and the 128B-swizzle K-major smem descriptor's high
// word 0x40004040. Written before the GEMM builder (Gemm/Sm100/Tcgen05*.cpp,
// whose own PTX gemm-sm100a-ptx.mlir checks), it pins the toolchain facts
// the builder relies on. It is an instruction sequence, not a correct
// program (the load does not wait for the commit's mbarrier). The same PTX is input for
// utils/check-sm100a-sass.py on a machine with cuobjdump (4 UTCQMMA, 1 UTCCP,
// 1 UTCBAR, 1 LDTM, no ELECT loop).
// RUN: mlir-translate --mlir-to-llvmir %s | llc -mtriple=nvptx64-nvidia-cuda -mcpu=sm_100a -mattr=+ptx88 -o %t.ptx
// RUN: FileCheck %s < %t.ptx
// RUN: %if ptxas-sm100a %{ %ptxas -arch=sm_100a -v %t.ptx -o /dev/null 2>&1 | FileCheck %s --check-prefix=PTXAS %}

// CHECK: .version 8.8
// CHECK: .target sm_100a
// CHECK: tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32
// CHECK: tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;
// CHECK: elect.sync
// CHECK: tcgen05.cp.cta_group::1.32x128b.warpx4
// CHECK-COUNT-4: tcgen05.mma.cta_group::1.kind::mxf8f6f4.block_scale.block32
// CHECK-NOT: tcgen05.mma
// CHECK: tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64
// CHECK: tcgen05.ld.sync.aligned.32x32b.x32.b32
// CHECK: tcgen05.wait::ld.sync.aligned;
// CHECK: tcgen05.dealloc.cta_group::1.sync.aligned.b32

// PTXAS: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads

module {
  llvm.func @tcgen05_chain(%slot: !llvm.ptr<3>, %a: i32, %b: i32,
                           %sf: i64, %bar: !llvm.ptr<3>,
                           %out: !llvm.ptr<1>) attributes {nvvm.kernel} {
    %cols = llvm.mlir.constant(256 : i32) : i32
    %scaleCol = llvm.mlir.constant(128 : i32) : i32
    %high = llvm.mlir.constant(0x40004040 : i64) : i64
    %c32 = llvm.mlir.constant(32 : i64) : i64
    %c4 = llvm.mlir.constant(4 : i32) : i32
    %c0 = llvm.mlir.constant(0 : i32) : i32
    %step = llvm.mlir.constant(2 : i64) : i64
    %idesc0 = llvm.mlir.constant(0x08A00000 : i32) : i32
    %idStep = llvm.mlir.constant(0x20000010 : i32) : i32
    %true = llvm.mlir.constant(true) : i1
    %false = llvm.mlir.constant(false) : i1
    %mask = llvm.mlir.constant(0x3FFF0 : i32) : i32
    nvvm.tcgen05.alloc %slot, %cols : !llvm.ptr<3>, i32
    nvvm.tcgen05.relinquish_alloc_permit
    nvvm.tcgen05.fence #nvvm.tcgen05_fence<before>
    nvvm.barrier0
    nvvm.tcgen05.fence #nvvm.tcgen05_fence<after>
    %base = llvm.load %slot : !llvm.ptr<3> -> i32
    %d = llvm.inttoptr %base : i32 to !llvm.ptr<6>
    %sfAddr = llvm.add %base, %scaleCol : i32
    %sfa = llvm.inttoptr %sfAddr : i32 to !llvm.ptr<6>
    // One elected thread issues the copy, the MMAs and the commit.
    %elected = nvvm.elect.sync -> i1
    llvm.cond_br %elected, ^issue, ^read
  ^issue:
    nvvm.tcgen05.cp %sfa, %sf {shape = #nvvm.tcgen05_cp_shape<shape_32x128b>, multicast = #nvvm.tcgen05_cp_multicast<warpx4>}
    // Descriptors: high word constant, low word (address & 0x3FFFF) >> 4.
    %hi = llvm.shl %high, %c32 : i64
    %aMasked = llvm.and %a, %mask : i32
    %bMasked = llvm.and %b, %mask : i32
    %aLow = llvm.lshr %aMasked, %c4 : i32
    %bLow = llvm.lshr %bMasked, %c4 : i32
    %aLow64 = llvm.zext %aLow : i32 to i64
    %bLow64 = llvm.zext %bLow : i32 to i64
    %aDesc0 = llvm.or %hi, %aLow64 : i64
    %bDesc0 = llvm.or %hi, %bLow64 : i64
    nvvm.tcgen05.mma.block_scale %d, %aDesc0, %bDesc0, %idesc0, %false, %sfa, %sfa {kind = #nvvm.block_scale_kind<mxf8f6f4>, ctaGroup = #nvvm.cta_group<cta_1>, blockScale = #nvvm.tcgen05_mma_block_scale<block32>} : (!llvm.ptr<6>, i64, i64, i32, i1, !llvm.ptr<6>, !llvm.ptr<6>)
    %aDesc1 = llvm.add %aDesc0, %step : i64
    %bDesc1 = llvm.add %bDesc0, %step : i64
    %idesc1 = llvm.add %idesc0, %idStep : i32
    nvvm.tcgen05.mma.block_scale %d, %aDesc1, %bDesc1, %idesc1, %true, %sfa, %sfa {kind = #nvvm.block_scale_kind<mxf8f6f4>, ctaGroup = #nvvm.cta_group<cta_1>, blockScale = #nvvm.tcgen05_mma_block_scale<block32>} : (!llvm.ptr<6>, i64, i64, i32, i1, !llvm.ptr<6>, !llvm.ptr<6>)
    %aDesc2 = llvm.add %aDesc1, %step : i64
    %bDesc2 = llvm.add %bDesc1, %step : i64
    %idesc2 = llvm.add %idesc1, %idStep : i32
    nvvm.tcgen05.mma.block_scale %d, %aDesc2, %bDesc2, %idesc2, %true, %sfa, %sfa {kind = #nvvm.block_scale_kind<mxf8f6f4>, ctaGroup = #nvvm.cta_group<cta_1>, blockScale = #nvvm.tcgen05_mma_block_scale<block32>} : (!llvm.ptr<6>, i64, i64, i32, i1, !llvm.ptr<6>, !llvm.ptr<6>)
    %aDesc3 = llvm.add %aDesc2, %step : i64
    %bDesc3 = llvm.add %bDesc2, %step : i64
    %idesc3 = llvm.add %idesc2, %idStep : i32
    nvvm.tcgen05.mma.block_scale %d, %aDesc3, %bDesc3, %idesc3, %true, %sfa, %sfa {kind = #nvvm.block_scale_kind<mxf8f6f4>, ctaGroup = #nvvm.cta_group<cta_1>, blockScale = #nvvm.tcgen05_mma_block_scale<block32>} : (!llvm.ptr<6>, i64, i64, i32, i1, !llvm.ptr<6>, !llvm.ptr<6>)
    nvvm.tcgen05.commit %bar : !llvm.ptr<3>
    llvm.br ^read
  ^read:
    %v = nvvm.tcgen05.ld %d {shape = #nvvm.tcgen05_ldst_shape<shape_32x32b>} : vector<32xi32>
    nvvm.tcgen05.wait #nvvm.tcgen05_wait<load>
    llvm.store %v, %out : vector<32xi32>, !llvm.ptr<1>
    nvvm.tcgen05.fence #nvvm.tcgen05_fence<before>
    nvvm.barrier0
    nvvm.tcgen05.dealloc %d, %cols : !llvm.ptr<6>, i32
    llvm.return
  }
}
