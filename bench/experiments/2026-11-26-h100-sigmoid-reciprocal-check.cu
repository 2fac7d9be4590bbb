// Every f32 d in [1, +inf] and the NaNs: OnePlusExpReciprocal's fast path
// (rcp.approx.ftz, y + y (1 - d y)) where d < 2^126, rcp.rn.f32 elsewhere,
// against rcp.rn.f32 everywhere, bit for bit. Also every d below 1 through
// the fast path alone, to show where the test on d matters.
#include <cstdio>
#include <cstdint>

__device__ float rcpApproxFtz(float d) {
  float y;
  asm("rcp.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(d));
  return y;
}
__device__ float rcpRn(float d) {
  float y;
  asm("rcp.rn.f32 %0, %1;" : "=f"(y) : "f"(d));
  return y;
}
__device__ float fastPath(float d) {
  float y = rcpApproxFtz(d);
  return __fmaf_rn(y, __fmaf_rn(-d, y, 1.0f), y);
}

__global__ void check(uint32_t first, uint64_t count, bool guarded,
                      unsigned long long *mismatches, uint32_t *firstBad) {
  for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < count;
       i += (uint64_t)gridDim.x * blockDim.x) {
    uint32_t bits = first + (uint32_t)i;
    float d = __uint_as_float(bits);
    float got = guarded ? (d < 0x1p126f ? fastPath(d) : rcpRn(d)) : fastPath(d);
    float want = rcpRn(d);
    uint32_t g = __float_as_uint(got), w = __float_as_uint(want);
    bool bothNan = (g & 0x7fffffff) > 0x7f800000 && (w & 0x7fffffff) > 0x7f800000;
    if (g != w && !bothNan) {
      atomicAdd(mismatches, 1ull);
      atomicMin(firstBad, bits);
    }
  }
}

static void run(const char *what, uint32_t first, uint64_t count, bool guarded) {
  unsigned long long *mismatches;
  uint32_t *firstBad;
  cudaMallocManaged(&mismatches, sizeof *mismatches);
  cudaMallocManaged(&firstBad, sizeof *firstBad);
  *mismatches = 0;
  *firstBad = 0xffffffffu;
  check<<<132 * 16, 256>>>(first, count, guarded, mismatches, firstBad);
  cudaDeviceSynchronize();
  printf("%s: %llu of %llu differ from rcp.rn.f32%s", what, *mismatches,
         (unsigned long long)count, *mismatches ? "" : "\n");
  if (*mismatches)
    printf("; first d = 0x%08x\n", *firstBad);
}

int main() {
  // [1, +inf]: 0x3f800000 .. 0x7f800000; the NaNs above; both signs of NaN.
  run("guarded, d in [1, +inf]", 0x3f800000u, 0x7f800000ull - 0x3f800000ull + 1, true);
  run("guarded, +NaN", 0x7f800001u, 0x7fffffffull - 0x7f800001ull + 1, true);
  run("guarded, -NaN", 0xff800001u, 0xffffffffull - 0xff800001ull + 1, true);
  run("fast path alone, d in [1, 2^126)", 0x3f800000u, 0x7e800000ull - 0x3f800000ull, false);
  run("fast path alone, d in [2^126, +inf]", 0x7e800000u, 0x7f800000ull - 0x7e800000ull + 1, false);
  run("fast path alone, d in [+0, 1)", 0x00000000u, 0x3f800000ull, false);
  return 0;
}
