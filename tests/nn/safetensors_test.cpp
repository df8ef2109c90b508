// The safetensors format (src/nn/safetensors.h): round trips of every dtype, a file laid out by hand
// from the published layout, every malformed-file error with its message, and a fuzz test of
// random mutations that must only ever raise FormatError.
#include "nn/safetensors.h"

#include <gtest/gtest.h>

#include <random>

#include "file_testing.h"
#include "uop/errors.h"

using namespace onegrad;
using namespace onegrad::nn;
using onegrad::testing::as_bytes;
using onegrad::testing::expect_error;
using onegrad::testing::TempDir;

namespace {

const std::vector<std::pair<std::string, DType>> kAllDTypes = {
    {"BOOL", dtypes::bool_},  {"U8", dtypes::uint8},   {"I8", dtypes::int8},       {"U16", dtypes::uint16},
    {"I16", dtypes::int16},   {"U32", dtypes::uint32}, {"I32", dtypes::int32},     {"U64", dtypes::uint64},
    {"I64", dtypes::int64},   {"F16", dtypes::float16}, {"BF16", dtypes::bfloat16}, {"F32", dtypes::float32},
    {"F64", dtypes::float64},
};

// Random bytes of a tensor's size (bools 0/1): every bit pattern must survive a round trip.
Tensor random_tensor(std::mt19937& rng, std::vector<int64_t> shape, DType dt) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  std::vector<std::byte> b(size_t(n) * size_t(dt.itemsize()));
  for (auto& x : b) x = std::byte(dt == dtypes::bool_ ? rng() % 2 : rng() % 256);
  return Tensor::from_data(b.data(), b.size(), shape, dt);
}

// A file laid out by hand per the published layout: u64 little-endian header size, JSON, data.
std::vector<std::byte> hand_file(const std::string& header, const std::vector<uint8_t>& data) {
  std::vector<std::byte> out(8);
  for (int i = 0; i < 8; ++i) out[size_t(i)] = std::byte((header.size() >> (8 * i)) & 0xff);
  for (char c : header) out.push_back(std::byte(c));
  for (uint8_t d : data) out.push_back(std::byte(d));
  return out;
}

void expect_format_error(const std::vector<std::byte>& file, const std::string& problem) {
  expect_error<FormatError>([&] { parse_safetensors(file, "bad.safetensors"); },
                            {"safetensors file 'bad.safetensors': ", problem});
}

// A valid header entry with one field replaced by `field_json`.
std::string entry_with(const std::string& field, const std::string& field_json) {
  std::string dtype = field == "dtype" ? field_json : "\"F32\"";
  std::string shape = field == "shape" ? field_json : "[2]";
  std::string offsets = field == "data_offsets" ? field_json : "[0,8]";
  return "{\"x\":{\"dtype\":" + dtype + ",\"shape\":" + shape + ",\"data_offsets\":" + offsets + "}}";
}

}  // namespace

TEST(Safetensors, RoundTripsEveryDTypeAndShapeInOrder) {
  TempDir dir;
  std::mt19937 rng(7);
  NamedTensors saved;
  for (const auto& [name, dt] : kAllDTypes) saved.emplace_back("t_" + name, random_tensor(rng, {3, 5}, dt));
  saved.emplace_back("scalar", random_tensor(rng, {}, dtypes::float32));
  saved.emplace_back("empty", random_tensor(rng, {0, 4}, dtypes::int32));
  saved.emplace_back("a.b/c d", random_tensor(rng, {2, 1, 3}, dtypes::float64));  // names are any string
  std::string path = dir.file("all.safetensors");
  save_safetensors(path, saved, {{"format", "pt"}, {"epoch", "3"}});
  SafetensorsContents loaded = load_safetensors_with_metadata(path);
  ASSERT_EQ(loaded.tensors.size(), saved.size());
  for (size_t i = 0; i < saved.size(); ++i) {
    SCOPED_TRACE(saved[i].first);
    EXPECT_EQ(loaded.tensors[i].first, saved[i].first);
    const Tensor& a = saved[i].second;
    const Tensor& b = loaded.tensors[i].second;
    EXPECT_EQ(b.dtype(), a.dtype());
    EXPECT_EQ(b.shape(), a.shape());
    EXPECT_EQ(b.device(), "CPU");
    EXPECT_EQ(b.to_bytes(), a.to_bytes());
  }
  EXPECT_EQ(loaded.metadata, (std::map<std::string, std::string>{{"format", "pt"}, {"epoch", "3"}}));
}

TEST(Safetensors, SavesTheRealizedValuesOfALazyTensorAndLeavesItUsable) {
  TempDir dir;
  Tensor a = Tensor::from_vector(std::vector<float>{1, 2, 3}, {3}, dtypes::float32);
  Tensor sum = a + a;  // lazy: realized by the save
  std::string path = dir.file("lazy.safetensors");
  save_safetensors(path, {{"sum", sum}});
  EXPECT_EQ(load_safetensors(path)[0].second.to_vector<float>(), (std::vector<float>{2, 4, 6}));
  EXPECT_EQ((sum * a).to_vector<float>(), (std::vector<float>{2, 8, 18}));
}

TEST(Safetensors, ALoadedTensorOwnsItsBytes) {
  TempDir dir;
  std::string path = dir.file("own.safetensors");
  save_safetensors(path, {{"x", Tensor::from_vector(std::vector<int32_t>{5, 6}, {2}, dtypes::int32)}});
  NamedTensors first = load_safetensors(path);
  save_safetensors(path, {{"x", Tensor::from_vector(std::vector<int32_t>{7, 8}, {2}, dtypes::int32)}});
  EXPECT_EQ(first[0].second.to_vector<int32_t>(), (std::vector<int32_t>{5, 6}));  // not a view of the file
}

TEST(Safetensors, WritesThePublishedLayout) {
  std::vector<std::byte> file = serialize_safetensors(
      {{"w", Tensor::from_vector(std::vector<int16_t>{1, -2}, {2}, dtypes::int16)}}, {{"k", "v"}});
  uint64_t n = 0;
  for (int i = 7; i >= 0; --i) n = (n << 8) | uint64_t(file[size_t(i)]);
  ASSERT_EQ(file.size(), 8 + n + 4);
  EXPECT_EQ((8 + n) % 8, 0u) << "the data starts 8-byte aligned";
  std::string header(reinterpret_cast<const char*>(file.data()) + 8, n);
  EXPECT_EQ(header.substr(0, header.find_last_not_of(' ') + 1),
            R"({"__metadata__":{"k":"v"},"w":{"dtype":"I16","shape":[2],"data_offsets":[0,4]}})");
  std::vector<uint8_t> data;
  for (size_t i = 8 + n; i < file.size(); ++i) data.push_back(uint8_t(file[i]));
  EXPECT_EQ(data, (std::vector<uint8_t>{0x01, 0x00, 0xFE, 0xFF}));  // little-endian
}

TEST(Safetensors, ReadsAFileLaidOutByHand) {
  // Offsets out of header order, two tensors, a trailing-space padded header.
  std::string header =
      R"({"b":{"dtype":"U8","shape":[3],"data_offsets":[4,7]},"a":{"dtype":"F32","shape":[],"data_offsets":[0,4]}}   )";
  SafetensorsContents c = parse_safetensors(hand_file(header, {0x00, 0x00, 0xC0, 0x3F, 9, 8, 7}), "hand");
  ASSERT_EQ(c.tensors.size(), 2u);
  EXPECT_EQ(c.tensors[0].first, "b");
  EXPECT_EQ(c.tensors[0].second.to_vector<uint8_t>(), (std::vector<uint8_t>{9, 8, 7}));
  EXPECT_EQ(c.tensors[1].first, "a");
  EXPECT_EQ(c.tensors[1].second.shape(), std::vector<int64_t>{});
  EXPECT_EQ(c.tensors[1].second.to_vector<float>(), std::vector<float>{1.5f});
  EXPECT_TRUE(c.metadata.empty());
}

TEST(Safetensors, MalformedFilesNameTheFileAndTheProblem) {
  expect_format_error(as_bytes("abc"), "the file is 3 bytes, too short for the 8-byte header length");
  std::vector<std::byte> long_header = hand_file("{}", {});
  long_header[0] = std::byte{200};
  expect_format_error(long_header, "header length 200 goes past the end of the file (2 bytes follow the length)");
  expect_format_error(hand_file("{\"x\": ", {}), "the header is not valid JSON");
  expect_format_error(hand_file("[1, 2]", {}), "the header is a JSON array, not an object");
  expect_format_error(hand_file(R"({"x": 5})", {}), "tensor 'x': the entry is a JSON number, not an object");
  expect_format_error(hand_file(R"({"x": {"shape": [], "data_offsets": [0, 0]}})", {}), "tensor 'x': the entry has no dtype");
  std::vector<uint8_t> eight(8);
  expect_format_error(hand_file(entry_with("dtype", "\"F8_E4M3\""), eight), "tensor 'x': unknown dtype 'F8_E4M3'");
  expect_format_error(hand_file(entry_with("dtype", "7"), eight), "tensor 'x': dtype must be a string, not 7");
  expect_format_error(hand_file(entry_with("shape", "[-2]"), eight), "tensor 'x': a shape entry must be a non-negative integer, not -2");
  expect_format_error(hand_file(entry_with("shape", "[2.5]"), eight), "not 2.5");
  expect_format_error(hand_file(entry_with("shape", "{}"), eight), "tensor 'x': shape must be a list, not {}");
  expect_format_error(hand_file(entry_with("shape", "[9223372036854775808]"), eight),
                      "tensor 'x': shape entry 9223372036854775808 is too large");
  expect_format_error(hand_file(entry_with("data_offsets", "[0]"), eight), "data_offsets must be [begin, end], not [0]");
  expect_format_error(hand_file(entry_with("data_offsets", "[8,0]"), eight), "data_offsets [8, 0] end before they begin");
  expect_format_error(hand_file(entry_with("data_offsets", "[0,16]"), eight),
                      "data_offsets [0, 16] go past the end of the data (8 bytes)");
  expect_format_error(hand_file(entry_with("data_offsets", "[0,4]"), eight),
                      "data_offsets [0, 4] hold 4 bytes, but shape [2] of F32 needs 8 bytes");
  expect_format_error(hand_file(entry_with("shape", "[4294967296, 4294967296, 4294967296]"), eight),
                      "needs 2^64 or more bytes");
  expect_format_error(
      hand_file(R"({"a":{"dtype":"U8","shape":[4],"data_offsets":[0,4]},"b":{"dtype":"U8","shape":[4],"data_offsets":[2,6]}})",
                eight),
      "tensors 'a' and 'b' overlap (bytes [0, 4) and [2, 6))");
  expect_format_error(
      hand_file(R"({"a":{"dtype":"U8","shape":[1],"data_offsets":[0,1]},"a":{"dtype":"U8","shape":[1],"data_offsets":[1,2]}})",
                eight),
      "the header names 'a' twice");
  expect_format_error(hand_file(R"({"__metadata__": [1]})", {}), "__metadata__ is a JSON array, not an object");
  expect_format_error(hand_file(R"({"__metadata__": {"k": 1}})", {}), "__metadata__ maps strings to strings, but 'k' is a JSON number");
  expect_format_error(hand_file(R"({"x":{"dtype":"BOOL","shape":[2],"data_offsets":[0,2]}})", {1, 2}),
                      "tensor 'x': BOOL element 1 is byte 2, neither 0 nor 1");
}

TEST(Safetensors, ADeeplyNestedHeaderIsRejectedWithoutOverflowingTheStack) {
  std::string deep = "{\"x\": " + std::string(200000, '[') + std::string(200000, ']') + "}";
  expect_format_error(hand_file(deep, {}), "tensor 'x': the entry is a JSON array, not an object");
}

TEST(Safetensors, AnEmptyHeaderIsAFileOfNoTensors) {
  SafetensorsContents c = parse_safetensors(hand_file("{}", {}), "empty");
  EXPECT_TRUE(c.tensors.empty());
  EXPECT_TRUE(c.metadata.empty());
}

TEST(Safetensors, FilesThatCannotBeReadOrWrittenAreFileErrors) {
  TempDir dir;
  expect_error<FileError>([&] { load_safetensors(dir.file("missing.safetensors")); },
                          {"safetensors: cannot read '" + dir.file("missing.safetensors") + "': No such file or directory"});
  expect_error<FileError>([&] { load_safetensors(dir.str()); }, {"cannot read '" + dir.str() + "': it is a directory"});
  Tensor t = Tensor::zeros({2});
  expect_error<FileError>([&] { save_safetensors(dir.file("no/such/folder/x.safetensors"), {{"t", t}}); },
                          {"safetensors: cannot write '" + dir.file("no/such/folder/x.safetensors") + "'"});
}

TEST(Safetensors, SaveRejectsNamesTheFormatCannotHold) {
  Tensor t = Tensor::zeros({2});
  expect_error<ArgumentError>([&] { serialize_safetensors({{"t", t}, {"t", t}}); },
                              {"save_safetensors: the tensor name 't' appears twice"});
  expect_error<ArgumentError>([&] { serialize_safetensors({{"__metadata__", t}}); },
                              {"a tensor cannot be named '__metadata__'"});
  expect_error<ArgumentError>([&] { serialize_safetensors({{std::string("bad\xff"), t}}); }, {"not valid UTF-8"});
}

TEST(Safetensors, AFailedSaveLeavesTheOldFile) {
  TempDir dir;
  std::string path = dir.file("keep.safetensors");
  Tensor t = Tensor::from_vector(std::vector<float>{4}, {1}, dtypes::float32);
  save_safetensors(path, {{"t", t}});
  EXPECT_THROW(save_safetensors(path, {{"t", t}, {"t", t}}), ArgumentError);
  EXPECT_EQ(load_safetensors(path)[0].second.to_vector<float>(), std::vector<float>{4});
}

// Thousands of random mutations of a valid file: flipped bytes, bytes cut off, bytes inserted,
// digits changed in the header (which moves sizes and offsets). Each must load or raise a
// FormatError; a crash, a hang or any other exception fails the test.
TEST(SafetensorsFuzz, MutatedFilesOnlyEverRaiseFormatError) {
  std::mt19937 rng(12345);
  std::vector<std::byte> valid = serialize_safetensors(
      {{"w", random_tensor(rng, {3, 4}, dtypes::float32)},
       {"b", random_tensor(rng, {4}, dtypes::bool_)},
       {"i", random_tensor(rng, {2, 2}, dtypes::int64)},
       {"e", random_tensor(rng, {0}, dtypes::float16)}},
      {{"note", "fuzz"}});
  size_t header_end = 8 + (size_t(valid[0]) | size_t(valid[1]) << 8);
  auto change_a_digit = [&](std::vector<std::byte>& f, std::mt19937& r) {  // sizes, shapes and offsets
    size_t pos = 8 + r() % (header_end - 8);
    if (pos < f.size() && char(f[pos]) >= '0' && char(f[pos]) <= '9') f[pos] = std::byte('0' + r() % 10);
  };
  auto [loaded, rejected] = onegrad::testing::fuzz_file_format<FormatError>(
      20000, 12345, [&](int) { return valid; }, change_a_digit,
      [](const std::vector<std::byte>& f) { parse_safetensors(f, "fuzz"); });
  EXPECT_GT(rejected, 1000);
  EXPECT_GT(loaded, 10);  // some mutations (a digit in data, a changed metadata letter) stay valid
}
