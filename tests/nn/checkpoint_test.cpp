// Checkpoints (src/nn/checkpoint.h): a model and its Adam state saved and loaded into fresh ones
// give the same values and continue training identically; the file is a plain state dict to a
// safetensors reader; the errors name the problem.
#include "nn/checkpoint.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "file_testing.h"
#include "nn/layers.h"
#include "nn/safetensors.h"
#include "uop/errors.h"

using namespace onegrad;
using namespace onegrad::nn;
using onegrad::testing::expect_error;
using onegrad::testing::TempDir;

namespace {

std::shared_ptr<Sequential> small_model() {
  return std::make_shared<Sequential>(std::vector<ModulePtr>{std::make_shared<Linear>(4, 3), std::make_shared<ReLU>(),
                                                             std::make_shared<Linear>(3, 2)});
}

void train_step(Module& m, Optimizer& opt, float shift) {
  opt.zero_grad();
  Tensor x = Tensor::from_vector(std::vector<float>{1, 2, 3, 4, -1, 0.5f, shift, 2}, {2, 4}, dtypes::float32);
  Tensor loss = m(x).square().sum();
  loss.backward();
  opt.step();
}

std::vector<float> values(Module& m) {
  std::vector<float> out;
  for (const Tensor& p : m.parameters())
    for (float v : p.to_vector<float>()) out.push_back(v);
  return out;
}

}  // namespace

TEST(Checkpoint, ResumedTrainingMatchesUninterruptedTraining) {
  TempDir dir;
  auto a = small_model();
  Adam opt_a(a->parameters(), 0.01);
  train_step(*a, opt_a, 0.f);
  train_step(*a, opt_a, 1.f);
  save_checkpoint(dir.file("ck.safetensors"), *a, &opt_a);

  auto b = small_model();  // other initial values
  Adam opt_b(b->parameters(), 0.5);
  load_checkpoint(dir.file("ck.safetensors"), *b, &opt_b);
  EXPECT_EQ(values(*a), values(*b));
  EXPECT_DOUBLE_EQ(opt_b.lr(), 0.01);

  train_step(*a, opt_a, 2.f);
  train_step(*b, opt_b, 2.f);
  EXPECT_EQ(values(*a), values(*b));  // same moments and step counts: bit for bit
}

TEST(Checkpoint, TheModelPartIsAPlainStateDict) {
  TempDir dir;
  auto m = small_model();
  Adam opt(m->parameters());
  train_step(*m, opt, 0.f);
  save_checkpoint(dir.file("ck.safetensors"), *m, &opt);
  SafetensorsContents c = load_safetensors_with_metadata(dir.file("ck.safetensors"));
  EXPECT_EQ(c.metadata.at("format"), kCheckpointFormat);
  EXPECT_EQ(c.metadata.at("optimizer"), "Adam");
  std::vector<std::string> names;
  for (const auto& [name, t] : c.tensors) names.push_back(name);
  for (const char* key : {"0.weight", "0.bias", "2.weight", "2.bias", "optimizer.state.0.exp_avg"})
    EXPECT_NE(std::find(names.begin(), names.end(), key), names.end()) << key;
  auto fresh = small_model();
  load_checkpoint(dir.file("ck.safetensors"), *fresh);  // the model alone, no optimizer
  EXPECT_EQ(values(*m), values(*fresh));
}

TEST(Checkpoint, Errors) {
  TempDir dir;
  auto m = small_model();
  save_checkpoint(dir.file("weights.safetensors"), *m);
  Adam adam(m->parameters());
  expect_error<FormatError>([&] { load_checkpoint(dir.file("weights.safetensors"), *m, &adam); },
                            {"weights.safetensors", "no optimizer state"});
  SGD sgd(m->parameters(), 0.1, 0.9);
  train_step(*m, sgd, 0.f);
  save_checkpoint(dir.file("sgd.safetensors"), *m, &sgd);
  expect_error<ArgumentError>([&] { load_checkpoint(dir.file("sgd.safetensors"), *m, &adam); },
                              {"holds the state of SGD, not of Adam"});
  auto other = std::make_shared<Sequential>(std::vector<ModulePtr>{std::make_shared<Linear>(4, 5)});
  EXPECT_THROW(load_checkpoint(dir.file("weights.safetensors"), *other), StateDictError);
  expect_error<FileError>([&] { load_checkpoint(dir.file("absent.safetensors"), *m); }, {"absent.safetensors"});
}

// A file whose optimizer entries break the layout (written by hand here) is a FormatError naming
// the file and the entry, never an untyped exception or a long loop.
TEST(Checkpoint, MalformedOptimizerEntriesAreFormatErrors) {
  TempDir dir;
  auto m = small_model();
  Adam adam(m->parameters());
  NamedTensors weights;
  for (const auto& [name, t] : m->state_dict()) weights.emplace_back(name, t);
  Tensor zeros = Tensor::zeros({2}, dtypes::float32);
  auto write = [&](const NamedTensors& extra, const std::map<std::string, std::string>& meta) {
    NamedTensors all = weights;
    all.insert(all.end(), extra.begin(), extra.end());
    save_safetensors(dir.file("bad.safetensors"), all, meta);
  };
  auto load = [&] { load_checkpoint(dir.file("bad.safetensors"), *m, &adam); };
  write({}, {{"optimizer.groups", "0"}});
  expect_error<FormatError>(load, {"bad.safetensors", "lacks 'optimizer'"});
  write({{"optimizer.state..exp_avg", zeros}}, {{"optimizer", "Adam"}, {"optimizer.groups", "0"}});
  expect_error<FormatError>(load, {"bad.safetensors", "'optimizer.state..exp_avg' is not an integer"});
  write({{"optimizer.state.0.exp_avg", zeros}}, {{"optimizer", "Adam"}, {"optimizer.groups", "0"}});
  expect_error<FormatError>(load, {"lacks 'optimizer.state.0.step'"});
  write({}, {{"optimizer", "Adam"}, {"optimizer.groups", "999999999999"}});
  expect_error<FormatError>(load, {"'optimizer.groups' = 999999999999 does not match"});
  write({}, {{"optimizer", "Adam"}, {"optimizer.groups", "1"}, {"optimizer.group.0.params", "0,x"}});
  expect_error<FormatError>(load, {"'optimizer.group.0.params' is not an integer: 'x'"});
}
