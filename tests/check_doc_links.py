"""Every document and file a reader is sent to exists: the relative links of README.md and docs/
(to files, and to headings within them), and every path in the repository named in the code, its
comments, the scripts and the docs (a name under one of the repository's folders with a file
extension, such as a header a comment points at). The project's design document lives outside the
repository, so naming it is an error too.

Usage: check_doc_links.py [REPO]   (default: the current folder); exit 1 naming each bad reference.
"""
import os
import re
import subprocess
import sys

ROOT = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else ".")
LINK = re.compile(r"\]\(([^)\s]+)\)")
FOLDERS = ("base", "allocation", "model", "env", "optimum", "agents", "experiments", "apps",
           "python", "examples", "bench", "tests", "docs", "workloads", "scripts", "cmake", "fuzz")
EXTENSIONS = ("hpp", "cpp", "py", "sh", "md", "yaml", "txt", "cmake", "csv", "svg", "onnx",
              "sbatch", "json")
# A path that starts at the repository root: not inside a longer path, not a pattern (<name>, *).
PATH_MENTION = re.compile(r"(?<![\w./<>*-])((?:%s)/[A-Za-z0-9_./-]*[A-Za-z0-9_-]\.(?:%s))(?![\w<>*-])"
                          % ("|".join(FOLDERS), "|".join(EXTENSIONS)))
DESIGN = re.compile(r"\bDESIGN\.md\b")
TEXT = (".md", ".cpp", ".hpp", ".py", ".sh", ".cmake", ".txt", ".yaml")


def tracked_files():
    out = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard"],
                         cwd=ROOT, capture_output=True, text=True, check=True).stdout
    return [f for f in out.splitlines() if f.endswith(TEXT) or os.path.basename(f) == "Makefile"]


def anchors(path):
    """GitHub's heading anchors of a Markdown file."""
    result = set()
    with open(path, encoding="utf-8") as f:
        in_code = False
        for line in f:
            if line.startswith("```"):
                in_code = not in_code
            if in_code or not line.startswith("#"):
                continue
            title = line.lstrip("#").strip().lower()
            slug = re.sub(r"[^\w\- ]", "", title).replace(" ", "-")
            result.add(slug)
    return result


def check_link(source, target, problems, line_no):
    if re.match(r"^[a-z]+:", target) or target.startswith("mailto:"):
        return  # an external address
    path, _, anchor = target.partition("#")
    full = os.path.normpath(os.path.join(os.path.dirname(os.path.join(ROOT, source)), path)) \
        if path else os.path.join(ROOT, source)
    if not os.path.exists(full):
        problems.append(f"{source}:{line_no}: link to {target}: no such file")
    elif anchor and full.endswith(".md") and anchor not in anchors(full):
        problems.append(f"{source}:{line_no}: link to {target}: no such heading")


def main():
    problems = []
    for name in tracked_files():
        if name in ("tests/check_doc_links.py", "tests/test_check_layering.py"):
            continue  # it names what it looks for; the trees the layering checker is tried on
        path = os.path.join(ROOT, name)
        if not os.path.isfile(path):
            continue
        with open(path, encoding="utf-8", errors="replace") as f:
            lines = f.readlines()
        in_code = False
        for number, line in enumerate(lines, 1):
            if DESIGN.search(line):
                problems.append(f"{name}:{number}: names the design document (outside the repository) as if it were here")
            for path in PATH_MENTION.findall(line):
                if not os.path.exists(os.path.join(ROOT, path)):
                    problems.append(f"{name}:{number}: names {path}: no such file")
            if name.endswith(".md"):
                if line.startswith("```"):
                    in_code = not in_code
                if not in_code:
                    for target in LINK.findall(line):
                        check_link(name, target, problems, number)
    for p in problems:
        print(p)
    print(f"doc links: {len(problems)} problem(s)" if problems else "doc links: all resolve")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
