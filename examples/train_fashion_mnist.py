#!/usr/bin/env python3
"""The main job: train a small CNN on Fashion-MNIST on the CPU, evaluate it, save a checkpoint.

  PYTHONPATH=build/python /usr/bin/python3 examples/train_fashion_mnist.py [--epochs 4] [--batch 64] [--device CL]

The data comes from Debian's dataset-fashion-mnist (/usr/share/datasets/fashion-mnist/; set
ONEGRAD_FASHION_MNIST to read it from elsewhere). The model is two conv layers with pooling and two
linear layers, trained with Adam and a cosine learning-rate schedule (from --lr down to 0 over
the run), its training step under onegrad.jit (--no-jit: without), on the default device (--device CL:
OpenCL); each epoch prints a progress bar (loss, accuracy, images/s) and the test accuracy. The checkpoint is a safetensors file (model weights and the optimizer's state).
"""
import argparse
import sys
import time

import onegrad
from onegrad import Tensor, nn
from onegrad.data import DataLoader, load_fashion_mnist
from onegrad.progress import ProgressBar


def make_model():
    return nn.Sequential(
        nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(8, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
        nn.Flatten(), nn.Linear(16 * 7 * 7, 64), nn.ReLU(), nn.Linear(64, 10))


def normalize(images: Tensor) -> Tensor:
    """uint8 pixels to float32 in [-1, 1]."""
    return images.float() * (2.0 / 255.0) - 1.0


def make_train_step(model, opt):
    """One step: forward, loss, backward, optimizer step; returns the loss and the count of hits."""
    def train_step(images, labels):
        opt.zero_grad()
        logits = model(normalize(images))
        loss = logits.cross_entropy(labels)
        hits = logits.argmax(-1).eq(labels).sum()
        loss.backward(realize_with=[hits])  # one schedule: the count shares the forward pass
        # logits is lazy and reads the parameters: alive, it would make each in-place update of
        # opt.step() copy the parameter first, so that logits keeps the values it was built from
        del logits
        opt.step()
        return loss, hits
    return train_step


def train_epoch(model, step, schedule, loader, epoch, epochs):
    """`step` is make_train_step's function, or it under onegrad.jit: a jitted step replays one batch
    shape, so a last, smaller batch runs the plain function (step.fn)."""
    model.train()
    bar = ProgressBar(len(loader), f"epoch {epoch}/{epochs}")
    seen = correct = 0
    loss_sum = 0.0
    for images, labels in loader:
        n = labels.shape[0]
        run = step.fn if isinstance(step, onegrad.JitFunction) and n != loader.batch_size else step
        loss, hits = run(images, labels)
        schedule.step()
        seen += n
        correct += int(hits.item())
        loss_sum += loss.item() * n
        bar.update(n, loss=loss_sum / seen, acc=correct / seen)
    bar.close()
    return loss_sum / seen, correct / seen


def evaluate(model, loader):
    model.eval()
    correct = seen = 0
    with onegrad.no_grad():
        for images, labels in loader:
            correct += int(model(normalize(images)).argmax(-1).eq(labels).sum().item())
            seen += labels.shape[0]
    return correct / seen


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--epochs", type=int, default=4)
    ap.add_argument("--batch", type=int, default=64)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--limit", type=int, default=0, help="train on the first N images only (a quick check)")
    ap.add_argument("--checkpoint", default="fashion_mnist_cnn.safetensors")
    ap.add_argument("--no-jit", action="store_true", help="run the training step without onegrad.jit")
    ap.add_argument("--device", default=None, help="where the model, batches and kernels live: CPU, CL, CL:1 "
                    "(default: onegrad.Device.DEFAULT, $DEV)")
    args = ap.parse_args()
    if args.device:
        onegrad.Device.DEFAULT = args.device  # DeviceError for an unknown device

    onegrad.manual_seed(args.seed)
    try:
        train, test = load_fashion_mnist(train=True), load_fashion_mnist(train=False)
    except onegrad.FileError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    train_images, train_labels = train
    if args.limit:
        train_images, train_labels = train_images[:args.limit], train_labels[:args.limit]
    print(f"Fashion-MNIST: {train_images.shape[0]} training and {test.images.shape[0]} test images")
    train_loader = DataLoader((train_images, train_labels), batch_size=args.batch, shuffle=True, seed=args.seed)
    test_loader = DataLoader(test, batch_size=1000)

    model = make_model()
    opt = onegrad.optim.Adam(model.parameters(), lr=args.lr)
    schedule = onegrad.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=args.epochs * len(train_loader))
    print(f"model: {sum(p.numel() for p in model.parameters())} parameters, Adam lr {args.lr} (cosine to 0), "
          f"batch {args.batch}")

    step = make_train_step(model, opt)
    if not args.no_jit:
        step = onegrad.jit(step)  # replays the step's kernels from the third batch on (docs/jit.md)
    start = time.perf_counter()
    accuracy = 0.0
    for epoch in range(1, args.epochs + 1):
        loss, train_acc = train_epoch(model, step, schedule, train_loader, epoch, args.epochs)
        accuracy = evaluate(model, test_loader)
        print(f"  epoch {epoch}: train loss {loss:.4f}, train accuracy {train_acc:.2%}, test accuracy {accuracy:.2%}")
    elapsed = time.perf_counter() - start

    nn.save_checkpoint(args.checkpoint, model, opt)
    images = args.epochs * train_images.shape[0]
    print(f"done: {args.epochs} epochs in {elapsed:.1f} s ({images / elapsed:.0f} images/s overall), "
          f"test accuracy {accuracy:.2%}, checkpoint {args.checkpoint}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
