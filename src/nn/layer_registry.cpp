// The layer table (layer_registry.h): one entry per layer, torch's constructor arguments in
// torch's order. Options that only a language's front end has (device, dtype, inplace) are not here.
#include "nn/layer_registry.h"

#include <algorithm>

#include "nn/activation_layers.h"
#include "nn/attention_layer.h"
#include "nn/bilinear.h"
#include "nn/conv_layers.h"
#include "nn/linear.h"
#include "nn/loss_layers.h"
#include "nn/norm_layers.h"
#include "nn/pool_layers.h"
#include "nn/prelu.h"
#include "nn/recurrent_layers.h"
#include "nn/transformer_layers.h"
#include "tensor/random.h"

namespace onegrad::nn {

// ---- LayerArgs

const LayerValue& LayerArgs::at(const std::string& name) const {
  for (const auto& [n, v] : values_)
    if (n == name) return v;
  throw ArgumentError(layer_ + ": no argument '" + name + "'");
}

void LayerArgs::wrong(const std::string& name, const char* wanted) const {
  throw ArgumentError(layer_ + ": argument '" + name + "' must be " + wanted);
}

bool LayerArgs::is_none(const std::string& name) const { return std::holds_alternative<std::monostate>(at(name)); }
bool LayerArgs::is_text(const std::string& name) const { return std::holds_alternative<std::string>(at(name)); }

bool LayerArgs::flag(const std::string& name) const {
  if (auto* b = std::get_if<bool>(&at(name))) return *b;
  wrong(name, "a bool");
}

int64_t LayerArgs::integer(const std::string& name) const {
  if (auto* i = std::get_if<int64_t>(&at(name))) return *i;
  wrong(name, "an int");
}

double LayerArgs::real(const std::string& name) const {
  const LayerValue& v = at(name);
  if (auto* d = std::get_if<double>(&v)) return *d;
  if (auto* i = std::get_if<int64_t>(&v)) return double(*i);
  wrong(name, "a number");
}

std::string LayerArgs::text(const std::string& name) const {
  if (auto* s = std::get_if<std::string>(&at(name))) return *s;
  wrong(name, "a string");
}

std::vector<int64_t> LayerArgs::ints(const std::string& name) const {
  const LayerValue& v = at(name);
  if (auto* l = std::get_if<std::vector<int64_t>>(&v)) return *l;
  if (auto* i = std::get_if<int64_t>(&v)) return {*i};
  wrong(name, "an int or a sequence of ints");
}

std::optional<int64_t> LayerArgs::opt_integer(const std::string& name) const {
  return is_none(name) ? std::nullopt : std::optional<int64_t>(integer(name));
}

std::optional<double> LayerArgs::opt_real(const std::string& name) const {
  return is_none(name) ? std::nullopt : std::optional<double>(real(name));
}

std::optional<Tensor> LayerArgs::opt_tensor(const std::string& name) const {
  if (is_none(name)) return std::nullopt;
  if (auto* t = std::get_if<Tensor>(&at(name))) return *t;
  wrong(name, "a Tensor or None");
}

// ---- the table

namespace {

using A = LayerArg;
LayerValue none() { return std::monostate{}; }
LayerValue ints(std::vector<int64_t> v) { return v; }
LayerValue text(const char* s) { return std::string(s); }

// A layer with no arguments.
template <class M>
LayerEntry plain(const char* name) {
  return {name, {}, [](const LayerArgs&) -> ModulePtr { return std::make_shared<M>(); }};
}

template <class Conv>
ModulePtr make_conv(const LayerArgs& a) {
  bool text_padding = a.is_text("padding");
  auto m = std::make_shared<Conv>(a.integer("in_channels"), a.integer("out_channels"), a.ints("kernel_size"),
                                  a.ints("stride"), text_padding ? std::vector<int64_t>{0} : a.ints("padding"),
                                  a.ints("dilation"), a.integer("groups"), a.flag("bias"));
  if (text_padding) m->padding_text = a.text("padding");
  return m;
}

template <class Conv>
LayerEntry conv(const char* name) {
  return {name,
          {{"in_channels", {}}, {"out_channels", {}}, {"kernel_size", {}}, {"stride", 1}, {"padding", 0},
           {"dilation", 1}, {"groups", 1}, {"bias", true}},
          make_conv<Conv>};
}

template <class Conv>
LayerEntry conv_transpose(const char* name) {
  return {name,
          {{"in_channels", {}}, {"out_channels", {}}, {"kernel_size", {}}, {"stride", 1}, {"padding", 0},
           {"output_padding", 0}, {"groups", 1}, {"bias", true}, {"dilation", 1}},
          [](const LayerArgs& a) -> ModulePtr {
            return std::make_shared<Conv>(a.integer("in_channels"), a.integer("out_channels"), a.ints("kernel_size"),
                                          a.ints("stride"), a.ints("padding"), a.ints("output_padding"),
                                          a.integer("groups"), a.flag("bias"), a.ints("dilation"));
          }};
}

template <class BN>
LayerEntry batch_norm(const char* name) {
  return {name,
          {{"num_features", {}}, {"eps", 1e-5}, {"momentum", 0.1}, {"affine", true}, {"track_running_stats", true}},
          [](const LayerArgs& a) -> ModulePtr {
            return std::make_shared<BN>(a.integer("num_features"), a.real("eps"), a.opt_real("momentum"),
                                        a.flag("affine"), a.flag("track_running_stats"));
          }};
}

// stride None: the kernel size (an empty list for the Tensor pools)
std::vector<int64_t> stride_of(const LayerArgs& a) {
  return a.is_none("stride") ? std::vector<int64_t>{} : a.ints("stride");
}

LayerEntry max_pool(const char* name, int64_t nd) {
  return {name,
          {{"kernel_size", {}}, {"stride", none()}, {"padding", 0}, {"dilation", 1}, {"return_indices", false},
           {"ceil_mode", false}},
          [nd](const LayerArgs& a) -> ModulePtr {
            return std::make_shared<MaxPool>(nd, a.ints("kernel_size"), stride_of(a), a.ints("padding"),
                                             a.ints("dilation"), a.flag("return_indices"), a.flag("ceil_mode"));
          }};
}

// AvgPool1d has no divisor_override (torch's signature).
LayerEntry avg_pool(const char* name, int64_t nd) {
  std::vector<LayerArg> args{{"kernel_size", {}}, {"stride", none()}, {"padding", 0}, {"ceil_mode", false},
                             {"count_include_pad", true}};
  if (nd > 1) args.push_back({"divisor_override", none()});
  return {name, args, [nd](const LayerArgs& a) -> ModulePtr {
            return std::make_shared<AvgPool>(nd, a.ints("kernel_size"), stride_of(a), a.ints("padding"),
                                             a.flag("ceil_mode"), a.flag("count_include_pad"),
                                             nd > 1 ? a.opt_integer("divisor_override") : std::nullopt);
          }};
}

// output_size: -1 keeps an axis (Python turns torch's None into -1).
LayerEntry adaptive_pool(const char* name, int64_t nd, bool max) {
  std::vector<LayerArg> args{{"output_size", {}}};
  if (max) args.push_back({"return_indices", false});
  return {name, args, [nd, max](const LayerArgs& a) -> ModulePtr {
            return std::make_shared<AdaptivePool>(nd, max, a.ints("output_size"), max && a.flag("return_indices"));
          }};
}

// A loss of (reduction) alone, torch's L1Loss and MSELoss.
template <class L>
LayerEntry reduction_loss(const char* name) {
  return {name, {{"reduction", text("mean")}},
          [](const LayerArgs& a) -> ModulePtr { return std::make_shared<L>(a.text("reduction")); }};
}

// The losses, torch's arguments without the legacy size_average/reduce (Python maps those onto
// reduction, F._reduction).
void add_losses(std::vector<LayerEntry>& t) {
  t.push_back(reduction_loss<L1Loss>("L1Loss"));
  t.push_back(reduction_loss<MSELoss>("MSELoss"));
  t.push_back({"NLLLoss", {{"weight", none()}, {"ignore_index", -100}, {"reduction", text("mean")}},
               [](const LayerArgs& a) -> ModulePtr {
                 return std::make_shared<NLLLoss>(a.opt_tensor("weight"), a.integer("ignore_index"),
                                                  a.text("reduction"));
               }});
  t.push_back({"CrossEntropyLoss",
               {{"weight", none()}, {"ignore_index", -100}, {"reduction", text("mean")}, {"label_smoothing", 0.0}},
               [](const LayerArgs& a) -> ModulePtr {
                 return std::make_shared<CrossEntropyLoss>(a.opt_tensor("weight"), a.integer("ignore_index"),
                                                           a.text("reduction"), a.real("label_smoothing"));
               }});
  t.push_back({"BCELoss", {{"weight", none()}, {"reduction", text("mean")}}, [](const LayerArgs& a) -> ModulePtr {
                 return std::make_shared<BCELoss>(a.opt_tensor("weight"), a.text("reduction"));
               }});
  t.push_back({"BCEWithLogitsLoss", {{"weight", none()}, {"reduction", text("mean")}, {"pos_weight", none()}},
               [](const LayerArgs& a) -> ModulePtr {
                 return std::make_shared<BCEWithLogitsLoss>(a.opt_tensor("weight"), a.text("reduction"),
                                                            a.opt_tensor("pos_weight"));
               }});
  t.push_back({"SmoothL1Loss", {{"reduction", text("mean")}, {"beta", 1.0}}, [](const LayerArgs& a) -> ModulePtr {
                 return std::make_shared<SmoothL1Loss>(a.text("reduction"), a.real("beta"));
               }});
  t.push_back({"HuberLoss", {{"reduction", text("mean")}, {"delta", 1.0}}, [](const LayerArgs& a) -> ModulePtr {
                 return std::make_shared<HuberLoss>(a.text("reduction"), a.real("delta"));
               }});
  t.push_back({"KLDivLoss", {{"reduction", text("mean")}, {"log_target", false}}, [](const LayerArgs& a) -> ModulePtr {
                 return std::make_shared<KLDivLoss>(a.text("reduction"), a.flag("log_target"));
               }});
  t.push_back({"CosineEmbeddingLoss", {{"margin", 0.0}, {"reduction", text("mean")}},
               [](const LayerArgs& a) -> ModulePtr {
                 return std::make_shared<CosineEmbeddingLoss>(a.real("margin"), a.text("reduction"));
               }});
}

// torch's TransformerEncoderLayer/DecoderLayer arguments; activation by name ("relu", "gelu"): a
// Python callable replaces the built layer's activation afterwards (docs/nn.md).
template <class L>
LayerEntry transformer_layer(const char* name) {
  return {name,
          {{"d_model", {}}, {"nhead", {}}, {"dim_feedforward", 2048}, {"dropout", 0.1}, {"activation", text("relu")},
           {"layer_norm_eps", 1e-5}, {"batch_first", false}, {"norm_first", false}},
          [](const LayerArgs& a) -> ModulePtr {
            return std::make_shared<L>(TransformerLayerOptions{a.integer("d_model"), a.integer("nhead"),
                                                               a.integer("dim_feedforward"), a.real("dropout"),
                                                               a.text("activation"), a.real("layer_norm_eps"),
                                                               a.flag("batch_first"), a.flag("norm_first")});
          }};
}

// The recurrent layers' shared arguments after torch's input_size, hidden_size, num_layers.
std::vector<LayerArg> recurrent_args(std::vector<LayerArg> extra) {
  std::vector<LayerArg> args{{"input_size", {}}, {"hidden_size", {}}, {"num_layers", 1}};
  args.insert(args.end(), extra.begin(), extra.end());
  return args;
}

std::vector<LayerEntry> build_table() {
  std::vector<LayerEntry> t;
  t.push_back({"Linear", {{"in_features", {}}, {"out_features", {}}, {"bias", true}},
               [](const LayerArgs& a) {
                 return ModulePtr(std::make_shared<Linear>(a.integer("in_features"), a.integer("out_features"),
                                                           a.flag("bias")));
               },
               [](const Module& m) {
                 auto& l = static_cast<const Linear&>(m);
                 return LayerValues{{"in_features", l.weight.shape()[1]}, {"out_features", l.weight.shape()[0]},
                                    {"bias", l.bias.has_value()}};
               }});
  t.push_back({"Bilinear",
               {{"in1_features", {}}, {"in2_features", {}}, {"out_features", {}}, {"bias", true}},
               [](const LayerArgs& a) {
                 return ModulePtr(std::make_shared<Bilinear>(a.integer("in1_features"), a.integer("in2_features"),
                                                             a.integer("out_features"), a.flag("bias")));
               }});
  t.push_back({"Embedding", {{"num_embeddings", {}}, {"embedding_dim", {}}, {"padding_idx", none()}},
               [](const LayerArgs& a) {
                 return ModulePtr(std::make_shared<Embedding>(a.integer("num_embeddings"), a.integer("embedding_dim"),
                                                              a.opt_integer("padding_idx")));
               }});
  t.push_back(conv<Conv1d>("Conv1d"));
  t.push_back(conv<Conv2d>("Conv2d"));
  t.push_back(conv<Conv3d>("Conv3d"));
  t.push_back(conv_transpose<ConvTranspose1d>("ConvTranspose1d"));
  t.push_back(conv_transpose<ConvTranspose2d>("ConvTranspose2d"));
  t.push_back(batch_norm<BatchNorm1d>("BatchNorm1d"));
  t.push_back(batch_norm<BatchNorm2d>("BatchNorm2d"));
  t.push_back({"LayerNorm", {{"normalized_shape", {}}, {"eps", 1e-5}, {"elementwise_affine", true}},
               [](const LayerArgs& a) {
                 return ModulePtr(std::make_shared<LayerNorm>(a.ints("normalized_shape"), a.real("eps"),
                                                              a.flag("elementwise_affine")));
               },
               [](const Module& m) {
                 auto& n = static_cast<const LayerNorm&>(m);
                 return LayerValues{{"normalized_shape", n.normalized_shape}, {"eps", n.eps},
                                    {"elementwise_affine", n.weight.has_value()}};
               }});
  t.push_back({"GroupNorm", {{"num_groups", {}}, {"num_channels", {}}, {"eps", 1e-5}, {"affine", true}},
               [](const LayerArgs& a) {
                 return ModulePtr(std::make_shared<GroupNorm>(a.integer("num_groups"), a.integer("num_channels"),
                                                              a.real("eps"), a.flag("affine")));
               }});
  t.push_back({"RMSNorm", {{"normalized_shape", {}}, {"eps", none()}, {"elementwise_affine", true}},
               [](const LayerArgs& a) {
                 return ModulePtr(std::make_shared<RMSNorm>(a.ints("normalized_shape"), a.opt_real("eps"),
                                                            a.flag("elementwise_affine")));
               }});
  t.push_back({"PReLU", {{"num_parameters", 1}, {"init", 0.25}}, [](const LayerArgs& a) {
                 return ModulePtr(std::make_shared<PReLU>(a.integer("num_parameters"), a.real("init")));
               }});
  t.push_back({"Dropout", {{"p", 0.5}},
               [](const LayerArgs& a) { return ModulePtr(std::make_shared<Dropout>(a.real("p"))); },
               [](const Module& m) { return LayerValues{{"p", static_cast<const Dropout&>(m).p}}; }});
  t.push_back(plain<ReLU>("ReLU"));
  t.push_back(plain<Tanh>("Tanh"));
  t.push_back(plain<Sigmoid>("Sigmoid"));
  t.push_back(plain<SiLU>("SiLU"));
  t.push_back(plain<Identity>("Identity"));
  t.push_back({"GELU", {{"approximate", text("none")}},
               [](const LayerArgs& a) { return ModulePtr(std::make_shared<GELU>(a.text("approximate"))); }});
  t.push_back({"LeakyReLU", {{"negative_slope", 0.01}},
               [](const LayerArgs& a) { return ModulePtr(std::make_shared<LeakyReLU>(a.real("negative_slope"))); }});
  t.push_back({"ELU", {{"alpha", 1.0}},
               [](const LayerArgs& a) { return ModulePtr(std::make_shared<ELU>(a.real("alpha"))); }});
  t.push_back({"Softplus", {{"beta", 1.0}, {"threshold", 20.0}}, [](const LayerArgs& a) {
                 return ModulePtr(std::make_shared<Softplus>(a.real("beta"), a.real("threshold")));
               }});
  t.push_back({"Flatten", {{"start_dim", 1}, {"end_dim", -1}}, [](const LayerArgs& a) {
                 return ModulePtr(std::make_shared<Flatten>(a.integer("start_dim"), a.integer("end_dim")));
               }});
  t.push_back({"Softmax", {{"dim", none()}},
               [](const LayerArgs& a) { return ModulePtr(std::make_shared<Softmax>(a.opt_integer("dim"))); }});
  t.push_back({"LogSoftmax", {{"dim", none()}},
               [](const LayerArgs& a) { return ModulePtr(std::make_shared<LogSoftmax>(a.opt_integer("dim"))); }});
  for (int64_t nd = 1; nd <= 3; ++nd) {
    static const char* names[4][4] = {{}, {"MaxPool1d", "AvgPool1d", "AdaptiveMaxPool1d", "AdaptiveAvgPool1d"},
                                      {"MaxPool2d", "AvgPool2d", "AdaptiveMaxPool2d", "AdaptiveAvgPool2d"},
                                      {"MaxPool3d", "AvgPool3d", "AdaptiveMaxPool3d", "AdaptiveAvgPool3d"}};
    t.push_back(max_pool(names[nd][0], nd));
    t.push_back(avg_pool(names[nd][1], nd));
    t.push_back(adaptive_pool(names[nd][2], nd, true));
    t.push_back(adaptive_pool(names[nd][3], nd, false));
  }
  add_losses(t);
  t.push_back({"MultiheadAttention",
               {{"embed_dim", {}}, {"num_heads", {}}, {"dropout", 0.0}, {"bias", true}, {"batch_first", false}},
               [](const LayerArgs& a) {
                 return ModulePtr(std::make_shared<MultiheadAttention>(a.integer("embed_dim"), a.integer("num_heads"),
                                                                       a.real("dropout"), a.flag("bias"),
                                                                       a.flag("batch_first")));
               },
               [](const Module& m) {
                 auto& h = static_cast<const MultiheadAttention&>(m);
                 return LayerValues{{"embed_dim", h.embed_dim}, {"num_heads", h.num_heads}, {"dropout", h.dropout},
                                    {"bias", h.in_proj_bias.has_value()}, {"batch_first", h.batch_first}};
               }});
  t.push_back(transformer_layer<TransformerEncoderLayer>("TransformerEncoderLayer"));
  t.push_back(transformer_layer<TransformerDecoderLayer>("TransformerDecoderLayer"));
  t.push_back({"RNN",
               recurrent_args({{"nonlinearity", text("tanh")}, {"bias", true}, {"batch_first", false},
                               {"dropout", 0.0}, {"bidirectional", false}}),
               [](const LayerArgs& a) {
                 return ModulePtr(std::make_shared<RNN>(a.integer("input_size"), a.integer("hidden_size"),
                                                        a.integer("num_layers"), a.text("nonlinearity"),
                                                        a.flag("bias"), a.flag("batch_first"), a.real("dropout"),
                                                        a.flag("bidirectional")));
               }});
  t.push_back({"LSTM",
               recurrent_args({{"bias", true}, {"batch_first", false}, {"dropout", 0.0}, {"bidirectional", false},
                               {"proj_size", 0}}),
               [](const LayerArgs& a) {
                 return ModulePtr(std::make_shared<LSTM>(a.integer("input_size"), a.integer("hidden_size"),
                                                         a.integer("num_layers"), a.flag("bias"), a.flag("batch_first"),
                                                         a.real("dropout"), a.flag("bidirectional"),
                                                         a.integer("proj_size")));
               }});
  t.push_back({"GRU",
               recurrent_args({{"bias", true}, {"batch_first", false}, {"dropout", 0.0}, {"bidirectional", false}}),
               [](const LayerArgs& a) {
                 return ModulePtr(std::make_shared<GRU>(a.integer("input_size"), a.integer("hidden_size"),
                                                        a.integer("num_layers"), a.flag("bias"), a.flag("batch_first"),
                                                        a.real("dropout"), a.flag("bidirectional")));
               }});
  return t;
}

}  // namespace

const std::vector<LayerEntry>& layer_table() {
  static const std::vector<LayerEntry> table = build_table();
  return table;
}

const LayerEntry& layer_entry(const std::string& name) {
  for (const LayerEntry& e : layer_table())
    if (e.name == name) return e;
  throw ArgumentError("no layer named '" + name + "' in the layer table");
}

ModulePtr make_layer(const std::string& name, const std::vector<std::pair<std::string, LayerValue>>& given) {
  const LayerEntry& e = layer_entry(name);
  for (const auto& [k, v] : given)
    if (std::none_of(e.args.begin(), e.args.end(), [&](const LayerArg& a) { return a.name == k; }))
      throw ArgumentError(name + ": unexpected argument '" + k + "'");
  std::vector<std::pair<std::string, LayerValue>> values;
  for (const LayerArg& a : e.args) {
    auto it = std::find_if(given.begin(), given.end(), [&](const auto& kv) { return kv.first == a.name; });
    if (it != given.end()) values.emplace_back(a.name, it->second);
    else if (a.default_value) values.emplace_back(a.name, *a.default_value);
    else throw ArgumentError(name + ": missing required argument '" + a.name + "'");
  }
  return e.make(LayerArgs(name, std::move(values)));
}

LayerValues layer_arguments(const Module& m) {
  const LayerEntry& e = layer_entry(m.name());
  if (!e.arguments_of) throw ArgumentError(m.name() + ": the layer table cannot read its arguments back");
  return e.arguments_of(m);
}

ModulePtr make_layer_shell(const std::string& name, const std::vector<std::pair<std::string, LayerValue>>& given) {
  uint64_t counter = rng_counter();
  ModulePtr m = make_layer(name, given);
  set_rng_counter(counter);
  return m;
}

}  // namespace onegrad::nn
