// The ONNX ops onegrad runs, by op_type (ops of another domain than ai.onnx by "domain/op_type"): each builds its outputs from Tensor ops (so a model lowers
// like any other program) and reads node.opset() where the op's meaning changed between opsets
// (Squeeze's axes became an input at 13, Softmax's axis semantics at 13, ...). One file per family
// adds its ops: op_elementwise.cpp, op_reduce.cpp, op_shape.cpp, op_nn.cpp, op_index.cpp, ...
#pragma once
#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

#include "onnx/node.h"

namespace onegrad::onnx {

// The op's outputs in order; it may return fewer than the node names when the rest are optional
// outputs the op does not make (the runner then refuses a node that asks for them).
using OpFn = std::function<std::vector<Tensor>(const Node&)>;
using OpTable = std::unordered_map<std::string, OpFn>;

// Every op, built once.
const OpTable& op_table();

// One per family (the table is their union).
void add_elementwise_ops(OpTable& t);
void add_math_ops(OpTable& t);
void add_reduce_ops(OpTable& t);
void add_shape_ops(OpTable& t);
void add_index_ops(OpTable& t);
void add_nn_ops(OpTable& t);
void add_norm_ops(OpTable& t);
void add_creation_ops(OpTable& t);
void add_control_ops(OpTable& t);
void add_loss_ops(OpTable& t);
void add_resize_ops(OpTable& t);
void add_recurrent_ops(OpTable& t);
void add_quant_ops(OpTable& t);
void add_training_ops(OpTable& t);
void add_unique_ops(OpTable& t);
void add_nms_ops(OpTable& t);
void add_grid_sample_ops(OpTable& t);

}  // namespace onegrad::onnx
