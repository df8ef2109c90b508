// TransformerEncoderLayer and TransformerDecoderLayer modules (transformer_layers.h).
#include "nn/transformer_layers.h"

#include <type_traits>

namespace onegrad::nn {

namespace {

AttentionParams attention_params(const MultiheadAttention& m) {
  return {m.in_proj_weight, m.in_proj_bias, m.out_proj->weight, m.out_proj->bias, m.num_heads,
          m.is_training() ? m.dropout : 0.0, m.batch_first};
}

LayerNormParams norm_params(const LayerNorm& n) { return {n.normalized_shape, n.weight, n.bias, n.eps}; }

std::shared_ptr<MultiheadAttention> attention(const TransformerLayerOptions& o) {
  return std::make_shared<MultiheadAttention>(o.d_model, o.nhead, o.dropout, true, o.batch_first);
}

std::shared_ptr<LayerNorm> layer_norm(const TransformerLayerOptions& o) {
  return std::make_shared<LayerNorm>(std::vector<int64_t>{o.d_model}, o.layer_norm_eps);
}

}  // namespace

TransformerLayerBase::TransformerLayerBase(const TransformerLayerOptions& o, const std::string& layer)
    : activation(named_activation(o.activation, layer)), norm_first(o.norm_first) {
  self_attn = register_module("self_attn", attention(o));
}

void TransformerLayerBase::add_feed_forward(const TransformerLayerOptions& o) {
  linear1 = register_module("linear1", std::make_shared<Linear>(o.d_model, o.dim_feedforward));
  dropout = register_module("dropout", std::make_shared<Dropout>(o.dropout));
  linear2 = register_module("linear2", std::make_shared<Linear>(o.dim_feedforward, o.d_model));
}

FeedForwardParams TransformerLayerBase::feed_forward_params() const {
  return {{linear1->weight, linear1->bias}, {linear2->weight, linear2->bias}, rate(*dropout), activation};
}

TransformerEncoderLayer::TransformerEncoderLayer(const TransformerLayerOptions& o)
    : TransformerLayerBase(o, "TransformerEncoderLayer") {
  add_feed_forward(o);
  norm1 = register_module("norm1", layer_norm(o));
  norm2 = register_module("norm2", layer_norm(o));
  dropout1 = register_module("dropout1", std::make_shared<Dropout>(o.dropout));
  dropout2 = register_module("dropout2", std::make_shared<Dropout>(o.dropout));
}

EncoderLayerParams TransformerEncoderLayer::params() const {
  return {attention_params(*self_attn), feed_forward_params(), norm_params(*norm1), norm_params(*norm2),
          rate(*dropout1), rate(*dropout2), norm_first};
}

Tensor TransformerEncoderLayer::forward(const Tensor& src, const std::optional<Tensor>& src_mask,
                                        const std::optional<Tensor>& src_key_padding_mask) {
  return transformer_encoder_layer(params(), src, src_mask, src_key_padding_mask, is_training());
}

TransformerDecoderLayer::TransformerDecoderLayer(const TransformerLayerOptions& o)
    : TransformerLayerBase(o, "TransformerDecoderLayer") {
  multihead_attn = register_module("multihead_attn", attention(o));
  add_feed_forward(o);
  norm1 = register_module("norm1", layer_norm(o));
  norm2 = register_module("norm2", layer_norm(o));
  norm3 = register_module("norm3", layer_norm(o));
  dropout1 = register_module("dropout1", std::make_shared<Dropout>(o.dropout));
  dropout2 = register_module("dropout2", std::make_shared<Dropout>(o.dropout));
  dropout3 = register_module("dropout3", std::make_shared<Dropout>(o.dropout));
}

DecoderLayerParams TransformerDecoderLayer::params() const {
  return {attention_params(*self_attn), attention_params(*multihead_attn), feed_forward_params(),
          norm_params(*norm1), norm_params(*norm2), norm_params(*norm3),
          rate(*dropout1), rate(*dropout2), rate(*dropout3), norm_first};
}

Tensor TransformerDecoderLayer::forward(const Tensor& tgt, const Tensor& memory, const std::optional<Tensor>& tgt_mask,
                                        const std::optional<Tensor>& memory_mask,
                                        const std::optional<Tensor>& tgt_key_padding_mask,
                                        const std::optional<Tensor>& memory_key_padding_mask) {
  return transformer_decoder_layer(params(), tgt, memory, tgt_mask, memory_mask, tgt_key_padding_mask,
                                   memory_key_padding_mask, is_training());
}

template <class Layer>
TransformerStack<Layer>::TransformerStack(const TransformerLayerOptions& o, int64_t num_layers, bool final_norm) {
  if (num_layers < 1)
    throw ArgumentError(std::string(std::is_same_v<Layer, TransformerEncoderLayer> ? "TransformerEncoder"
                                                                                   : "TransformerDecoder") +
                        ": num_layers must be a positive integer, got " + std::to_string(num_layers));
  layers = register_module("layers", std::make_shared<Sequential>());
  for (int64_t i = 0; i < num_layers; i++) {
    layer_list.push_back(std::make_shared<Layer>(o));
    if (i) layer_list.back()->load_state_dict(layer_list.front()->state_dict());  // written in place: own buffers
    layers->push_back(layer_list.back());
  }
  if (final_norm) norm = register_module("norm", layer_norm(o));
}

template <class Layer>
TransformerStack<Layer>::TransformerStack(std::vector<std::shared_ptr<Layer>> built, ModulePtr final_norm)
    : layer_list(std::move(built)) {
  layers = register_module("layers", std::make_shared<Sequential>());
  for (const auto& layer : layer_list) layers->push_back(layer);
  if (final_norm) norm = register_module("norm", std::move(final_norm));
}

template class TransformerStack<TransformerEncoderLayer>;
template class TransformerStack<TransformerDecoderLayer>;

Tensor TransformerEncoder::forward(const Tensor& src, const std::optional<Tensor>& mask,
                                   const std::optional<Tensor>& src_key_padding_mask) {
  Tensor x = src;
  for (const auto& layer : layer_list) x = layer->forward(x, mask, src_key_padding_mask);
  return finish(x);
}

Tensor TransformerDecoder::forward(const Tensor& tgt, const Tensor& memory, const std::optional<Tensor>& tgt_mask,
                                   const std::optional<Tensor>& memory_mask,
                                   const std::optional<Tensor>& tgt_key_padding_mask,
                                   const std::optional<Tensor>& memory_key_padding_mask) {
  Tensor x = tgt;
  for (const auto& layer : layer_list)
    x = layer->forward(x, memory, tgt_mask, memory_mask, tgt_key_padding_mask, memory_key_padding_mask);
  return finish(x);
}

}  // namespace onegrad::nn
