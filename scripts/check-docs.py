#!/usr/bin/env python3
"""Runs the shell and Python examples of the documentation, as written.

  scripts/check-docs.py [--root DIR] [--build DIR] [FILE.md ...]

Without files: README.md and every docs/**/*.md except docs/study/ and
docs/results/. Those two hold the records of GPU runs (the study's reports,
which `scripts/study.py report` generates, and notes on how the result files
were produced on the GPU host): data, not instructions.

Blocks. Every fenced block tagged `sh`, `bash`, `console` or `python` is
run; blocks in other languages (mlir, json, cpp, untagged ...) are left
alone unless a marker (below) says otherwise. A block that runs longer than
--timeout (300 s) fails: mark a long one `skip: REASON`.

  sh, bash   a script, run by `bash -e -o pipefail` (`shell` too); it
             passes when it exits 0.
  python     a script, run by the build's interpreter (--python, default
             /usr/bin/python3; `python3`, `py` too); it passes when it
             exits 0.
  console    a transcript: each `$ ` line is a command (a line ending in
             `\\` continues it), the lines after it up to the next `$ `
             are its output. The commands run in one bash session; each
             command's output (stdout and stderr together) must match the
             lines shown, where a line `...` stands for any number of lines
             and `...` inside a line for any text. Exit statuses are not
             checked: the output shown is.

Where. The blocks of one file run in order, from the root of a fresh copy
of the source tree (the files git tracks or would track), so a block sees
what the earlier blocks of its file wrote and the tree itself stays clean.
The copy's `build/` links to the build's `bin`, `lib` and `python`, and
holds a `test/` whose lit configuration points at the copy. PATH starts
with a directory whose `python3` is the build's interpreter (and whose
`python` fails: Debian 12 has none), then the build's `bin`; PYTHONPATH is
the build's `python` (the `tgemm` package).

Markers. An HTML comment on the line right before a block's opening fence
(invisible once rendered, visible in the source) says how to treat it:

  <!-- docs-test: gpu -->             needs a CUDA GPU: not run (unless
                                      --gpu). A reason may follow:
                                      `gpu: REASON`.
  <!-- docs-test: skip: REASON -->    not run, for REASON (the GPU host's
                                      steps, builds, commands that take
                                      minutes, placeholders to fill in).
  <!-- docs-test: file: PATH -->      any block: its text is written to PATH
                                      (relative to the copy's root) before
                                      the blocks after it run.
  <!-- docs-test: output -->          the expected output of the block
                                      right before it (matched as in a
                                      console block); when that block is
                                      not run, neither is this check.

A marker anywhere else, an unknown marker or a `skip` without a reason is
an error. Each block is reported as PASS, FAIL or SKIP with its file:line;
a failing block's output is printed. The exit status is 1 if any block
failed, 2 on bad usage.
"""
import argparse
import concurrent.futures
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile

RUN_LANGUAGES = {"sh": "sh", "bash": "sh", "shell": "sh", "console": "console",
                 "python": "python", "python3": "python", "py": "python"}
EXCLUDED_DIRS = ("docs/study", "docs/results")
BUILD_LINKS = ("bin", "lib", "python")
MARKER = re.compile(r"^\s*<!--\s*docs-test:\s*(.*?)\s*-->\s*$")
FENCE = re.compile(r"^( {0,3})(`{3,}|~{3,})\s*([^`\s]*)[^`]*$")
OUTPUT_TAIL = 80


class Block:
    def __init__(self, path, line, language, text, marker):
        self.path = path          # as reported
        self.line = line          # of the opening fence, 1-based
        self.language = language  # the fence's tag, lower case
        self.text = text
        self.marker = marker      # (kind, argument) or None
        self.kind = RUN_LANGUAGES.get(language)

    def where(self):
        return f"{self.path}:{self.line}"


def parse_marker(text):
    """('gpu', reason), ('skip', reason), ('file', path), ('output', '')."""
    kind, _, argument = text.partition(":")
    kind, argument = kind.strip(), argument.strip()
    if kind == "gpu":
        return kind, argument
    if kind == "skip":
        if not argument:
            raise ValueError("`skip` needs a reason: `skip: REASON`")
        return kind, argument
    if kind == "file":
        if not argument or os.path.isabs(argument) or ".." in argument.split("/"):
            raise ValueError("`file` needs a relative path inside the tree")
        return kind, argument
    if kind == "output":
        if argument:
            raise ValueError("`output` takes no argument")
        return kind, ""
    raise ValueError(f"unknown marker `{text}`: gpu, skip: REASON, "
                     "file: PATH or output")


def parse(path, shown):
    """The fenced blocks of a Markdown file, and the marker errors."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    blocks, errors = [], []
    pending = None  # (line, marker) of a marker on the previous line
    i = 0
    while i < len(lines):
        line = lines[i]
        if pending and pending[0] != i:  # the marker was not right before
            if pending[1][0] != "invalid":
                errors.append((pending[0], "a docs-test marker must be on "
                               "the line right before a block's opening "
                               "fence"))
            pending = None
        m = MARKER.match(line)
        if m:
            try:
                pending = (i + 1, parse_marker(m.group(1)))
            except ValueError as error:
                # Reported once; the block it marks is not run.
                errors.append((i + 1, str(error)))
                pending = (i + 1, ("invalid", str(error)))
            i += 1
            continue
        fence = FENCE.match(line)
        if not fence:
            i += 1
            continue
        indent, ticks, language = fence.groups()
        start = i
        body = []
        i += 1
        closing = re.compile(r"^ {0,3}" + re.escape(ticks[0]) + "{%d,}\\s*$"
                             % len(ticks))
        while i < len(lines) and not closing.match(lines[i]):
            text = lines[i]
            # Strip the fence's indentation (a block inside a list item).
            body.append(text[len(indent):] if text.startswith(indent) else
                        text.lstrip(" "))
            i += 1
        i += 1  # the closing fence (or the end of the file)
        marker = pending[1] if pending else None
        pending = None
        blocks.append(Block(shown, start + 1, language.lower(),
                            "\n".join(body) + "\n" if body else "", marker))
    if pending and pending[1][0] != "invalid":
        errors.append((pending[0], "a docs-test marker must be on the line "
                       "right before a block's opening fence"))
    return blocks, errors


def expected_pattern(expected):
    """A regex for output shown with `...` elisions."""
    parts = []
    for line in expected.rstrip("\n").split("\n") if expected.strip() else []:
        line = line.rstrip()
        if line.strip() == "...":
            parts.append(r"(?:[^\n]*\n)*?")
        else:
            parts.append(r"[^\n]*".join(map(re.escape, line.split("...")))
                         + r"\n")
    return re.compile("".join(parts))


def normalize(output):
    lines = [line.rstrip() for line in output.rstrip("\n").split("\n")]
    return "\n".join(lines) + "\n" if output.strip() else ""


def matches(expected, actual):
    return expected_pattern(expected).fullmatch(normalize(actual)) is not None


def parse_console(text):
    """[(command, expected output)] of a console transcript."""
    steps = []
    lines = text.rstrip("\n").split("\n") if text.strip() else []
    i = 0
    while i < len(lines):
        line = lines[i]
        if not line.startswith("$ "):
            if steps:
                steps[-1][1].append(line)
                i += 1
                continue
            raise ValueError(f"line {i + 1} of the transcript is output "
                             "before the first `$ ` command")
        command = [line[2:]]
        while command[-1].endswith("\\") and i + 1 < len(lines):
            i += 1
            command.append(lines[i])
        steps.append(("\n".join(command), []))
        i += 1
    return [(command, "\n".join(output) + "\n" if output else "")
            for command, output in steps]


def tail(output, lines=OUTPUT_TAIL):
    rows = output.rstrip("\n").split("\n")
    if len(rows) <= lines:
        return "\n".join(rows)
    return (f"[{len(rows) - lines} earlier lines left out]\n"
            + "\n".join(rows[-lines:]))


def indent(text, prefix="    "):
    return "\n".join(prefix + line if line else line
                     for line in text.split("\n"))


def tree_files(root):
    """The files of the source tree: what git tracks or would track, else
    everything but build directories."""
    try:
        out = subprocess.run(
            ["git", "-C", root, "ls-files", "-z", "--cached", "--others",
             "--exclude-standard"], check=True, capture_output=True).stdout
        files = [f for f in out.decode().split("\0") if f]
        return [f for f in files if os.path.isfile(os.path.join(root, f))]
    except (OSError, subprocess.CalledProcessError):
        files = []
        for top, dirs, names in os.walk(root):
            rel = os.path.relpath(top, root)
            dirs[:] = [d for d in dirs if not (
                d == ".git" or d == "__pycache__" or
                (rel == "." and (d == "build" or d.startswith("build-"))))]
            files += [os.path.normpath(os.path.join(rel, n)) for n in names]
        return files


class Workspace:
    """A fresh copy of the tree with the build linked in, and the
    environment the blocks run with."""

    def __init__(self, args, files):
        self.scratch = tempfile.mkdtemp(prefix="check-docs-")
        self.root = os.path.join(self.scratch, "tree")
        for rel in files:
            dest = os.path.join(self.root, rel)
            os.makedirs(os.path.dirname(dest), exist_ok=True)
            shutil.copy2(os.path.join(args.root, rel), dest, follow_symlinks=False)
        build = os.path.join(self.root, "build")
        if os.path.lexists(build):
            shutil.rmtree(build) if os.path.isdir(build) else os.remove(build)
        os.makedirs(build)
        for name in BUILD_LINKS:
            if os.path.exists(os.path.join(args.build, name)):
                os.symlink(os.path.join(args.build, name),
                           os.path.join(build, name))
        self.relocate_lit(args)
        shims = os.path.join(self.scratch, "bin")
        os.makedirs(shims)
        os.symlink(args.python, os.path.join(shims, "python3"))
        # Debian has no `python`; one found further on PATH (pyenv, a
        # virtualenv) would not import the package built for python3.
        with open(os.path.join(shims, "python"), "w") as f:
            f.write("#!/bin/sh\necho 'python: not found (Debian 12 "
                    "has python3 only)' >&2\nexit 127\n")
        os.chmod(os.path.join(shims, "python"), 0o755)
        self.env = dict(os.environ)
        self.env["PATH"] = os.pathsep.join(
            [shims, os.path.join(build, "bin"), os.environ.get("PATH", "")])
        self.env["PYTHONPATH"] = os.path.join(build, "python")
        self.env["PYTHONDONTWRITEBYTECODE"] = "1"
        self.env["TMPDIR"] = os.path.join(self.scratch, "tmp")
        os.makedirs(self.env["TMPDIR"])

    def relocate_lit(self, args):
        """build/test: the build's lit configuration, pointed at the copy
        (its sources, and its own Output directories)."""
        site = os.path.join(args.build, "test", "lit.site.cfg.py")
        if not os.path.exists(site):
            return
        with open(site, encoding="utf-8") as f:
            text = f.read()
        build, root = os.path.realpath(args.build), os.path.realpath(args.root)
        text = text.replace(f'"{build}', f'"{self.root}/build')
        text = text.replace(f'"{root}', f'"{self.root}')
        os.makedirs(os.path.join(self.root, "build", "test"))
        with open(os.path.join(self.root, "build", "test", "lit.site.cfg.py"),
                  "w", encoding="utf-8") as f:
            f.write(text)

    def script(self, block, text, suffix):
        """Writes a block's script outside the copy; returns its path."""
        path = os.path.join(self.scratch, f"block-{block.line}{suffix}")
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        return path

    def run(self, argv, timeout=None):
        """(status, output) of a command in the copy's root; status None
        when it ran past `timeout` (it and its children are then killed)."""
        proc = subprocess.Popen(argv, cwd=self.root, env=self.env,
                                stdin=subprocess.DEVNULL,
                                stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT,
                                start_new_session=True)
        try:
            output, _ = proc.communicate(timeout=timeout)
            status = proc.returncode
        except subprocess.TimeoutExpired:
            self.kill(proc)
            output, _ = proc.communicate()
            status = None
        self.kill(proc)  # what the block left running in the background
        return status, output.decode("utf-8", "replace")

    @staticmethod
    def kill(proc):
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass

    def close(self):
        shutil.rmtree(self.scratch, ignore_errors=True)


def run_console(workspace, block, timeout):
    """None on success, else the reason and the output to show."""
    try:
        steps = parse_console(block.text)
    except ValueError as error:
        return str(error), ""
    separator = "\x1ddocs-test-step\x1d"
    script = "".join(f"{command}\nprintf '{separator}'\n"
                     for command, _ in steps)
    status, output = workspace.run(
        ["bash", "-o", "pipefail", workspace.script(block, script, ".sh")],
        timeout=timeout)
    if status is None:
        return f"ran past {timeout} s (mark a long block `skip: REASON`)", output
    pieces = output.split(separator)
    for n, (command, expected) in enumerate(steps):
        actual = pieces[n] if n < len(pieces) else ""
        if n >= len(pieces) - 1:
            return (f"the session ended at `$ {command}` (exit {status})",
                    actual)
        if not matches(expected, actual):
            return (f"the output of `$ {command}` differs from the one shown",
                    "expected:\n" + indent(expected.rstrip("\n") or "(nothing)")
                    + "\nprinted:\n" + indent(actual.rstrip("\n") or "(nothing)"))
    return None, ""


def run_block(workspace, block, args):
    """(None, output) on success, else (reason, output)."""
    if block.kind == "console":
        return run_console(workspace, block, args.timeout)
    if block.kind == "sh":
        argv = ["bash", "-e", "-o", "pipefail",
                workspace.script(block, block.text, ".sh")]
    else:
        argv = [args.python, workspace.script(block, block.text, ".py")]
    status, output = workspace.run(argv, timeout=args.timeout)
    if status is None:
        return (f"ran past {args.timeout} s (mark a long block "
                "`skip: REASON`)", output)
    if status != 0:
        return f"exit status {status}", output
    return None, output


def plan_blocks(blocks, args):
    """[(block, None to run it, else why not)] and the plan's errors."""
    plan, errors = [], []
    last_run = None  # whether the block before ran (None: no such block)
    for block in blocks:
        kind = block.marker[0] if block.marker else None
        if kind == "invalid":  # reported by parse()
            last_run = None
            continue
        if kind == "output":
            if last_run is None:
                errors.append((block.line, "an `output` block must follow a "
                               "sh, bash, console or python block"))
            else:
                plan.append((block, None if last_run else
                             "its block does not run"))
            last_run = None
            continue
        if kind == "file":
            plan.append((block, None))
            last_run = None
            continue
        if block.kind is None:
            last_run = None
            continue
        if kind == "skip":
            plan.append((block, f"skip: {block.marker[1]}"))
        elif kind == "gpu" and not args.gpu:
            reason = block.marker[1]
            plan.append((block, "gpu" + (f": {reason}" if reason else "")))
        else:
            plan.append((block, None))
        last_run = plan[-1][1] is None
    return plan, errors


def label(block):
    kind = block.marker[0] if block.marker else None
    return kind if kind in ("file", "output") else block.kind


def check_file(path, shown, args, files):
    """The report lines of one Markdown file, and its failure count."""
    blocks, errors = parse(path, shown)
    plan, plan_errors = plan_blocks(blocks, args)
    report = [(line, f"FAIL {shown}:{line}: {message}")
              for line, message in errors + plan_errors]
    failures = len(report)

    def say(block, verdict, detail=""):
        report.append((block.line, f"{verdict} {block.where()} "
                       f"({label(block)})" + (f": {detail}" if detail else "")))

    if args.list or all(reason is not None for _, reason in plan):
        for block, reason in plan:
            say(block, "RUN " if reason is None else "SKIP", reason or "")
        return [text for _, text in sorted(report, key=lambda e: e[0])], \
            failures
    workspace = Workspace(args, files)
    try:
        previous = None  # (block, output) of the block before, if it passed
        for block, reason in plan:
            kind = block.marker[0] if block.marker else None
            if kind == "file":
                dest = os.path.join(workspace.root, block.marker[1])
                os.makedirs(os.path.dirname(dest), exist_ok=True)
                with open(dest, "w", encoding="utf-8") as f:
                    f.write(block.text)
                say(block, "FILE", block.marker[1])
                previous = None
                continue
            if kind == "output":
                if reason is not None:
                    say(block, "SKIP", reason)
                elif previous is None:
                    say(block, "SKIP", "its block failed")
                elif matches(block.text, previous[1]):
                    say(block, "PASS", f"the output of {previous[0].where()}")
                else:
                    failures += 1
                    say(block, "FAIL", f"the output of {previous[0].where()} "
                        "differs from the one shown\n" + indent(
                            "expected:\n" + indent(block.text.rstrip("\n"))
                            + "\nprinted:\n"
                            + indent(previous[1].rstrip("\n") or "(nothing)")))
                previous = None
                continue
            if reason is not None:
                say(block, "SKIP", reason)
                previous = None
                continue
            failure, output = run_block(workspace, block, args)
            if failure is None:
                say(block, "PASS")
                previous = (block, output)
            else:
                failures += 1
                say(block, "FAIL", failure + ("\n" + indent(tail(output))
                                              if output.strip() else ""))
                previous = None
    finally:
        if args.keep:
            report.append((len(blocks) and blocks[-1].line + 1,
                           f"kept {workspace.root} ({shown})"))
        else:
            workspace.close()
    return [text for _, text in sorted(report, key=lambda e: e[0])], failures


def default_files(root):
    files = [os.path.join(root, "README.md")]
    for top, dirs, names in os.walk(os.path.join(root, "docs")):
        rel = os.path.relpath(top, root).replace(os.sep, "/")
        dirs[:] = sorted(d for d in dirs
                         if f"{rel}/{d}" not in EXCLUDED_DIRS)
        files += [os.path.join(top, n) for n in sorted(names)
                  if n.endswith(".md")]
    return [f for f in files if os.path.exists(f)]


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n")[0],
        epilog="The marker convention and what runs where: see the "
        "docstring at the top of scripts/check-docs.py.")
    parser.add_argument("files", nargs="*", metavar="FILE.md",
                        help="the files to check (default: README.md and "
                        "docs/**/*.md, less docs/study/ and docs/results/)")
    parser.add_argument("--root", default=os.path.dirname(here),
                        help="the source tree (default: this script's)")
    parser.add_argument("--build", help="the build directory (default: "
                        "ROOT/build)")
    parser.add_argument("--python", default="/usr/bin/python3"
                        if os.path.exists("/usr/bin/python3")
                        else sys.executable,
                        help="the interpreter of the build's Python package "
                        "(default: /usr/bin/python3)")
    parser.add_argument("--timeout", type=int, default=300,
                        help="seconds a block may run (default 300)")
    parser.add_argument("--gpu", action="store_true",
                        help="also run the blocks marked `gpu`")
    parser.add_argument("-j", "--jobs", type=int,
                        default=min(8, os.cpu_count() or 1),
                        help="files checked at once (default: up to 8)")
    parser.add_argument("--list", action="store_true",
                        help="list the blocks and what would run; run none")
    parser.add_argument("--keep", action="store_true",
                        help="keep each file's working copy")
    args = parser.parse_args()
    args.root = os.path.abspath(args.root)
    args.build = os.path.abspath(args.build or os.path.join(args.root, "build"))
    if not os.path.isdir(args.root):
        parser.error(f"no source tree at {args.root}")
    paths = ([os.path.abspath(f) for f in args.files] if args.files
             else default_files(args.root))
    for path in paths:
        if not os.path.isfile(path):
            parser.error(f"no such file: {path}")
    if not args.list and not os.path.isdir(os.path.join(args.build, "bin")):
        parser.error(f"no build at {args.build} (expected {args.build}/bin)")

    def shown(path):
        rel = os.path.relpath(path, args.root)
        return path if rel.startswith("..") else rel.replace(os.sep, "/")

    files = [] if args.list else tree_files(args.root)
    with concurrent.futures.ThreadPoolExecutor(max(1, args.jobs)) as pool:
        results = list(pool.map(
            lambda p: check_file(p, shown(p), args, files), paths))
    failed = passed = skipped = 0
    for report, failures in results:
        for line in report:
            print(line)
            passed += line.startswith("PASS ")
            skipped += line.startswith("SKIP ")
        failed += failures
    if not args.list:
        print(f"{passed} passed, {failed} failed, {skipped} not run "
              f"({len(paths)} files)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
