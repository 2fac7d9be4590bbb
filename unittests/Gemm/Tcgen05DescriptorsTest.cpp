//===- Tcgen05DescriptorsTest.cpp - sm_100a MMA descriptor bits -----------===//
//
// Every expected constant below is derived by hand from the PTX ISA tables
// (9.7.16.4.1 "Shared memory descriptor", 9.7.16.4.2 "Instruction
// descriptor" Tables 42 and 43, 9.7.16.2.1 tensor-memory addressing), not
// from the encoder, so a field at the wrong bit fails here.
//
//===----------------------------------------------------------------------===//

#include "Gemm/Sm100/Tcgen05Descriptors.h"

#include "gtest/gtest.h"

using namespace mlir::fp8::kernels::gemm;

namespace {

// A K-major FP8 tile of 128 rows x 128 bytes with 128B swizzle at shared
// address 0x400, as TMA writes it:
//   bits  0-13  start  0x400 >> 4       = 0x40
//   bits 16-29  LBO    16 >> 4          = 1      -> 1 << 16 = 0x10000
//   bits 32-45  SBO    8 rows*128 B>>4  = 64     -> 0x40 << 32
//   bits 46-48  version 0b001                    -> 1 << 46
//   bits 61-63  128B swizzle = 2                 -> 2 << 61
//   = 0x4000'0000'0000'0000 | 0x0000'4000'0000'0000 | 0x0000'0040'0000'0000
//     | 0x1'0000 | 0x40 = 0x4000404000010040
TEST(Tcgen05SmemDescriptor, KMajor128BSwizzle) {
  Tcgen05SmemDescriptor desc;
  desc.startAddress = 0x400;
  EXPECT_EQ(desc.encode(), 0x4000404000010040ull);
  EXPECT_EQ(desc.encodeHigh(), 0x40004040u);
}

// The GEMM's three tiles, start address 0:
// - K-major: the tile above without its address, 0x4000404000010000;
// - MN-major, atoms 16384 bytes apart: LBO 16384 >> 4 = 0x400 -> 0x400 << 16
//   = 0x04000000, SBO 1024 -> 0x40 << 32, version, 128B swizzle:
//   0x4000404004000000;
// - a scale chunk: no swizzle, LBO 0, SBO 128 >> 4 = 8 -> 8 << 32, version:
//   0x0000400800000000.
TEST(Tcgen05SmemDescriptor, GemmTiles) {
  EXPECT_EQ(Tcgen05SmemDescriptor::kMajorTile().encode(),
            0x4000404000010000ull);
  EXPECT_EQ(Tcgen05SmemDescriptor::mnMajorTile(16384).encode(),
            0x4000404004000000ull);
  EXPECT_EQ(Tcgen05SmemDescriptor::scaleChunk().encode(),
            0x0000400800000000ull);
}

// The start address keeps bits 4-17 of the byte address: 0x3FFF0 -> 0x3FFF
// (the whole 14-bit field), and 0x40010 wraps to 0x1 (bit 18 is dropped).
TEST(Tcgen05SmemDescriptor, StartAddressField) {
  Tcgen05SmemDescriptor desc;
  desc.swizzle = Tcgen05SmemDescriptor::Swizzle::none;
  desc.leadingByteOffset = 0;
  desc.strideByteOffset = 0;
  desc.startAddress = 0x3FFF0;
  // Only the version bit beside the address: 1 << 46 = 0x0000400000000000.
  EXPECT_EQ(desc.encode(), 0x0000400000003FFFull);
  desc.startAddress = 0x40010;
  EXPECT_EQ(desc.encode(), 0x0000400000000001ull);
}

// The other fields at their bits, one at a time against a zero descriptor
// (version bit 46 always set):
//   LBO 0x3FFF0 -> 0x3FFF << 16 = 0x3FFF0000
//   SBO 0x3FFF0 -> 0x3FFF << 32 = 0x00003FFF00000000
//   base offset 7 -> 7 << 49 = 0x000E000000000000
//   absolute LBO  -> 1 << 52 = 0x0010000000000000
//   64B swizzle 4 -> 4 << 61 = 0x8000000000000000
//   32B swizzle 6 -> 6 << 61 = 0xC000000000000000
//   128B/32B atom 1 -> 1 << 61 = 0x2000000000000000
TEST(Tcgen05SmemDescriptor, EachField) {
  const uint64_t version = 1ull << 46;
  auto zero = [] {
    Tcgen05SmemDescriptor d;
    d.leadingByteOffset = 0;
    d.strideByteOffset = 0;
    d.swizzle = Tcgen05SmemDescriptor::Swizzle::none;
    return d;
  };
  EXPECT_EQ(zero().encode(), version);
  Tcgen05SmemDescriptor d = zero();
  d.leadingByteOffset = 0x3FFF0;
  EXPECT_EQ(d.encode(), version | 0x3FFF0000ull);
  d = zero();
  d.strideByteOffset = 0x3FFF0;
  EXPECT_EQ(d.encode(), version | 0x00003FFF00000000ull);
  d = zero();
  d.baseOffset = 7;
  EXPECT_EQ(d.encode(), version | 0x000E000000000000ull);
  d = zero();
  d.leadingAbsolute = true;
  EXPECT_EQ(d.encode(), version | 0x0010000000000000ull);
  d = zero();
  d.swizzle = Tcgen05SmemDescriptor::Swizzle::b64;
  EXPECT_EQ(d.encode(), version | 0x8000000000000000ull);
  d.swizzle = Tcgen05SmemDescriptor::Swizzle::b32;
  EXPECT_EQ(d.encode(), version | 0xC000000000000000ull);
  d.swizzle = Tcgen05SmemDescriptor::Swizzle::b128Base32;
  EXPECT_EQ(d.encode(), version | 0x2000000000000000ull);
}

// kind::mxf8f6f4, e4m3 x e4m3, M = 128, N = 128, both K-major, E8M0 scales,
// scale ids 0 (Table 43):
//   bits 17-22  N >> 3 = 16  -> 16 << 17 = 0x00200000
//   bit  23     E8M0 = 1     ->  1 << 23 = 0x00800000
//   bits 24-28  M >> 4 = 8   ->  8 << 24 = 0x08000000
//   = 0x08A00000
TEST(Tcgen05InstrDescriptor, Mxf8f6f4M128N128) {
  Tcgen05InstrDescriptor desc;
  EXPECT_TRUE(desc.isValid());
  EXPECT_EQ(desc.encode(), 0x08A00000u);
}

// Scale ids: A's in bits 29-30, B's in bits 4-5.
//   scaleIdA 3 -> 3 << 29 = 0x60000000; scaleIdB 2 -> 2 << 4 = 0x20
//   0x08A00000 | 0x60000000 | 0x20 = 0x68A00020
TEST(Tcgen05InstrDescriptor, Mxf8f6f4ScaleIds) {
  Tcgen05InstrDescriptor desc;
  desc.scaleIdA = 3;
  desc.scaleIdB = 2;
  EXPECT_TRUE(desc.isValid());
  EXPECT_EQ(desc.encode(), 0x68A00020u);
}

// kind::f8f6f4 (Table 42), e4m3 (A) x e5m2 (B), f32 accumulator, M = 128,
// N = 256:
//   bits 4-5    F32 = 1      ->  1 << 4  = 0x00000010
//   bits 10-12  E5M2 = 1     ->  1 << 10 = 0x00000400
//   bits 17-22  256 >> 3=32  -> 32 << 17 = 0x00400000
//   bits 24-28  128 >> 4=8   ->  8 << 24 = 0x08000000
//   = 0x08400410
TEST(Tcgen05InstrDescriptor, F8f6f4E4m3E5m2N256) {
  Tcgen05InstrDescriptor desc;
  desc.kind = Tcgen05InstrDescriptor::Kind::f8f6f4;
  desc.bFormat = Tcgen05Format::e5m2;
  desc.n = 256;
  EXPECT_TRUE(desc.isValid());
  EXPECT_EQ(desc.encode(), 0x08400410u);
}

// Majorness and negation bits: transpose A (MN-major) bit 15 = 0x8000,
// transpose B bit 16 = 0x10000, negate A bit 13 = 0x2000, negate B bit 14 =
// 0x4000; A = e5m2 (bits 7-9: 1 << 7 = 0x80); M = 64 (4 << 24 =
// 0x04000000), N = 8 (1 << 17 = 0x20000); E4M3 scale type (bit 23 clear).
//   0x04000000 | 0x20000 | 0x10000 | 0x8000 | 0x4000 | 0x2000 | 0x80
//   = 0x0403E080
TEST(Tcgen05InstrDescriptor, MajorNegateAndSmallShape) {
  Tcgen05InstrDescriptor desc;
  desc.aFormat = Tcgen05Format::e5m2;
  desc.aMnMajor = true;
  desc.bMnMajor = true;
  desc.negateA = true;
  desc.negateB = true;
  desc.m = 64;
  desc.n = 8;
  desc.scalesE8M0 = false;
  EXPECT_TRUE(desc.isValid());
  EXPECT_EQ(desc.encode(), 0x0403E080u);
}

// What the ISA forbids: MN-major 6- or 4-bit operands, M = 128 with N not a
// multiple of 16, N past 256, scale ids on the unscaled kind.
TEST(Tcgen05InstrDescriptor, Invalid) {
  Tcgen05InstrDescriptor desc;
  desc.aFormat = Tcgen05Format::e2m1;
  desc.aMnMajor = true;
  EXPECT_FALSE(desc.isValid());
  desc = Tcgen05InstrDescriptor();
  desc.n = 136;
  EXPECT_FALSE(desc.isValid());
  desc.n = 264;
  EXPECT_FALSE(desc.isValid());
  desc = Tcgen05InstrDescriptor();
  desc.kind = Tcgen05InstrDescriptor::Kind::f8f6f4;
  desc.scaleIdA = 1;
  EXPECT_FALSE(desc.isValid());
  desc = Tcgen05InstrDescriptor();
  desc.scaleIdB = 4;
  EXPECT_FALSE(desc.isValid());
}

// cta_group::2 (a CTA pair), kind::mxf8f6f4, e4m3 x e4m3, M = 256,
// N = 256, K-major, E8M0 scales, scale ids 0 (Table 43; .cta_group is not
// a descriptor bit, only M tells the pair's shape):
//   bits 17-22  N >> 3 = 32  -> 32 << 17 = 0x00400000
//   bit  23     E8M0 = 1     ->  1 << 23 = 0x00800000
//   bits 24-28  M >> 4 = 16  -> 16 << 24 = 0x10000000
//   = 0x10C00000
// and kind::f8f6f4 at M = 256, N = 128, f32 accumulator (bits 4-5 = 1):
//   0x10 | (16 << 17 = 0x00200000) | 0x10000000 = 0x10200010
TEST(Tcgen05InstrDescriptor, PairM256) {
  Tcgen05InstrDescriptor desc;
  desc.ctaGroup = 2;
  desc.m = 256;
  desc.n = 256;
  EXPECT_TRUE(desc.isValid());
  EXPECT_EQ(desc.encode(), 0x10C00000u);
  desc.kind = Tcgen05InstrDescriptor::Kind::f8f6f4;
  desc.n = 128;
  EXPECT_TRUE(desc.isValid());
  EXPECT_EQ(desc.encode(), 0x10200010u);
}

// Which M each .cta_group takes (Table 39, dense kind::f8f6f4): ::1 has 64
// and 128, ::2 has 128 and 256 with N in steps of 16; no other group.
TEST(Tcgen05InstrDescriptor, MPerCtaGroup) {
  Tcgen05InstrDescriptor desc;
  desc.m = 256;
  EXPECT_FALSE(desc.isValid());
  desc.ctaGroup = 2;
  EXPECT_TRUE(desc.isValid());
  desc.m = 128;
  EXPECT_TRUE(desc.isValid());
  desc.m = 64;
  EXPECT_FALSE(desc.isValid());
  desc.m = 256;
  desc.n = 136;
  EXPECT_FALSE(desc.isValid());
  desc.n = 16;
  EXPECT_TRUE(desc.isValid());
  desc.ctaGroup = 4;
  EXPECT_FALSE(desc.isValid());
}

// Lane 32, column 0x84: (32 << 16) | 0x84 = 0x00200084.
TEST(TmemAddress, LaneAndColumn) {
  EXPECT_EQ((TmemAddress{32, 0x84}.encode()), 0x00200084u);
  EXPECT_EQ((TmemAddress{0, 511}.encode()), 511u);
}

// tcgen05.alloc: a power of two of 32..512 columns.
TEST(TmemAddress, AllocColumns) {
  EXPECT_EQ(getTmemAllocColumns(1), 32u);
  EXPECT_EQ(getTmemAllocColumns(32), 32u);
  EXPECT_EQ(getTmemAllocColumns(33), 64u);
  EXPECT_EQ(getTmemAllocColumns(132), 256u);
  EXPECT_EQ(getTmemAllocColumns(512), 512u);
  EXPECT_EQ(getTmemAllocColumns(513), 0u);
}

} // namespace
