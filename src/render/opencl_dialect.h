// OpenCL C as the C-style renderer spells it (render/c_dialect.h: a table of differences from C),
// and the capabilities of an OpenCL device, read from what the runtime queried (runtime/device.h's
// DeviceTraits). docs/runtime.md, "CL".
//
// The entry point the runtime launches (runtime/opencl/cl_program.cpp):
//
//   __kernel void NAME(__global uchar* p0, ulong o0, ..., __global const long* vars);
//
// buffer k is the cl_mem p<k> at byte offset o<k> (a view inside a larger allocation). A kernel with
// a THREAD axis reads its index as get_global_id(0): the THREAD parts are the launch's work items.
#pragma once
#include <string>

#include "codegen/capabilities.h"
#include "render/c_dialect.h"
#include "runtime/device.h"

namespace onegrad {

// The OpenCL C dialect; half and double exist (and their extension pragmas are written) only when
// the device has cl_khr_fp16 / cl_khr_fp64. One instance per combination, alive for the process.
const CDialect& opencl_dialect(bool fp16, bool fp64);

// What an OpenCL device declares: the ops of the C renderer (the same decompositions, so CL and CPU
// compute the same functions), every dtype but float16 without cl_khr_fp16 and float64 without
// cl_khr_fp64 (TargetError names the dtype, the node and the device), OpenCL C's vector types
// (render/opencl_vectors.h), THREAD
// parts as work items (4 per compute unit), and the launch dims and local memory it reports.
// `device` is the runtime name ("CL:1"), for messages.
Capabilities opencl_capabilities(const std::string& device, const DeviceTraits& traits);

}  // namespace onegrad
