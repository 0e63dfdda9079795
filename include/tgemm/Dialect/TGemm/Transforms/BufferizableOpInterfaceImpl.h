//===- BufferizableOpInterfaceImpl.h - tgemm ops and bufferization -*- C++ -*-===//
//
// The bufferization interface of tgemm.matmul's tensor form, registered as
// an external model the way upstream dialects register theirs.
//
//===----------------------------------------------------------------------===//

#ifndef TGEMM_DIALECT_TGEMM_TRANSFORMS_BUFFERIZABLEOPINTERFACEIMPL_H
#define TGEMM_DIALECT_TGEMM_TRANSFORMS_BUFFERIZABLEOPINTERFACEIMPL_H

namespace mlir {
class DialectRegistry;

namespace tgemm {
/// Attaches BufferizableOpInterface to tgemm.matmul, so one-shot-bufferize
/// rewrites its tensor form into the memref form.
void registerBufferizableOpInterfaceExternalModels(DialectRegistry &registry);
} // namespace tgemm
} // namespace mlir

#endif // TGEMM_DIALECT_TGEMM_TRANSFORMS_BUFFERIZABLEOPINTERFACEIMPL_H
