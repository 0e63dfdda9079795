//===- IndexMath.h - Short builders for index arithmetic --------*- C++ -*-===//

#ifndef TGEMM_UTILS_INDEXMATH_H
#define TGEMM_UTILS_INDEXMATH_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"

namespace mlir::tgemm {

/// Emits `index` arithmetic at the builder's insertion point, so that tile
/// address computations read like the formulas they implement.
struct IndexMath {
  OpBuilder &b;
  Location loc;

  Value c(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  Value add(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
  Value add(Value x, int64_t y) { return y == 0 ? x : add(x, c(y)); }
  Value mul(Value x, Value y) { return arith::MulIOp::create(b, loc, x, y); }
  Value mul(Value x, int64_t y) { return y == 1 ? x : mul(x, c(y)); }
  Value div(Value x, int64_t y) {
    return y == 1 ? x : arith::DivUIOp::create(b, loc, x, c(y)).getResult();
  }
  Value rem(Value x, int64_t y) { return arith::RemUIOp::create(b, loc, x, c(y)); }
  Value lt(Value x, Value y) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, x, y);
  }
  Value eq(Value x, Value y) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, x, y);
  }
  Value toI32(Value x) {
    return arith::IndexCastOp::create(b, loc, b.getI32Type(), x);
  }
  Value toI64(Value x) {
    return arith::IndexCastOp::create(b, loc, b.getI64Type(), x);
  }
};

} // namespace mlir::tgemm

#endif // TGEMM_UTILS_INDEXMATH_H
