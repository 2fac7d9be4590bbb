//===- Tcgen05Descriptors.h - sm_100a MMA descriptors by field --*- C++ -*-===//
//
// The three encodings a Blackwell (sm_100a) tcgen05 GEMM hands the tensor
// core, built from named fields in plain C++ so that unit tests can pin
// every bit against the PTX ISA (unittests/Gemm/Tcgen05DescriptorsTest.cpp):
//
// - the shared-memory matrix descriptor (PTX ISA 9.7.16.4.1), 64 bits, of an
//   operand tile in shared memory;
// - the instruction descriptor (9.7.16.4.2), 32 bits, of kind::f8f6f4 and of
//   the block-scaled kind::mxf8f6f4;
// - tensor-memory addresses (9.7.16.2.1): lane in bits 16-31, column in
//   bits 0-15.
//
// A kernel builder emits the constant parts as immediates and adds the
// run-time parts (a shared address, a scale-factor id) in IR.
//
//===----------------------------------------------------------------------===//

#ifndef FP8_LIB_CONVERSION_FP8TONVVM_GEMM_SM100_TCGEN05DESCRIPTORS_H
#define FP8_LIB_CONVERSION_FP8TONVVM_GEMM_SM100_TCGEN05DESCRIPTORS_H

#include <cstdint>

namespace mlir::fp8::kernels::gemm {

/// The shared-memory matrix descriptor of tcgen05.mma (the sm_100 form:
/// unlike wgmma's, it has a 3-bit swizzle field at bits 61-63, a fixed
/// "version" 0b001 at bits 46-48 and a leading-dimension mode bit 52).
struct Tcgen05SmemDescriptor {
  /// Bits 61-63. The values are the ISA's, not wgmma's (where 128B is 1).
  enum class Swizzle : uint64_t {
    none = 0,
    b128Base32 = 1,
    b128 = 2,
    b64 = 4,
    b32 = 6,
  };

  /// The matrix's shared-memory byte address; bits 0-13 hold
  /// (address & 0x3FFFF) >> 4 (16-byte units of the 256 KiB window).
  uint32_t startAddress = 0;
  /// Bits 16-29, >> 4: the leading-dimension byte offset. K-major swizzled
  /// tiles whose K extent is one swizzle row never step along it; 16 by
  /// convention (encoded 1).
  uint32_t leadingByteOffset = 16;
  /// Bits 32-45, >> 4: from one group of eight rows (one swizzle atom:
  /// 8 x 128 bytes for 128B swizzle) to the next.
  uint32_t strideByteOffset = 1024;
  /// Bits 49-51: the pattern's start within a swizzle atom; 0 where atoms
  /// are aligned to their own size (1024 bytes for 128B).
  uint32_t baseOffset = 0;
  /// Bit 52: false (0) for a byte offset relative to the start, true for
  /// an absolute address (only with 128B swizzle, K-major).
  bool leadingAbsolute = false;
  Swizzle swizzle = Swizzle::b128;

  /// Bits 46-48: the constant 0b001 every sm_100 descriptor carries
  /// (nvvm.tcgen05.mma_smem_desc sets it too).
  static constexpr uint64_t kVersion = 1;

  /// The three kinds of tile the sm_100a GEMM describes (start address 0;
  /// the kernel ORs in the address):
  /// - a K-major FP8 tile of rows x 128 bytes, 128B swizzle: one atom along
  ///   K, 8-row groups 1024 bytes apart;
  static Tcgen05SmemDescriptor kMajorTile();
  /// - an MN-major FP8 tile of K-rows x 128-element atoms, 128B swizzle:
  ///   8-K-row groups 1024 bytes apart (SBO), atoms along M or N
  ///   `atomBytes` apart (LBO: 128 K-rows x 128 bytes in the GEMM);
  static Tcgen05SmemDescriptor mnMajorTile(uint32_t atomBytes);
  /// - a 512-byte scale chunk for tcgen05.cp.32x128b: no swizzle, core
  ///   matrices of 8 rows x 16 bytes, 128 bytes apart.
  static Tcgen05SmemDescriptor scaleChunk();

  /// The 64-bit descriptor.
  uint64_t encode() const;
  /// Bits 32-63 alone, the part that does not depend on the address: the
  /// kernel ORs the address field (encodeAddress) into the low word.
  uint32_t encodeHigh() const { return static_cast<uint32_t>(encode() >> 32); }
  /// Bits 0-13 for `address`.
  static uint32_t encodeAddress(uint32_t address) {
    return (address & 0x3FFFF) >> 4;
  }
};

/// tcgen05.mma's element formats of A and B (kind::f8f6f4 and
/// kind::mxf8f6f4, bits 7-9 and 10-12).
enum class Tcgen05Format : uint32_t {
  e4m3 = 0,
  e5m2 = 1,
  e2m3 = 3,
  e3m2 = 4,
  e2m1 = 5,
};

/// The instruction descriptor of tcgen05.mma for the two FP8 kinds:
/// kind::f8f6f4 (Table 42: f32 accumulator type in bits 4-5) and the
/// block-scaled kind::mxf8f6f4 (Table 43: scale-factor ids in bits 4-5 and
/// 29-30, the scale type in bit 23, no accumulator type: always f32).
struct Tcgen05InstrDescriptor {
  enum class Kind { f8f6f4, mxf8f6f4 };

  Kind kind = Kind::mxf8f6f4;
  Tcgen05Format aFormat = Tcgen05Format::e4m3;
  Tcgen05Format bFormat = Tcgen05Format::e4m3;
  /// Bits 15 and 16: 0 = K-major, 1 = MN-major. MN-major is valid for the
  /// 8-bit formats (e4m3, e5m2) only, not for the 6- and 4-bit ones.
  bool aMnMajor = false;
  bool bMnMajor = false;
  /// Bits 13 and 14.
  bool negateA = false;
  bool negateB = false;
  /// M, bits 24-28 as M >> 4: 64 or 128 with cta_group::1; 128 or 256
  /// with cta_group::2 (the pair's M: each CTA holds half of the rows).
  uint32_t m = 128;
  /// Not encoded: the MMA's .cta_group (1 or 2), which decides the M
  /// that are valid.
  uint32_t ctaGroup = 1;
  /// N (a multiple of 8 (M = 64) or 16, at most 256), bits 17-22 as N >> 3.
  uint32_t n = 128;
  /// kind::mxf8f6f4 only: which byte of each 32-bit scale-factor column in
  /// tensor memory the MMA reads (bits 29-30 for A, 4-5 for B). With one
  /// E8M0 scale per 32 of K and four K-blocks per column, the k-th MMA of a
  /// 128-deep block reads byte k.
  uint32_t scaleIdA = 0;
  uint32_t scaleIdB = 0;
  /// kind::mxf8f6f4 only, bit 23: E8M0 scales (1) or UE4M3 (0).
  bool scalesE8M0 = true;

  /// Whether the fields are in range and allowed together (M for the
  /// cta_group, N steps, MN-major only for 8-bit formats, scale ids < 4).
  bool isValid() const;
  uint32_t encode() const;
};

/// A tensor-memory address: lane (the row of the 128-lane memory, bits
/// 16-31) and 32-bit column (bits 0-15), as tcgen05.alloc returns and
/// tcgen05.mma/cp/ld take.
struct TmemAddress {
  uint32_t lane = 0;
  uint32_t column = 0;
  uint32_t encode() const { return (lane << 16) | (column & 0xFFFF); }
};

/// Tensor memory per SM: 128 lanes of 512 32-bit columns. tcgen05.alloc
/// takes a power of two of at least 32 columns.
inline constexpr uint32_t kTmemColumns = 512;
inline constexpr uint32_t kTmemLanes = 128;

/// The columns tcgen05.alloc must be asked for to hold `columns`: the next
/// power of two, at least 32; 0 where more than kTmemColumns are needed.
uint32_t getTmemAllocColumns(uint32_t columns);

} // namespace mlir::fp8::kernels::gemm

#endif // FP8_LIB_CONVERSION_FP8TONVVM_GEMM_SM100_TCGEN05DESCRIPTORS_H
