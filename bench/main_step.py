"""Time training steps of the main job (examples/train_fashion_mnist.py's loop and model): images/s by wall
clock and by process CPU time, so two builds can be compared under the same load.

  PYTHONPATH=build/python /usr/bin/python3 bench/main_step.py WARMUP STEPS
"""
import json
import os
import sys
import time
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "examples"))
import onegrad
from onegrad import nn
from onegrad.data import DataLoader, load_fashion_mnist
from train_fashion_mnist import make_model, normalize

warm, steps = int(sys.argv[1]), int(sys.argv[2])
onegrad.manual_seed(0)
train = load_fashion_mnist(train=True)
loader = DataLoader(train, batch_size=64, shuffle=True, seed=0)
model = make_model()
opt = onegrad.optim.Adam(model.parameters(), lr=2e-3)
sched = onegrad.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=4 * len(loader))
it = iter(loader)
def step():
    images, labels = next(it)
    opt.zero_grad()
    logits = model(normalize(images))
    loss = logits.cross_entropy(labels)
    hits = logits.argmax(-1).eq(labels).sum()
    loss.backward(realize_with=[hits])
    del logits
    opt.step(); sched.step()
    return int(hits.item()), loss.item()
for _ in range(warm): step()
w0, c0 = time.perf_counter(), time.process_time()
for _ in range(steps): step()
w, c = time.perf_counter() - w0, time.process_time() - c0
print(json.dumps({"lib": os.environ.get("PYTHONPATH"), "img_s_wall": round(64*steps/w), "img_s_cpu": round(64*steps/c), "wall": round(w,2), "cpu": round(c,2)}))
