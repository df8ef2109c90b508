// Movement ops become index math (spec: Rangeify; DESIGN decision 5: there is no view object). On
// the spec's INDEX, INDEX(T, i_0, ..., i_{n-1}) with one ()-shaped index per axis of T is the
// element of T at (i_0, ..., i_{n-1}); each rule rewrites the INDEX of a movement op to the INDEX of
// its source, at the element the movement op shows there:
//
//   INDEX(RESHAPE(x), i)        -> INDEX(x, split(flatten(i)))   group by group (index_math.h)
//   INDEX(PERMUTE(x){p}, i)     -> INDEX(x, j)   j[p[k]] = i[k]
//   INDEX(EXPAND(x), i)         -> INDEX(x, j)   j[k] = 0 where x's axis k is 1, else i[k]
//   INDEX(SHRINK(x, o, s), i)   -> INDEX(x, i + o)
//   INDEX(FLIP(x){f}, i)        -> INDEX(x, j)   j[k] = n_k - 1 - i[k] where f[k]
//   INDEX(PAD(x, o, s), i)      -> INDEX(x, i - o)               valid &= o <= i < o + n
//   INDEX(m(x, ...), i)         -> INDEX(x, i)    m: DETACH, CONTIGUOUSBACKWARD, AFTER, LOAD, CONTIGUOUS
//
// The last are the same elements: markers, the buffer once its STOREs ran, a copy (the walk stops
// at a copy that is in memory; it passes one only while building the kernel that makes it).
//
// PAD is the one rule that narrows the validity (inside a kernel the padded region is invalid,
// read as 0: spec README, PAD); the walk carries it beside the INDEX. The kernel builder reads the
// element of a view (a load) and the element a setitem writes (a store's address) through this
// one table.
#pragma once
#include <functional>

#include "rewrite/pattern_matcher.h"
#include "schedule/index_math.h"

namespace onegrad {

// What a walk through views carries beside the INDEX (the rules' context).
struct ViewWalk {
  UOpRef valid;    // the element is not padding: the caller's validity narrowed by each PAD passed
  UOpRef padding;  // the PADs' part of it alone (const true when no PAD restricted the element)
  std::function<bool(const UOp*)> stops_at;  // views the walk must not pass: their value is in memory
};

const PatternMatcher& view_rules();

// Whether a rule of view_rules() rewrites an INDEX of u.
bool is_view(const UOp& u);

// INDEX(view, idx...) rewritten until its source is not a view or is one `walk.stops_at`: returns
// that INDEX, with `walk` narrowed by every PAD passed.
UOpRef index_through_views(const UOp* view, const IndexVec& idx, ViewWalk& walk);

// The indices of an INDEX node (its sources after the first).
IndexVec indices_of(const UOpRef& index);

}  // namespace onegrad
