// The spelling of each Arg alternative (first token in brackets):
//   none          (nothing)
//   ConstValue    4  -7  1.5  -0.0  5e-324  inf  -inf  nan  -nan  nan(0x7ff4000000000000)  true
//   int64         int=3
//   DType         dtype=float32
//   Device        device=CPU  device=NULL  device=(CPU:0, CPU:1)  device=(CPU,)  device="odd name"
//   Ints          [1, 0, 2]   (empty: [])
//   Bools         [true, false]   (empty: bools[])
//   string        "text with \" \\ \n \xff escapes"
//   RangeArg      {id=0, LOOP}
//   BufferArg     {id=1, size=16, dtype=?, device=CPU?, GLOBAL}
//   ParamArg      {slot=0, dtype=?, device=?, ADDRSPACE?, name="n"?, min=1?, max=8?, value=5?}
//   ReduceArg     {ADD, axes=[1]}
//   LoadArg       {device=CPU?, GLOBAL}
//   SliceArg      {size=4, dtype=?}
// Fields marked ? are optional; `dtype=` is written only when it differs from the node's dtype.
#include "uop/text/arg_text.h"

#include <bit>
#include <limits>

#include "uop/errors.h"
#include "uop/text/text.h"

namespace onegrad {

namespace {

// ---- printing --------------------------------------------------------------------------------

void write_const(std::string& out, const ConstValue& v, DType dt) {
  if (v.is_int() && dt.is_bool() && (v.as_int() == 0 || v.as_int() == 1)) {
    out += v.as_int() ? "true" : "false";
    return;
  }
  double f = v.as_double();
  if (v.is_float() && f != f) {
    // ConstValue identity is by bits, so a NaN keeps its payload in the text.
    uint64_t bits = std::bit_cast<uint64_t>(f);
    uint64_t quiet = std::bit_cast<uint64_t>(std::numeric_limits<double>::quiet_NaN());
    if (bits == quiet) {
      out += "nan";
    } else if (bits == (quiet | (uint64_t(1) << 63))) {
      out += "-nan";
    } else {
      constexpr char kHex[] = "0123456789abcdef";
      out += "nan(0x";
      for (int shift = 60; shift >= 0; shift -= 4) out.push_back(kHex[(bits >> shift) & 15]);
      out += ")";
    }
    return;
  }
  out += v.str();
}

void write_device_name(std::string& out, const std::string& name) {
  out += is_bare_device_name(name) ? name : quote_string(name);
}

void write_device(std::string& out, const Device& d) {
  if (d.is_null()) {
    out += "NULL";
    return;
  }
  if (!d.is_tuple) {
    if (d.names.size() != 1) throw InternalError("a device with several names must be a tuple");
    write_device_name(out, d.names[0]);
    return;
  }
  out += "(";
  for (size_t i = 0; i < d.names.size(); i++) {
    if (i) out += ", ";
    write_device_name(out, d.names[i]);
  }
  out += d.names.size() == 1 ? ",)" : ")";
}

void write_ints(std::string& out, const Arg::Ints& v) {
  out += "[";
  for (size_t i = 0; i < v.size(); i++) {
    if (i) out += ", ";
    out += std::to_string(v[i]);
  }
  out += "]";
}

void write_bools(std::string& out, const Arg::Bools& v) {
  out += v.empty() ? "bools[" : "[";  // an empty list alone would read as Ints
  for (size_t i = 0; i < v.size(); i++) {
    if (i) out += ", ";
    out += v[i] ? "true" : "false";
  }
  out += "]";
}

struct ArgWriter {
  std::string& out;
  DType node_dtype;

  void dtype_field(DType dt) {
    if (dt != node_dtype) out += ", dtype=" + dt.name();
  }
  void device_field(const Device& d) {
    if (d.is_null()) return;
    out += ", device=";
    write_device(out, d);
  }

  void operator()(std::monostate) {}
  void operator()(const ConstValue& v) { write_const(out, v, node_dtype); }
  void operator()(int64_t v) { out += "int=" + std::to_string(v); }
  void operator()(DType d) { out += "dtype=" + d.name(); }
  void operator()(const RangeArg& r) {
    out += "{id=" + std::to_string(r.id) + ", " + std::string(axis_type_name(r.type)) + "}";
  }
  void operator()(const Boxed<Arg::Ints>& v) { write_ints(out, *v); }
  void operator()(const Boxed<Arg::Bools>& v) { write_bools(out, *v); }
  void operator()(const Boxed<std::string>& s) { out += quote_string(*s); }
  void operator()(const Boxed<ReduceArg>& box) {
    const ReduceArg& b = *box;
    out += "{" + std::string(op_name(b.op)) + ", axes=";
    write_ints(out, b.axes);
    out += "}";
  }
  void operator()(const Boxed<BufferArg>& box) {
    const BufferArg& b = *box;
    out += "{id=" + std::to_string(b.id) + ", size=" + std::to_string(b.size);
    dtype_field(b.dtype);
    device_field(b.device);
    out += ", " + std::string(addrspace_name(b.addrspace)) + "}";
  }
  void operator()(const Boxed<ParamArg>& box) {
    const ParamArg& p = *box;
    out += "{slot=" + std::to_string(p.slot);
    dtype_field(p.dtype);
    device_field(p.device);
    if (p.addrspace) out += ", " + std::string(addrspace_name(*p.addrspace));
    if (!p.name.empty()) out += ", name=" + quote_string(p.name);
    if (p.vmin) {
      out += ", min=";
      write_const(out, *p.vmin, dtypes::void_);
    }
    if (p.vmax) {
      out += ", max=";
      write_const(out, *p.vmax, dtypes::void_);
    }
    if (p.value) out += ", value=" + std::to_string(*p.value);
    out += "}";
  }
  void operator()(const Boxed<LoadArg>& box) {
    const LoadArg& b = *box;
    out += "{";
    if (!b.device.is_null()) {
      out += "device=";
      write_device(out, b.device);
      out += ", ";
    }
    out += std::string(addrspace_name(b.addrspace)) + "}";
  }
  void operator()(const Boxed<Device>& d) {
    out += "device=";
    write_device(out, *d);
  }
  void operator()(const Boxed<SliceArg>& box) {
    const SliceArg& b = *box;
    out += "{size=" + std::to_string(b.size);
    dtype_field(b.dtype);
    out += "}";
  }
};

// ---- parsing ---------------------------------------------------------------------------------

void expect_key(TextCursor& cur, std::string_view key) {
  if (!cur.consume_word(key)) cur.fail_expected(std::string(key) + "=");
  cur.expect('=', "after " + std::string(key));
}

std::string device_name(TextCursor& cur) {
  if (cur.peek() == '"') return cur.quoted_string();
  std::string_view w = cur.device_word();
  if (w.empty()) cur.fail_expected("a device name (CPU, CUDA:0 or a quoted string)");
  return std::string(w);
}

Device read_device(TextCursor& cur) {
  if (cur.consume_word("NULL")) return Device();
  if (!cur.consume('(')) return Device(device_name(cur));
  std::vector<std::string> names;
  while (!cur.consume(')')) {
    names.push_back(device_name(cur));
    if (!cur.consume(',') && cur.peek() != ')') cur.fail_expected("',' or ')' in a device tuple");
  }
  return Device::tuple(std::move(names));
}

// Items after the first in a list or record: true while another item follows.
bool next_item(TextCursor& cur, char close) {
  if (cur.consume(close)) return false;
  cur.expect(',', std::string("or '") + close + "'");
  return true;
}

Arg::Ints read_int_items(TextCursor& cur) {
  Arg::Ints v;
  if (cur.consume(']')) return v;
  do v.push_back(cur.int64_value("an integer"));
  while (next_item(cur, ']'));
  return v;
}

bool read_bool_word(TextCursor& cur) {
  if (cur.consume_word("true")) return true;
  if (cur.consume_word("false")) return false;
  cur.fail_expected("true or false");
}

Arg::Bools read_bool_items(TextCursor& cur) {
  Arg::Bools v;
  if (cur.consume(']')) return v;
  do v.push_back(read_bool_word(cur));
  while (next_item(cur, ']'));
  return v;
}

Arg read_list(TextCursor& cur) {
  cur.expect('[', "opening a list");
  std::string_view w = cur.peek_identifier();
  if (w == "true" || w == "false") return read_bool_items(cur);
  return read_int_items(cur);
}

// Optional record fields come in a fixed order; `stage` is the index of the last one read, so a
// field repeated or out of order is an error rather than a silent overwrite.
struct OptionalFields {
  int stage = 0;
  bool take(int index, bool present) {
    if (!present || index <= stage) return false;
    stage = index;
    return true;
  }
};

RangeArg read_range_rest(TextCursor& cur, int64_t id) {
  std::string_view w = cur.identifier();
  std::optional<AxisType> t = parse_axis_type(w);
  if (!t) {
    cur.reset(cur.pos() - w.size());
    cur.fail_expected("an AxisType (GLOBAL, LOCAL, WARP, THREAD, LOOP, REDUCE, GROUP_REDUCE, UPCAST, UNROLL)");
  }
  cur.expect('}', "closing a range arg");
  return RangeArg{id, *t};
}

BufferArg read_buffer_rest(TextCursor& cur, int64_t id, DType node_dtype) {
  expect_key(cur, "size");
  BufferArg b{id, cur.int64_value("a size"), node_dtype, Device(), AddrSpace::GLOBAL};
  OptionalFields f;
  while (next_item(cur, '}')) {
    std::string_view w = cur.peek_identifier();
    if (f.take(1, w == "dtype")) {
      expect_key(cur, "dtype");
      b.dtype = cur.dtype_value();
    } else if (f.take(2, w == "device")) {
      expect_key(cur, "device");
      b.device = read_device(cur);
    } else if (f.take(3, parse_addrspace(w).has_value())) {
      b.addrspace = *parse_addrspace(cur.identifier());
    } else {
      cur.fail_expected("dtype=, device= or GLOBAL/LOCAL/REG, in this order");
    }
  }
  return b;
}

ParamArg read_param(TextCursor& cur, DType node_dtype) {
  expect_key(cur, "slot");
  ParamArg p{cur.int64_value("a slot"), node_dtype, Device(), std::nullopt, "", std::nullopt, std::nullopt};
  OptionalFields f;
  while (next_item(cur, '}')) {
    std::string_view w = cur.peek_identifier();
    if (f.take(1, w == "dtype")) {
      expect_key(cur, "dtype");
      p.dtype = cur.dtype_value();
    } else if (f.take(2, w == "device")) {
      expect_key(cur, "device");
      p.device = read_device(cur);
    } else if (f.take(3, parse_addrspace(w).has_value())) {
      p.addrspace = parse_addrspace(cur.identifier());
    } else if (f.take(4, w == "name")) {
      expect_key(cur, "name");
      p.name = cur.quoted_string();
    } else if (f.take(5, w == "min")) {
      expect_key(cur, "min");
      p.vmin = cur.const_value();
    } else if (f.take(6, w == "max")) {
      expect_key(cur, "max");
      p.vmax = cur.const_value();
    } else if (f.take(7, w == "value")) {
      expect_key(cur, "value");
      p.value = cur.int64_value("a bound value");
    } else {
      cur.fail_expected("dtype=, device=, GLOBAL/LOCAL/REG, name=, min=, max= or value=, in this order");
    }
  }
  return p;
}

LoadArg read_load(TextCursor& cur) {
  LoadArg l;
  if (cur.peek_identifier() == "device") {
    expect_key(cur, "device");
    l.device = read_device(cur);
    cur.expect(',', "before the address space");
  }
  std::string_view w = cur.identifier();
  std::optional<AddrSpace> a = parse_addrspace(w);
  if (!a) {
    cur.reset(cur.pos() - w.size());
    cur.fail_expected("an address space (GLOBAL, LOCAL, REG)");
  }
  l.addrspace = *a;
  cur.expect('}', "closing a load arg");
  return l;
}

SliceArg read_slice(TextCursor& cur, DType node_dtype) {
  expect_key(cur, "size");
  SliceArg s{cur.int64_value("a size"), node_dtype};
  if (next_item(cur, '}')) {
    expect_key(cur, "dtype");
    s.dtype = cur.dtype_value();
    cur.expect('}', "closing a slice arg");
  }
  return s;
}

ReduceArg read_reduce(TextCursor& cur) {
  std::string_view w = cur.identifier();
  ReduceArg r{*parse_op(w), {}};
  cur.expect(',', "after the reduce op");
  expect_key(cur, "axes");
  cur.expect('[', "opening the axes");
  r.axes = read_int_items(cur);
  cur.expect('}', "closing a reduce arg");
  return r;
}

// A record: which alternative it is follows from its first word.
Arg read_record(TextCursor& cur, DType node_dtype) {
  cur.expect('{', "opening a record");
  std::string_view w = cur.peek_identifier();
  if (w == "slot") return read_param(cur, node_dtype);
  if (w == "size") return read_slice(cur, node_dtype);
  if (w == "device" || parse_addrspace(w)) return read_load(cur);
  if (parse_op(w)) return read_reduce(cur);
  if (w == "id") {
    expect_key(cur, "id");
    int64_t id = cur.int64_value("an id");
    cur.expect(',', "after the id");
    if (cur.peek_identifier() == "size") return read_buffer_rest(cur, id, node_dtype);
    return read_range_rest(cur, id);
  }
  cur.fail_expected("a record field: slot= (PARAM), id= (RANGE, BUFFER), size= (SLICE), device= or an address "
                    "space (LOAD), or an op name (REDUCE)");
}

}  // namespace

void write_arg(std::string& out, const Arg& arg, DType node_dtype) {
  std::visit(ArgWriter{out, node_dtype}, arg.variant());
}

Arg read_arg(TextCursor& cur, DType node_dtype) {
  if (cur.at_line_end()) return Arg();
  char c = cur.peek();
  if (c == '"') return Arg(cur.quoted_string());
  if (c == '[') return read_list(cur);
  if (c == '{') return read_record(cur, node_dtype);
  if (c == '-' || (c >= '0' && c <= '9')) return Arg(cur.const_value());
  std::string_view w = cur.peek_identifier();
  if (w == "tag") return Arg();  // no arg; the tag follows
  if (w == "inf" || w == "nan" || w == "true" || w == "false") return Arg(cur.const_value());
  if (w == "int") {
    expect_key(cur, "int");
    return Arg(cur.int64_value("an integer"));
  }
  if (w == "dtype") {
    expect_key(cur, "dtype");
    return Arg(cur.dtype_value());
  }
  if (w == "device") {
    expect_key(cur, "device");
    return Arg(read_device(cur));
  }
  if (w == "bools") {
    cur.identifier();
    cur.expect('[', "after bools");
    return Arg(read_bool_items(cur));
  }
  cur.fail_expected("an arg (a number, int=, dtype=, device=, [list], \"string\" or {record}) or tag=");
}

std::string print_arg(const Arg& arg, DType node_dtype) {
  std::string out;
  write_arg(out, arg, node_dtype);
  return out;
}

Arg parse_arg(std::string_view text, DType node_dtype) {
  TextCursor cur(text);
  Arg a = read_arg(cur, node_dtype);
  if (!cur.at_line_end() || !cur.at_end()) cur.fail_expected("the end of the arg");
  return a;
}

}  // namespace onegrad
