// IDX files (src/nn/idx_file.h), written here byte by byte from the format's description, raw and
// gzipped: values, dtypes, shapes, every error message, and a fuzz test of random mutations.
#include "nn/idx_file.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include <random>

#include "file_testing.h"
#include "uop/errors.h"

using namespace onegrad;
using namespace onegrad::nn;
using onegrad::testing::expect_error;
using onegrad::testing::idx_bytes;
using onegrad::testing::TempDir;
using onegrad::testing::write_file;

namespace {

// gzip (RFC 1952) of `data`, by zlib.
std::vector<std::byte> gzip(const std::vector<std::byte>& data) {
  z_stream zs{};
  EXPECT_EQ(deflateInit2(&zs, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY), Z_OK);
  std::vector<std::byte> out(deflateBound(&zs, uLong(data.size())) + 32);
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<std::byte*>(data.data()));
  zs.avail_in = uInt(data.size());
  zs.next_out = reinterpret_cast<Bytef*>(out.data());
  zs.avail_out = uInt(out.size());
  EXPECT_EQ(deflate(&zs, Z_FINISH), Z_STREAM_END);
  out.resize(zs.total_out);
  deflateEnd(&zs);
  return out;
}

template <class T>
void expect_values(const Tensor& t, DType dt, std::vector<int64_t> shape, const std::vector<T>& values) {
  EXPECT_EQ(t.dtype(), dt);
  EXPECT_EQ(t.shape(), shape);
  EXPECT_EQ(t.device(), "CPU");
  EXPECT_EQ(t.to_vector<T>(), values);
}

void expect_format_error(const std::vector<std::byte>& file, const std::string& problem) {
  expect_error<FormatError>([&] { parse_idx(file, "bad.idx"); }, {"IDX file 'bad.idx': ", problem});
}

}  // namespace

TEST(IdxFile, ReadsEveryDTypeRawAndGzipped) {
  TempDir dir;
  auto check = [&](const std::string& name, const std::vector<std::byte>& bytes, auto expect) {
    SCOPED_TRACE(name);
    write_file(dir.file(name), bytes);
    write_file(dir.file(name + ".gz"), gzip(bytes));
    expect(load_idx(dir.file(name)));
    expect(load_idx(dir.file(name + ".gz")));
  };
  std::vector<uint8_t> u8 = {0, 1, 2, 127, 128, 255, 3, 4, 5, 6, 7, 8};
  check("u8-idx3-ubyte", idx_bytes<uint8_t>(0x08, {2, 2, 3}, u8),
        [&](const Tensor& t) { expect_values(t, dtypes::uint8, {2, 2, 3}, u8); });
  std::vector<int8_t> i8 = {-128, -1, 0, 127};
  check("i8-idx1", idx_bytes<int8_t>(0x09, {4}, i8), [&](const Tensor& t) { expect_values(t, dtypes::int8, {4}, i8); });
  std::vector<int16_t> i16 = {-2, 300, 7, -32768, 32767, 1};
  check("i16-idx2", idx_bytes<int16_t>(0x0B, {3, 2}, i16),
        [&](const Tensor& t) { expect_values(t, dtypes::int16, {3, 2}, i16); });
  std::vector<int32_t> i32 = {-70000, 1 << 30, 5};
  check("i32-idx1", idx_bytes<int32_t>(0x0C, {3}, i32), [&](const Tensor& t) { expect_values(t, dtypes::int32, {3}, i32); });
  std::vector<float> f32 = {1.5f, -2.25f, 1e-30f, 3e38f};
  check("f32-idx2", idx_bytes<float>(0x0D, {2, 2}, f32),
        [&](const Tensor& t) { expect_values(t, dtypes::float32, {2, 2}, f32); });
  std::vector<double> f64 = {3.141592653589793, -1e300};
  check("f64-idx1", idx_bytes<double>(0x0E, {2}, f64), [&](const Tensor& t) { expect_values(t, dtypes::float64, {2}, f64); });
  check("empty-idx2", idx_bytes<uint8_t>(0x08, {0, 28}, {}),
        [&](const Tensor& t) { expect_values(t, dtypes::uint8, {0, 28}, std::vector<uint8_t>{}); });
}

TEST(IdxFile, ReadsConcatenatedGzipMembersAsOneFile) {
  std::vector<std::byte> whole = idx_bytes<uint8_t>(0x08, {6}, {1, 2, 3, 4, 5, 6});
  std::vector<std::byte> first(whole.begin(), whole.begin() + 9), second(whole.begin() + 9, whole.end());
  std::vector<std::byte> gz = gzip(first), gz2 = gzip(second);
  gz.insert(gz.end(), gz2.begin(), gz2.end());
  HostArray a = parse_idx(gz, "two-members");
  EXPECT_EQ(a.shape, std::vector<int64_t>{6});
  EXPECT_EQ(a.to_tensor().to_vector<uint8_t>(), (std::vector<uint8_t>{1, 2, 3, 4, 5, 6}));
}

TEST(IdxFile, MalformedFilesNameTheFileAndTheProblem) {
  expect_format_error({}, "the file is 0 bytes, too short for the 4-byte magic number");
  std::vector<std::byte> bad_magic = idx_bytes<uint8_t>(0x08, {1}, {0});
  bad_magic[0] = std::byte{1};
  expect_format_error(bad_magic, "bad magic number 0x01 0x00 0x08 0x01");
  expect_format_error(idx_bytes<uint8_t>(0x0A, {1}, {0}), "bad magic number 0x00 0x00 0x0A 0x01");
  std::vector<std::byte> no_dims = idx_bytes<uint8_t>(0x08, {5, 5}, {});
  no_dims.resize(7);
  expect_format_error(no_dims, "the file is 7 bytes, too short for the 2 dimensions its magic number announces");
  expect_format_error(idx_bytes<uint8_t>(0x08, {2, 3}, {1, 2, 3, 4, 5}),
                      "truncated: dimensions 2x3 of uint8 need 6 bytes of data, the file has 5");
  expect_format_error(idx_bytes<int32_t>(0x0C, {1}, {1, 2}), "too long: dimensions 1 of int32 need 4 bytes of data, the file has 8");
  expect_format_error(idx_bytes<uint8_t>(0x08, {0xffffffff, 0xffffffff, 0xffffffff}, {}),
                      "truncated: dimensions 4294967295x4294967295x4294967295 of uint8 need 2^64 or more bytes");
  std::vector<std::byte> gz = gzip(idx_bytes<uint8_t>(0x08, {300}, std::vector<uint8_t>(300, 7)));
  std::vector<std::byte> cut(gz.begin(), gz.begin() + std::ptrdiff_t(gz.size() / 2));
  expect_format_error(cut, "the gzip data ends early (the file is truncated)");
  std::vector<std::byte> corrupt = gz;
  for (size_t i = 10; i < 16; ++i) corrupt[i] = std::byte{0xff};
  expect_format_error(corrupt, "the gzip data is corrupt (zlib: ");
}

TEST(IdxFile, MissingFilesAreFileErrors) {
  TempDir dir;
  expect_error<FileError>([&] { load_idx(dir.file("nope-idx1-ubyte.gz")); },
                          {"IDX: cannot read '" + dir.file("nope-idx1-ubyte.gz") + "': No such file or directory"});
}

// Random mutations of a valid file, raw and gzipped, must load or raise FormatError, nothing else.
TEST(IdxFileFuzz, MutatedFilesOnlyEverRaiseFormatError) {
  std::mt19937 rng(99);
  std::vector<int16_t> values(60);
  for (auto& v : values) v = int16_t(rng());
  std::vector<std::byte> raw = idx_bytes<int16_t>(0x0B, {3, 4, 5}, values), zipped = gzip(raw);
  auto small_header_byte = [](std::vector<std::byte>& f, std::mt19937& r) {  // the magic number and dimensions
    f[r() % std::min<size_t>(f.size(), 16)] = std::byte(r() % 8);
  };
  auto [loaded, rejected] = onegrad::testing::fuzz_file_format<FormatError>(
      10000, 99, [&](int i) { return i % 2 ? zipped : raw; }, small_header_byte,
      [](const std::vector<std::byte>& f) { parse_idx(f, "fuzz"); });
  EXPECT_GT(rejected, 1000);
  EXPECT_GT(loaded, 10);
}
