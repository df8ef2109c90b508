"""The examples run: the main job (examples/train_fashion_mnist.py) on a tiny data set written in
Fashion-MNIST's file layout, end to end (data, model, Adam, progress bar, evaluation, checkpoint)."""
import os
import pathlib
import struct
import subprocess
import sys

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[2]


def write_idx_u8(path, array):
    with open(path, "wb") as f:
        f.write(bytes([0, 0, 8, array.ndim]) + struct.pack(f">{array.ndim}I", *array.shape))
        f.write(array.astype(np.uint8).tobytes())


def write_split(folder, prefix, n):
    labels = np.arange(n) % 10
    images = np.repeat((labels * 25).astype(np.uint8)[:, None, None], 28, 1).repeat(28, 2)
    write_idx_u8(folder / f"{prefix}-images-idx3-ubyte", images)
    write_idx_u8(folder / f"{prefix}-labels-idx1-ubyte", labels)


def test_train_fashion_mnist_example(tmp_path):
    write_split(tmp_path, "train", 48)
    write_split(tmp_path, "t10k", 20)
    env = dict(os.environ, ONEGRAD_FASHION_MNIST=str(tmp_path))
    ck = tmp_path / "ck.safetensors"
    r = subprocess.run([sys.executable, str(ROOT / "examples" / "train_fashion_mnist.py"), "--epochs", "2",
                        "--batch", "16", "--lr", "0.01", "--checkpoint", str(ck)],
                       capture_output=True, text=True, env=env, timeout=600)
    assert r.returncode == 0, r.stderr
    assert "Fashion-MNIST: 48 training and 20 test images" in r.stdout
    assert "epoch 2: train loss" in r.stdout and "done: 2 epochs" in r.stdout
    assert "epoch 1/2 [" in r.stderr and "images/s" in r.stderr  # the progress bar
    assert ck.exists()


def test_train_example_says_how_to_install_the_data(tmp_path):
    env = dict(os.environ, ONEGRAD_FASHION_MNIST=str(tmp_path))
    r = subprocess.run([sys.executable, str(ROOT / "examples" / "train_fashion_mnist.py")], capture_output=True,
                       text=True, env=env, timeout=600)
    assert r.returncode == 1
    assert "apt-get install dataset-fashion-mnist" in r.stderr
