// Matching a UPat against a UOp, with backtracking.
//
// A pattern's sources can match in more than one way (commutative sources in either order, nested
// commutative patterns, a repeated name that must agree with an earlier capture), and a choice made
// for one source can make a later source fail. So matching is written in continuation style: each
// step is given "the rest of the match" and calls it once it has matched; when the rest fails the
// step tries its next alternative. The recursion follows the pattern's depth (patterns are a
// handful of nodes), never the graph's.
//
// Invariant: every function here that returns false leaves `Captures` as it found it.
#include <algorithm>
#include <array>

#include "rewrite/upat.h"
#include "uop/errors.h"

namespace onegrad {

// ---- Captures --------------------------------------------------------------------------------

const UOpRef& Captures::operator[](const std::string& name) const {
  for (const auto& [n, node] : items_)
    if (n == name) return node;
  throw InternalError("rewrite: no capture named '" + name + "' (the pattern does not name it)");
}

bool Captures::has(const std::string& name) const {
  for (const auto& item : items_)
    if (item.first == name) return true;
  return false;
}

bool Captures::bind(const std::string& name, const UOpRef& node) {
  // Nodes are interned, so "the same node" is pointer equality.
  for (const auto& [n, bound] : items_)
    if (n == name) return bound == node;
  items_.emplace_back(name, node);
  return true;
}

// ---- matching --------------------------------------------------------------------------------

namespace {

// "The rest of the match": a function pointer and its environment, so building one costs nothing
// (no std::function, no allocation).
struct Cont {
  bool (*fn)(const void* env, Captures& caps);
  const void* env;
  bool operator()(Captures& caps) const { return fn(env, caps); }
};

template <class F>
Cont cont_of(const F& f) {
  return Cont{[](const void* env, Captures& caps) { return (*static_cast<const F*>(env))(caps); }, &f};
}

bool match_node(const UPat::Data& p, const UOpRef& node, Captures& caps, Cont rest);

// The sources to match: pattern i (or the one repeated pattern) against node source order[i].
struct SrcList {
  const UPat* pats;
  bool repeated;         // one pattern for every source
  const UOpRef* srcs;
  const uint8_t* order;  // a permutation of the sources, or null for the written order
  size_t n;
};

bool match_srcs(const SrcList& l, size_t i, Captures& caps, Cont rest) {
  if (i == l.n) return rest(caps);
  const UPat& pat = l.repeated ? l.pats[0] : l.pats[i];
  const UOpRef& src = l.srcs[l.order ? l.order[i] : i];
  auto next = [&](Captures& c) { return match_srcs(l, i + 1, c, rest); };
  return match_node(pat.data(), src, caps, cont_of(next));
}

template <class T>
bool contains(const std::vector<T>& v, const T& x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

// Try the sources in every order. Commutative ALU ops have two sources, so this is two tries; the
// general case is kept small by the limit on the index array.
bool match_permuted(const UPat::Data& p, const UOp& u, Captures& caps, Cont rest) {
  constexpr size_t kMaxPermuted = 8;
  size_t n = u.src.size();
  if (n > kMaxPermuted)
    throw InternalError("rewrite: pattern " + std::string(op_name(u.op)) + " permutes " + std::to_string(n) +
                        " sources (at most 8)");
  std::array<uint8_t, kMaxPermuted> order{};
  for (size_t i = 0; i < n; i++) order[i] = uint8_t(i);
  do {
    SrcList l{p.src->data(), false, u.src.data(), order.data(), n};
    if (match_srcs(l, 0, caps, rest)) return true;
  } while (std::next_permutation(order.begin(), order.begin() + n));
  return false;
}

bool match_node(const UPat::Data& p, const UOpRef& node, Captures& caps, Cont rest) {
  const UOp& u = *node;
  // Cheap rejections first: op, dtype, arg, constant value, source count, then the predicate.
  if (!p.ops.empty() && !contains(p.ops, u.op)) return false;
  if (!p.dtypes.empty() && !contains(p.dtypes, u.dtype)) return false;
  if (p.arg && !(*p.arg == u.arg)) return false;
  if (p.const_value && !u.is_const_value(*p.const_value)) return false;
  if (p.src && !p.repeat) {
    size_t want = p.src->size();
    if (p.any_len ? u.src.size() < want : u.src.size() != want) return false;
  }
  if (p.predicate && !p.predicate(u)) return false;

  size_t mark = caps.size();
  if (!p.name.empty() && !caps.bind(p.name, node)) return false;
  bool ok;
  if (!p.src) {
    ok = rest(caps);
  } else if (p.repeat) {
    ok = match_srcs(SrcList{p.src->data(), true, u.src.data(), nullptr, u.src.size()}, 0, caps, rest);
  } else if (p.permute_src && !p.any_len && u.src.size() >= 2) {
    ok = match_permuted(p, u, caps, rest);
  } else {
    ok = match_srcs(SrcList{p.src->data(), false, u.src.data(), nullptr, p.src->size()}, 0, caps, rest);
  }
  if (!ok) caps.truncate(mark);
  return ok;
}

}  // namespace

bool match(const UPat& pat, const UOpRef& node, Captures& out) {
  auto done = [](Captures&) { return true; };
  return match_node(pat.data(), node, out, cont_of(done));
}

}  // namespace onegrad
