//===- MathExpansion.cpp - math functions as arith ops in kernels ---------===//
//
// Kernel bodies may call math functions (GELU's tanh, SiLU's exp, RMSNorm's
// rsqrt). They become arith ops here, so that no PTX calls a library
// (libdevice is linked only where CUDA is found at compile time), and so
// that the same body gives the same bits wherever it runs: the unfused
// elementwise kernel and every quantization that fuses it. The functions
// are MLIR's polynomial approximations; f32 sqrt and rsqrt are correctly
// rounded, as on the CPU.
//
//===----------------------------------------------------------------------===//

#include "../Program/KernelUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

using namespace mlir;
using namespace mlir::fp8;
using namespace mlir::fp8::kernels;

namespace {
/// math.absf and math.fma (which the polynomial approximations emit)
/// without libdevice: left as math ops, convert-gpu-to-nvvm would call
/// __nv_fabsf and __nv_fmaf, which no kernel links. |x| clears the sign
/// bit; fma is the LLVM intrinsic, which NVPTX selects to fma.rn.
struct AbsFToBits : OpRewritePattern<math::AbsFOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(math::AbsFOp op,
                                PatternRewriter &rewriter) const override {
    Type type = op.getType();
    unsigned width = getElementTypeOrSelf(type).getIntOrFloatBitWidth();
    Type bits = rewriter.getIntegerType(width);
    TypedAttr mask =
        rewriter.getIntegerAttr(bits, APInt::getSignedMaxValue(width));
    if (auto vector = dyn_cast<VectorType>(type)) {
      bits = vector.clone(bits);
      mask = DenseElementsAttr::get(cast<ShapedType>(bits), mask);
    }
    Location loc = op.getLoc();
    Value raw = arith::BitcastOp::create(rewriter, loc, bits, op.getOperand());
    Value cleared = arith::AndIOp::create(
        rewriter, loc, raw, arith::ConstantOp::create(rewriter, loc, mask));
    rewriter.replaceOpWithNewOp<arith::BitcastOp>(op, type, cleared);
    return success();
  }
};
/// math.floor of an f32 (which the exp approximation emits) in arith ops:
/// as __nv_floorf it needs libdevice, which gpu-module-to-binary links only
/// where it finds CUDA at compile time. Exact like floorf: |x| >= 2^23 (and
/// inf, NaN) is integral already; below, truncation through i32 minus one
/// where it rounded up; ±0 stays itself.
struct FloorToArith : OpRewritePattern<math::FloorOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(math::FloorOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.getType().isF32())
      return rewriter.notifyMatchFailure(op, "only scalar f32");
    Location loc = op.getLoc();
    Value x = op.getOperand();
    Type f32 = rewriter.getF32Type();
    auto constant = [&](double value) -> Value {
      return arith::ConstantOp::create(rewriter, loc,
                                       rewriter.getF32FloatAttr(value));
    };
    Value truncated = arith::SIToFPOp::create(
        rewriter, loc, f32,
        arith::FPToSIOp::create(rewriter, loc, rewriter.getI32Type(), x));
    Value roundedUp = arith::CmpFOp::create(
        rewriter, loc, arith::CmpFPredicate::OGT, truncated, x);
    Value floor = arith::SelectOp::create(
        rewriter, loc, roundedUp,
        arith::SubFOp::create(rewriter, loc, truncated, constant(1.0)),
        truncated);
    // Not small (or NaN), or zero: x itself.
    Value small = arith::CmpFOp::create(
        rewriter, loc, arith::CmpFPredicate::OLT,
        math::AbsFOp::create(rewriter, loc, x), constant(8388608.0));
    Value nonzero = arith::CmpFOp::create(
        rewriter, loc, arith::CmpFPredicate::ONE, x, constant(0.0));
    rewriter.replaceOpWithNewOp<arith::SelectOp>(
        op, arith::AndIOp::create(rewriter, loc, small, nonzero), floor, x);
    return success();
  }
};
/// f32 math.sqrt and math.rsqrt without libdevice (whose __nv_rsqrtf is
/// rsqrt.approx, and which is linked only where CUDA is found at compile
/// time): sqrt.rn.f32 (convert-gpu-to-nvvm refuses llvm.intr.sqrt on f32,
/// hence the one instruction of inline PTX) and 1 / sqrt(x) by div.rn.f32,
/// both correctly rounded, so the bits are the CPU reference's (MathToLLVM
/// lowers rsqrt to the same division).
static Value buildSqrtRn(PatternRewriter &rewriter, Location loc, Value x) {
  return LLVM::InlineAsmOp::create(
             rewriter, loc, TypeRange{rewriter.getF32Type()}, ValueRange{x},
             "sqrt.rn.f32 $0, $1;", "=f,f", /*has_side_effects=*/false,
             /*is_align_stack=*/false, LLVM::tailcallkind::TailCallKind::None,
             /*asm_dialect=*/LLVM::AsmDialectAttr(),
             /*operand_attrs=*/ArrayAttr())
      .getResult(0);
}
/// f16 and bf16 sqrt as the f32 one between an extension and a rounding:
/// correctly rounded too (rounding a sqrt twice is innocuous where the
/// wider format has at least 2p + 2 bits, 24 >= 2 * 11 + 2), where NVPTX
/// would otherwise take sqrt.approx.f32 for f16.
struct SqrtToPtx : OpRewritePattern<math::SqrtOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(math::SqrtOp op,
                                PatternRewriter &rewriter) const override {
    Type type = op.getType();
    if (!type.isF32() && !type.isF16() && !type.isBF16())
      return rewriter.notifyMatchFailure(op, "only scalar f32, f16, bf16");
    Location loc = op.getLoc();
    Value x = op.getOperand();
    if (type.isF32()) {
      rewriter.replaceOp(op, buildSqrtRn(rewriter, loc, x));
      return success();
    }
    Value wide = arith::ExtFOp::create(rewriter, loc, rewriter.getF32Type(), x);
    rewriter.replaceOpWithNewOp<arith::TruncFOp>(
        op, type, buildSqrtRn(rewriter, loc, wide));
    return success();
  }
};
/// f16 and bf16 rsqrt as MathToLLVM writes it on the CPU, 1 / sqrt in the
/// type: the sqrt above, then a division that NVPTX takes in f32 (div.rn)
/// and rounds, correctly rounded like the host's (else rsqrt.approx.f32).
struct RsqrtToDivSqrt : OpRewritePattern<math::RsqrtOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(math::RsqrtOp op,
                                PatternRewriter &rewriter) const override {
    Type type = op.getType();
    if (!type.isF32() && !type.isF16() && !type.isBF16())
      return rewriter.notifyMatchFailure(op, "only scalar f32, f16, bf16");
    Location loc = op.getLoc();
    Value one = arith::ConstantOp::create(rewriter, loc,
                                          rewriter.getFloatAttr(type, 1.0));
    Value root =
        type.isF32()
            ? buildSqrtRn(rewriter, loc, op.getOperand())
            : math::SqrtOp::create(rewriter, loc, op.getOperand()).getResult();
    rewriter.replaceOpWithNewOp<arith::DivFOp>(op, one, root);
    return success();
  }
};
struct FmaToIntrinsic : OpRewritePattern<math::FmaOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(math::FmaOp op,
                                PatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<LLVM::FMAOp>(op, op.getA(), op.getB(),
                                             op.getC());
    return success();
  }
};
/// An f32 constant and an f32 fma (fma.rn), for the expansions below.
static Value f32Constant(ImplicitLocOpBuilder &b, float value) {
  return arith::ConstantOp::create(b, b.getF32FloatAttr(value));
}
static Value fmaRn(ImplicitLocOpBuilder &b, Value x, Value y, Value z) {
  return LLVM::FMAOp::create(b, x, y, z);
}

/// f32 math.exp as MLIR 22's polynomial approximation computes it (Cephes:
/// x clamped to [-87.8, 88.8], n = floor(x log2(e) + 1/2) clamped to
/// [-127, 127], e^(x - n ln 2) by a degree-7 polynomial, times 2^n), bit for
/// bit, in cheaper instructions: that expansion spends ten instructions on
/// its floor (two of them conversions, quarter rate) and three on 2^n, which
/// bound SiLU's kernels (Nsight: issue-bound, the XU pipe half busy). Here:
/// - the clamps are maximumf/minimumf (max.NaN.f32, one instruction each):
///   they keep a NaN a NaN, as the expansion's selects do, and whatever
///   NaN flows on, the result is the canonical NaN of the FMAs after it;
/// - n = floor(clamp(a)), the same as the expansion's clamp(floor(a))
///   because the bounds are integers; with |clamp(a)| <= 127, adding
///   1.5 * 2^23 rounds it to the nearest integer exactly, so floor is that
///   integer less one where it rounded up;
/// - 2^n's bits are those of n + 1.5 * 2^23 + 127 shifted left by 23: the
///   sum's low 8 bits are n + 127 (the biased exponent, 0 for n = -127, the
///   expansion's 0.0), and its other bits shift out.
/// ExpExpansionTest.cpp checks the identity on dense sweeps of the input.
struct ExpToArith : OpRewritePattern<math::ExpOp> {
  ExpToArith(MLIRContext *context) : OpRewritePattern(context, /*benefit=*/2) {}
  LogicalResult matchAndRewrite(math::ExpOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.getType().isF32())
      return rewriter.notifyMatchFailure(op, "only scalar f32");
    ImplicitLocOpBuilder b(op.getLoc(), rewriter);
    auto constant = [&](float value) { return f32Constant(b, value); };
    auto fma = [&](Value x, Value y, Value z) { return fmaRn(b, x, y, z); };
    auto clamp = [&](Value x, float low, float high) -> Value {
      return arith::MinimumFOp::create(
          b, arith::MaximumFOp::create(b, x, constant(low)), constant(high));
    };
    Value x = clamp(op.getOperand(), -87.8f, 88.8f);
    Value a = clamp(fma(x, constant(1.44269504088896341f), constant(0.5f)),
                    -127.0f, 127.0f);
    Value rounded = arith::SubFOp::create(
        b, arith::AddFOp::create(b, a, constant(kRoundingShift)),
        constant(kRoundingShift));
    Value roundedUp =
        arith::CmpFOp::create(b, arith::CmpFPredicate::OGT, rounded, a);
    Value n = arith::SelectOp::create(
        b, roundedUp, arith::SubFOp::create(b, rounded, constant(1.0f)),
        rounded);
    // e^(x - n ln 2), ln 2 in two parts; the polynomial's coefficients.
    Value r = fma(constant(-0.693359375f), n, x);
    r = fma(constant(2.12194440e-4f), n, r);
    Value z = fma(r, constant(1.9875691500e-4f), constant(1.3981999507e-3f));
    for (float c : {8.3334519073e-3f, 4.1665795894e-2f, 1.6666665459e-1f,
                    5.0000001201e-1f})
      z = fma(z, r, constant(c));
    z = fma(z, arith::MulFOp::create(b, r, r), r);
    z = arith::AddFOp::create(b, constant(1.0f), z);
    Type i32 = b.getI32Type();
    Value biased = arith::BitcastOp::create(
        b, i32, arith::AddFOp::create(b, n, constant(kRoundingShift + 127)));
    Value pow2 = arith::BitcastOp::create(
        b, b.getF32Type(),
        arith::ShLIOp::create(
            b, biased, arith::ConstantOp::create(b, b.getI32IntegerAttr(23))));
    rewriter.replaceOpWithNewOp<arith::MulFOp>(op, z, pow2);
    return success();
  }
  /// 1.5 * 2^23: adding it rounds an f32 of magnitude below 2^22 to an
  /// integer.
  static constexpr float kRoundingShift = 12582912.0f;
};

/// f32 math.tanh as MLIR 22's approximation computes it (x clamped to
/// +-7.99881172, p(x) / q(x) with p odd of degree 13 and q even of degree
/// 6 in Horner form, x itself where |x| < 0.0004), bit for bit, in fewer
/// instructions: GELU's kernels are issue-bound (Nsight, H100: 82-85% of
/// cycles issue), and div.rn.f32 is ptxas's general division (a range
/// check, a branch to a slow path, ten instructions). Here:
/// - the clamps are maximumf/minimumf, as for exp;
/// - p / q is Newton's: y ~ 1/q by rcp.approx and one correction, then the
///   quotient corrected by its exact remainder (fma) `kQuotientCorrections`
///   times. q lies in [0.00489, 0.954] (positive coefficients, x^2 <= 64)
///   and |p / q| < 1, so nothing overflows or leaves the normal range where
///   the result is used (|x| >= 0.0004). That this is p / q correctly
///   rounded is checked, not proved: on an H100 its tanh equals the PTX of
///   MLIR's expansion bit for bit for every f32 x from 0 to 2^33 (beyond,
///   the clamp gives one value; both are odd, every step negating exactly;
///   a chunk of negatives and special values checked too), and so does
///   GELU's for every bf16 input
///   (bench/results/2026-11-26-h100-exp-tanh-expansion.md).
struct TanhToArith : OpRewritePattern<math::TanhOp> {
  TanhToArith(MLIRContext *context)
      : OpRewritePattern(context, /*benefit=*/2) {}
  LogicalResult matchAndRewrite(math::TanhOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.getType().isF32())
      return rewriter.notifyMatchFailure(op, "only scalar f32");
    ImplicitLocOpBuilder b(op.getLoc(), rewriter);
    auto constant = [&](float value) { return f32Constant(b, value); };
    auto fma = [&](Value x, Value y, Value z) { return fmaRn(b, x, y, z); };
    auto mul = [&](Value x, Value y) -> Value {
      return arith::MulFOp::create(b, x, y);
    };
    Value operand = op.getOperand();
    const float bound = 7.99881172180175781f;
    Value x = arith::MaximumFOp::create(
        b, arith::MinimumFOp::create(b, operand, constant(bound)),
        constant(-bound));
    Value tiny = arith::CmpFOp::create(b, arith::CmpFPredicate::OLT,
                                       math::AbsFOp::create(b, operand),
                                       constant(4e-4f));
    Value x2 = mul(x, x);
    Value p = fma(x2, constant(-2.76076847742355e-16f),
                  constant(2.00018790482477e-13f));
    for (float c :
         {-8.60467152213735e-11f, 5.12229709037114e-08f, 1.48572235717979e-05f,
          6.37261928875436e-04f, 4.89352455891786e-03f})
      p = fma(x2, p, constant(c));
    p = mul(x, p);
    Value q = fma(x2, constant(1.19825839466702e-06f),
                  constant(1.18534705686654e-04f));
    q = fma(x2, q, constant(2.26843463243900e-03f));
    q = fma(x2, q, constant(4.89352518554385e-03f));
    // The quotient.
    Value negQ = arith::NegFOp::create(b, q);
    Value y = NVVM::RcpApproxFtzF32Op::create(b, b.getF32Type(), q);
    y = fma(y, fma(negQ, y, constant(1.0f)), y);
    Value quotient = mul(p, y);
    for (int i = 0; i < kQuotientCorrections; ++i)
      quotient = fma(fma(negQ, quotient, p), y, quotient);
    rewriter.replaceOpWithNewOp<arith::SelectOp>(op, tiny, x, quotient);
    return success();
  }
  static constexpr int kQuotientCorrections = 1;
};
} // namespace

LogicalResult kernels::expandMathFunctions(gpu::GPUFuncOp func) {
  // MLIR's approximations, exp's in cheaper instructions (ExpToArith takes
  // precedence by its benefit), and the absf, floor and fma they leave.
  RewritePatternSet patterns(func.getContext());
  populateMathPolynomialApproximationPatterns(patterns);
  patterns.add<AbsFToBits, ExpToArith, FloorToArith, FmaToIntrinsic, SqrtToPtx,
               RsqrtToDivSqrt, TanhToArith>(func.getContext());
  return applyPatternsGreedily(func, std::move(patterns));
}
