//===- LaneCoords.h - A lane's place in a fragment layout -------*- C++ -*-===//
//
// The lane half of a fragment layout of the facts table
// (::tgemm::FragmentLayout) for one lane: the fragment loads of the ptx
// lowering and the staged epilogue of the m16n8 accumulators index by it.
//
//===----------------------------------------------------------------------===//

#ifndef TGEMM_CONVERSION_LANECOORDS_H
#define TGEMM_CONVERSION_LANECOORDS_H

#include "tgemm/Target/InstructionFacts.h"
#include "tgemm/Utils/IndexMath.h"

#include "llvm/ADT/STLExtras.h"

#include <cassert>

namespace mlir::tgemm {

/// The lane modes of a fragment layout of the facts table for one lane:
/// the index of each mode, emitted once (slowest mode first), and the
/// lane's row or column within the instruction tile from them.
class LaneCoords {
public:
  LaneCoords() = default;
  LaneCoords(IndexMath &im, ArrayRef<::tgemm::LayoutMode> modes, Value lane)
      : modes(modes) {
    SmallVector<int64_t> below(modes.size(), 1);
    for (size_t i = 1; i < modes.size(); ++i)
      below[i] = below[i - 1] * modes[i - 1].extent;
    index.resize(modes.size());
    for (size_t i = modes.size(); i-- > 0;) {
      Value x = im.div(lane, below[i]);
      // The slowest mode spans the rest of the warp's 32 lanes.
      bool last = i + 1 == modes.size() && below[i] * modes[i].extent == 32;
      index[i] = last ? x : im.rem(x, modes[i].extent);
    }
  }

  /// Whether `layout` has these lane modes.
  bool isLaneOf(const ::tgemm::FragmentLayout &layout) const {
    return llvm::equal(modes, layout.laneModes,
                       [](const ::tgemm::LayoutMode &x,
                          const ::tgemm::LayoutMode &y) {
                         return x.extent == y.extent &&
                                x.rowStride == y.rowStride &&
                                x.colStride == y.colStride;
                       });
  }

  /// `base` (if any) + the lane's row + `offset`.
  Value row(IndexMath &im, int64_t offset, Value base = Value()) const {
    return sum(im, offset, base, /*rows=*/true, 1);
  }
  /// `base` (if any) + the lane's column in `unit`s + `offset`.
  Value col(IndexMath &im, int64_t offset, Value base = Value(),
            int64_t unit = 1) const {
    return sum(im, offset, base, /*rows=*/false, unit);
  }

private:
  Value sum(IndexMath &im, int64_t offset, Value base, bool rows,
            int64_t unit) const {
    Value total = base;
    for (auto [mode, x] : llvm::zip_equal(modes, index)) {
      int64_t stride = rows ? mode.rowStride : mode.colStride;
      if (stride == 0)
        continue;
      assert(stride % unit == 0 && "a lane between units");
      Value term = im.mul(x, stride / unit);
      total = total ? im.add(total, term) : term;
    }
    return total ? im.add(total, offset) : im.c(offset);
  }

  ArrayRef<::tgemm::LayoutMode> modes;
  SmallVector<Value> index; // of each lane mode
};

} // namespace mlir::tgemm

#endif // TGEMM_CONVERSION_LANECOORDS_H
