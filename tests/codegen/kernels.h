// Hand-written kernels in kernel form (docs/kernel-form.md), shared by the codegen and render tests.
// Each is the text of one SINK; parse it with parse_graph.
#pragma once

namespace onegrad::kernels {

// out[i, j] = a[i, j] + b[j] for a 4x8 `a` and an 8-vector `b` (broadcast index math)
inline constexpr const char* kElementwise = R"(
%c4 = CONST index 4
%c8 = CONST index 8
%c32 = CONST index 32
%s8 = STACK index (%c8)
%s32 = STACK index (%c32)
%out = PARAM ptr<float32, GLOBAL> (%s32) {slot=0}
%a = PARAM ptr<float32, GLOBAL> (%s32) {slot=1}
%b = PARAM ptr<float32, GLOBAL> (%s8) {slot=2}
%r0 = RANGE index (%c4) {id=0, LOOP}
%r1 = RANGE index (%c8) {id=1, LOOP}
%m = MUL index (%r0, %c8)
%i = ADD index (%m, %r1)
%ai = INDEX ptr<float32, GLOBAL> (%a, %i)
%x = LOAD float32 (%ai)
%bi = INDEX ptr<float32, GLOBAL> (%b, %r1)
%y = LOAD float32 (%bi)
%v = ADD float32 (%x, %y)
%oi = INDEX ptr<float32, GLOBAL> (%out, %i)
%st = STORE void (%oi, %v)
%e1 = END void (%st, %r1)
%e0 = END void (%e1, %r0)
%sink = SINK void (%e0)
)";

// out[i] = sum_j in[i, j] for a 4x8 `in` (the example of docs/kernel-form.md)
inline constexpr const char* kRowSum = R"(
%c4 = CONST index 4
%c8 = CONST index 8
%c32 = CONST index 32
%s4 = STACK index (%c4)
%s32 = STACK index (%c32)
%out = PARAM ptr<float32, GLOBAL> (%s4) {slot=0}
%in = PARAM ptr<float32, GLOBAL> (%s32) {slot=1}
%r0 = RANGE index (%c4) {id=0, LOOP}
%r1 = RANGE index (%c8) {id=1, REDUCE}
%m = MUL index (%r0, %c8)
%i = ADD index (%m, %r1)
%ii = INDEX ptr<float32, GLOBAL> (%in, %i)
%x = LOAD float32 (%ii)
%acc = REDUCE float32 (%x, %r1) {ADD, axes=[]}
%oi = INDEX ptr<float32, GLOBAL> (%out, %r0)
%st = STORE void (%oi, %acc)
%e = END void (%st, %r0)
%sink = SINK void (%e)
)";

// out[j] = sum_i in[i, j] for a 4x8 `in`
inline constexpr const char* kColumnSum = R"(
%c4 = CONST index 4
%c8 = CONST index 8
%c32 = CONST index 32
%s8 = STACK index (%c8)
%s32 = STACK index (%c32)
%out = PARAM ptr<float32, GLOBAL> (%s8) {slot=0}
%in = PARAM ptr<float32, GLOBAL> (%s32) {slot=1}
%r0 = RANGE index (%c8) {id=0, LOOP}
%r1 = RANGE index (%c4) {id=1, REDUCE}
%m = MUL index (%r1, %c8)
%i = ADD index (%m, %r0)
%ii = INDEX ptr<float32, GLOBAL> (%in, %i)
%x = LOAD float32 (%ii)
%acc = REDUCE float32 (%x, %r1) {ADD, axes=[]}
%oi = INDEX ptr<float32, GLOBAL> (%out, %r0)
%st = STORE void (%oi, %acc)
%e = END void (%st, %r0)
%sink = SINK void (%e)
)";

// out[i] = a[i] inside a second loop r1 that nothing uses: the STORE still runs in r1 (and r1
// cannot be a THREAD axis: every thread would write the same elements)
inline constexpr const char* kStoreInUnusedLoop = R"(
%c2 = CONST index 2
%c4 = CONST index 4
%s4 = STACK index (%c4)
%out = PARAM ptr<float32, GLOBAL> (%s4) {slot=0}
%a = PARAM ptr<float32, GLOBAL> (%s4) {slot=1}
%r0 = RANGE index (%c4) {id=0, LOOP}
%r1 = RANGE index (%c2) {id=1, LOOP}
%ap = INDEX ptr<float32, GLOBAL> (%a, %r0)
%x = LOAD float32 (%ap)
%op = INDEX ptr<float32, GLOBAL> (%out, %r0)
%st = STORE void (%op, %x)
%e1 = END void (%st, %r1)
%e0 = END void (%e1, %r0)
%sink = SINK void (%e0)
)";

// out[i, j] = sum_k a[i, k] * b[k, j]: a 3x4 @ 4x5 matmul
inline constexpr const char* kMatmul = R"(
%c3 = CONST index 3
%c4 = CONST index 4
%c5 = CONST index 5
%c12 = CONST index 12
%c15 = CONST index 15
%c20 = CONST index 20
%s12 = STACK index (%c12)
%s15 = STACK index (%c15)
%s20 = STACK index (%c20)
%out = PARAM ptr<float32, GLOBAL> (%s15) {slot=0}
%a = PARAM ptr<float32, GLOBAL> (%s12) {slot=1}
%b = PARAM ptr<float32, GLOBAL> (%s20) {slot=2}
%r0 = RANGE index (%c3) {id=0, LOOP}
%r1 = RANGE index (%c5) {id=1, LOOP}
%r2 = RANGE index (%c4) {id=2, REDUCE}
%am = MUL index (%r0, %c4)
%ai = ADD index (%am, %r2)
%bm = MUL index (%r2, %c5)
%bi = ADD index (%bm, %r1)
%ap = INDEX ptr<float32, GLOBAL> (%a, %ai)
%bp = INDEX ptr<float32, GLOBAL> (%b, %bi)
%x = LOAD float32 (%ap)
%y = LOAD float32 (%bp)
%xy = MUL float32 (%x, %y)
%acc = REDUCE float32 (%xy, %r2) {ADD, axes=[]}
%om = MUL index (%r0, %c5)
%oi = ADD index (%om, %r1)
%op = INDEX ptr<float32, GLOBAL> (%out, %oi)
%st = STORE void (%op, %acc)
%e1 = END void (%st, %r1)
%e0 = END void (%e1, %r0)
%sink = SINK void (%e0)
)";

// out[j] = sum_i relu(sum_k a[i, k] * b[k, j]) for a 3x4 `a` and a 4x5 `b`: a REDUCE whose value
// holds another REDUCE
inline constexpr const char* kNestedReduce = R"(
%c0 = CONST float32 0.0
%c3 = CONST index 3
%c4 = CONST index 4
%c5 = CONST index 5
%c12 = CONST index 12
%c20 = CONST index 20
%s5 = STACK index (%c5)
%s12 = STACK index (%c12)
%s20 = STACK index (%c20)
%out = PARAM ptr<float32, GLOBAL> (%s5) {slot=0}
%a = PARAM ptr<float32, GLOBAL> (%s12) {slot=1}
%b = PARAM ptr<float32, GLOBAL> (%s20) {slot=2}
%r0 = RANGE index (%c5) {id=0, LOOP}
%r1 = RANGE index (%c3) {id=1, REDUCE}
%r2 = RANGE index (%c4) {id=2, REDUCE}
%am = MUL index (%r1, %c4)
%ai = ADD index (%am, %r2)
%bm = MUL index (%r2, %c5)
%bi = ADD index (%bm, %r0)
%ap = INDEX ptr<float32, GLOBAL> (%a, %ai)
%bp = INDEX ptr<float32, GLOBAL> (%b, %bi)
%x = LOAD float32 (%ap)
%y = LOAD float32 (%bp)
%xy = MUL float32 (%x, %y)
%inner = REDUCE float32 (%xy, %r2) {ADD, axes=[]}
%relu = MAX float32 (%inner, %c0)
%outer = REDUCE float32 (%relu, %r1) {ADD, axes=[]}
%op = INDEX ptr<float32, GLOBAL> (%out, %r0)
%st = STORE void (%op, %outer)
%e0 = END void (%st, %r0)
%sink = SINK void (%e0)
)";

// softmax over the rows of a 4x8 `x`, base 2: m = max_k x[i, k]; s = sum_k exp2(x[i, k] - m);
// out[i, j] = exp2(x[i, j] - m) / s. Two REDUCEs (the second uses the first) and a store loop.
inline constexpr const char* kSoftmax = R"(
%c4 = CONST index 4
%c8 = CONST index 8
%c32 = CONST index 32
%s32 = STACK index (%c32)
%out = PARAM ptr<float32, GLOBAL> (%s32) {slot=0}
%x = PARAM ptr<float32, GLOBAL> (%s32) {slot=1}
%r0 = RANGE index (%c4) {id=0, LOOP}
%r1 = RANGE index (%c8) {id=1, LOOP}
%r2 = RANGE index (%c8) {id=2, REDUCE}
%r3 = RANGE index (%c8) {id=3, REDUCE}
%row = MUL index (%r0, %c8)
%i2 = ADD index (%row, %r2)
%p2 = INDEX ptr<float32, GLOBAL> (%x, %i2)
%x2 = LOAD float32 (%p2)
%m = REDUCE float32 (%x2, %r2) {MAX, axes=[]}
%i3 = ADD index (%row, %r3)
%p3 = INDEX ptr<float32, GLOBAL> (%x, %i3)
%x3 = LOAD float32 (%p3)
%d3 = SUB float32 (%x3, %m)
%e3 = EXP2 float32 (%d3)
%s = REDUCE float32 (%e3, %r3) {ADD, axes=[]}
%i1 = ADD index (%row, %r1)
%p1 = INDEX ptr<float32, GLOBAL> (%x, %i1)
%x1 = LOAD float32 (%p1)
%d1 = SUB float32 (%x1, %m)
%e1 = EXP2 float32 (%d1)
%q = DIV float32 (%e1, %s)
%op = INDEX ptr<float32, GLOBAL> (%out, %i1)
%st = STORE void (%op, %q)
%end1 = END void (%st, %r1)
%end0 = END void (%end1, %r0)
%sink = SINK void (%end0)
)";

// out[i] = a[i - 1] for 1 <= i < 5, else 0: a 4-vector padded by one on each side (a gated LOAD)
inline constexpr const char* kGatedLoad = R"(
%c0 = CONST index 0
%c1 = CONST index 1
%c5 = CONST index 5
%c6 = CONST index 6
%cm1 = CONST index -1
%c4 = CONST index 4
%z = CONST float32 0.0
%s4 = STACK index (%c4)
%s6 = STACK index (%c6)
%out = PARAM ptr<float32, GLOBAL> (%s6) {slot=0}
%a = PARAM ptr<float32, GLOBAL> (%s4) {slot=1}
%r0 = RANGE index (%c6) {id=0, LOOP}
%lo = CMPLT bool (%c0, %r0)
%hi = CMPLT bool (%r0, %c5)
%gate = AND bool (%lo, %hi)
%i = ADD index (%r0, %cm1)
%ap = INDEX ptr<float32, GLOBAL> (%a, %i)
%x = LOAD float32 (%ap, %z, %gate)
%op = INDEX ptr<float32, GLOBAL> (%out, %r0)
%st = STORE void (%op, %x)
%e = END void (%st, %r0)
%sink = SINK void (%e)
)";

// out[i] = a[i] * 2 for i < 3 of 8; the rest of `out` is left alone (a gated STORE)
inline constexpr const char* kGatedStore = R"(
%c3 = CONST index 3
%c8 = CONST index 8
%two = CONST float32 2.0
%s8 = STACK index (%c8)
%out = PARAM ptr<float32, GLOBAL> (%s8) {slot=0}
%a = PARAM ptr<float32, GLOBAL> (%s8) {slot=1}
%r0 = RANGE index (%c8) {id=0, LOOP}
%gate = CMPLT bool (%r0, %c3)
%ap = INDEX ptr<float32, GLOBAL> (%a, %r0)
%x = LOAD float32 (%ap)
%y = MUL float32 (%x, %two)
%op = INDEX ptr<float32, GLOBAL> (%out, %r0)
%st = STORE void (%op, %y, %gate)
%e = END void (%st, %r0)
%sink = SINK void (%e)
)";

// out[i, j] = exp2(a[i]) * b[j] for a 4-vector `a`, an 8-vector `b`: exp2(a[i]) depends on the
// outer loop only, so it is computed outside the inner one (hoisting)
inline constexpr const char* kHoist = R"(
%c4 = CONST index 4
%c8 = CONST index 8
%c32 = CONST index 32
%s4 = STACK index (%c4)
%s8 = STACK index (%c8)
%s32 = STACK index (%c32)
%out = PARAM ptr<float32, GLOBAL> (%s32) {slot=0}
%a = PARAM ptr<float32, GLOBAL> (%s4) {slot=1}
%b = PARAM ptr<float32, GLOBAL> (%s8) {slot=2}
%r0 = RANGE index (%c4) {id=0, LOOP}
%r1 = RANGE index (%c8) {id=1, LOOP}
%ap = INDEX ptr<float32, GLOBAL> (%a, %r0)
%x = LOAD float32 (%ap)
%ex = EXP2 float32 (%x)
%bp = INDEX ptr<float32, GLOBAL> (%b, %r1)
%y = LOAD float32 (%bp)
%v = MUL float32 (%ex, %y)
%m = MUL index (%r0, %c8)
%i = ADD index (%m, %r1)
%op = INDEX ptr<float32, GLOBAL> (%out, %i)
%st = STORE void (%op, %v)
%e1 = END void (%st, %r1)
%e0 = END void (%e1, %r0)
%sink = SINK void (%e0)
)";

// out[i, j] = in[flat // 8 * 8 + flat % 8] with flat = i*8 + j: the index math Rangeify writes
// for a reshape (32,) -> (4, 8) of a contiguous tensor; the simplifier must leave `in[i*8 + j]`
inline constexpr const char* kReshape = R"(
%c4 = CONST index 4
%c8 = CONST index 8
%c32 = CONST index 32
%s32 = STACK index (%c32)
%out = PARAM ptr<float32, GLOBAL> (%s32) {slot=0}
%in = PARAM ptr<float32, GLOBAL> (%s32) {slot=1}
%r0 = RANGE index (%c4) {id=0, LOOP}
%r1 = RANGE index (%c8) {id=1, LOOP}
%m = MUL index (%r0, %c8)
%flat = ADD index (%m, %r1)
%q = IDIV index (%flat, %c8)
%qm = MUL index (%q, %c8)
%rm = MOD index (%flat, %c8)
%src = ADD index (%qm, %rm)
%ip = INDEX ptr<float32, GLOBAL> (%in, %src)
%x = LOAD float32 (%ip)
%op = INDEX ptr<float32, GLOBAL> (%out, %flat)
%st = STORE void (%op, %x)
%e1 = END void (%st, %r1)
%e0 = END void (%e1, %r0)
%sink = SINK void (%e0)
)";

// out[j, i] = in[i, j] for a 4x8 `in`, written as Rangeify does for permute(reshape(in, (4, 8))):
// the (8, 4) output position (r0, r1) reads flat element ((r1*8 + r0) // 8) * 8 + (r1*8 + r0) % 8
inline constexpr const char* kPermute = R"(
%c4 = CONST index 4
%c8 = CONST index 8
%c32 = CONST index 32
%s32 = STACK index (%c32)
%out = PARAM ptr<float32, GLOBAL> (%s32) {slot=0}
%in = PARAM ptr<float32, GLOBAL> (%s32) {slot=1}
%r0 = RANGE index (%c8) {id=0, LOOP}
%r1 = RANGE index (%c4) {id=1, LOOP}
%m = MUL index (%r1, %c8)
%flat = ADD index (%m, %r0)
%q = IDIV index (%flat, %c8)
%qm = MUL index (%q, %c8)
%rm = MOD index (%flat, %c8)
%src = ADD index (%qm, %rm)
%ip = INDEX ptr<float32, GLOBAL> (%in, %src)
%x = LOAD float32 (%ip)
%om = MUL index (%r0, %c4)
%oi = ADD index (%om, %r1)
%op = INDEX ptr<float32, GLOBAL> (%out, %oi)
%st = STORE void (%op, %x)
%e1 = END void (%st, %r1)
%e0 = END void (%e1, %r0)
%sink = SINK void (%e0)
)";

// out[i] = 2 * a[i] for i < n, n a variable: the loop bound is a PARAM
inline constexpr const char* kSymbolicBound = R"(
%c16 = CONST index 16
%two = CONST float32 2.0
%s16 = STACK index (%c16)
%out = PARAM ptr<float32, GLOBAL> (%s16) {slot=0}
%a = PARAM ptr<float32, GLOBAL> (%s16) {slot=1}
%n = PARAM index {slot=0, name="n", min=1, max=16}
%r0 = RANGE index (%n) {id=0, LOOP}
%ap = INDEX ptr<float32, GLOBAL> (%a, %r0)
%x = LOAD float32 (%ap)
%y = MUL float32 (%x, %two)
%op = INDEX ptr<float32, GLOBAL> (%out, %r0)
%st = STORE void (%op, %y)
%e = END void (%st, %r0)
%sink = SINK void (%e)
)";

// out[i] = a[idx[i]] for a 4-vector of int32 indices: an address that is a loaded value
inline constexpr const char* kGatherByIndex = R"(
%c4 = CONST index 4
%s4 = STACK index (%c4)
%out = PARAM ptr<float32, GLOBAL> (%s4) {slot=0}
%a = PARAM ptr<float32, GLOBAL> (%s4) {slot=1}
%ix = PARAM ptr<int32, GLOBAL> (%s4) {slot=2}
%r0 = RANGE index (%c4) {id=0, LOOP}
%ip = INDEX ptr<int32, GLOBAL> (%ix, %r0)
%i = LOAD int32 (%ip)
%ic = CAST index (%i)
%ap = INDEX ptr<float32, GLOBAL> (%a, %ic)
%x = LOAD float32 (%ap)
%op = INDEX ptr<float32, GLOBAL> (%out, %r0)
%st = STORE void (%op, %x)
%e = END void (%st, %r0)
%sink = SINK void (%e)
)";

// out[i] = prod_j in[i, j] for a 4x5 `in`: a MUL reduction (identity 1), so a padded reduce axis
// must mask its extra iterations with 1, not 0 (PADTO)
inline constexpr const char* kRowProduct = R"(
%c4 = CONST index 4
%c5 = CONST index 5
%c20 = CONST index 20
%s4 = STACK index (%c4)
%s20 = STACK index (%c20)
%out = PARAM ptr<float32, GLOBAL> (%s4) {slot=0}
%in = PARAM ptr<float32, GLOBAL> (%s20) {slot=1}
%r0 = RANGE index (%c4) {id=0, LOOP}
%r1 = RANGE index (%c5) {id=1, REDUCE}
%m = MUL index (%r0, %c5)
%i = ADD index (%m, %r1)
%ii = INDEX ptr<float32, GLOBAL> (%in, %i)
%x = LOAD float32 (%ii)
%acc = REDUCE float32 (%x, %r1) {MUL, axes=[]}
%oi = INDEX ptr<float32, GLOBAL> (%out, %r0)
%st = STORE void (%oi, %acc)
%e = END void (%st, %r0)
%sink = SINK void (%e)
)";

}  // namespace onegrad::kernels
