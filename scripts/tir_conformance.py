#!/usr/bin/env python3
"""TIR conformance against a TVM source tree: every @T.prim_func of its Python tests through
`onegrad tir print/check/run`.

    scripts/tir_conformance.sh TVM_GIT_DIR [--rev REV] [--jobs N] [--timeout S] [--out DIR] [--limit N]

TVM_GIT_DIR is a checkout (its working tree is read) or a bare git dir (REV, default HEAD, is read
through git). Nothing of TVM is copied into this repository: the programs are written to --out (a
temporary folder unless given) for the run and for looking at failures afterwards.

Extraction reads tests/python/**/*.py with Python's ast: functions decorated with T.prim_func (at any
nesting depth) and @I.ir_module classes, of which only the T.prim_func members are kept (Relax
functions are dropped). Module-level (or enclosing-function) names bound to literal constants are
written as module-level constants, which the parser accepts. A function that uses any other name
from outside itself (a closure variable, a helper, a T.macro) is built by Python metaprogramming and
is skipped, counted by reason.

Stages, each a separate process with a time bound, so a crash or a hang is counted, not fatal:
  parsed       `tir print FILE` exits 0
  round trip   printing the printed text again gives the same text (print -> parse -> print)
  checked      `tir check FILE` exits 0
  run          for every function of a checked program, `tir run --func F` (compiled) and
               `tir run --func F --interpret` print the same digests (or the same fault)
  crashes      a process killed by a signal at any stage, or parse/print/check over its time bound (a hang)
  slow runs    a run over its time bound: a hang, or a big program (TVM's tests hold 1 GB weights)
               that the interpreter does not finish in time; the two cannot be told apart from outside
Failures are grouped by cause: the first error message with locations, names and numbers elided.
"""

import argparse
import ast
import builtins
import collections
import concurrent.futures
import datetime
import json
import os
import pathlib
import re
import subprocess
import sys
import tempfile
import textwrap

TIR_ALIASES = {"T"}
ALLOWED_FREE = {"T", "I", "tvm", "cls"}  # names TVMScript resolves itself (or our parser refuses)
BUILTIN_NAMES = set(dir(builtins))


# ---------------------------------------------------------------- reading the tree


def read_sources(tvm_dir, rev, under="tests/python"):
    """(commit, [(path, text)]) of every .py under `under`, from a checkout or a bare git dir."""
    tvm_dir = pathlib.Path(tvm_dir)
    bare = not (tvm_dir / under).is_dir()
    git = ["git", "--git-dir", str(tvm_dir if bare else tvm_dir / ".git")]
    if not bare and not (tvm_dir / ".git").exists():
        git = None  # a plain copy of the sources, not a git checkout
    commit = "unknown (not a git checkout)"
    if git:
        commit = subprocess.run(git + ["rev-parse", rev if bare else "HEAD"], check=True,
                                capture_output=True, text=True).stdout.strip()
    if not bare:
        paths = sorted(p for p in (tvm_dir / under).rglob("*.py") if p.is_file())
        return commit, [(str(p.relative_to(tvm_dir)), p.read_text(errors="replace")) for p in paths]
    names = subprocess.run(git + ["ls-tree", "-r", "--name-only", commit, "--", under], check=True,
                           capture_output=True, text=True).stdout.split("\n")
    names = [n for n in names if n.endswith(".py")]
    # one `git cat-file --batch` for all blobs: "<sha> blob <size>\n<bytes>\n" per request
    request = "".join(f"{commit}:{n}\n" for n in names).encode()
    out = subprocess.run(git + ["cat-file", "--batch"], input=request, check=True, capture_output=True).stdout
    files, pos = [], 0
    for name in names:
        eol = out.index(b"\n", pos)
        header = out[pos:eol].split()
        size = int(header[2])
        files.append((name, out[eol + 1:eol + 1 + size].decode(errors="replace")))
        pos = eol + 1 + size + 1
    return commit, files


# ---------------------------------------------------------------- extraction


def _dotted(node):
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        base = _dotted(node.value)
        return base + "." + node.attr if base else None
    return None


def _decorator_kind(dec):
    """('prim_func' | 'ir_module' | None, the alias before the dot, the call node or None)."""
    call = dec if isinstance(dec, ast.Call) else None
    name = _dotted(call.func if call else dec) or ""
    parts = name.split(".")
    if parts[-1] in ("prim_func", "ir_module"):
        return parts[-1], ".".join(parts[:-1]), call
    return None, None, None


class _Constant(Exception):
    pass


def _const_value(node, known):
    """The Python value of a literal constant expression over `known` constants; _Constant if not."""
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float, str)) and not isinstance(node.value, bool):
        return node.value
    if isinstance(node, ast.Name) and node.id in known:
        return known[node.id]
    if isinstance(node, ast.Tuple):
        return tuple(_const_value(e, known) for e in node.elts)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        v = _const_value(node.operand, known)
        if isinstance(v, (int, float)):
            return -v
    if isinstance(node, ast.BinOp):
        a, b = _const_value(node.left, known), _const_value(node.right, known)
        if isinstance(a, (int, float)) and isinstance(b, (int, float)):
            ops = {ast.Add: lambda x, y: x + y, ast.Sub: lambda x, y: x - y, ast.Mult: lambda x, y: x * y,
                   ast.FloorDiv: lambda x, y: x // y, ast.Mod: lambda x, y: x % y, ast.Pow: lambda x, y: x ** y}
            if type(node.op) in ops and not (type(node.op) in (ast.FloorDiv, ast.Mod) and b == 0):
                return ops[type(node.op)](a, b)
    raise _Constant()


def _scope_constants(body, known):
    """Names assigned exactly once in a scope's own statements, to a literal constant expression."""
    counts = collections.Counter()
    for stmt in body:
        for node in ast.walk(stmt):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                counts[node.id] += 1
    consts = dict(known)
    for stmt in body:
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
            name = stmt.targets[0].id
            if counts[name] == 1:
                try:
                    consts[name] = _const_value(stmt.value, consts)
                except _Constant:
                    consts.pop(name, None)
    for name, n in counts.items():  # reassigned or assigned something else: not a constant
        if name not in known and n != 1:
            consts.pop(name, None)
    return consts


def _free_names(func):
    """Names a function reads that it does not bind itself (parameters, assignments, loop targets)."""
    bound = {a.arg for a in func.args.args + func.args.kwonlyargs + func.args.posonlyargs}
    loads = set()
    for node in ast.walk(func):
        if isinstance(node, ast.Name):
            (bound if isinstance(node.ctx, (ast.Store, ast.Del)) else loads).add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef)) and node is not func:
            bound.add(node.name)
    # the decorator's own arguments (private=True) and annotations count too; ast.walk saw them
    for dec in func.decorator_list:
        for node in ast.walk(dec):
            if isinstance(node, ast.Name):
                loads.discard(node.id)
    return loads - bound


class Program:
    def __init__(self, pid, path, line, name, text, functions):
        self.id, self.path, self.line, self.name = pid, path, line, name
        self.text, self.functions = text, functions


def _function_text(lines, func, indent):
    """A prim_func's source: a normalized `@T.prim_func(...)` decorator and its def..end lines."""
    _, _, call = next(_decorator_kind(d) for d in func.decorator_list if _decorator_kind(d)[0] == "prim_func")
    deco = "@T.prim_func"
    if call is not None:
        deco += "(" + ", ".join([ast.unparse(a) for a in call.args] +
                                [f"{k.arg}={ast.unparse(k.value)}" for k in call.keywords]) + ")"
    body = textwrap.dedent("\n".join(lines[func.lineno - 1:func.end_lineno]))
    return textwrap.indent(deco + "\n" + body, indent)


class Extractor:
    """Walks one file's ast; collects Programs and counts what it skips, by reason."""

    def __init__(self, skipped):
        self.programs = []
        self.skipped = skipped  # Counter: reason -> number of prim_funcs
        self.skipped_where = collections.defaultdict(list)

    def skip(self, reason, path, node, n=1):
        self.skipped[reason] += n
        self.skipped_where[reason].append(f"{path}:{node.lineno}")

    def file(self, path, text):
        try:
            tree = ast.parse(text)
        except SyntaxError:
            n = len(re.findall(r"@\s*\w+(\.\w+)*\.prim_func|@\s*prim_func", text))
            self.skipped["the test file is not valid Python 3.11"] += n
            return
        lines = text.split("\n")
        self._scope(path, lines, tree.body, _scope_constants(tree.body, {}))

    def _scope(self, path, lines, body, consts):
        for stmt in body:
            if isinstance(stmt, ast.ClassDef):
                kinds = [_decorator_kind(d) for d in stmt.decorator_list]
                if any(k[0] == "ir_module" for k in kinds):
                    self._module(path, lines, stmt, consts)
                else:
                    self._scope(path, lines, stmt.body, _scope_constants(stmt.body, consts))
            elif isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
                kinds = [_decorator_kind(d) for d in stmt.decorator_list]
                if any(k[0] == "prim_func" for k in kinds):
                    self._function(path, lines, stmt, consts)
                else:
                    self._scope(path, lines, stmt.body, _scope_constants(stmt.body, consts))
            else:
                # prim_funcs inside if/for/with/try bodies at this level
                for field in ("body", "orelse", "finalbody", "handlers"):
                    inner = getattr(stmt, field, None)
                    if isinstance(inner, list) and inner and isinstance(inner[0], (ast.stmt, ast.excepthandler)):
                        for h in inner:
                            self._scope(path, lines, h.body if isinstance(h, ast.excepthandler) else [h], consts)

    def _closure_problem(self, func, consts, extra_allowed=()):
        """None when the function is self-contained; else why not. Fills `used` with constants."""
        alias = next(k[1] for k in map(_decorator_kind, func.decorator_list) if k[0] == "prim_func")
        if alias not in TIR_ALIASES:
            return f"decorated @{alias}.prim_func (tir imported under another name)", None
        used = {}
        for name in sorted(_free_names(func)):
            if name in ALLOWED_FREE or name in BUILTIN_NAMES or name in extra_allowed:
                continue
            if name in consts:
                used[name] = consts[name]
                continue
            return "metaprogramming: uses a Python name from outside the function", None
        return None, used

    @staticmethod
    def _header(used, module):
        head = ["# extracted by scripts/tir_conformance.py", "from tvm.script import tir as T"]
        if module:
            head.append("from tvm.script import ir as I")
        head += [f"{k} = {v!r}" for k, v in sorted(used.items())]
        return "\n".join(head) + "\n\n"

    def _function(self, path, lines, func, consts):
        problem, used = self._closure_problem(func, consts)
        if problem:
            self.skip(problem, path, func)
            return
        text = self._header(used, False) + _function_text(lines, func, "") + "\n"
        self.programs.append(Program(len(self.programs), path, func.lineno, func.name, text, [func.name]))

    def _module(self, path, lines, cls, consts):
        members = [s for s in cls.body if isinstance(s, ast.FunctionDef)]
        prim = [m for m in members if any(_decorator_kind(d)[0] == "prim_func" for d in m.decorator_list)]
        if not prim:
            return  # a Relax-only module: no TIR
        class_consts = _scope_constants(cls.body, consts)
        used, names = {}, {m.name for m in prim} | {cls.name}
        for m in prim:
            problem, u = self._closure_problem(m, class_consts, extra_allowed=names)
            if problem:
                self.skip(problem + " (in an @I.ir_module)", path, cls, len(prim))
                return
            used.update(u)
        dropped = len(members) - len(prim)
        if dropped:
            self.skipped["Relax or Python members dropped from @I.ir_module classes (not TIR)"] += dropped
        text = (self._header(used, True) + f"@I.ir_module\nclass {cls.name}:\n" +
                "\n\n".join(_function_text(lines, m, "    ") for m in prim) + "\n")
        self.programs.append(Program(len(self.programs), path, cls.lineno, cls.name, text, [m.name for m in prim]))


def extract(files):
    skipped = collections.Counter()
    ex = Extractor(skipped)
    for path, text in files:
        ex.file(path, text)
    return ex.programs, skipped, ex.skipped_where


# ---------------------------------------------------------------- stages


class Outcome:
    def __init__(self, rc, out, err, crash=None):
        self.rc, self.out, self.err, self.crash = rc, out, err, crash


def run_cli(binary, args, timeout):
    try:
        p = subprocess.run([binary, "tir"] + args, capture_output=True, text=True, errors="replace",
                           timeout=timeout)
    except OSError as e:  # the binary cannot be started (being rebuilt, deleted): this stage says so
        return Outcome(None, "", "", f"could not start {binary}: {e.strerror} (tir {args[0]})")
    except subprocess.TimeoutExpired as e:
        # what it wrote before the bound (`run` notes a fall back to the interpreter first)
        err = e.stderr.decode(errors="replace") if isinstance(e.stderr, bytes) else (e.stderr or "")
        return Outcome(None, "", err, f"hang: over the {timeout:g} s time bound (tir {args[0]})")
    if p.returncode < 0:
        import signal
        try:
            sig = signal.Signals(-p.returncode).name
        except ValueError:
            sig = f"signal {-p.returncode}"
        return Outcome(p.returncode, p.stdout, p.stderr, f"killed by {sig} (tir {args[0]})")
    return Outcome(p.returncode, p.stdout, p.stderr)


_LOCATION = re.compile(r"^(\S+?:\d+(:\d+)?:\s*)|(line \d+, column \d+:\s*)|(line \d+:\s*)")


def _elide_quoted(m):
    # function names, attributes and dtypes name the missing feature; other quoted text is data
    word, quote, inner = m.group(1) or "", m.group(2), m.group(3)
    if re.fullmatch(r"[A-Za-z_]\w*(\.\w+)+", inner) or word.strip() in ("attribute", "dtype", "keyword", "function", "found", "name"):
        return m.group(0)
    return f"{word}{quote}…{quote}"


_NAMES = re.compile(r"\b(onegrad tir run: )\w+: |\b(parameter|buffer|Var|variable|variables|function|dimension) (?!(?:N|of|has|is|in|at|with|and|or|would|cannot|declares|must|that|the|was|name)\b)[A-Za-z_]\w*")


def elide_names(text):
    """Program-specific names after words that introduce them (`parameter A`, `buffer B_1`)."""
    return _NAMES.sub(lambda m: m.group(1) if m.group(1) else m.group(2) + " …", text)


def family(message):
    """An error message with its location, quoted names and numbers elided: the cause's family."""
    # warnings (what TVM accepts and the spec refuses) precede errors in source order: not a cause
    lines = [l for l in message.split("\n") if l.strip() and ": warning: " not in l]
    # the first line that says something (check prints `FILE:line:col: rule: message`)
    text = lines[0] if lines else "(no message)"
    text = _LOCATION.sub("", text.strip())
    text = _LOCATION.sub("", text)
    text = re.sub(r"""(\b\w+ )?(['"])([^'"]*)\2""", _elide_quoted, text)
    text = re.sub(r"(?<![\w.])-?\d+(\.\d+)?(e[-+]?\d+)?(?![\w])", "N", text)
    return elide_names(text)[:160]


def stage_program(binary, prog, folder, timeout, run_timeout, run=True):
    """Runs every stage on one program; a dict of what happened (JSON-able)."""
    src = folder / f"{prog.id:05d}.py"
    src.write_text(prog.text)
    r = {"id": prog.id, "where": f"{prog.path}:{prog.line}", "name": prog.name, "file": str(src),
         "functions": len(prog.functions), "crashes": []}

    def crashed(o, stage):
        if o.crash:
            r["crashes"].append(f"{stage}: {o.crash}")
            return True
        return False

    printed = run_cli(binary, ["print", str(src)], timeout)
    if crashed(printed, "parse") or printed.rc != 0:
        r["parse"] = printed.crash or family(printed.err)
        return r
    r["parse"] = "ok"
    again_src = folder / f"{prog.id:05d}.printed.py"
    again_src.write_text(printed.out)
    again = run_cli(binary, ["print", str(again_src)], timeout)
    if crashed(again, "round trip"):
        r["round_trip"] = again.crash
    elif again.rc != 0:
        r["round_trip"] = "the printed text does not parse: " + family(again.err)
    else:
        r["round_trip"] = "ok" if again.out == printed.out else "printing the printed text differs"
    checked = run_cli(binary, ["check", str(src)], timeout)
    if crashed(checked, "check") or checked.rc != 0:
        r["check"] = checked.crash or family(checked.err)
        return r
    r["check"] = "ok"
    if not run:
        return r
    r["run"] = {}
    for f in prog.functions:
        r["run"][f] = compare_runs(binary, src, f, run_timeout, lambda o, s: crashed(o, s))
    return r


def compare_runs(binary, src, func, timeout, crashed):
    compiled = run_cli(binary, ["run", str(src), "--func", func], timeout)
    fell_back = [l for l in compiled.err.split("\n") if "running the interpreter" in l]
    if crashed(compiled, "run compiled"):
        return "crash: " + compiled.crash + ("; it was running the interpreter" if fell_back else "")
    if compiled.rc == 2:
        return "not run: " + family(compiled.err)
    if fell_back:  # it ran the interpreter: nothing to compare
        return "not compiled: " + family(fell_back[0])
    interpreted = run_cli(binary, ["run", str(src), "--func", func, "--interpret"], timeout)
    if crashed(interpreted, "run interpreted"):
        return "crash: " + interpreted.crash
    if compiled.rc == interpreted.rc and compiled.out == interpreted.out:
        if compiled.rc == 0:
            return "ok"
        if family(compiled.err) == family(interpreted.err):
            return "ok (same fault)"
        return "different faults: compiled " + family(compiled.err) + " / interpreted " + family(interpreted.err)
    if compiled.rc == 0 and interpreted.rc == 0:
        return "different results"
    if compiled.rc != 0 and interpreted.rc != 0:
        return "different faults: compiled " + family(compiled.err) + " / interpreted " + family(interpreted.err)
    if compiled.rc != 0:
        return "only compiled fails: " + family(compiled.err)
    return "only interpreted fails: " + family(interpreted.err)


# ---------------------------------------------------------------- report


def summarize(results, skipped, programs, top):
    c = collections.Counter()
    fam = {k: collections.Counter() for k in ("parse", "round_trip", "check", "run")}
    example = {}
    crashes, slow = [], []
    for r in results:
        funcs = r["functions"]
        c["programs"] += 1
        c["prim_funcs"] += funcs
        for x in r["crashes"]:
            is_slow = x.startswith("run ") and "time bound" in x
            (slow if is_slow else crashes).append(f"{r['where']} ({r['file']}): {x}")
        for stage in ("parse", "round_trip", "check"):
            v = r.get(stage)
            if v is None:
                continue
            if v == "ok":
                c[stage] += 1
            else:
                v = elide_names(v)
                fam[stage][v] += 1
                example.setdefault((stage, v), r["where"])
        for f, v in r.get("run", {}).items():
            c["run_total"] += 1
            if v.startswith("ok"):
                c["run_ok"] += 1
            else:
                v = elide_names(v)
                key = v if not v.startswith("crash") else "crash"
                if "time bound" in v:
                    key = "over the time bound" + (", running the interpreter (not compiled)" if "interpreter" in v else "")
                fam["run"][key] += 1
                example.setdefault(("run", key), f"{r['where']} {f}")
    lines = [f"programs extracted: {len(programs)} ({sum(len(p.functions) for p in programs)} prim_funcs); "
             f"staged: {c['programs']} ({c['prim_funcs']} prim_funcs)"]
    lines += [f"  skipped {n}: {why}" for why, n in skipped.most_common()]
    parsed = c["parse"]
    lines += [f"parsed:                          {parsed} / {c['programs']}",
              f"checked:                         {c['check']} / {parsed}",
              f"round trip identical:            {c['round_trip']} / {parsed}",
              f"run compiled == interpreted:     {c['run_ok']} / {c['run_total']} functions of checked programs",
              f"crashes (signal or hang):        {len(crashes)}"]
    lines += ["  " + x for x in crashes]
    lines += [f"runs over the time bound:        {len(slow)} (slow or hung)"]
    lines += ["  " + x for x in slow]
    titles = {"parse": "does not parse", "round_trip": "round trip", "check": "parses, fails the checks",
              "run": "run compiled vs interpreted (functions)"}
    for stage, t in titles.items():
        if not fam[stage]:
            continue
        total = sum(fam[stage].values())
        lines.append(f"\n{t}: {total}, by cause")
        for i, (v, n) in enumerate(fam[stage].most_common()):
            if i == top:
                rest = fam[stage].most_common()[top:]
                lines.append(f"  {sum(n for _, n in rest):5d}  ({len(rest)} other causes; results.jsonl has them all)")
                break
            lines.append(f"  {n:5d}  {v}    e.g. {example[(stage, v)]}")
    return "\n".join(lines), c, len(crashes)


def load_results(out):
    """results.jsonl by program id; a program staged again (--resume --redo) counts by its last line."""
    by_id = {}
    for line in open(out / "results.jsonl"):
        if line.strip():
            r = json.loads(line)
            by_id[r["id"]] = r
    return [by_id[k] for k in sorted(by_id)]


def default_binary():
    if os.environ.get("ONEGRAD_BIN"):
        return os.environ["ONEGRAD_BIN"]
    return str(pathlib.Path(__file__).resolve().parents[1] / "build" / "bin" / "onegrad")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("tvm_dir", help="a TVM checkout or bare git dir")
    ap.add_argument("--rev", default="HEAD", help="the revision of a bare git dir (default HEAD)")
    ap.add_argument("--tests", default="tests/python", help="the folder of the tree to read (default tests/python)")
    ap.add_argument("--bin", default=default_binary(), help="the onegrad binary (default: $ONEGRAD_BIN, else build/bin/onegrad)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=30.0, help="seconds for parse/print/check of one program")
    ap.add_argument("--run-timeout", type=float, default=20.0, help="seconds for one run of one function")
    ap.add_argument("--out", help="folder for the programs and results.jsonl (default: a new temporary one)")
    ap.add_argument("--limit", type=int, help="only the first N programs")
    ap.add_argument("--no-run", action="store_true", help="parse, print and check only")
    ap.add_argument("--resume", action="store_true", help="keep --out's results.jsonl, stage only the programs it lacks")
    ap.add_argument("--redo", metavar="REGEX", help="with --resume: also stage again the results whose JSON line matches")
    ap.add_argument("--report-only", action="store_true", help="summarize --out's results.jsonl again, run nothing")
    ap.add_argument("--top", type=int, default=25, help="causes listed per stage (default 25)")
    args = ap.parse_args(argv)

    if not args.report_only and not os.access(args.bin, os.X_OK):
        print(f"tir_conformance: no onegrad binary at {args.bin} (build it, or set ONEGRAD_BIN / --bin)", file=sys.stderr)
        return 2
    try:
        commit, files = read_sources(args.tvm_dir, args.rev, args.tests)
    except (subprocess.CalledProcessError, OSError) as e:
        err = getattr(e, "stderr", "") or ""
        print(f"tir_conformance: cannot read {args.tests} of {args.tvm_dir}: {e} {err}".strip(), file=sys.stderr)
        return 2
    programs, skipped, _ = extract(files)
    staged = programs if args.limit is None else programs[:args.limit]
    kept = []
    if args.resume and args.out and (pathlib.Path(args.out) / "results.jsonl").exists():
        redo = re.compile(args.redo) if args.redo else None
        kept = [r for r in load_results(pathlib.Path(args.out)) if not (redo and redo.search(json.dumps(r)))]
        done = {r["id"] for r in kept}
        staged = [p for p in staged if p.id not in done]
    if args.report_only:
        if not args.out:
            print("tir_conformance: --report-only needs --out", file=sys.stderr)
            return 2
        text, _, n_crashes = summarize(load_results(pathlib.Path(args.out)), skipped, programs, args.top)
        print(text)
        return 1 if n_crashes else 0
    out = pathlib.Path(args.out) if args.out else pathlib.Path(tempfile.mkdtemp(prefix="tir_conformance_"))
    (out / "programs").mkdir(parents=True, exist_ok=True)
    print(f"TVM {args.tvm_dir} at {commit}: {len(files)} files under {args.tests}; "
          f"{datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC; output in {out}", flush=True)
    results = [None] * len(staged)
    if kept:
        print(f"resuming: {len(kept)} results kept, {len(staged)} programs to stage", flush=True)
    with concurrent.futures.ThreadPoolExecutor(max(1, args.jobs)) as pool:
        futures = {pool.submit(stage_program, args.bin, p, out / "programs", args.timeout, args.run_timeout,
                               not args.no_run): i
                   for i, p in enumerate(staged)}
        # written as they finish, so a long run can be looked at (and a killed one still says something)
        with open(out / "results.jsonl", "a" if args.resume else "w") as f:
            for fut in concurrent.futures.as_completed(futures):
                results[futures[fut]] = fut.result()
                f.write(json.dumps(results[futures[fut]]) + "\n")
                f.flush()
    text, _, n_crashes = summarize(load_results(out) if kept else results, skipped, programs, args.top)
    print(text)
    return 1 if n_crashes else 0


if __name__ == "__main__":
    sys.exit(main())
