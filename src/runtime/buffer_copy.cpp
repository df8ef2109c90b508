#include "runtime/buffer_copy.h"

#include <cstring>
#include <vector>

#include "uop/errors.h"

namespace onegrad {

void copy_buffer(Buffer& dst, Buffer& src) {
  if (&dst == &src) return;
  if (dst.nbytes() != src.nbytes())
    throw DeviceError("copy of " + std::to_string(src.nbytes()) + " bytes on " + src.device() + " into " +
                      std::to_string(dst.nbytes()) + " bytes on " + dst.device());
  if (dst.nbytes() == 0) return;
  if (dst.host_memory() && src.host_memory()) {
    std::memcpy(dst.data(), src.data(), dst.nbytes());
  } else if (dst.host_memory()) {
    src.copyout(dst.data(), dst.nbytes());
  } else if (src.host_memory()) {
    dst.copyin(src.data(), src.nbytes());
  } else {
    std::vector<std::byte> host(src.nbytes());
    src.copyout(host.data(), host.size());
    dst.copyin(host.data(), host.size());
  }
}

}  // namespace onegrad
