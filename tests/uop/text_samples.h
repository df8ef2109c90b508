// Sample graphs for the text-form tests: a plausible node for every op, and an arg of every kind.
#pragma once
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "uop/uop.h"

namespace onegrad::text_samples {

inline UOpRef f32_buffer(int64_t id, int64_t size) {
  return UOp::create(Ops::BUFFER, {}, BufferArg{id, size, dtypes::float32, Device("CPU"), AddrSpace::GLOBAL});
}

// A node of `op` with sources and an arg of the kinds the spec gives it. The dtype follows the
// spec's table where it has one, else float32.
inline UOpRef sample_node(Ops op) {
  UOpRef t = f32_buffer(1, 12);
  UOpRef u = f32_buffer(2, 12);
  UOpRef shape = UOp::shape_operand(std::vector<int64_t>{3, 4});
  UOpRef offset = UOp::shape_operand(std::vector<int64_t>{1, 0});
  UOpRef i = UOp::index(2);
  UOpRef r = UOp::range(4, 0);
  UOpRef gate = UOp::const_bool(true);
  std::vector<UOpRef> src;
  Arg arg;
  switch (op) {
    case Ops::PARAM:
      src = {shape};
      arg = ParamArg{0, dtypes::float32, Device("CPU"), AddrSpace::GLOBAL, "", std::nullopt, std::nullopt};
      break;
    case Ops::BUFFER: arg = BufferArg{7, 16, dtypes::float32, Device("CPU"), AddrSpace::GLOBAL}; break;
    case Ops::CONST: arg = ConstValue::from_float(1.5); break;
    case Ops::BINARY: arg = std::string("\x7f" "ELF\0\x01\xff", 7); break;
    case Ops::PERMUTE: src = {t}; arg = Arg::Ints{1, 0}; break;
    case Ops::FLIP: src = {t}; arg = Arg::Bools{true, false}; break;
    case Ops::RESHAPE: case Ops::EXPAND: src = {t, shape}; break;
    case Ops::PAD: case Ops::SHRINK: src = {t, offset, shape}; break;
    case Ops::INDEX: src = {t, i, r}; break;
    case Ops::STACK: src = {t, u}; break;
    case Ops::REPLICATED: src = {t}; arg = Arg::Ints{0}; break;
    case Ops::SLICE: src = {t, i}; arg = SliceArg{4, dtypes::float16}; break;
    case Ops::BITCAST: src = {t}; arg = dtypes::int32; break;
    case Ops::REDUCE: src = {t}; arg = ReduceArg{Ops::ADD, {1}}; break;
    case Ops::FUNCTION: case Ops::CALL: src = {UOp::create(Ops::TUPLE, {t}), u}; break;
    case Ops::TUPLE: src = {t, u}; break;
    case Ops::GETTUPLE: src = {UOp::create(Ops::TUPLE, {t, u})}; arg = int64_t(1); break;
    case Ops::LOAD: src = {t, UOp::const_float(dtypes::float32, 0.0), gate}; arg = LoadArg{Device("CPU"), AddrSpace::REG}; break;
    case Ops::COPY: src = {t}; arg = Device::tuple({"CPU:0", "CPU:1"}); break;
    case Ops::STORE: src = {t, u, gate}; break;
    case Ops::RANGE: src = {UOp::index(8)}; arg = RangeArg{3, AxisType::REDUCE}; break;
    case Ops::END: src = {UOp::create(Ops::STORE, {t, u}), r}; break;
    case Ops::AFTER: src = {t, UOp::create(Ops::STORE, {t, u})}; break;
    case Ops::GROUP: case Ops::SINK: case Ops::LINEAR: case Ops::BARRIER:
      src = {UOp::create(Ops::STORE, {t, u}), UOp::create(Ops::STORE, {u, t})};
      break;
    case Ops::CAST: src = {t}; arg = dtypes::float16; break;
    case Ops::INS: src = {t}; arg = "v_add_f32 v0, v1, v2"; break;
    case Ops::GETADDR: src = {t}; break;
    case Ops::SPECIAL: src = {UOp::index(32)}; arg = "gidx0"; break;
    case Ops::IF: src = {gate}; break;
    case Ops::ENDIF: src = {UOp::create(Ops::IF, {gate})}; break;
    case Ops::WMMA: src = {t, u, t}; arg = "WMMA_16_16_16_half_float"; break;
    case Ops::CUSTOM: src = {t, u}; arg = "({0} + {1}) /* \"custom\" */\n"; break;
    case Ops::ATOMICADD: src = {i, t}; break;
    case Ops::CUSTOMFUNCTION: src = {t}; arg = "hw_decode"; break;
    case Ops::PROGRAM:
      src = {UOp::create(Ops::LINEAR, {r}), UOp::create(Ops::SOURCE, {}, "void k() {}"),
             UOp::create(Ops::BINARY, {}, std::string("\0\1\2", 3))};
      break;
    case Ops::SOURCE: arg = "void kernel(float* a) {\n  a[0] = 1.0f;\t// \\ \"q\"\n}\n"; break;
    default:  // elementwise ops and markers: float32 operands (WHERE takes a bool first)
      if (op == Ops::WHERE) {
        src = {gate, t, u};
      } else if (int n = alu_arity(op); n > 0) {
        src = {t, u, t};
        src.resize(size_t(n));
      } else {
        src = {t};
      }
  }
  DType dt = infer_dtype(op, src, arg).value_or(dtypes::float32);
  return UOp::create(op, dt, std::move(src), std::move(arg));
}

inline double bits_to_double(uint64_t bits) {
  double d;
  std::memcpy(&d, &bits, sizeof d);
  return d;
}

// Args of every alternative, with the values that are hard to print exactly.
inline std::vector<Arg> sample_args() {
  using L = std::numeric_limits<int64_t>;
  const i128 i128_max = ~(i128(1) << 127), i128_min = i128(1) << 127;
  std::vector<Arg> args = {Arg()};
  for (i128 v : {i128(0), i128(-1), i128(L::min()), i128(L::max()), i128(std::numeric_limits<uint64_t>::max()),
                 i128_max, i128_min, i128_min + 1})
    args.push_back(ConstValue::from_int(v));
  const double inf = std::numeric_limits<double>::infinity();
  for (double v : {0.0, -0.0, 1.5, 0.1, 1.0 / 3.0, double(0.1f), 1e22, 1e-7, -2.5e-300, inf, -inf,
                   std::numeric_limits<double>::quiet_NaN(), -std::numeric_limits<double>::quiet_NaN(),
                   bits_to_double(0x7ff0000000000001ull), bits_to_double(0xfff4000000000abcull),
                   std::numeric_limits<double>::denorm_min(), -std::numeric_limits<double>::denorm_min(),
                   std::numeric_limits<double>::min(), std::numeric_limits<double>::max(),
                   std::numeric_limits<double>::lowest(), 9007199254740993.0, 123456789.0})
    args.push_back(ConstValue::from_float(v));
  for (int64_t v : {int64_t(0), int64_t(-3), L::min(), L::max()}) args.push_back(v);
  for (DType d : {dtypes::float32, dtypes::index, dtypes::bool_, dtypes::void_, dtypes::bfloat16.ptr(AddrSpace::LOCAL)})
    args.push_back(d);
  for (AxisType a : {AxisType::GLOBAL, AxisType::LOOP, AxisType::GROUP_REDUCE, AxisType::UNROLL})
    args.push_back(RangeArg{int64_t(a) * 7 - 3, a});
  args.push_back(Arg::Ints{});
  args.push_back(Arg::Ints{1, -2, L::min(), L::max()});
  args.push_back(Arg::Bools{});
  args.push_back(Arg::Bools{true, false, true});
  std::string every_byte;
  for (int c = 0; c < 256; c++) every_byte.push_back(char(c));
  for (std::string str : {std::string(), std::string("plain"), std::string("quote \" and \\ and \n\r\t"),
                          std::string("# not a comment // nor this"), std::string("\0mid\0", 5), every_byte,
                          std::string("\\x41 is not an escape here")})
    args.push_back(str);
  args.push_back(ReduceArg{Ops::ADD, {}});
  args.push_back(ReduceArg{Ops::MAX, {0, 2}});
  args.push_back(ReduceArg{Ops::MUL, {-1}});
  std::vector<Device> devices = {Device(), Device("CPU"), Device("CUDA:1"), Device::tuple({"CPU:0", "CPU:1"}),
                                 Device::tuple({"CPU"}), Device::tuple({}), Device("NULL"), Device("my dev"),
                                 Device("a,b"), Device("(x)"), Device(""), Device("\xc3\xa9"),
                                 Device::tuple({"NULL", "x y", "Z.0"})};
  for (const Device& d : devices) {
    args.push_back(d);
    args.push_back(BufferArg{3, 1024, dtypes::float32, d, AddrSpace::LOCAL});
    args.push_back(LoadArg{d, AddrSpace::REG});
  }
  args.push_back(BufferArg{L::max(), 0, dtypes::uint8.ptr(), Device(), AddrSpace::GLOBAL});
  args.push_back(ParamArg{0, dtypes::float32, Device(), std::nullopt, "", std::nullopt, std::nullopt});
  args.push_back(ParamArg{-1, dtypes::index, Device(), std::nullopt, "n", ConstValue::from_int(1), ConstValue::from_int(16)});
  args.push_back(ParamArg{5, dtypes::float16, Device::tuple({"CPU:0", "CPU:1"}), AddrSpace::LOCAL, "w \"q\"",
                          ConstValue::from_float(-inf), std::nullopt});
  args.push_back(ParamArg{2, dtypes::int8, Device("CPU"), AddrSpace::GLOBAL, "", std::nullopt, ConstValue::from_float(0.5)});
  args.push_back(SliceArg{4, dtypes::float32});
  args.push_back(SliceArg{0, dtypes::int64});
  return args;
}

}  // namespace onegrad::text_samples
