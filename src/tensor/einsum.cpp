// einsum as one composition: parse the subscripts, take the diagonal of each repeated subscript,
// align every operand to one axis order (output axes, then contracted ones) with PERMUTE and
// RESHAPE, multiply (broadcasting fills the missing axes), and sum the contracted axes. The
// multiply-then-sum is the spec's gemm written for any subscripts.
#include <algorithm>
#include <cctype>
#include <map>

#include "tensor/broadcast.h"
#include "tensor/shape_util.h"
#include "tensor/tensor.h"
#include "uop/errors.h"

namespace onegrad {

namespace {

// A subscript label: a letter, or (>= kEllipsis) one axis of the ellipsis, counted from its first.
using Label = int;
constexpr Label kEllipsis = 1000;

struct Term {
  std::vector<char> letters;  // in order
  int ellipsis_at = -1;       // how many letters come before the "...", -1 without one
};

Term parse_term(const std::string& eq, size_t begin, size_t end) {
  Term t;
  for (size_t i = begin; i < end; i++) {
    char c = eq[i];
    if (std::isalpha(static_cast<unsigned char>(c))) {
      t.letters.push_back(c);
    } else if (c == '.') {
      if (eq.compare(i, 3, "...") != 0 || i + 3 > end)
        throw ParseError("einsum: '.' must be part of an ellipsis '...' in '" + eq + "'", 1, int(i + 1));
      if (t.ellipsis_at >= 0)
        throw ParseError("einsum: more than one ellipsis in a subscript of '" + eq + "'", 1, int(i + 1));
      t.ellipsis_at = int(t.letters.size());
      i += 2;
    } else if (c != ' ') {
      throw ParseError(std::string("einsum: invalid character '") + c + "' in '" + eq +
                           "' (subscripts are letters, '...', ',' and '->')",
                       1, int(i + 1));
    }
  }
  return t;
}

// The term's labels for an operand of rank `ndim` (the ellipsis stands for ndim - letters axes,
// right-aligned among the `ell` ellipsis axes of the whole equation).
std::vector<Label> labels_of(const Term& t, size_t ndim, size_t ell) {
  std::vector<Label> out;
  size_t n_ell = ndim - t.letters.size();
  for (size_t i = 0; i <= t.letters.size(); i++) {
    if (int(i) == t.ellipsis_at)
      for (size_t k = 0; k < n_ell; k++) out.push_back(kEllipsis + int(ell - n_ell + k));
    if (i < t.letters.size()) out.push_back(t.letters[i]);
  }
  return out;
}

std::string label_name(Label l) {
  return l >= kEllipsis ? "... axis " + std::to_string(l - kEllipsis) : std::string("'") + char(l) + "'";
}

// The diagonal of axes a and b (equal sizes n) as the last axis: move them last, flatten them to
// n*n, pad n at the end to n*(n+1), view as (n, n+1) and keep column 0: element i*(n+1) is x[i, i].
Tensor diagonal_last(const Tensor& x, size_t a, size_t b) {
  Dims s = x.shape();
  std::vector<int64_t> order;
  for (size_t i = 0; i < s.size(); i++)
    if (i != a && i != b) order.push_back(int64_t(i));
  Dims lead;
  for (int64_t i : order) lead.push_back(s[i]);
  order.push_back(int64_t(a));
  order.push_back(int64_t(b));
  int64_t n = s[a];
  auto with = [&](std::initializer_list<int64_t> tail) {
    Dims d = lead;
    d.insert(d.end(), tail);
    return d;
  };
  Tensor y = x.permute(order).reshape(with({n * n}));
  std::vector<std::pair<int64_t, int64_t>> pad(lead.size() + 1, {0, 0});
  pad.back() = {0, n};
  y = y.pad(pad).reshape(with({n, n + 1}));
  std::vector<std::pair<int64_t, int64_t>> keep;
  for (int64_t d : lead) keep.push_back({0, d});
  keep.push_back({0, n});
  keep.push_back({0, 1});
  return y.shrink(keep).reshape(with({n}));
}

}  // namespace

Tensor Tensor::einsum(const std::string& equation, const std::vector<Tensor>& operands) {
  if (operands.empty()) throw ShapeError("einsum: expects at least one operand");
  check_same_device("einsum", operands);
  size_t arrow = equation.find("->");
  size_t lhs_end = arrow == std::string::npos ? equation.size() : arrow;
  if (arrow != std::string::npos && equation.find("->", arrow + 2) != std::string::npos)
    throw ParseError("einsum: more than one '->' in '" + equation + "'", 1, int(equation.find("->", arrow + 2) + 1));
  std::vector<Term> terms;
  for (size_t b = 0;;) {
    size_t e = equation.find(',', b);
    if (e == std::string::npos || e > lhs_end) e = lhs_end;
    terms.push_back(parse_term(equation, b, e));
    if (e == lhs_end) break;
    b = e + 1;
  }
  if (terms.size() != operands.size())
    throw ShapeError("einsum: '" + equation + "' has " + std::to_string(terms.size()) + " operand subscripts but " +
                     std::to_string(operands.size()) + " operands were given");

  // Ranks: each operand has exactly its letters, plus any number of axes for a "...".
  size_t ell = 0;
  for (size_t k = 0; k < terms.size(); k++) {
    size_t nd = operands[k].shape().size(), nl = terms[k].letters.size();
    bool has = terms[k].ellipsis_at >= 0;
    if (has ? nd < nl : nd != nl)
      throw ShapeError("einsum: operand " + std::to_string(k) + " has shape " + shape_text(operands[k].shape()) +
                       " but its subscripts name " + std::to_string(nl) + " dims" + (has ? " and an ellipsis" : ""));
    if (has) ell = std::max(ell, nd - nl);
  }

  // Sizes per label: equal across operands, or 1 (broadcast).
  std::map<Label, int64_t> size;
  std::map<Label, int> count;
  std::vector<std::vector<Label>> labels;
  std::vector<Label> first_seen;
  for (size_t k = 0; k < terms.size(); k++) {
    labels.push_back(labels_of(terms[k], operands[k].shape().size(), ell));
    Dims s = operands[k].shape();
    for (size_t i = 0; i < s.size(); i++) {
      Label l = labels[k][i];
      if (l < kEllipsis) count[l]++;
      auto it = size.find(l);
      if (it == size.end()) {
        size[l] = s[i];
        first_seen.push_back(l);
      } else if (it->second != s[i] && it->second != 1 && s[i] != 1) {
        throw ShapeError("einsum: subscript " + label_name(l) + " has size " + std::to_string(it->second) +
                         " and size " + std::to_string(s[i]) + " (operand " + std::to_string(k) + ", shape " +
                         shape_text(s) + ")");
      } else {
        it->second = std::max(it->second, s[i]);
      }
    }
  }

  // The output's labels: given after "->" (ellipsis axes left out of it are summed, as PyTorch),
  // or implicitly the ellipsis then the letters seen once,
  // in alphabetical order (numpy, torch).
  std::vector<Label> out;
  if (arrow != std::string::npos) {
    Term o = parse_term(equation, arrow + 2, equation.size());
    for (char c : o.letters) {
      if (!size.count(c))
        throw ShapeError(std::string("einsum: output subscript '") + c + "' does not appear in the inputs of '" +
                         equation + "'");
      if (std::count(o.letters.begin(), o.letters.end(), c) > 1)
        throw ShapeError(std::string("einsum: output subscript '") + c + "' appears more than once in '" + equation +
                         "'");
    }
    out = labels_of(o, o.letters.size() + (o.ellipsis_at >= 0 ? ell : 0), ell);
  } else {
    for (size_t k = 0; k < ell; k++) out.push_back(kEllipsis + int(k));
    std::vector<Label> once;
    for (auto [l, c] : count)
      if (c == 1) once.push_back(l);
    std::sort(once.begin(), once.end());
    out.insert(out.end(), once.begin(), once.end());
  }
  std::vector<Label> order = out;  // then the contracted labels, in order of appearance
  for (Label l : first_seen)
    if (std::find(order.begin(), order.end(), l) == order.end()) order.push_back(l);

  // Each operand: diagonals for repeated labels, then its axes in `order`, 1 where it has none.
  Tensor prod;
  for (size_t k = 0; k < terms.size(); k++) {
    Tensor x = operands[k];
    std::vector<Label> ls = labels[k];
    for (bool again = true; again;) {
      again = false;
      for (size_t a = 0; a < ls.size() && !again; a++)
        for (size_t b = a + 1; b < ls.size() && !again; b++) {
          if (ls[a] != ls[b]) continue;
          Dims s = x.shape();
          if (s[a] != s[b])
            throw ShapeError("einsum: subscript " + label_name(ls[a]) + " is repeated in operand " + std::to_string(k) +
                             " with sizes " + std::to_string(s[a]) + " and " + std::to_string(s[b]));
          x = diagonal_last(x, a, b);
          Label l = ls[a];
          ls.erase(ls.begin() + b);
          ls.erase(ls.begin() + a);
          ls.push_back(l);
          again = true;
        }
    }
    std::vector<int64_t> perm;
    Dims full;
    Dims s = x.shape();
    for (Label l : order) {
      auto it = std::find(ls.begin(), ls.end(), l);
      if (it == ls.end()) {
        full.push_back(1);
      } else {
        perm.push_back(int64_t(it - ls.begin()));
        full.push_back(s[it - ls.begin()]);
      }
    }
    x = x.permute(perm).reshape(full);
    prod = prod.uop() ? prod.mul(x) : x;
  }
  Dims target;
  for (Label l : order) target.push_back(size[l]);
  DType dt = prod.dtype();
  prod = prod.expand(target);
  if (order.size() == out.size()) return prod;
  std::vector<int64_t> contracted;
  for (size_t i = out.size(); i < order.size(); i++) contracted.push_back(int64_t(i));
  return prod.sum(contracted).cast(dt);
}

}  // namespace onegrad
