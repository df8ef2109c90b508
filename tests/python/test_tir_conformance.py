"""scripts/tir_conformance.sh on a small git tree of our own TVMScript (no TVM needed): extraction
(constants, ir_modules, metaprogramming skipped), every stage's count, failures grouped by cause, a
checkout and a bare git dir read alike, and a dying or hanging binary counted as a crash."""

import importlib.util
import os
import pathlib
import shutil
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "tir_conformance.sh"

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed (the script reads git dirs)")


def onegrad_binary():
    if os.environ.get("ONEGRAD_BIN"):
        return pathlib.Path(os.environ["ONEGRAD_BIN"])
    import onegrad  # build/python/onegrad -> build/bin/onegrad
    return pathlib.Path(onegrad.__file__).resolve().parents[2] / "bin" / "onegrad"


def load_module():
    spec = importlib.util.spec_from_file_location("tir_conformance", ROOT / "scripts" / "tir_conformance.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


# A test file as TVM writes them: programs at module level, in test functions and in classes.
TEST_FILE = '''
import tvm
from tvm.script import ir as I, relax as R, tir as T

N = 16
SHAPE = (N, 2)


@T.prim_func
def add_one(A: T.Buffer((N,), "int32"), B: T.Buffer((N,), "int32")):
    for i in range(N):
        B[i] = A[i] + 1


@T.prim_func(private=True)
def scale(A: T.Buffer(SHAPE, "float32")):
    for i, j in T.grid(N, 2):
        A[i, j] = A[i, j] * T.float32(2)


def test_nested():
    n = 8

    @T.prim_func
    def local_const(A: T.Buffer((n,), "float32")):
        for i in range(n):
            A[i] = T.float32(1)

    @T.prim_func
    def not_tir_yet(A: T.Buffer((4,), "int32")):
        A[0] = T.no_such_builtin(1)

    @T.prim_func
    def ill_typed(A: T.Buffer((4,), "int32")):
        A[0] = T.GE(A[1], T.GT(A[2], 0))

    @T.prim_func
    def faults(A: T.Buffer((4,), "int32")):
        assert A[0] > 100, "A[0] is small"
        A[1] = 1


def make(width):
    @T.prim_func
    def generated(A: T.Buffer((width,), "float32")):
        A[0] = T.float32(0)

    return generated


class TestInClass:
    @T.prim_func
    def before(A: T.Buffer((4,), "float32")):
        A[0] = T.float32(3)


@I.ir_module
class Mod:
    @T.prim_func
    def f(A: T.Buffer((4,), "int32")):
        A[0] = Mod.g(T.int32(2))

    @T.prim_func
    def g(x: T.int32) -> T.int32:
        return x * 3

    @R.function
    def main(x: R.Tensor((4,), "int32")):
        return x
'''


def git(*args, cwd):
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True,
                   env={**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t",
                        "GIT_COMMITTER_EMAIL": "t@t"})


@pytest.fixture(scope="module")
def tree(tmp_path_factory):
    top = tmp_path_factory.mktemp("tvm")
    work = top / "checkout"
    (work / "tests" / "python" / "tir").mkdir(parents=True)
    (work / "tests" / "python" / "tir" / "test_own.py").write_text(TEST_FILE)
    (work / "tests" / "python" / "not_python3.py").write_text("@T.prim_func\ndef f(:\n")
    git("init", "-q", cwd=work)
    git("add", ".", cwd=work)
    git("commit", "-q", "-m", "ours", cwd=work)
    git("clone", "-q", "--bare", str(work), str(top / "bare.git"), cwd=top)
    return work, top / "bare.git"


def run_script(tvm_dir, tmp_path, *extra, binary=None):
    env = {**os.environ, "ONEGRAD_BIN": str(binary or onegrad_binary()), "PYTHON": sys.executable}
    p = subprocess.run(["bash", str(SCRIPT), str(tvm_dir), "--out", str(tmp_path / "out"), *extra],
                       capture_output=True, text=True, env=env, timeout=300)
    return p


EXPECTED = [
    "programs extracted: 8 (9 prim_funcs); staged: 8 (9 prim_funcs)",
    "  skipped 1: the test file is not valid Python 3.11",
    "  skipped 1: metaprogramming: uses a Python name from outside the function",
    "  skipped 1: Relax or Python members dropped from @I.ir_module classes (not TIR)",
    "parsed:                          7 / 8",
    "checked:                         6 / 7",
    "round trip identical:            7 / 7",
    "run compiled == interpreted:     7 / 7 functions of checked programs",
    "crashes (signal or hang):        0",
]


@pytest.mark.parametrize("which", ["checkout", "bare"])
def test_counts_on_our_programs(tree, tmp_path, which):
    work, bare = tree
    p = run_script(work if which == "checkout" else bare, tmp_path)
    assert p.returncode == 0, p.stdout + p.stderr
    lines = p.stdout.split("\n")
    commit = subprocess.run(["git", "rev-parse", "HEAD"], cwd=work, capture_output=True, text=True).stdout.strip()
    assert f" at {commit}: 2 files under tests/python;" in lines[0]
    for want in EXPECTED:
        assert want in lines, f"{want!r} not in:\n{p.stdout}"
    # the causes, grouped, with where they come from
    assert "does not parse: 1, by cause" in p.stdout
    assert "syntax: unknown function 'T.no_such_builtin'    e.g. tests/python/tir/test_own.py:" in p.stdout
    assert "parses, fails the checks: 1, by cause" in p.stdout
    assert "CmpOp: GE operands have different dtypes: int32 and bool    e.g. tests/python/tir/test_own.py:" in p.stdout
    # the programs stay in --out for a closer look
    programs = sorted((tmp_path / "out" / "programs").glob("?????.py"))
    assert len(programs) == 8
    texts = [x.read_text() for x in programs]
    assert any("N = 16" in t and "SHAPE = (16, 2)" in t and "def scale" in t for t in texts)
    assert any("n = 8" in t and "def local_const" in t for t in texts)
    module = next(t for t in texts if "class Mod" in t)
    assert "from tvm.script import ir as I" in module and "@R.function" not in module
    assert not any("def generated" in t for t in texts)
    # --report-only summarizes the same results again without running anything
    again = run_script(work if which == "checkout" else bare, tmp_path, "--report-only", binary=tmp_path / "none")
    assert again.returncode == 0 and again.stdout == "\n".join(lines[1:]), again.stdout + again.stderr
    # --resume stages only what results.jsonl lacks, and --redo what matches: the same summary
    again = run_script(work if which == "checkout" else bare, tmp_path, "--resume", "--redo", "CmpOp")
    assert again.returncode == 0, again.stdout + again.stderr
    assert again.stdout.split("\n")[1] == "resuming: 7 results kept, 1 programs to stage"
    assert again.stdout.split("\n")[2:] == lines[1:], again.stdout


def test_extraction_units():
    tc = load_module()
    programs, skipped, where = tc.extract([("t.py", TEST_FILE)])
    assert [p.name for p in programs] == ["add_one", "scale", "local_const", "not_tir_yet", "ill_typed",
                                          "faults", "before", "Mod"]
    assert programs[-1].functions == ["f", "g"]
    generated = TEST_FILE.split("\n").index('    def generated(A: T.Buffer((width,), "float32")):') + 1
    assert where["metaprogramming: uses a Python name from outside the function"] == [f"t.py:{generated}"]
    # the same fault, compiled and interpreted, counts as agreeing; the cause families elide data
    assert tc.family("x.py:3:5: Scope: variable 'i' used outside its loop") == "Scope: variable '…' used outside its loop"
    assert tc.family("line 2, column 9: unknown function 'T.foo' at 12") == "unknown function 'T.foo' at N"
    # a warning (TVM accepts, the spec refuses) before the error is not the cause
    assert tc.family("x.py:4:9: warning: IfThenElse: the condition must be a bool scalar, not int32 [spec rule ...]\n"
                     "x.py:6:9: IntImm: the value 300 is out of the range of int8") == "IntImm: the value N is out of the range of int8"


def fake_binary(tmp_path, body):
    # a onegrad that misbehaves on one program and is the real binary for the others
    script = tmp_path / "onegrad"
    script.write_text(f"#!/usr/bin/env bash\nif grep -q 'def add_one' \"$3\" 2>/dev/null; then {body}; fi\n"
                      f"exec {onegrad_binary()} \"$@\"\n")
    script.chmod(0o755)
    return script


@pytest.mark.parametrize("body,cause", [("kill -SEGV $$", "parse: killed by SIGSEGV (tir print)"),
                                        ("exec sleep 30", "parse: hang: over the 2 s time bound (tir print)")])
def test_a_crash_is_counted_and_the_run_goes_on(tree, tmp_path, body, cause):
    work, _ = tree
    p = run_script(work, tmp_path, "--timeout", "2", binary=fake_binary(tmp_path, body))
    assert p.returncode == 1, p.stdout + p.stderr
    assert "crashes (signal or hang):        1" in p.stdout
    assert f"tests/python/tir/test_own.py:10 ({tmp_path / 'out' / 'programs' / '00000.py'}): {cause}" in p.stdout
    assert "parsed:                          6 / 8" in p.stdout  # the others still ran


def test_usage_errors(tmp_path):
    p = run_script(tmp_path / "nowhere", tmp_path)
    assert p.returncode == 2 and "cannot read tests/python of" in p.stderr
    p = run_script(tmp_path, tmp_path, binary=tmp_path / "missing")
    assert p.returncode == 2 and f"no onegrad binary at {tmp_path / 'missing'}" in p.stderr
