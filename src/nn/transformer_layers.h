// torch.nn.TransformerEncoderLayer and TransformerDecoderLayer as C++ modules (torch 1.13's options
// and submodule names: self_attn, multihead_attn, linear1, dropout, linear2, norm1..3,
// dropout1..3), so state dicts exchange with torch's. The computation is transformer.h's, shared
// with Python. TransformerEncoder / TransformerDecoder stack such layers.
#pragma once
#include "nn/activation_layers.h"
#include "nn/norm_layers.h"
#include "nn/sequential.h"
#include "nn/transformer.h"

namespace onegrad::nn {

struct TransformerLayerOptions {
  int64_t d_model = 0, nhead = 1, dim_feedforward = 2048;
  double dropout = 0.1;
  std::string activation = "relu";  // or "gelu"; a layer's `activation` member may be replaced by any function
  double layer_norm_eps = 1e-5;
  bool batch_first = false, norm_first = false;
};

// What both layers share: self-attention and the feed-forward block with its dropout.
class TransformerLayerBase : public Module {
 public:
  std::shared_ptr<MultiheadAttention> self_attn;
  std::shared_ptr<Linear> linear1;
  std::shared_ptr<Dropout> dropout;
  std::shared_ptr<Linear> linear2;
  Activation activation;
  bool norm_first;

 protected:
  TransformerLayerBase(const TransformerLayerOptions& o, const std::string& layer);
  // registers the feed-forward block after the attention modules (torch's order)
  void add_feed_forward(const TransformerLayerOptions& o);
  FeedForwardParams feed_forward_params() const;
  double rate(const Dropout& d) const { return d.is_training() ? d.p : 0.0; }
};

class TransformerEncoderLayer : public TransformerLayerBase {
 public:
  explicit TransformerEncoderLayer(const TransformerLayerOptions& options);
  Tensor forward(const Tensor& src, const std::optional<Tensor>& src_mask,
                 const std::optional<Tensor>& src_key_padding_mask = std::nullopt);
  Tensor forward(const Tensor& src) override { return forward(src, std::nullopt); }
  std::string name() const override { return "TransformerEncoderLayer"; }
  EncoderLayerParams params() const;  // the current parameters, as transformer_encoder_layer takes them

  std::shared_ptr<LayerNorm> norm1, norm2;
  std::shared_ptr<Dropout> dropout1, dropout2;
};

class TransformerDecoderLayer : public TransformerLayerBase {
 public:
  explicit TransformerDecoderLayer(const TransformerLayerOptions& options);
  Tensor forward(const Tensor& tgt, const Tensor& memory, const std::optional<Tensor>& tgt_mask = std::nullopt,
                 const std::optional<Tensor>& memory_mask = std::nullopt,
                 const std::optional<Tensor>& tgt_key_padding_mask = std::nullopt,
                 const std::optional<Tensor>& memory_key_padding_mask = std::nullopt);
  std::string name() const override { return "TransformerDecoderLayer"; }
  DecoderLayerParams params() const;

  std::shared_ptr<MultiheadAttention> multihead_attn;
  std::shared_ptr<LayerNorm> norm1, norm2, norm3;
  std::shared_ptr<Dropout> dropout1, dropout2, dropout3;
};

// torch.nn.TransformerEncoder / TransformerDecoder: layers (children "layers.0", ...) run in turn,
// then the child "norm" if there is one. Made either from one set of options (num_layers layers,
// each with its own parameters and the first's values, as torch deep-copies the layer it is given;
// with final_norm a LayerNorm(d_model)), or from layers already built and any norm module (Python's
// stacks: the caller made the copies).
template <class Layer>
class TransformerStack : public Module {
 public:
  TransformerStack(const TransformerLayerOptions& options, int64_t num_layers, bool final_norm);
  TransformerStack(std::vector<std::shared_ptr<Layer>> layers, ModulePtr norm);
  std::vector<std::shared_ptr<Layer>> layer_list;  // the children of `layers`, typed
  std::shared_ptr<Sequential> layers;
  ModulePtr norm;  // null without one

 protected:
  Tensor finish(const Tensor& x) const { return norm ? norm->forward(x) : x; }
};

class TransformerEncoder : public TransformerStack<TransformerEncoderLayer> {
 public:
  using TransformerStack::TransformerStack;
  Tensor forward(const Tensor& src, const std::optional<Tensor>& mask,
                 const std::optional<Tensor>& src_key_padding_mask = std::nullopt);
  Tensor forward(const Tensor& src) override { return forward(src, std::nullopt); }
  std::string name() const override { return "TransformerEncoder"; }
};

class TransformerDecoder : public TransformerStack<TransformerDecoderLayer> {
 public:
  using TransformerStack::TransformerStack;
  Tensor forward(const Tensor& tgt, const Tensor& memory, const std::optional<Tensor>& tgt_mask = std::nullopt,
                 const std::optional<Tensor>& memory_mask = std::nullopt,
                 const std::optional<Tensor>& tgt_key_padding_mask = std::nullopt,
                 const std::optional<Tensor>& memory_key_padding_mask = std::nullopt);
  std::string name() const override { return "TransformerDecoder"; }
};

}  // namespace onegrad::nn
