//===- Tcgen05Descriptors.cpp - sm_100a MMA descriptors by field ----------===//
//
// Bit positions from the PTX ISA 8.8 / 9.x tables cited in the header; the
// unit tests derive their constants by hand from the same tables.
//
//===----------------------------------------------------------------------===//

#include "Tcgen05Descriptors.h"

using namespace mlir::fp8::kernels::gemm;

Tcgen05SmemDescriptor Tcgen05SmemDescriptor::kMajorTile() {
  return Tcgen05SmemDescriptor();
}

Tcgen05SmemDescriptor Tcgen05SmemDescriptor::mnMajorTile(uint32_t atomBytes) {
  Tcgen05SmemDescriptor desc;
  desc.leadingByteOffset = atomBytes;
  return desc;
}

Tcgen05SmemDescriptor Tcgen05SmemDescriptor::scaleChunk() {
  Tcgen05SmemDescriptor desc;
  desc.swizzle = Swizzle::none;
  desc.leadingByteOffset = 0;
  desc.strideByteOffset = 128;
  return desc;
}

uint64_t Tcgen05SmemDescriptor::encode() const {
  uint64_t desc = 0;
  desc |= static_cast<uint64_t>(encodeAddress(startAddress) & 0x3FFF);
  desc |= static_cast<uint64_t>((leadingByteOffset >> 4) & 0x3FFF) << 16;
  desc |= static_cast<uint64_t>((strideByteOffset >> 4) & 0x3FFF) << 32;
  desc |= kVersion << 46;
  desc |= static_cast<uint64_t>(baseOffset & 0x7) << 49;
  desc |= static_cast<uint64_t>(leadingAbsolute ? 1 : 0) << 52;
  desc |= static_cast<uint64_t>(swizzle) << 61;
  return desc;
}

static bool is8Bit(Tcgen05Format format) {
  return format == Tcgen05Format::e4m3 || format == Tcgen05Format::e5m2;
}

bool Tcgen05InstrDescriptor::isValid() const {
  // Shapes of the dense kinds (9.7.16.10.1): cta_group::1 M = 64 with
  // N % 8 == 0 or M = 128 with N % 16 == 0; cta_group::2 M = 128 or 256
  // with N % 16 == 0; 8 <= N <= 256.
  if (ctaGroup == 1 ? (m != 64 && m != 128)
                    : (ctaGroup != 2 || (m != 128 && m != 256)))
    return false;
  if (n < 8 || n > 256 || n % (m == 64 ? 8 : 16) != 0)
    return false;
  if ((aMnMajor && !is8Bit(aFormat)) || (bMnMajor && !is8Bit(bFormat)))
    return false;
  if (kind == Kind::f8f6f4 && (scaleIdA != 0 || scaleIdB != 0))
    return false;
  return scaleIdA < 4 && scaleIdB < 4;
}

uint32_t Tcgen05InstrDescriptor::encode() const {
  uint32_t desc = 0;
  if (kind == Kind::f8f6f4) {
    // Bits 4-5: the accumulator (D) type, F32 = 1.
    desc |= 1u << 4;
  } else {
    desc |= (scaleIdB & 0x3) << 4;
    desc |= (scalesE8M0 ? 1u : 0u) << 23;
    desc |= (scaleIdA & 0x3) << 29;
  }
  desc |= static_cast<uint32_t>(aFormat) << 7;
  desc |= static_cast<uint32_t>(bFormat) << 10;
  desc |= (negateA ? 1u : 0u) << 13;
  desc |= (negateB ? 1u : 0u) << 14;
  desc |= (aMnMajor ? 1u : 0u) << 15;
  desc |= (bMnMajor ? 1u : 0u) << 16;
  desc |= ((n >> 3) & 0x3F) << 17;
  desc |= ((m >> 4) & 0x1F) << 24;
  return desc;
}

uint32_t mlir::fp8::kernels::gemm::getTmemAllocColumns(uint32_t columns) {
  if (columns > kTmemColumns)
    return 0;
  uint32_t alloc = 32;
  while (alloc < columns)
    alloc *= 2;
  return alloc;
}
