//===- Epilogue.cpp - The steps of a fused epilogue -----------------------===//

#include "tgemm/runtime/Epilogue.h"

namespace tgemm::runtime {

namespace {
struct OpName {
  EpilogueOp op;
  const char *name;
};
constexpr OpName kOps[] = {
    {EpilogueOp::Bias, "bias"},          {EpilogueOp::Scale, "scale"},
    {EpilogueOp::Residual, "residual"},  {EpilogueOp::Relu, "relu"},
    {EpilogueOp::GeluTanh, "gelu_tanh"}, {EpilogueOp::GeluErf, "gelu_erf"},
    {EpilogueOp::Silu, "silu"},
};
} // namespace

const char *epilogueOpName(EpilogueOp op) {
  for (const OpName &entry : kOps)
    if (entry.op == op)
      return entry.name;
  return "?";
}

std::optional<EpilogueOp> parseEpilogueOp(std::string_view name) {
  for (const OpName &entry : kOps)
    if (name == entry.name)
      return entry.op;
  return std::nullopt;
}

const char *allEpilogueOpNames() {
  return "bias, scale, residual, relu, gelu_tanh, gelu_erf, silu";
}

const char *broadcastName(Broadcast broadcast) {
  switch (broadcast) {
  case Broadcast::Row:
    return "row";
  case Broadcast::Col:
    return "col";
  case Broadcast::Scalar:
    return "scalar";
  }
  return "?";
}

std::optional<Broadcast> parseBroadcast(std::string_view name) {
  if (name == "row")
    return Broadcast::Row;
  if (name == "col")
    return Broadcast::Col;
  if (name == "scalar")
    return Broadcast::Scalar;
  return std::nullopt;
}

} // namespace tgemm::runtime
