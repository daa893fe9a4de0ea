"""How well `memplace table`'s "about ... left" held: reads the progress lines of a table's log
(stderr) and prints, at every tenth finished run, the estimate against the time that was really
left until the last run ended (docs/table.md, "Progress and the time left").

Usage: /usr/bin/python3 scripts/table-estimate-check.py TABLE.log
"""
import re
import sys


def seconds(text):
    """'1h02m', '3m05s' or '42s' (base/number_format.cpp's format_duration) as seconds."""
    match = re.fullmatch(r"(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?", text)
    if not match or not text:
        raise ValueError(f"not a duration: {text!r}")
    h, m, s = (int(x or 0) for x in match.groups())
    return 3600 * h + 60 * m + s


def main(path):
    line = re.compile(r"^\[(\d+)/(\d+)\] .*\((?:rank 0 of \d+: [^,]*, )?(\S+) elapsed"
                      r"(?:, about (\S+) left)?\)$")
    points = []
    with open(path) as f:
        for text in f:
            m = line.match(text.strip())
            if m:
                done, total, elapsed, left = m.groups()
                points.append((int(done), int(total), seconds(elapsed),
                               seconds(left) if left else 0))
    if not points:
        sys.exit(f"{path}: no progress lines of memplace table")
    end = points[-1][2]
    total = points[-1][1]
    print("| run | elapsed | estimated left | actually left | error |")
    print("|---:|---:|---:|---:|---:|")
    for done, _, elapsed, left in points:
        if done % 10 and done != 1:
            continue
        actual = end - elapsed
        error = f"{100 * (left - actual) / actual:+.0f} %" if actual > 0 else "-"
        quarter = " (first quarter)" if done < total / 4 else ""
        print(f"| {done}{quarter} | {elapsed} s | {left} s | {actual} s | {error} |")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
