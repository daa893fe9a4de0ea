"""Every program and Python module that a make target, a test or a script calls comes from the
package set of scripts/install-deps.sh that its target installs, or from what a bare machine of the
project's kind has (debootstrap minbase plus build-essential, cmake, git and make). A development
machine has everything installed, so a missing package passes every other test there: this one
finds, for each call, the Debian package that provides it on this machine (dpkg -S) and checks that
the package is in the dependency closure of the set (docs/testing.md, "Dependencies").

The calls are read from the files themselves (the first word of each shell command, the imports of
Python files, the programs Python starts), plus CALLED_BY_TOOLS, the programs that the tools we call
start themselves (CPack runs `file`). scripts/fresh-debian-check.sh is the check of the whole: this
test is the fast guard that runs with the suite.

Usage: check_dependencies.py [REPO] [--list]   (REPO: default the current folder); exit 1 naming
each call, its file and line, the package it needs and the set that lacks it. --list prints every
program and module found, the package that provides it and the sets that call it.
"""
import fnmatch
import os
import re
import shutil
import subprocess
import sys

ARGS = [a for a in sys.argv[1:] if a != "--list"]
ROOT = os.path.abspath(ARGS[0] if ARGS else ".")
LIST = "--list" in sys.argv[1:]
PYTHON = "/usr/bin/python3"  # the interpreter the package is built for (CMakeLists.txt)

# The set each file's calls must come from, first match wins; a file under scripts/, tests/,
# bench/ or python/ that matches none is an error, so a new script gets a set when it is added.
FILE_SETS = [
    (".ci/run", "bare"),
    ("scripts/install-deps.sh", "bare"),
    ("scripts/dependency-sizes.sh", "bare"),
    ("scripts/fresh-debian-check.sh", "fresh-check"),
    ("scripts/fuzz*.sh", "fuzz"),
    ("scripts/generated-tables.sh", "test"),  # tests/cli/generated_tables.sh
    ("scripts/slurm-table.sbatch", "test"),  # tests/cli/slurm_script.sh runs it outside Slurm
    ("scripts/pack-figures.sh", "run"),
    ("scripts/pack-heldout.sh", "test"),  # tests/cli/pack.sh runs it
    ("scripts/train-policies.sh", "run"),
    ("scripts/fine-tune-validation.py", "run"),
    ("scripts/minimalloc-peer.sh", "peers"),
    ("scripts/python-baselines.sh", "python-agents"),
    ("scripts/table-estimate-check.py", "run"),
    ("scripts/calibration-survival.py", "run"),  # the Python module and numpy of the run set
    ("scripts/try-slurm.sh", None),  # installs Slurm and munge itself; documented there
    ("tests/*", "test"),
    ("bench/*.py", "test"),  # `make bench` installs the test set
    ("python/memplace/*.py", "run"),
    ("python/examples/*.py", "test"),  # run by tests/python/test_reinforce_example.py
    ("python/baselines/*.py", "python-agents"),  # tests/python/test_baselines.py when importable
]
# The set each make target installs before its recipe runs (Makefile); a target missing here is an
# error.
MAKE_TARGET_SETS = {
    "all": "run", "deps": "bare", "deps-run": "bare", "build": "run", "build-program": "run",
    "run": "run", "test": "test", "test-default": "test", "test-asan": "test", "install": "run",
    "deb": "run", "fuzz": "fuzz", "bench": "test", "format": "format", "clean": "bare",
}
# Programs and modules that a tool we call starts itself, with the set whose target starts it.
CALLED_BY_TOOLS = [
    ("file", "run", "CPack's DEB generator (make deb, tests/cli/debian_package.sh)"),
    ("dpkg-shlibdeps", "run", "CPack's DEB generator, for the package's Depends"),
    ("ninja", "run", "the generator of every preset in CMakePresets.json"),
    ("pkg-config", "run", "CMake's pkg_check_modules (CMakeLists.txt)"),
    ("protoc", "run", "CMake's protobuf module, for the ONNX importer"),
    ("orted", "run", "mpirun starts one on each node"),
    ("python:pip", "test", "python3 -m pip in tests/cli/pip_install.sh"),
    ("python:venv", "test", "python3 -m venv in tests/cli/pip_install.sh"),
    ("python:ensurepip", "test", "python3 -m venv installs pip with it"),
    ("python:setuptools", "test", "pip install --no-build-isolation builds with it (setup.py)"),
    ("python:wheel", "test", "pip install --no-build-isolation builds the wheel with it"),
]
# Python modules Debian does not package: tests that need them skip, saying so, when absent.
OPTIONAL_MODULES = {"gymnasium", "stable_baselines3", "sb3_contrib", "torchrl", "tensordict"}
# Packages that a tool above needs but apt's Depends do not name (none today).

SHELL_WORDS = set("""
  ! [ [[ ]] { } case do done elif else esac fi for function if in select then time until while
  . : alias bg bind break builtin caller cd command compgen complete continue declare dirs disown
  echo enable eval exec exit export false fc fg getopts hash help history jobs kill let local
  logout mapfile popd printf pushd pwd read readarray readonly return set shift shopt source suspend
  test times trap true type typeset ulimit umask unalias unset wait
""".split())
# Words that run the command after them (their own options skipped).
PREFIXES = {"env", "exec", "command", "time", "nohup", "sudo", "$SUDO", "taskset", "timeout",
            "nice", "setsid", "xargs", "unshare", "chroot"}


def bare_packages():
    """What a bare machine of the project's kind has: debootstrap's minbase (the Essential and
    Priority: required packages, and apt) plus build-essential, cmake, git and make."""
    names = {"apt", "build-essential", "cmake", "git", "make", "ca-certificates"}
    for line in dpkg_query("${Package} ${Essential} ${Priority}").splitlines():
        name, essential, priority = (line.split() + ["", ""])[:3]
        if essential == "yes" or priority == "required":
            names.add(name)
    return names


def dpkg_query(fields):
    return subprocess.run(["dpkg-query", "-W", "-f", fields + r"\n"], check=True,
                          capture_output=True, text=True).stdout


def installed_dependencies():
    """Each installed package's Depends and Pre-Depends, as lists of alternatives, and who provides
    each virtual name."""
    depends, provides = {}, {}
    fields = "${Package}\t${db:Status-Status}\t${Pre-Depends}, ${Depends}\t${Provides}"
    for line in dpkg_query(fields).splitlines():
        name, status, relations, provided = line.split("\t")
        if status != "installed":
            continue
        depends[name] = [[re.split(r"[ :(]", alt.strip())[0] for alt in group.split("|")]
                         for group in relations.split(",") if group.strip()]
        for virtual in provided.split(","):
            if virtual.strip():
                provides.setdefault(re.split(r"[ (]", virtual.strip())[0], []).append(name)
    return depends, provides


def closure(roots, depends, provides):
    """The packages `roots` pull in: for each dependency, the first alternative installed here."""
    seen, stack = set(), list(roots)
    while stack:
        name = stack.pop()
        if name in seen:
            continue
        seen.add(name)
        for group in depends.get(name, []):
            for alt in group:
                chosen = [alt] if alt in depends else provides.get(alt, [])
                if chosen:
                    stack.extend(chosen[:1])
                    break
    return seen


def install_set(name):
    out = subprocess.run(["bash", os.path.join(ROOT, "scripts/install-deps.sh"), "--list-" + name],
                         check=True, capture_output=True, text=True).stdout
    return {line.split("#")[0].strip() for line in out.splitlines() if line.split("#")[0].strip()}


def set_packages(depends, provides):
    """{set: the packages it brings, with the bare machine's}, for the sets installed here: a
    program's package is found with dpkg -S, which knows only installed packages, so the calls of
    a set that is not (`make fuzz`'s on a machine that never ran it) cannot be checked."""
    bare = bare_packages()
    run = install_set("run")
    extra = {"run": run, "test": run | install_set("test"), "fuzz": run | install_set("fuzz"),
             "format": install_set("format"), "fresh-check": install_set("fresh-check"),
             "peers": run | install_set("peers")}
    sets = {"bare": closure(bare, depends, provides)}
    for name, roots in extra.items():
        if all(package in depends for package in roots):
            sets[name] = closure(bare | roots, depends, provides)
    return sets


def owners(paths):
    """{path: the installed package that owns it}, with one dpkg -S for them all."""
    out = subprocess.run(["dpkg", "-S"] + sorted(paths), capture_output=True, text=True).stdout
    found = {}
    for line in out.splitlines():
        owner, owned = line.split(": ", 1)
        if owned in paths and not owner.startswith("diversion"):
            found.setdefault(owned, owner.split(",")[0].split(":")[0])
    return found


def path_spellings(path):
    """The names dpkg may know `path` by: itself, its target, and each across the /usr merge."""
    names = [path, os.path.realpath(path)]
    for p in list(names):
        for a, b in (("/usr/bin/", "/bin/"), ("/usr/sbin/", "/sbin/"), ("/usr/lib/", "/lib/")):
            if p.startswith(a):
                names.append(b + p[len(a):])
            elif p.startswith(b):
                names.append(a + p[len(b):])
    return names


def module_files(modules):
    """{module: the file `import module` loads in /usr/bin/python3, or BUILT_IN, or None}. Debian
    splits the standard library (venv and ensurepip are python3.11-venv's), so it is checked too."""
    code = ("import importlib.util, sys\n"
            "for m in sys.argv[1:]:\n"
            "    s = importlib.util.find_spec(m)\n"
            "    print('' if s is None else 'built-in' if s.origin in ('built-in', 'frozen') else "
            "s.origin if s.origin else list(s.submodule_search_locations)[0])")
    out = subprocess.run([PYTHON, "-c", code] + modules, capture_output=True, text=True)
    lines = out.stdout.split("\n")
    return {m: (BUILT_IN if where == "built-in" else where or None)
            for m, where in zip(modules, lines)}


def packages_of(keys):
    """{key: package, BUILT_IN or None} for programs and 'python:module' keys."""
    modules = sorted(k[7:] for k in keys if k.startswith("python:"))
    files = {"python:" + m: where for m, where in module_files(modules).items()}
    for key in keys:
        if not key.startswith("python:"):
            files[key] = key if key.startswith("/") else shutil.which(
                key, path="/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin")
    spellings = {key: path_spellings(where) for key, where in files.items()
                 if where and where != BUILT_IN}
    owned = owners({p for names in spellings.values() for p in names})
    result = {}
    for key, where in files.items():
        result[key] = BUILT_IN if where == BUILT_IN else next(
            (owned[p] for p in spellings.get(key, []) if p in owned), None)
    return result


BUILT_IN = "(built into python3)"


# --- reading the calls out of the files -------------------------------------------------------

def without_heredocs(text):
    """The shell text with each here-document's body and end line blanked (same line numbers),
    and the bodies that Python reads (`python3 - <<'PY'`) returned as Python code."""
    lines, python_bodies, out = text.split("\n"), [], []
    i = 0
    while i < len(lines):
        line = lines[i]
        out.append(line)
        match = re.search(r"<<-?\s*['\"]?(\w+)['\"]?", line)
        i += 1
        if match and "<<<" not in line:
            end, body_start = match.group(1), i
            while i < len(lines) and lines[i].strip() != end:
                i += 1
            out += [""] * (i + 1 - body_start)
            if re.search(r"python3?\s+-\s", line):
                python_bodies.append((body_start + 1, "\n".join(lines[body_start:i])))
            i += 1
    return "\n".join(out[:len(lines)]), python_bodies


OPERATORS = ("&&", "||", ";;", "|&", ";", "&", "|", "(", ")", "\n")
REDIRECTIONS = ("<<<", "<<-", "<<", ">>", ">&", "<&", "&>", ">|", "<", ">")


def closing(text, i, opening, close):
    """The index just past the `close` that balances the `opening` at i (quotes respected)."""
    depth, j = 0, i
    while j < len(text):
        c = text[j]
        if c == "\\":
            j += 2
            continue
        if c == "'" and opening != "`":
            j = text.find("'", j + 1) + 1 or len(text)
            continue
        if c == '"' and opening != "`":
            j = quoted_end(text, j)
            continue
        if text.startswith(opening, j) and (opening != close or depth == 0):
            depth += 1
            j += len(opening)
            continue
        if text.startswith(close, j):
            depth -= 1
            j += len(close)
            if depth == 0:
                return j
            continue
        j += 1
    return len(text)


def quoted_end(text, i):
    """The index just past the double-quoted string that starts at i."""
    j = i + 1
    while j < len(text) and text[j] != '"':
        if text[j] == "\\":
            j += 2
        elif text.startswith("$(", j):
            j = closing(text, j + 1, "(", ")")
        elif text[j] == "`":
            j = closing(text, j, "`", "`")
        else:
            j += 1
    return j + 1


def shell_tokens(text):
    """(line, kind, text) tokens of a shell text ('word', 'op' or 'redirect'), and (line, inner
    text) of its command substitutions: $(...), `...`, ${...} and quotes stay inside their word."""
    tokens, substitutions, word, i, line, word_line = [], [], "", 0, 1, 1

    def end_word():
        nonlocal word
        if word:
            tokens.append((word_line, "word", word))
            word = ""

    while i < len(text):
        c = text[i]
        if not word:
            word_line = line
        if text.startswith("\\\n", i):
            i, line = i + 2, line + 1
        elif c in " \t\r":
            end_word()
            i += 1
        elif c == "#" and not word:
            i = text.find("\n", i) if "\n" in text[i:] else len(text)
        elif c in "'\"`" or text.startswith("$(", i) or text.startswith("${", i):
            if c == "'":
                j = text.find("'", i + 1) + 1 or len(text)
            elif c == '"':
                j = quoted_end(text, i)
            elif c == "`":
                j = closing(text, i, "`", "`")
                substitutions.append((line, text[i + 1:j - 1]))
            elif text.startswith("$((", i):
                j = closing(text, i + 1, "(", ")")
            elif text.startswith("$(", i):
                j = closing(text, i + 1, "(", ")")
                substitutions.append((line, text[i + 2:j - 1]))
            else:
                j = closing(text, i + 1, "{", "}")
            if c == '"':
                substitutions += quoted_substitutions(text, i, j, line)
            word += text[i:j]
            line += text.count("\n", i, j)
            i = j
        elif c == "\\":
            word += text[i:i + 2]
            i += 2
        elif c == "(" and word.endswith("="):  # an array's assignment: name=(a b c)
            j = closing(text, i, "(", ")")
            word += text[i:j]
            line += text.count("\n", i, j)
            i = j
        elif text.startswith("((", i) and not word:
            j = closing(text, i, "((", "))")
            tokens.append((line, "word", "((arithmetic))"))
            line += text.count("\n", i, j)
            i = j
        elif c in "<>" or text.startswith("&>", i):
            if word.isdigit():
                word = ""
            end_word()
            op = next(r for r in REDIRECTIONS if text.startswith(r, i))
            tokens.append((line, "redirect", op))
            i += len(op)
        elif any(text.startswith(op, i) for op in OPERATORS):
            end_word()
            op = next(op for op in OPERATORS if text.startswith(op, i))
            tokens.append((line, "op", op))
            line += op == "\n"
            i += len(op)
        else:
            word += c
            i += 1
    end_word()
    return tokens, substitutions


def quoted_substitutions(text, start, end, line):
    """(line, inner text) of the $(...) and `...` inside the double-quoted string text[start:end]."""
    found, j = [], start + 1
    while j < end - 1:
        if text[j] == "\\":
            j += 2
        elif text.startswith("$((", j):
            j = closing(text, j + 1, "(", ")")
        elif text.startswith("$(", j) or text[j] == "`":
            k = closing(text, j + 1, "(", ")") if text[j] == "$" else closing(text, j, "`", "`")
            inner = text[j + 2:k - 1] if text[j] == "$" else text[j + 1:k - 1]
            found.append((line + text.count("\n", start, j), inner))
            j = k
        else:
            j += 1
    return found


def shell_commands(text, first_line=1):
    """(line, word) for the first word of each simple command of a shell text, including those of
    its command substitutions. A small reader of the shell's grammar, enough for this repository's
    scripts: a word it misreads shows up as a program no package provides, never as a silent
    pass."""
    tokens, substitutions = shell_tokens(text)
    found = [(first_line + line - 1, word) for line, word in commands_of_tokens(tokens)]
    for line, inner in substitutions:
        found += shell_commands(inner, first_line + line - 1)
    return found


def commands_of_tokens(tokens):
    found, expect, prefix, in_test, case_pattern = [], True, False, False, False
    k = 0
    while k < len(tokens):
        line, kind, text = tokens[k]
        nxt = tokens[k + 1] if k + 1 < len(tokens) else (0, "", "")
        k += 1
        if in_test:
            in_test = text != "]]"
            continue
        if case_pattern:  # a case's patterns, up to their ')'
            if text == "esac":
                case_pattern = False
            elif kind == "op" and text == ")":
                case_pattern, expect = False, True
            continue
        if kind == "redirect":
            k += 1  # its target
            continue
        if kind == "op":
            expect, prefix = True, False
            case_pattern = text == ";;"
            continue
        if not expect:
            if text == "in" and found and found[-1][1] == "case":
                case_pattern = True
            continue
        if text == "[[":
            in_test = True
            continue
        if text in ("then", "do", "else", "elif", "if", "while", "until", "!", "{", "}", "time",
                    "done", "fi", "esac"):
            continue
        if re.match(r"^[A-Za-z_][A-Za-z0-9_]*(\[[^]]*\])?\+?=", text) or text.startswith("-"):
            continue  # an assignment before the command, or a prefix's own option
        if prefix and re.fullmatch(r"[0-9.,smh]+", text):
            continue  # a prefix's number (taskset -c 1, timeout 10)
        if text in PREFIXES:
            prefix = True
            if not text.startswith("$"):
                found.append((line, text))
            continue
        if nxt[2] == "(" and k + 1 < len(tokens) and tokens[k + 1][2] == ")":
            k += 2  # name() { ...: a function's definition
            continue
        if text == "function":
            k += 1
            continue
        found.append((line, text))
        expect = False
    return found


def python_calls(text, first_line=1):
    """(line, 'python:module') for each top-level import, and (line, program) for the programs it
    starts with subprocess as a literal first argument."""
    found = []
    for n, line in enumerate(text.split("\n"), first_line):
        m = re.match(r"\s*(?:from\s+([\w.]+)\s+import|import\s+([\w., ]+))", line)
        if m:
            names = [m.group(1)] if m.group(1) else [x.split(" as ")[0] for x in m.group(2).split(",")]
            found += [(n, "python:" + x.strip().split(".")[0]) for x in names if x.strip()]
        for program in re.findall(r"subprocess\.\w+\(\s*\[\s*\"([\w./-]+)\"", line):
            found.append((n, program))
    return found


def makefile_calls():
    """(target, line, word) for each command of each recipe of the Makefile."""
    found, target = [], None
    with open(os.path.join(ROOT, "Makefile")) as f:
        lines = f.read().split("\n")
    for n in range(len(lines) - 1, 0, -1):  # a recipe line continued with a backslash
        if lines[n - 1].endswith("\\"):
            lines[n - 1] = lines[n - 1][:-1] + " " + lines[n].strip()
            lines[n] = "\t" if lines[n].startswith("\t") else ""
    for n, line in enumerate(lines, 1):
        if line.startswith("\t") and target:
            recipe = re.sub(r"\$\$\(", "$(", line.strip().lstrip("@-"))
            recipe = re.sub(r"\$\([A-Z_]+\)", "X", recipe)  # make's own variables
            found += [(target, n, w) for _, w in shell_commands(recipe)]
        elif re.match(r"^[a-z][\w-]*:", line):
            target = line.split(":")[0]
        elif not line.startswith("\t"):
            target = None if not line.strip() or line.startswith("#") else target
    return found


def repo_files():
    out = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard"],
                         cwd=ROOT, check=True, capture_output=True, text=True).stdout
    return out.split()


def file_set(path):
    for pattern, name in FILE_SETS:
        if fnmatch.fnmatch(path, pattern):
            return True, name
    return False, None


def calls_by_file(files):
    """{(path, set): [(line, call)]} for every shell and Python file under the sets' folders."""
    calls, errors, functions, arrays = {}, [], set(), {}
    for path in files:
        if not re.match(r"(scripts|tests|bench|python|\.ci)/", path):
            continue
        with open(os.path.join(ROOT, path), errors="replace") as f:
            text = f.read()
        shell = path.endswith((".sh", ".sbatch")) or text.startswith("#!/usr/bin/env bash")
        if not shell and not path.endswith(".py"):
            continue
        matched, name = file_set(path)
        if not matched:
            errors.append(f"{path}: no set in FILE_SETS of tests/check_dependencies.py says what "
                          "installs the programs it calls")
            continue
        if name is None:
            continue
        if shell:
            functions |= set(re.findall(r"^\s*(?:function\s+)?([\w-]+)\s*\(\)", text, re.M))
            arrays.update(re.findall(r"^\s*(\w+)=\(\s*([\w./-]+)", text, re.M))
            text, python_bodies = without_heredocs(text)
            found = shell_commands(text)
            for first, body in python_bodies:
                found += python_calls(body, first)
        else:
            found = python_calls(text)
        calls[(path, name)] = found
    return calls, errors, functions, arrays


# The reader on the constructs this repository's scripts use, with the commands a reader of the
# shell would name (run first by main, so a broken reader fails the test rather than passing it).
SELF_TEST_SCRIPT = r"""
# a comment's apostrophe: it's not a quote, nor is `make` here
set -eu
mpi=(mpirun --allow-run-as-root)
case "${1:-x}" in
  run|test) packages=(a b) ;;
  -h) usage ;;
esac
out=$(sed -n 1p "$f" | awk '{print $1}') || fail "$(wc -l < "$f")"
[[ -f x && -d y ]] && taskset -c 1 timeout 5 gzip -9 file 2>&1 > /dev/null
python3 - <<'PY'
import numpy
PY
while read -r line; do echo "$line"; done < list
helper() { cut -f1; }
"${mpi[@]}" -np 2 "$memplace" table
"""
SELF_TEST_EXPECTED = ["set", "case", "usage", "sed", "awk", "wc", "fail", "taskset", "timeout",
                      "gzip", "python3", "python:numpy", "read", "echo", "cut",
                      '"${mpi[@]}"']


def self_test():
    text, bodies = without_heredocs(SELF_TEST_SCRIPT)
    found = [w for _, w in shell_commands(text)] + [w for f, b in bodies for _, w in python_calls(b, f)]
    if sorted(found) != sorted(SELF_TEST_EXPECTED):
        print(f"check_dependencies: the shell reader is broken: read {sorted(found)}, "
              f"expected {sorted(SELF_TEST_EXPECTED)}")
        return False
    return True


def main():
    if not self_test():
        return 1
    depends, provides = installed_dependencies()
    sets = set_packages(depends, provides)
    files = repo_files()
    local_modules = {"memplace", "_memplace"} | {
        os.path.splitext(os.path.basename(p))[0] for p in files if p.endswith(".py")}
    calls, errors, functions, arrays = calls_by_file(files)
    for target, line, word in makefile_calls():
        if target not in MAKE_TARGET_SETS:
            errors.append(f"Makefile:{line}: target '{target}' has no set in MAKE_TARGET_SETS")
            continue
        calls.setdefault(("Makefile", MAKE_TARGET_SETS[target]), []).append((line, word))
    for program, name, why in CALLED_BY_TOOLS:
        calls.setdefault(("CALLED_BY_TOOLS", name), []).append((why, program))

    resolved, not_installed = [], set()  # (where, set, key); sets whose calls are not checked
    for (path, name), found in sorted(calls.items()):
        if name not in sets:
            not_installed.add(name)
            continue
        for line, call in found:
            array = re.fullmatch(r'"?\$\{(\w+)\[@\]\}"?', call)
            if array and array.group(1) in arrays:  # "${mpi[@]}" runs the array's first word
                call = arrays[array.group(1)]
            if call.startswith("python:"):
                if call[7:] in local_modules or call[7:] in OPTIONAL_MODULES:
                    continue
            elif (call in SHELL_WORDS or call in functions or "$" in call or "\\" in call
                  or call.startswith(("./", "../", "build/", "tests/", "scripts/", "bench/"))
                  or call in {"memplace", "fail", "X"}):
                continue  # the shell's own, a script's function, a variable, a repository path
            resolved.append((f"{path}:{line}", name, call))

    cache = packages_of({key for _, _, key in resolved})
    used_by, checked = {}, 0
    for where, name, key in resolved:
        package = cache[key]
        if package == BUILT_IN:
            continue
        used_by.setdefault(key, set()).add(name)
        checked += 1
        shown = key.replace("python:", "Python module ")
        if package is None:
            errors.append(f"{where}: calls {shown}, which no installed package provides here "
                          "(install it through scripts/install-deps.sh, or fix the call)")
        elif package not in sets[name]:
            errors.append(f"{where}: calls {shown} from package {package}, which the "
                          f"'{name}' set of scripts/install-deps.sh does not install")
    if LIST:
        for key in sorted(used_by):
            print(f"{key.replace('python:', 'Python module '):40} {cache[key] or '-':24} "
                  f"{', '.join(sorted(used_by[key]))}")
    for error in errors:
        print(error)
    skipped = (f"; not checked, their packages not being installed here: set "
               f"{', '.join(sorted(not_installed))}") if not_installed else ""
    print(f"check_dependencies: {checked} calls checked, {len(errors)} problems{skipped}")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
