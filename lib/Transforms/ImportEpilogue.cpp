//===- ImportEpilogue.cpp - element-wise linalg into a matmul's epilogue --===//
//
// tgemm-from-linalg's second half: the element-wise linalg.generic ops that
// follow an imported matmul and read its C become the steps of its fused
// epilogue (docs/epilogue.md), one op at a time. A generic's body is read
// backwards from its yield, as a chain of steps applied to the accumulator:
//
//   bias      v + x          x a per-row, per-column or scalar operand
//   scale     v * x          (a constant factor before any step: alpha, beta)
//   residual  v + r          r indexed like C
//   relu      max(v, 0), select(v > 0, v, 0)
//   gelu_erf  0.5 v (1 + erf(v / sqrt 2))
//   gelu_tanh 0.5 v (1 + tanh(sqrt(2 / pi) (v + 0.044715 v^3)))
//   silu      v / (1 + exp(-v)), v * (1 / (1 + exp(-v)))
//
// products in any order and grouping; casts where the epilogue has them
// (the accumulator's extf or sitofp, an operand's extf, the final truncf to
// C's type). A generic that reads C but is none of these is left as it is,
// with a remark that says which part of it is not a step.
//
//===----------------------------------------------------------------------===//

#include "ImportEpilogue.h"

#include "tgemm/Dialect/TGemm/IR/TGemm.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

#include <cmath>

using namespace mlir;
using namespace mlir::tgemm;
using ::tgemm::runtime::Broadcast;
using ::tgemm::runtime::EpilogueOp;

namespace {

/// How the body reads one of the generic's inputs.
enum class InputKind { Accumulator, Row, Col, Scalar, Residual, Other };

/// What a generic's body does to the accumulator.
struct Chain {
  SmallVector<Attribute> steps;
  /// The generic's inputs the steps read, in step order.
  SmallVector<unsigned> inputs;
  /// A constant factor before every step: folded into alpha and beta.
  double factor = 1.0;
};

/// Reads a generic's body as a chain of epilogue steps.
class BodyMatcher {
public:
  BodyMatcher(linalg::GenericOp op, BlockArgument acc,
              ArrayRef<InputKind> kinds)
      : op(op), acc(acc), kinds(kinds) {}

  /// The chain that yields `v`, or why there is none.
  std::string match(Value v, Chain &chain) {
    for (Operation &inner : op.getBody()->without_terminator())
      if (!isMemoryEffectFree(&inner))
        return "its body has side effects (" + describe(&inner) + ")";
    if (auto trunc = v.getDefiningOp<arith::TruncFOp>()) {
      if (trunc.getRoundingmodeAttr())
        return "its final arith.truncf has a rounding mode; the epilogue "
               "rounds to nearest";
      v = trunc.getIn(); // the final rounding to C's type
    }
    // Constants are compared at the precision the body computes in: half
    // an ulp of f16 and bf16 (the rounding of a decimal constant), f32's
    // decimal digits.
    Type t = v.getType();
    tolerance = t.isF16() ? 5e-4 : t.isBF16() ? 4e-3 : 1e-6;
    return chain_(v, chain);
  }

private:
  mutable linalg::GenericOp op;
  BlockArgument acc;
  ArrayRef<InputKind> kinds;
  double tolerance = 1e-6;

  /// The accumulator, as the body reads it: itself, or converted to a wider
  /// float (extf of an f16 C, sitofp of an i32 one).
  bool isAccumulator(Value v) const {
    if (v == acc)
      return true;
    if (auto ext = v.getDefiningOp<arith::ExtFOp>())
      return ext.getIn() == acc;
    if (auto conv = v.getDefiningOp<arith::SIToFPOp>())
      return conv.getIn() == acc;
    return false;
  }

  /// The index of the input `v` reads (directly or through extf), if any.
  std::optional<unsigned> inputOf(Value v) const {
    if (auto ext = v.getDefiningOp<arith::ExtFOp>())
      v = ext.getIn();
    auto arg = dyn_cast<BlockArgument>(v);
    if (!arg || arg.getOwner() != op.getBody() || arg == acc ||
        arg.getArgNumber() >= op.getNumDpsInputs())
      return std::nullopt;
    return arg.getArgNumber();
  }

  std::optional<double> constant(Value v) const {
    APFloat value(0.0);
    if (!matchPattern(v, m_ConstantFloat(&value)))
      return std::nullopt;
    return value.convertToDouble();
  }
  bool isConstant(Value v, double want) const {
    std::optional<double> c = constant(v);
    return c && std::fabs(*c - want) <= tolerance * std::fabs(want);
  }

  /// A product: its non-constant factors (sorted, so that two products of
  /// the same factors compare equal) and its constant part.
  struct Monomial {
    SmallVector<Value> factors;
    double constant = 1.0;
  };

  /// The factors of a product tree (mulf of mulf ...), in any grouping and
  /// order; powf(x, 3) counts x three times.
  void collect(Value v, Monomial &m) const {
    if (auto mul = v.getDefiningOp<arith::MulFOp>()) {
      collect(mul.getLhs(), m);
      collect(mul.getRhs(), m);
      return;
    }
    if (auto pow = v.getDefiningOp<math::PowFOp>()) {
      if (isConstant(pow.getRhs(), 3.0)) {
        for (int i = 0; i < 3; ++i)
          collect(pow.getLhs(), m);
        return;
      }
    }
    if (std::optional<double> c = constant(v)) {
      m.constant *= *c;
      return;
    }
    m.factors.push_back(v);
  }
  Monomial monomial(Value v) const {
    Monomial m;
    collect(v, m);
    sortFactors(m);
    return m;
  }
  static void sortFactors(Monomial &m) {
    llvm::sort(m.factors, [](Value a, Value b) {
      return a.getAsOpaquePointer() < b.getAsOpaquePointer();
    });
  }
  /// u^power * k.
  Monomial power(Value u, unsigned power, double k) const {
    Monomial base = monomial(u), out;
    out.constant = k;
    for (unsigned i = 0; i < power; ++i) {
      out.factors.append(base.factors);
      out.constant *= base.constant;
    }
    sortFactors(out);
    return out;
  }
  bool near(double got, double want) const {
    return std::fabs(got - want) <= tolerance * std::fabs(want);
  }
  bool same(const Monomial &a, const Monomial &b) const {
    return a.factors == b.factors && near(a.constant, b.constant);
  }
  /// `m` without its factor #i.
  static Monomial without(const Monomial &m, unsigned i) {
    Monomial out = m;
    out.factors.erase(out.factors.begin() + i);
    return out;
  }

  /// `1 + f(x)` for the unary op F (either order): x, else null.
  template <typename F> Value onePlus(Value v) const {
    auto add = v.getDefiningOp<arith::AddFOp>();
    if (!add)
      return {};
    for (auto [one, other] : {std::pair(add.getLhs(), add.getRhs()),
                              std::pair(add.getRhs(), add.getLhs())})
      if (isConstant(one, 1.0))
        if (auto f = other.template getDefiningOp<F>())
          return f.getOperand();
    return {};
  }

  /// The x of `k * x`, `x * k` or `x / (1 / k)`, else null.
  Value scaledBy(Value z, double k) const {
    if (auto div = z.getDefiningOp<arith::DivFOp>())
      return isConstant(div.getRhs(), 1.0 / k) ? div.getLhs() : Value();
    if (auto mul = z.getDefiningOp<arith::MulFOp>()) {
      if (isConstant(mul.getRhs(), k))
        return mul.getLhs();
      if (isConstant(mul.getLhs(), k))
        return mul.getRhs();
    }
    return {};
  }

  /// relu(u): u, else null.
  Value relu(Value v) const {
    Operation *def = v.getDefiningOp();
    if (isa_and_nonnull<arith::MaximumFOp, arith::MaxNumFOp>(def)) {
      Value l = def->getOperand(0), r = def->getOperand(1);
      if (matchPattern(r, m_AnyZeroFloat()))
        return l;
      if (matchPattern(l, m_AnyZeroFloat()))
        return r;
    }
    if (auto select = dyn_cast_or_null<arith::SelectOp>(def)) {
      auto cmp = select.getCondition().getDefiningOp<arith::CmpFOp>();
      if (!cmp || !matchPattern(select.getFalseValue(), m_AnyZeroFloat()) ||
          cmp.getLhs() != select.getTrueValue() ||
          !matchPattern(cmp.getRhs(), m_AnyZeroFloat()))
        return {};
      using P = arith::CmpFPredicate;
      P p = cmp.getPredicate();
      // Ordered: NaN selects 0, as the kernel's relu does (an unordered
      // compare would keep the NaN).
      if (p == P::OGT || p == P::OGE)
        return select.getTrueValue();
    }
    return {};
  }

  /// 0.5 u (1 + F(z)) where argumentOf(z) is u: u, else null.
  template <typename F>
  Value halfTimesOnePlus(Value v,
                         function_ref<Value(Value z)> argumentOf) const {
    Monomial m = monomial(v);
    for (unsigned i = 0; i < m.factors.size(); ++i) {
      Value z = onePlus<F>(m.factors[i]);
      Value u = z ? argumentOf(z) : Value();
      if (u && same(without(m, i), power(u, 1, 0.5)))
        return u;
    }
    return {};
  }

  /// gelu_erf(u) = 0.5 u (1 + erf(u / sqrt 2)): u, else null.
  Value geluErf(Value v) const {
    return halfTimesOnePlus<math::ErfOp>(
        v, [&](Value z) { return scaledBy(z, 0.70710678118654752); });
  }

  /// gelu_tanh(u) = 0.5 u (1 + tanh(sqrt(2/pi) (u + 0.044715 u^3))): u,
  /// else null.
  Value geluTanh(Value v) const {
    return halfTimesOnePlus<math::TanhOp>(v, [&](Value z) -> Value {
      Value s = scaledBy(z, 0.79788456080286536);
      auto add = s ? s.getDefiningOp<arith::AddFOp>() : nullptr;
      if (!add)
        return {};
      for (auto [u, cube] : {std::pair(add.getLhs(), add.getRhs()),
                             std::pair(add.getRhs(), add.getLhs())})
        if (same(monomial(cube), power(u, 3, 0.044715)))
          return u;
      return {};
    });
  }

  /// silu(u) = u / (1 + exp(-u)), or u * (1 / (1 + exp(-u))): u, else null.
  Value silu(Value v) const {
    // The u of 1 + exp(-u) (-u as negf, 0 - u or -1 * u), else null.
    auto denominatorOf = [&](Value d) -> Value {
      Value e = onePlus<math::ExpOp>(d);
      if (!e)
        return {};
      if (auto neg = e.getDefiningOp<arith::NegFOp>())
        return neg.getOperand();
      if (auto sub = e.getDefiningOp<arith::SubFOp>())
        return matchPattern(sub.getLhs(), m_AnyZeroFloat()) ? sub.getRhs()
                                                            : Value();
      return scaledBy(e, -1.0);
    };
    if (auto div = v.getDefiningOp<arith::DivFOp>()) {
      Value u = denominatorOf(div.getRhs());
      return u == div.getLhs() ? u : Value();
    }
    Monomial m = monomial(v);
    for (unsigned i = 0; i < m.factors.size(); ++i) {
      auto div = m.factors[i].getDefiningOp<arith::DivFOp>();
      if (!div || !isConstant(div.getLhs(), 1.0))
        continue;
      Value u = denominatorOf(div.getRhs());
      if (u && same(without(m, i), power(u, 1, 1.0)))
        return u;
    }
    return {};
  }

  Attribute step(EpilogueOp e, Broadcast b = Broadcast::Col) const {
    return EpilogueStepAttr::get(op.getContext(), e, b);
  }

  std::string describe(Operation *def) const {
    std::string s;
    llvm::raw_string_ostream os(s);
    os << "`" << def->getName() << "`";
    return s;
  }

  std::string chain_(Value v, Chain &chain) {
    if (isAccumulator(v))
      return "";
    Operation *def = v.getDefiningOp();
    if (!def || def->getBlock() != op.getBody()) {
      if (inputOf(v) || constant(v))
        return "its result does not depend on the product";
      return "it reads a value other than the product and its inputs";
    }
    // The activations first: their outer op is a product too.
    struct Activation {
      EpilogueOp op;
      Value inner;
    };
    for (Activation a :
         {Activation{EpilogueOp::Relu, relu(v)},
          Activation{EpilogueOp::GeluErf, geluErf(v)},
          Activation{EpilogueOp::GeluTanh, geluTanh(v)},
          Activation{EpilogueOp::Silu, silu(v)}}) {
      if (!a.inner)
        continue;
      if (std::string why = chain_(a.inner, chain); !why.empty())
        return why;
      chain.steps.push_back(step(a.op));
      return "";
    }
    bool isAdd = isa<arith::AddFOp>(def), isMul = isa<arith::MulFOp>(def);
    if (isAdd || isMul) {
      for (unsigned side : {0u, 1u}) {
        Value other = def->getOperand(1 - side);
        if (std::optional<unsigned> input = inputOf(def->getOperand(side))) {
          InputKind kind = kinds[*input];
          Attribute s;
          if (kind == InputKind::Residual && isAdd)
            s = step(EpilogueOp::Residual);
          else if (kind == InputKind::Row || kind == InputKind::Col ||
                   kind == InputKind::Scalar)
            s = step(isAdd ? EpilogueOp::Bias : EpilogueOp::Scale,
                     kind == InputKind::Row   ? Broadcast::Row
                     : kind == InputKind::Col ? Broadcast::Col
                                              : Broadcast::Scalar);
          else if (kind == InputKind::Residual)
            return "it multiplies by a matrix (input #" +
                   std::to_string(*input) +
                   "); the epilogue multiplies by vectors and adds matrices";
          else
            return "input #" + std::to_string(*input) +
                   " is indexed as no epilogue operand is (a per-row, "
                   "per-column or scalar vector, or a residual like C)";
          if (std::string why = chain_(other, chain); !why.empty())
            return why;
          chain.steps.push_back(s);
          chain.inputs.push_back(*input);
          return "";
        }
        if (std::optional<double> c = constant(def->getOperand(side))) {
          if (isAdd)
            return "it adds a constant; a bias is an operand";
          if (std::string why = chain_(other, chain); !why.empty())
            return why;
          if (!chain.steps.empty())
            return "it multiplies by a constant after other steps; a "
                   "scale there is an operand";
          chain.factor *= *c;
          return "";
        }
      }
      for (Value operand : def->getOperands())
        if (Operation *d = operand.getDefiningOp();
            d ? d->getBlock() != op.getBody()
              : cast<BlockArgument>(operand).getOwner() != op.getBody())
          return "it reads a value other than the product and its inputs";
    }
    if (isa<arith::TruncFOp, arith::ExtFOp>(def))
      return "it converts between float types between steps (" +
             describe(def) +
             "); the epilogue computes in f32 and rounds once, to C's type";
    return "its body computes " + describe(def) +
           ", which is no epilogue step (bias, scale, residual, relu, "
           "gelu_tanh, gelu_erf, silu)";
  }
};

/// How `map` (of a generic over C's `rank` loops) reads an input of rank
/// `inputRank`.
InputKind kindOf(AffineMap map, unsigned rank, unsigned inputRank) {
  if (map.isIdentity() && map.getNumDims() == rank)
    return InputKind::Residual;
  if (map.getNumResults() == 0)
    return InputKind::Scalar;
  if (map.getNumResults() != 1 || inputRank != 1)
    return InputKind::Other;
  AffineExpr e = map.getResult(0);
  if (auto c = dyn_cast<AffineConstantExpr>(e))
    return c.getValue() == 0 ? InputKind::Scalar : InputKind::Other;
  auto dim = dyn_cast<AffineDimExpr>(e);
  if (!dim)
    return InputKind::Other;
  if (dim.getPosition() == rank - 1)
    return InputKind::Col;
  if (dim.getPosition() == rank - 2)
    return InputKind::Row;
  return InputKind::Other;
}

/// The buffer `v` is a view of (through casts, subviews, reshapes), or v.
Value rootOf(Value v) {
  while (auto view = v.getDefiningOp<ViewLikeOpInterface>())
    v = view.getViewSource();
  return v;
}

/// Whether `op` may sit between the matmul and the generic it fuses: it
/// neither reads nor writes memory (an alloc of the generic's output, a
/// constant, a memref.dim).
bool isTransparent(Operation *op) {
  if (isMemoryEffectFree(op))
    return true;
  auto effects = dyn_cast<MemoryEffectOpInterface>(op);
  if (!effects)
    return false;
  SmallVector<MemoryEffects::EffectInstance> list;
  effects.getEffects(list);
  return llvm::all_of(list, [](const MemoryEffects::EffectInstance &e) {
    return isa<MemoryEffects::Allocate>(e.getEffect());
  });
}

/// Whether `generic` reads `c`'s values (an input, or its init with the
/// body reading it).
bool readsC(linalg::GenericOp generic, Value c) {
  for (OpOperand *in : generic.getDpsInputOperands())
    if (in->get() == c)
      return true;
  for (OpOperand &init : generic.getDpsInitsMutable())
    if (init.get() == c && generic.payloadUsesValueFromOperand(&init))
      return true;
  return false;
}

class Fuser {
public:
  explicit Fuser(MatmulOp matmul) : matmul(matmul) {}

  /// Tries to fold `generic` into the matmul: on success the new matmul
  /// replaces both and "" is returned; otherwise why not, and nothing
  /// changes.
  std::string fuse(linalg::GenericOp generic) {
    Value c = matmul.getC();
    auto cType = cast<MemRefType>(c.getType());
    unsigned rank = cType.getRank();
    // (It reads the memref C, so linalg's verifier has made it work on
    // buffers only.)
    if (generic.getNumDpsInits() != 1)
      return "it writes more than one output";
    if (generic.getNumLoops() != rank ||
        generic.getNumParallelLoops() != rank)
      return "it is not element-wise over C (its loops are not C's, all "
             "parallel)";
    OpOperand &init = generic.getDpsInitsMutable()[0];
    Value out = init.get();
    if (!generic.getMatchingIndexingMap(&init).isIdentity())
      return "it does not write its output element by element like C";

    // Which block argument is the product, and how each input is read.
    SmallVector<InputKind> kinds;
    std::optional<BlockArgument> acc;
    for (OpOperand *in : generic.getDpsInputOperands()) {
      AffineMap map = generic.getMatchingIndexingMap(in);
      auto type = dyn_cast<MemRefType>(in->get().getType());
      if (in->get() == c) {
        if (!map.isIdentity())
          return "it reads C other than element by element";
        kinds.push_back(InputKind::Accumulator);
        acc = generic.getMatchingBlockArgument(in);
        continue;
      }
      kinds.push_back(type ? kindOf(map, rank, type.getRank())
                           : InputKind::Other);
    }
    bool usesOut = generic.payloadUsesValueFromOperand(&init);
    if (!acc) {
      // readsC: C is the init, and the body reads it.
      acc = generic.getMatchingBlockArgument(&init);
    } else if (usesOut) {
      return "it reads its output's old values";
    }

    auto yield = cast<linalg::YieldOp>(generic.getBody()->getTerminator());
    Chain chain;
    BodyMatcher matcher(generic, *acc, kinds);
    if (std::string why = matcher.match(yield.getValues()[0], chain);
        !why.empty())
      return why;

    if (chain.factor != 1.0 && matmul.getEpilogueAttr())
      return "it multiplies by a constant after the steps already fused; "
             "a scale there is an operand";

    // Writing another buffer leaves C unwritten: only a local buffer the
    // product is the only value of, and nothing else reads, may be.
    double beta = matmul.getBeta() ? matmul.getBeta()->convertToDouble() : 1.0;
    SmallVector<Operation *> deadC;
    if (out != c) {
      if (beta != 0.0)
        return "C's old values are part of the product (beta is not 0): "
               "writing another buffer would drop them";
      if (!c.getDefiningOp<memref::AllocOp>() &&
          !c.getDefiningOp<memref::AllocaOp>())
        return "C is not a buffer local to this function: writing the "
               "result elsewhere would leave C unwritten";
      for (Operation *user : c.getUsers()) {
        if (user == matmul || user == generic)
          continue;
        if (!isa<memref::DeallocOp>(user))
          return "C is also used by `" +
                 user->getName().getStringRef().str() +
                 "`: writing the result elsewhere would leave C unwritten";
        deadC.push_back(user);
      }
    }

    // The new matmul, at the generic's place (its operands are defined
    // there).
    // The fused kernel reads its operands while it writes `out`, and
    // reads no C but the product: no operand may be a view of C or of
    // `out` (but a residual that is `out` itself, read and written element
    // by element by the same thread), and `out` no view of A or B.
    // Distinct function arguments are taken not to alias, as tgemm.matmul
    // takes its A, B and C.
    Value outRoot = rootOf(out), cRoot = rootOf(c);
    if (outRoot == rootOf(matmul.getA()) || outRoot == rootOf(matmul.getB()))
      return "it writes (a view of) A or B";
    for (Value v : matmul.getEpilogueOperands())
      if (rootOf(v) == outRoot)
        return "it writes (a view of) an operand of the steps fused before";
    SmallVector<EpilogueStepAttr> operandSteps;
    for (Attribute a : chain.steps)
      if (auto s = cast<EpilogueStepAttr>(a); s.takesOperand())
        operandSteps.push_back(s);
    for (auto [input, s] : llvm::zip_equal(chain.inputs, operandSteps)) {
      Value v = generic.getDpsInputOperand(input)->get();
      bool selfResidual = v == out && s.getOp() == EpilogueOp::Residual;
      if (rootOf(v) == cRoot || (rootOf(v) == outRoot && !selfResidual))
        return "input #" + std::to_string(input) + " is a view of " +
               (rootOf(v) == cRoot ? "C" : "its output") +
               ": the fused kernel would read it while it writes";
      auto type = cast<MemRefType>(v.getType());
      if (type.getRank() == 0 && !type.getLayout().isIdentity())
        return "input #" + std::to_string(input) +
               " is a scalar with a layout; the epilogue reads packed "
               "vectors";
    }

    OpBuilder builder(generic);
    SmallVector<Value> operands(matmul.getEpilogueOperands());
    SmallVector<Operation *> views;
    for (unsigned input : chain.inputs) {
      Value v = generic.getDpsInputOperand(input)->get();
      auto type = cast<MemRefType>(v.getType());
      if (type.getRank() == 0) { // a scalar as the one element of a vector
        v = memref::ExpandShapeOp::create(
            builder, generic.getLoc(),
            MemRefType::get({1}, type.getElementType(), nullptr,
                            type.getMemorySpace()),
            v, ArrayRef<ReassociationIndices>{});
        views.push_back(v.getDefiningOp());
      }
      operands.push_back(v);
    }
    SmallVector<Attribute> steps;
    if (ArrayAttr old = matmul.getEpilogueAttr())
      steps.append(old.begin(), old.end());
    steps.append(chain.steps);
    double alpha =
        matmul.getAlpha() ? matmul.getAlpha()->convertToDouble() : 1.0;
    auto f64 = [&](double v) { return builder.getF64FloatAttr(v); };
    auto fused = MatmulOp::create(
        builder, matmul.getLoc(), /*result=*/Type(), matmul.getA(),
        matmul.getB(), out,
        matmul.getLayoutAAttr(), matmul.getLayoutBAttr(), matmul.getAccAttr(),
        chain.factor == 1.0 && !matmul.getAlphaAttr()
            ? FloatAttr()
            : f64(alpha * chain.factor),
        f64(beta * chain.factor), matmul.getConfigAttr(),
        matmul.getScheduleAttr(), operands,
        steps.empty() ? nullptr : builder.getArrayAttr(steps),
        matmul.getUnsignedOperandsAttr());
    if (std::string why = verifyMessage(fused); !why.empty()) {
      fused.erase();
      for (Operation *view : llvm::reverse(views))
        view->erase();
      return "the fused tgemm.matmul would not verify: " + why;
    }
    matmul.erase();
    generic.erase();
    for (Operation *op : deadC)
      op->erase();
    if (c.use_empty())
      c.getDefiningOp()->erase();
    matmul = fused;
    return "";
  }

  MatmulOp matmul;
};

} // namespace

std::string mlir::tgemm::verifyMessage(Operation *op) {
  std::string message;
  ScopedDiagnosticHandler capture(op->getContext(), [&](Diagnostic &diag) {
    if (message.empty() && diag.getSeverity() == DiagnosticSeverity::Error)
      message = diag.str();
    return success();
  });
  if (succeeded(mlir::verify(op)))
    return "";
  return message.empty() ? "tgemm.matmul does not verify" : message;
}

void mlir::tgemm::fuseElementwiseEpilogue(MatmulOp matmul) {
  Fuser fuser(matmul);
  while (true) {
    Operation *next = fuser.matmul->getNextNode();
    while (next && isTransparent(next))
      next = next->getNextNode();
    auto generic = dyn_cast_or_null<linalg::GenericOp>(next);
    if (!generic || !readsC(generic, fuser.matmul.getC()))
      break;
    if (std::string why = fuser.fuse(generic); !why.empty()) {
      generic.emitRemark() << "not fused into the epilogue of the "
                              "tgemm.matmul before it, left as it is: "
                           << why;
      return;
    }
  }
  // An element-wise op that reads C further on, after something that
  // touches memory, stays a loop of its own.
  Value c = fuser.matmul.getC();
  for (Operation *op = fuser.matmul->getNextNode(); op;
       op = op->getNextNode()) {
    auto generic = dyn_cast<linalg::GenericOp>(op);
    if (!generic || !readsC(generic, c))
      continue;
    Operation *between = fuser.matmul->getNextNode();
    while (between != generic && isTransparent(between))
      between = between->getNextNode();
    generic.emitRemark()
        << "not fused into the epilogue of the tgemm.matmul before it, left "
           "as it is: `"
        << between->getName() << "` between them touches memory";
    return;
  }
}
