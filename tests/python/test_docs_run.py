"""Docs that run: every fenced code block of README.md and docs/*.md is executed, or marked as one
that cannot be, so a statement in the docs cannot go stale without a test failing.

A block is classified by its info string (```python, ```sh, ```cpp, ...) and by the HTML comments
right before its fence (invisible when the Markdown is rendered):

- `<!-- not-run: REASON -->`: not executed (an output listing, a grammar, a signature list, a
  command that builds or installs the tree this test runs in). REASON must be given.
- `<!-- setup: CODE -->`: hidden code run first, for a fragment that uses names its text defines
  (Python: in the block's namespace; C++: inside the function the block is wrapped in).
- `<!-- continues -->`: a Python block that goes on from the previous Python block of its file, in
  the same interpreter (its names and state). Otherwise each Python block gets a fresh interpreter:
  blocks do not depend on their order in the file or on blocks that others add between them.
- `<!-- errors: ONE STATEMENT PER LINE -->` before a listing of error messages: statement i must
  raise an exception whose message is line i of the listing (the statements run after
  `import numpy as np, onegrad` and `from onegrad import Opt, Tensor, dtypes`).
- `<!-- output: PYTHON CODE -->` before an output listing: what the code prints (after the same
  imports) must be the listing, `...` matching any text.
- `<!-- expressions -->` before a C++ block: each line is one expression (a list of patterns, say),
  compiled as a statement of its own.

Python (`python`): run by /usr/bin/python3 (the interpreter running this test) in a subprocess with
onegrad from the package under test, the current directory a temporary one, a bounded time, and
ONEGRAD_FASHION_MNIST pointing at a tiny data set in Fashion-MNIST's file layout (48 training and
20 test images) so that the data examples run in seconds. A block with `>>>` lines is a session: each
statement's output (the repr of an expression, or what it prints) must be the text under it, and
an expected last line `pkg.ErrorClass: message` means the statement must raise that class with that
message; `...` in expected text matches anything. Other blocks must run without an exception.
Tracebacks name the Markdown file and line (the code is compiled with the doc's line numbers).
tests/python/doc_block_driver.py is the program that runs them.

Shell (`sh`): run by bash in a temporary folder that links every top-level entry of the repository
(and `build` to the build tree under test, whose `bin/` is on PATH, so `onegrad ...` is the built
CLI). A block with `$ ` lines is a transcript: each command must exit 0 and, where output is shown
under it, print exactly that. Other blocks: each line is a command that must exit 0.

C++ (`cpp`): the fragments are wrapped in one function each (`using namespace onegrad;`, their
`#include`s hoisted), compiled together in one translation unit against the headers in src/ and the
static libraries in build/lib (with `#line` directives, so diagnostics name the Markdown file and
line), linked, and run: each must finish without an exception. A block with `int main` is a
complete program, compiled and run on its own.

Any other block (no info string, `c`, a language without a runner) must carry a `not-run` marker.
The sh and C++ parts need the build tree and a compiler, and skip when onegrad is an installed package.
"""
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import textwrap

import pytest

import onegrad
from doc_block_driver import like
from test_examples import write_split

ROOT = pathlib.Path(__file__).resolve().parents[2]
DOCS = [ROOT / "README.md"] + sorted((ROOT / "docs").glob("*.md"))
PYTHON_PATH = pathlib.Path(onegrad.__file__).resolve().parents[1]
BUILD = PYTHON_PATH.parent if (PYTHON_PATH.parent / "bin" / "onegrad").exists() else None
DRIVER = pathlib.Path(__file__).with_name("doc_block_driver.py")
TIMEOUT_S = 300  # per block (or chain of continuing blocks); the README's training step is the slowest

MARKER = re.compile(r"\s*(not-run|setup|continues|errors|output|expressions)\b:?(.*)", re.S)
FENCE = re.compile(r"^(\s*)(`{3,}|~{3,})\s*([\w+-]*)")


class Block:
    def __init__(self, path, line, lang, text, markers):
        self.path, self.line, self.lang, self.text, self.markers = path, line, lang, text, markers
        self.where = f"{path.relative_to(ROOT)}:{line}"  # the line of the opening fence

    def __repr__(self):
        return self.where

    @property
    def first_line(self):  # the doc line of the block's first line of code
        return self.line + 1


def parse_blocks(path):
    """The fenced blocks of one Markdown file with the markers (HTML comments) just before each."""
    lines = path.read_text().split("\n")
    blocks, markers, i = [], {}, 0
    while i < len(lines):
        line = lines[i]
        if line.lstrip().startswith("<!--"):
            start, body = i, line.lstrip()[4:]
            while "-->" not in body and i + 1 < len(lines):
                i += 1
                body += "\n" + lines[i]
            m = MARKER.match(body[:body.index("-->")] if "-->" in body else body)
            if m:
                markers[m.group(1)] = textwrap.dedent(m.group(2)).strip()
            i += 1
            continue
        fence = FENCE.match(line)
        if fence:
            indent, mark, lang = fence.groups()
            close = re.compile(r"^\s*" + re.escape(mark[0]) + "{%d,}\\s*$" % len(mark))
            j = i + 1
            while j < len(lines) and not close.match(lines[j]):
                j += 1
            body = [l[len(indent):] if l.startswith(indent) else l.lstrip() for l in lines[i + 1:j]]
            blocks.append(Block(path, i + 1, lang, "\n".join(body), markers))
            markers, i = {}, j + 1
            continue
        if line.strip():
            markers = {}
        i += 1
    return blocks


ALL = [b for path in DOCS for b in parse_blocks(path)]
RUNNERS = {"python", "sh", "cpp"}


def is_run(b):
    return "not-run" not in b.markers and (python_checked(b) or b.lang in RUNNERS)


def python_checked(b):
    """A listing whose text an errors or output marker's Python checks, whatever its language."""
    return "errors" in b.markers or "output" in b.markers


def test_every_block_is_run_or_marked():
    """A block the test cannot run needs `<!-- not-run: why -->`, and the reason is not empty."""
    bad = [f"{b.where}: a ```{b.lang or '(no info string)'} block: give it a runnable language or "
           f"put <!-- not-run: REASON --> just before its fence" for b in ALL if not is_run(b) and
           not b.markers.get("not-run", "").strip(": ")]
    assert not bad, "\n".join(bad)
    assert len(ALL) > 30 and sum(map(is_run, ALL)) >= 10  # the parser finds the blocks


# ---------------------------------------------------------------- Python



def session_examples(b):
    """(statement, doc line, expected output) for each `>>>` of a session block."""
    examples, lines = [], b.text.split("\n")
    for k, line in enumerate(lines):
        if line.startswith(">>> "):
            examples.append([line[4:], b.first_line + k, []])
        elif line.startswith("... ") and examples and not examples[-1][2]:
            examples[-1][0] += "\n" + line[4:]
        elif examples:
            examples[-1][2].append(line)
        elif line.strip():
            raise AssertionError(f"{b.where}: text before the first >>> of a session")
    return [(source + "\n", line, "\n".join(out).strip("\n")) for source, line, out in examples]


def error_pairs(b):
    statements = [s for s in b.markers["errors"].split("\n") if s.strip()]
    messages = [m for m in b.text.split("\n") if m.strip()]
    assert len(statements) == len(messages), (
        f"{b.where}: the errors marker has {len(statements)} statements for {len(messages)} messages")
    return list(zip(statements, messages))


def python_chunk(b):
    chunk = {"path": str(b.path.relative_to(ROOT)), "where": b.where, "setup": b.markers.get("setup", ""),
             "first_line": b.first_line}
    if "errors" in b.markers:
        return dict(chunk, kind="errors", pairs=error_pairs(b))
    if "output" in b.markers:
        return dict(chunk, kind="output", code=b.markers["output"], text=b.text)
    if any(l.startswith(">>> ") for l in b.text.split("\n")):
        return dict(chunk, kind="session", examples=session_examples(b))
    return dict(chunk, kind="script", text=b.text)


def python_chains():
    """Python blocks grouped into the chains that share one interpreter (`continues`)."""
    chains = []
    for b in ALL:
        if not is_run(b) or not (b.lang == "python" or python_checked(b)):
            continue
        if "continues" in b.markers:
            assert chains and chains[-1][-1].path == b.path, f"{b.where}: continues, but no Python block before it"
            chains[-1].append(b)
        else:
            chains.append([b])
    return chains


@pytest.fixture(scope="module")
def fashion_mnist(tmp_path_factory):
    folder = tmp_path_factory.mktemp("fashion-mnist")
    write_split(folder, "train", 48)
    write_split(folder, "t10k", 20)
    return folder


@pytest.mark.parametrize("chain", python_chains(), ids=lambda c: c[-1].where)
def test_python_block(chain, tmp_path, fashion_mnist):
    env = dict(os.environ, PYTHONPATH=str(PYTHON_PATH), ONEGRAD_FASHION_MNIST=str(fashion_mnist))
    r = subprocess.run([sys.executable, str(DRIVER)], input=json.dumps([python_chunk(b) for b in chain]),
                       capture_output=True, text=True, cwd=tmp_path, env=env, timeout=TIMEOUT_S)
    assert r.returncode == 0 and r.stdout.endswith("ok\n"), (
        f"the Python block at {' + '.join(b.where for b in chain)} fails:\n{r.stdout[-4000:]}\n{r.stderr[-4000:]}")


# ---------------------------------------------------------------- shell

def needs_build():
    if BUILD is None or shutil.which("bash") is None:
        pytest.skip("no build tree next to the onegrad package (an installed package): sh and C++ blocks need one")


def shell_steps(b):
    """(command, expected output or None) per command: `$ ` lines of a transcript, else every line."""
    lines = b.text.split("\n")
    if not any(l.startswith("$ ") for l in lines):
        return [(l, None) for l in lines if l.strip() and not l.lstrip().startswith("#")]
    steps = []
    for line in lines:
        if line.startswith("$ "):
            steps.append([line[2:], []])
        else:
            assert steps, f"{b.where}: output before the first $ command"
            steps[-1][1].append(line)
    return [(command, "\n".join(out).strip("\n") or None) for command, out in steps]


@pytest.fixture
def repo_view(tmp_path):
    """A temporary folder that looks like the repository root, with `build` the build tree under test."""
    for entry in ROOT.iterdir():
        if entry.name not in ("build", ".git"):
            (tmp_path / entry.name).symlink_to(entry)
    (tmp_path / "build").symlink_to(BUILD)
    return tmp_path


@pytest.mark.parametrize("block", [b for b in ALL if is_run(b) and b.lang == "sh" and not python_checked(b)], ids=repr)
def test_shell_block(block, request):
    needs_build()
    cwd = request.getfixturevalue("repo_view")
    env = dict(os.environ, PATH=f"{BUILD / 'bin'}:{os.environ['PATH']}", PYTHONPATH=str(PYTHON_PATH))
    for command, expected in shell_steps(block):
        r = subprocess.run(["bash", "-c", command], capture_output=True, text=True, cwd=cwd, env=env,
                           timeout=TIMEOUT_S)
        assert r.returncode == 0, f"{block.where}: `{command}` exits {r.returncode}:\n{r.stdout}\n{r.stderr}"
        got = "\n".join(l.rstrip() for l in r.stdout.strip("\n").split("\n"))
        assert expected is None or like(expected, got), (
            f"{block.where}: `{command}` prints\n{got}\nbut the doc shows\n{expected}")


# ---------------------------------------------------------------- C++

CPP = [b for b in ALL if is_run(b) and b.lang == "cpp" and not python_checked(b)]
LIBS = ["onegrad_tir_compile", "onegrad_tir", "onegrad_nn", "onegrad_engine", "onegrad_render", "onegrad_codegen",
        "onegrad_runtime", "onegrad_schedule", "onegrad_tensor", "onegrad_symbolic", "onegrad_rewrite", "onegrad_uop"]


def cpp_lines(b):
    """The setup marker's lines and the block's, `#include`s blanked (they go to the top)."""
    setup, body = b.markers.get("setup", "").split("\n"), b.text.split("\n")
    if "expressions" in b.markers:
        # `#line` again after each, as the `);` after a trailing // comment takes a line of its own
        body = [f"(void)({l}\n);\n#line {b.first_line + k + 1}" if l.strip() else l for k, l in enumerate(body)]
    return [("" if l.strip().startswith("#include") else l) for l in setup], [("" if l.strip().startswith("#include") else l) for l in body]


def cpp_includes(b):
    return [l.strip() for l in (b.markers.get("setup", "") + "\n" + b.text).split("\n") if l.strip().startswith("#include")]


def cpp_body(b):
    setup, body = cpp_lines(b)
    return "\n".join(setup) + f"\n#line {b.first_line} \"{b.path.relative_to(ROOT)}\"\n" + "\n".join(body) + "\n"


def opencl_link():
    """The OpenCL library the build's runtime links (CMakeCache's OpenCL_LIBRARY), if it found one."""
    cache = BUILD / "CMakeCache.txt"
    if not cache.exists():
        return []
    for line in cache.read_text().splitlines():
        if line.startswith("OpenCL_LIBRARY:FILEPATH="):
            path = line.split("=", 1)[1]
            return [path] if path and not path.endswith("NOTFOUND") else []
    return []


def compile_and_run(source, folder, name):
    cxx = os.environ.get("CXX") or shutil.which("g++") or shutil.which("c++")
    if cxx is None:
        pytest.skip("no C++ compiler")
    cpp, exe = folder / f"{name}.cpp", folder / name
    cpp.write_text(source)
    libs = [f"-l{lib}" for lib in LIBS if (BUILD / "lib" / f"lib{lib}.a").exists()]
    # the engine installs Tensor's realize hook from a file nothing names; CMake's onegrad_engine
    # target asks the linker to keep it, and a hand-written link line must ask the same
    libs = ["-Wl,--undefined=onegrad_engine_installed", *libs, *opencl_link()]
    r = subprocess.run([cxx, "-std=c++20", "-O0", "-w", f"-I{ROOT / 'src'}", str(cpp), "-o", str(exe),
                        f"-L{BUILD / 'lib'}", "-Wl,--start-group", *libs, "-Wl,--end-group", "-lsqlite3", "-lz",
                        "-ldl", "-lpthread"], capture_output=True, text=True, timeout=TIMEOUT_S)
    if r.returncode != 0:
        return r.returncode, "does not compile:\n" + r.stderr[-6000:]
    r = subprocess.run([str(exe)], capture_output=True, text=True, cwd=folder, timeout=TIMEOUT_S)
    return r.returncode, r.stdout + r.stderr


def fragments_source(fragments):
    """One translation unit: a function per fragment, and a main that runs each and says how it went."""
    includes = sorted({l for b in fragments for l in cpp_includes(b)})
    functions = [f"static void block_{k}() {{\n{cpp_body(b)}}}\n" for k, b in enumerate(fragments)]
    calls = [f'  try {{ block_{k}(); std::printf("ok {b.where}\\n"); }} catch (const std::exception& e) '
             f'{{ std::printf("FAIL {b.where}: %s\\n", e.what()); }}' for k, b in enumerate(fragments)]
    return "\n".join(["#include <cstdio>", "#include <exception>", *includes, "using namespace onegrad;", *functions,
                      "int main() {", *calls, "}"]) + "\n"


@pytest.fixture(scope="module")
def cpp_fragments(tmp_path_factory):
    """Every C++ fragment in one translation unit (one compile), run one after the other."""
    needs_build()
    source = fragments_source([b for b in CPP if "int main" not in b.text])
    return compile_and_run(source, tmp_path_factory.mktemp("cpp"), "fragments")


@pytest.mark.parametrize("block", CPP, ids=repr)
def test_cpp_block(block, request, tmp_path):
    needs_build()
    if "int main" in block.text:
        rc, out = compile_and_run(f"#line {block.first_line} \"{block.path.relative_to(ROOT)}\"\n{block.text}\n",
                                  tmp_path, "program")
        assert rc == 0, f"{block.where}: the program {out}"
        return
    rc, out = request.getfixturevalue("cpp_fragments")
    if out.startswith("does not compile"):  # find whose fault: this block compiled alone
        rc, out = compile_and_run(fragments_source([block]), tmp_path, "fragment")
    assert f"ok {block.where}" in out.split("\n"), f"{block.where}: the C++ block fails: {out[-6000:]}"
