#include "runtime/program.h"

#include <vector>

#include "runtime/buffer.h"
#include "uop/errors.h"

namespace onegrad {

Program::Program(const ProgramSpec& spec, std::string device)
    : name_(spec.name), device_(std::move(device)), num_buffers_(spec.num_buffers), num_vars_(spec.num_vars), threads_(spec.threads), local_(spec.local), global_(spec.global) {}

void Program::check_args(std::span<Buffer* const> bufs, std::span<const int64_t> vars) const {
  if (bufs.size() != size_t(num_buffers_))
    throw DeviceError("program '" + name_ + "' takes " + std::to_string(num_buffers_) + " buffers, got " +
                      std::to_string(bufs.size()));
  if (vars.size() != size_t(num_vars_))
    throw DeviceError("program '" + name_ + "' takes " + std::to_string(num_vars_) +
                      " variable values, got " + std::to_string(vars.size()));
  for (size_t i = 0; i < bufs.size(); ++i) {
    if (bufs[i] == nullptr)
      throw DeviceError("program '" + name_ + "': buffer " + std::to_string(i) + " is null");
    if (bufs[i]->device() != device_)
      throw DeviceError("program '" + name_ + "' runs on " + device_ + " but buffer " + std::to_string(i) +
                        " is on " + bufs[i]->device());
  }
}

void Program::run(std::span<Buffer* const> bufs, std::span<const int64_t> vars) const {
  enqueue(bufs, vars);
  wait();
}

void Program::enqueue(std::span<Buffer* const> bufs, std::span<const int64_t> vars) const {
  check_args(bufs, vars);
  launch_buffers(bufs, vars);
}

void Program::launch_buffers(std::span<Buffer* const> bufs, std::span<const int64_t> vars) const {
  std::vector<void*> ptrs(bufs.size());
  for (size_t i = 0; i < bufs.size(); ++i) ptrs[i] = bufs[i]->data();
  launch(ptrs.data(), vars.data());
}

void Program::run_on_host(std::span<void* const> data, std::span<const int64_t> vars) const {
  if (device_.rfind("CPU", 0) != 0) throw DeviceError("program '" + name_ + "' runs on " + device_ + ", not on host memory");
  if (data.size() != size_t(num_buffers_) || vars.size() != size_t(num_vars_))
    throw DeviceError("program '" + name_ + "' takes " + std::to_string(num_buffers_) + " buffers and " +
                      std::to_string(num_vars_) + " variable values, got " + std::to_string(data.size()) + " and " +
                      std::to_string(vars.size()));
  for (size_t i = 0; i < data.size(); ++i)
    if (data[i] == nullptr) throw DeviceError("program '" + name_ + "': buffer " + std::to_string(i) + " is null");
  std::vector<void*> ptrs(data.begin(), data.end());
  launch(ptrs.data(), vars.data());
}

bool is_c_identifier(std::string_view name) {
  if (name.empty() || (name[0] >= '0' && name[0] <= '9')) return false;
  for (char c : name) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    if (!ok) return false;
  }
  return true;
}

}  // namespace onegrad
