// RNN, GRU and LSTM, unrolled over the sequence (its length is static) into one tensor graph.
// Gate orders as ONNX defines them (GRU: z r h, LSTM: i o f c); direction forward, reverse or
// bidirectional; layout 0 (seq, batch, ...) or 1 (batch, seq, ...); LSTM peepholes.
#include "onnx/computed_once.h"
#include "onnx/op_table.h"
#include "uop/unsupported_error.h"

namespace onegrad::onnx {
namespace {

using Outs = std::vector<Tensor>;

struct Act {
  std::string name;
  Tensor operator()(const Tensor& x) const {
    if (name == "Sigmoid") return x.sigmoid();
    if (name == "Tanh") return x.tanh();
    if (name == "Relu") return x.relu();
    throw UnsupportedError("recurrent activation " + name + " is not supported");
  }
};

enum class Cell { Rnn, Gru, Lstm };

// Row `d` of a (dirs, ...) weight.
Tensor dir_row(const Tensor& t, int64_t d) { return t.getitem({IndexItem(d)}); }

// One direction over the whole sequence: the outputs per step (batch, H) and the final state(s).
struct DirResult {
  std::vector<Tensor> ys;
  Tensor h, c;
};

DirResult run_direction(Cell cell, const std::vector<Tensor>& xs, bool reverse, const Tensor& W, const Tensor& R,
                        const std::optional<Tensor>& B, const std::optional<Tensor>& P, Tensor h, Tensor c,
                        const std::vector<Act>& act, int64_t hidden, bool linear_before_reset, std::optional<double> clip) {
  int64_t gates = cell == Cell::Rnn ? 1 : cell == Cell::Gru ? 3 : 4;
  Tensor Wt = W.transpose(0, 1), Rt = R.transpose(0, 1);
  std::optional<Tensor> wb, rb;
  if (B) {
    wb = B->shrink({{0, gates * hidden}});
    rb = B->shrink({{gates * hidden, 2 * gates * hidden}});
  }
  auto part = [hidden](const Tensor& t, int64_t k) {  // gate k of a (..., gates*H) tensor
    std::vector<std::pair<int64_t, int64_t>> b;
    auto s = t.shape();
    for (size_t i = 0; i + 1 < s.size(); ++i) b.push_back({0, s[i]});
    b.push_back({k * hidden, (k + 1) * hidden});
    return t.shrink(b);
  };
  auto clipped = [&](Tensor v) {
    if (!clip) return v;
    return v.clamp(Tensor::scalar(ConstValue::from_float(-*clip), v.dtype()), Tensor::scalar(ConstValue::from_float(*clip), v.dtype()));
  };
  DirResult r;
  size_t n = xs.size();
  r.ys.resize(n);
  for (size_t step = 0; step < n; ++step) {
    size_t t = reverse ? n - 1 - step : step;
    Tensor xw = xs[t].matmul(Wt);
    if (wb) xw = xw.add(*wb);
    Tensor hr = h.matmul(Rt);
    if (rb && cell != Cell::Gru) hr = hr.add(*rb);
    if (cell == Cell::Rnn) {
      h = act[0](clipped(xw.add(hr)));
    } else if (cell == Cell::Gru) {
      Tensor hrb = rb ? hr.add(*rb) : hr;
      Tensor z = act[0](clipped(part(xw, 0).add(part(hrb, 0))));
      Tensor rg = act[0](clipped(part(xw, 1).add(part(hrb, 1))));
      Tensor cand;
      if (linear_before_reset) {
        cand = act[1](clipped(part(xw, 2).add(rg.mul(part(hrb, 2)))));
      } else {
        Tensor rh = rg.mul(h).matmul(part(Rt, 2));
        if (rb) rh = rh.add(part(*rb, 2));
        cand = act[1](clipped(part(xw, 2).add(rh)));
      }
      h = z.rsub(ConstValue::from_float(1)).mul(cand).add(z.mul(h));
    } else {
      Tensor g = xw.add(hr);
      Tensor gi = part(g, 0), go = part(g, 1), gf = part(g, 2), gc = part(g, 3);
      if (P) {
        gi = gi.add(part(*P, 0).mul(c));
        gf = gf.add(part(*P, 2).mul(c));
      }
      Tensor i = act[0](clipped(gi)), f = act[0](clipped(gf)), cc = act[1](clipped(gc));
      c = f.mul(c).add(i.mul(cc));
      if (P) go = go.add(part(*P, 1).mul(c));
      Tensor o = act[0](clipped(go));
      h = o.mul(act[2](c));
    }
    r.ys[t] = h;
  }
  r.h = h;
  r.c = c;
  return r;
}

Outs recurrent(const Node& n, Cell cell) {
  Tensor X = computed_once(n.in(0));  // read by each of the gates x hidden columns of xs[t] @ Wt
  bool batch_first = n.attr_int("layout", 0) != 0;
  if (batch_first) X = X.transpose(0, 1);
  const Tensor& R = n.in(2);
  int64_t hidden = n.attr_int("hidden_size", R.shape().back());
  std::string direction = n.attr_string("direction", "forward");
  int64_t dirs = direction == "bidirectional" ? 2 : 1;
  int64_t seq = X.shape()[0], batch = X.shape()[1];
  if (n.has(4))  // every sequence the full length is the same as none given
    for (int64_t len : n.ints(4))
      if (len != seq) n.unsupported("sequence_lens shorter than the sequence");
  std::vector<std::string> names = n.attr_strings("activations", cell == Cell::Rnn    ? std::vector<std::string>{"Tanh", "Tanh"}
                                                     : cell == Cell::Gru ? std::vector<std::string>{"Sigmoid", "Tanh", "Sigmoid", "Tanh"}
                                                                         : std::vector<std::string>{"Sigmoid", "Tanh", "Tanh", "Sigmoid", "Tanh", "Tanh"});
  if (n.has_attr("activation_alpha") || n.has_attr("activation_beta")) n.unsupported("activation_alpha/beta");
  std::optional<double> clip;
  if (n.has_attr("clip")) clip = n.attr_float("clip", 0);
  std::vector<Tensor> xs = X.unbind(0);
  size_t per_dir = cell == Cell::Rnn ? 1 : cell == Cell::Gru ? 2 : 3;
  // A constant W or R is kept transposed per direction (run_direction multiplies by its transpose),
  // so the gates' matmul reads contiguous weights across the gates it upcasts.
  auto weight = [&](size_t i, int64_t d) {
    Tensor w = dir_row(n.in(i), d);
    if (!n.constant(i)) return w;
    return n.folded(int(10 * i + size_t(d)), [&] { return w.transpose(0, 1).contiguous(); }).transpose(0, 1);
  };
  std::vector<DirResult> res;
  for (int64_t d = 0; d < dirs; ++d) {
    std::vector<Act> act;
    for (size_t k = 0; k < per_dir; ++k) act.push_back(Act{names.at(size_t(d) * per_dir + k)});
    std::optional<Tensor> B, P;
    if (n.has(3)) B = dir_row(n.in(3), d);
    size_t init_h = 5, init_c = 6, peep = 7;
    Tensor h0 = n.has(init_h) ? dir_row(batch_first ? n.in(init_h).transpose(0, 1) : n.in(init_h), d)
                              : Tensor::zeros({batch, hidden}, X.dtype(), X.device());
    Tensor c0 = cell == Cell::Lstm && n.has(init_c) ? dir_row(batch_first ? n.in(init_c).transpose(0, 1) : n.in(init_c), d)
                                                     : Tensor::zeros({batch, hidden}, X.dtype(), X.device());
    if (cell == Cell::Lstm && n.has(peep)) P = dir_row(n.in(peep), d);
    bool reverse = direction == "reverse" || d == 1;
    res.push_back(run_direction(cell, xs, reverse, weight(1, d), weight(2, d), B, P, h0, c0, act, hidden,
                                n.attr_int("linear_before_reset", 0) != 0, clip));
  }
  // Y (seq, dirs, batch, H); Y_h, Y_c (dirs, batch, H); layout 1 puts batch first
  std::vector<Tensor> steps;
  for (int64_t t = 0; t < seq; ++t) {
    std::vector<Tensor> per;
    for (auto& r : res) per.push_back(r.ys[size_t(t)]);
    steps.push_back(Tensor::stack(per, 0));
  }
  Tensor Y = Tensor::stack(steps, 0);
  std::vector<Tensor> hs, cs;
  for (auto& r : res) {
    hs.push_back(r.h);
    cs.push_back(r.c);
  }
  Tensor Yh = Tensor::stack(hs, 0), Yc = Tensor::stack(cs, 0);
  if (batch_first) {
    Y = Y.permute({2, 0, 1, 3});
    Yh = Yh.transpose(0, 1);
    Yc = Yc.transpose(0, 1);
  }
  Outs outs{Y, Yh};
  if (cell == Cell::Lstm) outs.push_back(Yc);
  return outs;
}

}  // namespace

void add_recurrent_ops(OpTable& t) {
  t["RNN"] = [](const Node& n) { return recurrent(n, Cell::Rnn); };
  t["GRU"] = [](const Node& n) { return recurrent(n, Cell::Gru); };
  t["LSTM"] = [](const Node& n) { return recurrent(n, Cell::Lstm); };
}

}  // namespace onegrad::onnx
