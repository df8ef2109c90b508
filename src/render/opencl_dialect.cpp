#include "render/opencl_dialect.h"

#include <algorithm>

#include "render/c_renderer.h"
#include "render/opencl_vectors.h"

namespace onegrad {

namespace {

CDialect make_opencl(bool fp16, bool fp64) {
  CDialect d;
  d.name = "OpenCL C";
  auto set = [&](ScalarType s, const char* t) { d.types[size_t(s)] = t; };
  set(ScalarType::BOOL, "bool");
  set(ScalarType::INT8, "char");
  set(ScalarType::INT16, "short");
  set(ScalarType::INT32, "int");
  set(ScalarType::INT64, "long");
  set(ScalarType::UINT8, "uchar");
  set(ScalarType::UINT16, "ushort");
  set(ScalarType::UINT32, "uint");
  set(ScalarType::UINT64, "ulong");
  set(ScalarType::FLOAT16, fp16 ? "half" : "");
  set(ScalarType::FLOAT32, "float");
  set(ScalarType::FLOAT64, fp64 ? "double" : "");
  // OpenCL C lets the compiler contract a*b+c into an FMA unless told not to; C's kernels are built
  // with -ffp-contract=off, and both must round the same way (MULACC is fma() on both).
  d.header = "#pragma OPENCL FP_CONTRACT OFF\n";
  if (fp64) d.header += "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n";
  if (fp16) d.header += "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n";
  d.helper_prefix = "static inline ";
  d.kernel_prefix = "static void ";
  d.buffer_param = "__global {T}* restrict {name}";
  d.vars_param = "__global const long* vars";
  d.var_value = "vars[{slot}]";
  d.thread_param = "long thread";
  d.thread_id = "thread";
  d.entry = "__kernel void {name}({params}__global const long* vars) {\n{locals}  {kernel}({args}vars{thread_arg});\n}\n";
  d.entry_arg = "(__global {T}*)(p{slot} + o{slot})";
  d.entry_param = "__global uchar* p{slot}, ulong o{slot}";
  d.entry_thread_id = "(long)get_global_id(0)";
  d.reinterpret = "{D} {dst} = as_{D}({src});";
  d.float_suffix = "f";
  d.uint32_suffix = "u";
  d.uint64_suffix = "UL";
  d.int64_suffix = "L";
  d.nan32 = "NAN";
  d.inf32 = "INFINITY";
  d.nan64 = "(double)NAN";  // a float NaN / infinity converts to the double one
  d.inf64 = "(double)INFINITY";
  d.math32 = "{fn}";  // OpenCL's math functions are overloaded on float and double
  d.math64 = "{fn}";
  d.vector_name = "{T}{n}";  // built in: float4, double8
  d.vector_open = "(({V})(";
  d.vector_close = "))";
  d.vector_lane = "{v}.s{x}";
  d.vector_load = "vload{n}(0, {p})";  // any alignment of the element type
  d.vector_store = "vstore{n}({v}, 0, {p});";
  d.vector_mask = "int";
  d.vector_expr = opencl_vector_expr;
  d.local_prefix = "__local ";
  d.barrier = "barrier(CLK_LOCAL_MEM_FENCE);";
  d.group_id = "(long)get_group_id({dim})";
  d.local_id = "(long)get_local_id({dim})";
  return d;
}

}  // namespace

const CDialect& opencl_dialect(bool fp16, bool fp64) {
  static const CDialect d[2][2] = {{make_opencl(false, false), make_opencl(false, true)},
                                   {make_opencl(true, false), make_opencl(true, true)}};
  return d[fp16][fp64];
}

Capabilities opencl_capabilities(const std::string& device, const DeviceTraits& traits) {
  bool fp16 = traits.has_extension("cl_khr_fp16"), fp64 = traits.has_extension("cl_khr_fp64");
  Capabilities c;
  c.name = device + " (OpenCL C on " + traits.description + (fp16 ? "" : "; no cl_khr_fp16") + (fp64 ? "" : "; no cl_khr_fp64") + ")";
  c.renders = c_renders_natively;
  for (int s = 0; s < kNumScalarTypes; s++) {
    DType dt = DType(ScalarType(s));
    if (dt.scalar == ScalarType::VOID || dt.scalar == ScalarType::INDEX) continue;
    if ((dt.scalar == ScalarType::FLOAT16 && !fp16) || (dt.scalar == ScalarType::FLOAT64 && !fp64)) continue;
    c.dtypes.push_back(dt);
  }
  c.vectors = opencl_vector_unit(fp64, traits.preferred_vector_bytes);
  c.threads = int(std::max<int64_t>(1, traits.compute_units) * 4);
  c.local_memory_bytes = traits.local_memory_bytes;
  c.workgroup_max = traits.max_workgroup_size;
  c.serial_work_items = traits.cpu;
  for (int64_t m : traits.max_work_items) {
    c.local_max.push_back(std::min(m, traits.max_workgroup_size));
    c.global_max.push_back(int64_t(1) << 31);
  }
  return c;
}

}  // namespace onegrad
