// Buffers and the constructs around them (spec: Buffer, BufferRegion, MatchBufferRegion, Range,
// IterVar). A Buffer is identified by its node; its data Var carries the PointerType whose
// storage_scope is the buffer's scope.
#pragma once
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "tir/ast/expr.h"

namespace onegrad::tir {

enum class BufferType : uint8_t { Default, AutoBroadcast };

// The defaults TVMScript gives T.Buffer/T.alloc_buffer/T.match_buffer (tir-notes 1.3).
constexpr int kDefaultAlignment = 64;

struct BufferNode {
  Var data;
  DataType dtype;
  std::vector<PrimExpr> shape;
  std::vector<PrimExpr> axis_separators;  // IntImms
  std::vector<PrimExpr> strides;          // empty: compact row-major
  PrimExpr elem_offset;                   // may be null
  std::string name;
  int data_alignment = kDefaultAlignment;
  int offset_factor = 1;
  BufferType buffer_type = BufferType::Default;
  SourceLoc loc;

  // The storage scope of data's PointerType ("global" when data has no pointer annotation).
  std::string scope() const;
};

// The index dtype of a shape: int64 when any extent is int64, else int32. TVMScript's default
// elem_offset is IntImm(0) of it.
DataType shape_index_dtype(const std::vector<PrimExpr>& shape);
bool has_default_elem_offset(const BufferNode& b);

// A fresh data Var of PointerType(dtype, scope), named `name`: bool buffers point to int8 (one byte
// per element, spec/README decision 8).
Var make_data_var(const std::string& name, DataType dtype, const std::string& scope, SourceLoc loc = {});

struct Range {
  PrimExpr min;
  PrimExpr extent;  // may be null (spec: Range(min, extent?))
};

struct BufferRegion {
  Buffer buffer;
  std::vector<Range> region;
};

struct MatchBufferRegion {
  Buffer buffer;
  BufferRegion source;
};

// kDataPar is TVM's spatial axis; the spec's list names the others.
enum class IterVarType : uint8_t {
  DataPar, ThreadIndex, CommReduce, Ordered, Opaque, Unrolled, Vectorized, Parallelized, Tensorized
};

struct IterVarNode {
  std::optional<Range> dom;
  Var var;
  IterVarType iter_type = IterVarType::DataPar;
  std::string thread_tag;
};
using IterVar = std::shared_ptr<const IterVarNode>;

}  // namespace onegrad::tir
