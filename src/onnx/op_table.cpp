#include "onnx/op_table.h"

namespace onegrad::onnx {

const OpTable& op_table() {
  static const OpTable table = [] {
    OpTable t;
    add_elementwise_ops(t);
    add_math_ops(t);
    add_reduce_ops(t);
    add_shape_ops(t);
    add_index_ops(t);
    add_nn_ops(t);
    add_norm_ops(t);
    add_creation_ops(t);
    add_control_ops(t);
    add_loss_ops(t);
    add_resize_ops(t);
    add_recurrent_ops(t);
    add_quant_ops(t);
    add_training_ops(t);
    add_unique_ops(t);
    add_nms_ops(t);
    add_grid_sample_ops(t);
    return t;
  }();
  return table;
}

}  // namespace onegrad::onnx
