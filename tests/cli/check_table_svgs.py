"""Checks a table folder's figures: every SVG parses as XML; each learning curve's series holds
the numbers of curves.csv and is drawn where the axes say, and its reference lines (best known or
optimum, bound) are table.csv's and drawn at their height; each placement map's rows hold the best
run's mapping; each memory plot has two series per memory, within its capacity for the valid best
mapping. Run with Debian's /usr/bin/python3 (standard library only).

Usage: check_table_svgs.py TABLE_FOLDER
"""
import csv
import glob
import os
import re
import sys
import xml.etree.ElementTree as ET

NS = {"svg": "http://www.w3.org/2000/svg"}


def fail(message):
    print("FAIL: " + message)
    sys.exit(1)


def numbers(text):
    return [float(v) for v in text.split()]


def points(text):
    return [tuple(float(c) for c in p.split(",")) for p in text.split()]


def check_drawn(svg, series, xs, ys):
    """The polyline's points are the data mapped through the axes' affine transform."""
    axes = svg.find("svg:g[@class='axes']", NS)
    x0, x1 = float(axes.get("data-x-min")), float(axes.get("data-x-max"))
    y0, y1 = float(axes.get("data-y-min")), float(axes.get("data-y-max"))
    left, top = float(axes.get("data-left")), float(axes.get("data-top"))
    width, height = float(axes.get("data-width")), float(axes.get("data-height"))
    drawn = points(series.find("svg:polyline", NS).get("points"))
    if len(drawn) != len(xs):
        fail(f"{series.get('data-name')}: {len(drawn)} points drawn for {len(xs)} values")
    for (px, py), x, y in zip(drawn, xs, ys):
        want_x = left + (x - x0) / (x1 - x0) * width
        want_y = top + (y1 - y) / (y1 - y0) * height
        if abs(px - want_x) > 0.02 or abs(py - want_y) > 0.02:
            fail(f"{series.get('data-name')}: point ({px}, {py}) should be ({want_x}, {want_y})")


def main(folder):
    svgs = sorted(glob.glob(os.path.join(folder, "*.svg")))
    if not svgs:
        fail("no SVG in " + folder)
    parsed = {}
    for path in svgs:
        try:
            parsed[os.path.basename(path)] = ET.parse(path).getroot()
        except ET.ParseError as error:
            fail(f"{path} is not well-formed XML: {error}")

    curves = {}
    with open(os.path.join(folder, "curves.csv")) as f:
        for row in csv.DictReader(f):
            curves.setdefault((row["workload"], row["agent"]), []).append(row)
    references = {}  # workload -> {"best known"/"optimum": y, "bound": y}, from table.csv
    with open(os.path.join(folder, "table.csv")) as f:
        for row in csv.DictReader(f):
            lines = references.setdefault(row["workload"], {})
            if row["best_known_speedup"]:  # drawn as "optimum" where proven, else "best known"
                lines["best"] = float(row["best_known_speedup"])
            if row["bound_speedup"] and row["bound_speedup"] != row["best_known_speedup"]:
                lines["bound"] = float(row["bound_speedup"])
    results = {}
    for path in glob.glob(os.path.join(folder, "runs", "*", "result.yaml")):
        fields = dict(re.findall(r'^(\w+): "?([^"\n]*)"?$', open(path).read(), re.M))
        results[os.path.dirname(path)] = fields

    checked = 0
    for name, svg in parsed.items():
        if name.startswith("curves-"):
            workload = name[len("curves-"):-len(".svg")]
            series_list = svg.findall("svg:g[@class='series']", NS)
            if not series_list:
                fail(name + ": no series")
            for series in series_list:
                agent = series.get("data-name")
                rows = curves.get((workload, agent))
                if rows is None:
                    fail(f"{name}: series {agent} is not in curves.csv")
                xs, ys = numbers(series.get("data-x")), numbers(series.get("data-y"))
                lows, highs = numbers(series.get("data-low")), numbers(series.get("data-high"))
                want = [(float(r["evaluations"]), float(r["mean_best_speedup"]),
                         float(r["min_best_speedup"]), float(r["max_best_speedup"])) for r in rows]
                got = list(zip(xs, ys, lows, highs))
                if len(got) != len(want) or any(
                        abs(a - b) > 1e-6 for g, w in zip(got, want) for a, b in zip(g, w)):
                    fail(f"{name}: series {agent} differs from curves.csv")
                check_drawn(svg, series, xs, ys)
                checked += 1
            want_lines = {os.path.splitext(os.path.basename(k))[0]: v
                          for k, v in references.items()}.get(workload, {})
            got_lines = {}
            axes = svg.find("svg:g[@class='axes']", NS)
            y0, y1 = float(axes.get("data-y-min")), float(axes.get("data-y-max"))
            top, height = float(axes.get("data-top")), float(axes.get("data-height"))
            for line in svg.findall("svg:g[@class='reference']", NS):
                y = float(line.get("data-y"))
                key = "best" if line.get("data-name") in ("optimum", "best known") else \
                    line.get("data-name")
                got_lines[key] = y
                drawn = float(line.find("svg:line", NS).get("y1"))
                if abs(drawn - (top + (y1 - y) / (y1 - y0) * height)) > 0.01:
                    fail(f"{name}: reference line {line.get('data-name')} drawn at {drawn}")
                checked += 1
            if set(got_lines) != set(want_lines) or any(
                    abs(got_lines[k] - want_lines[k]) > 1e-6 for k in want_lines):
                fail(f"{name}: reference lines {got_lines}, table.csv says {want_lines}")
        elif name.startswith("placement-"):
            title = svg.find("svg:text", NS).text
            match = re.search(r": (\S+) \(seed (\d+)\)", title)
            if not match:
                fail(f"{name}: no best run named in its title")
            workload = name[len("placement-"):-len(".svg")]
            run = os.path.join(folder, "runs", f"{match[1]}-{workload}-s{match[2]}")
            layers = re.findall(r"weight: (\w+), activation: (\w+)",
                                open(os.path.join(run, "best_mapping.yaml")).read())
            # The legend (one name per memory, any number of memories) follows the x-axis title.
            texts = [t.text for t in svg.findall("svg:text", NS)]
            legend = texts[texts.index("layers in schedule order") + 1:]
            rows = svg.findall("svg:g[@class='row']", NS)
            weights = [legend[int(c)] for c in rows[0].get("data-cells").split()]
            activations = [legend[int(c)] for c in rows[1].get("data-cells").split()]
            if list(zip(weights, activations)) != layers:
                fail(f"{name}: the best run's rows differ from {run}/best_mapping.yaml")
            checked += 1
        elif name.startswith("memory-"):
            series_list = svg.findall("svg:g[@class='series']", NS)
            if len(series_list) % 2 or not series_list:
                fail(f"{name}: expected two series per memory")
            for series in series_list:
                if max(numbers(series.get("data-y"))) > 100 + 1e-9:
                    fail(f"{name}: {series.get('data-name')} exceeds its capacity")
                check_drawn(svg, series, numbers(series.get("data-x")),
                            numbers(series.get("data-y")))
            checked += 1
    print(f"{len(parsed)} SVGs parse; {checked} series and maps match their data")


if __name__ == "__main__":
    main(sys.argv[1])
