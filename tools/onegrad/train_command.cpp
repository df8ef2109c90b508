// onegrad train: the main job from C++: a small CNN trained on Fashion-MNIST on the CPU, evaluated,
// checkpointed (examples/train_fashion_mnist.py is the same job in Python).
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <iostream>
#include <ostream>

#include "cli.h"
#include "nn/checkpoint.h"
#include "nn/data_loader.h"
#include "nn/fashion_mnist.h"
#include "nn/layers.h"
#include "nn/lr_scheduler.h"
#include "nn/optimizer.h"
#include "progress_bar.h"
#include "tensor/gradient.h"
#include "tensor/random.h"
#include "uop/errors.h"

namespace onegrad::cli {

namespace {

constexpr const char* kTrainUsage = R"(usage: onegrad train [--epochs N] [--batch N] [--lr X] [--seed N] [--limit N]
                     [--data DIR] [--checkpoint FILE]
  train a small CNN (two conv layers with pooling, two linear layers) on Fashion-MNIST with Adam and
  a cosine learning-rate schedule (from --lr down to 0), print the test accuracy after each epoch and
  save the model and optimizer to FILE (safetensors).
  defaults: 4 epochs, batch 64, lr 0.002, seed 0, all 60000 images, the data from
  $ONEGRAD_FASHION_MNIST or /usr/share/datasets/fashion-mnist, fashion_mnist_cnn.safetensors
)";

struct TrainOptions {
  int64_t epochs = 4, batch = 64, seed = 0, limit = 0;
  double lr = 2e-3;
  std::string data, checkpoint = "fashion_mnist_cnn.safetensors";
};

// Parses the flags; a message for the user when they are wrong.
std::optional<std::string> parse(const Args& args, TrainOptions& o) {
  for (size_t i = 0; i < args.size(); i++) {
    const std::string& flag = args[i];
    if (i + 1 >= args.size()) return flag + " needs a value";
    const std::string& v = args[++i];
    try {
      size_t used = 0;
      if (flag == "--epochs") o.epochs = std::stoll(v, &used);
      else if (flag == "--batch") o.batch = std::stoll(v, &used);
      else if (flag == "--seed") o.seed = std::stoll(v, &used);
      else if (flag == "--limit") o.limit = std::stoll(v, &used);
      else if (flag == "--lr") o.lr = std::stod(v, &used);
      else if (flag == "--data") o.data = v, used = v.size();
      else if (flag == "--checkpoint") o.checkpoint = v, used = v.size();
      else return "unknown option " + flag;
      if (used != v.size()) throw std::invalid_argument(v);
    } catch (const std::logic_error&) {
      return "bad value '" + v + "' for " + flag;
    }
  }
  if (o.epochs < 1 || o.batch < 1 || o.limit < 0 || !(o.lr > 0)) return "--epochs, --batch and --lr must be positive";
  return std::nullopt;
}

std::shared_ptr<nn::Sequential> make_model() {
  using namespace nn;
  return std::make_shared<Sequential>(std::vector<ModulePtr>{
      std::make_shared<Conv2d>(1, 8, std::vector<int64_t>{3}, std::vector<int64_t>{1}, std::vector<int64_t>{1}),
      std::make_shared<ReLU>(), std::make_shared<MaxPool2d>(std::vector<int64_t>{2}),
      std::make_shared<Conv2d>(8, 16, std::vector<int64_t>{3}, std::vector<int64_t>{1}, std::vector<int64_t>{1}),
      std::make_shared<ReLU>(), std::make_shared<MaxPool2d>(std::vector<int64_t>{2}),
      std::make_shared<Flatten>(), std::make_shared<Linear>(16 * 7 * 7, 64), std::make_shared<ReLU>(),
      std::make_shared<Linear>(64, 10)});
}

// --limit: the first n samples only (a quick run).
void keep_first_rows(nn::HostArray& a, int64_t n) {
  a.data.resize(a.data.size() / size_t(a.shape[0]) * size_t(n));
  a.shape[0] = n;
}

// uint8 pixels to float32 in [-1, 1].
Tensor normalize(const Tensor& images) { return images.cast(dtypes::float32) * (2.0 / 255.0) - 1.0; }

// Correct predictions in a batch, as a lazy int64 scalar.
Tensor hits(const Tensor& logits, const Tensor& labels) {
  return logits.argmax(-1).eq(labels).cast(dtypes::int64).sum();
}

double evaluate(nn::Module& model, nn::DataLoader& loader) {
  model.eval();
  NoGradGuard off;
  int64_t correct = 0, seen = 0;
  for (const std::vector<Tensor>& b : loader) {
    correct += hits(model(normalize(b[0])), b[1]).to_vector<int64_t>()[0];
    seen += b[1].shape()[0];
  }
  return double(correct) / double(seen);
}

}  // namespace

int run_train(const Args& args, std::ostream& out, std::ostream& err) {
  TrainOptions o;
  if (!args.empty() && (args[0] == "--help" || args[0] == "-h")) {
    out << kTrainUsage;
    return kOk;
  }
  if (auto problem = parse(args, o)) {
    err << "onegrad train: " << *problem << "\n" << kTrainUsage;
    return kUsage;
  }
  nn::FashionMNISTArrays train = nn::read_fashion_mnist(true, o.data), test = nn::read_fashion_mnist(false, o.data);
  if (o.limit > 0 && o.limit < train.images.shape[0]) {
    keep_first_rows(train.images, o.limit);
    keep_first_rows(train.labels, o.limit);
  }
  int64_t n_train = train.images.shape[0];
  out << "Fashion-MNIST: " << n_train << " training and " << test.images.shape[0] << " test images\n";
  nn::DataLoader train_loader({train.images, train.labels}, o.batch, /*shuffle=*/true, false, uint64_t(o.seed));
  nn::DataLoader test_loader({test.images, test.labels}, 1000);

  manual_seed(uint64_t(o.seed));
  std::shared_ptr<nn::Sequential> model = make_model();
  nn::Adam opt(model->parameters(), o.lr);
  nn::CosineAnnealingLR schedule(opt, o.epochs * train_loader.size());
  int64_t n_params = 0;
  for (const Tensor& p : model->parameters()) n_params += p.numel();
  out << "model: " << n_params << " parameters, Adam lr " << o.lr << " (cosine to 0), batch " << o.batch << "\n";

  bool terminal = isatty(STDERR_FILENO) != 0 && &err == &std::cerr;
  auto start = std::chrono::steady_clock::now();
  double accuracy = 0;
  for (int64_t epoch = 1; epoch <= o.epochs; epoch++) {
    model->train();
    ProgressBar bar(err, terminal, train_loader.size(),
                    "epoch " + std::to_string(epoch) + "/" + std::to_string(o.epochs));
    double loss_sum = 0;
    int64_t correct = 0, seen = 0;
    for (const std::vector<Tensor>& b : train_loader) {
      opt.zero_grad();
      Tensor logits = (*model)(normalize(b[0]));
      Tensor loss = logits.cross_entropy(b[1]);
      Tensor right = hits(logits.detach(), b[1]);
      loss.backward(std::nullopt, {&right});  // one schedule: the count shares the forward pass
      opt.step();
      schedule.step();
      int64_t n = b[1].shape()[0];
      seen += n;
      correct += right.to_vector<int64_t>()[0];
      loss_sum += double(loss.to_vector<float>()[0]) * double(n);
      bar.update(n, {{"loss", loss_sum / double(seen)}, {"acc", double(correct) / double(seen)}});
    }
    bar.close();
    accuracy = evaluate(*model, test_loader);
    char line[160];
    std::snprintf(line, sizeof line, "  epoch %lld: train loss %.4f, train accuracy %.2f%%, test accuracy %.2f%%\n",
                  static_cast<long long>(epoch), loss_sum / double(seen), 100.0 * double(correct) / double(seen),
                  100.0 * accuracy);
    out << line << std::flush;
  }
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  nn::save_checkpoint(o.checkpoint, *model, &opt);
  char summary[200];
  std::snprintf(summary, sizeof summary,
                "done: %lld epochs in %.1f s (%.0f images/s overall), test accuracy %.2f%%, checkpoint %s\n",
                static_cast<long long>(o.epochs), seconds, double(o.epochs * n_train) / seconds, 100.0 * accuracy,
                o.checkpoint.c_str());
  out << summary;
  return kOk;
}

}  // namespace onegrad::cli
