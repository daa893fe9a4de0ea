#!/usr/bin/env python3
"""Compares two run checkpoints (base/state_archive.hpp) record by record, all but their wall
clock: trainer.wall_seconds and the wall_seconds column of trainer.curve. Exit 0 when every other
record is the same bytes, 1 (naming the first record that differs) otherwise.

Usage: compare_checkpoints.py RUN_A/checkpoint.bin RUN_B/checkpoint.bin
"""
import struct
import sys

CURVE_COLUMNS = 5  # evaluations, wall_seconds, best_speedup, batch_mean_speedup, valid_fraction


def records(path):
    data = open(path, "rb").read()
    if data[:8] != b"MPLCSTAT":
        sys.exit(f"{path}: not a memplace state archive")
    at = 12  # magic, u32 version
    out = []
    while at < len(data) - 8:
        (name_length,) = struct.unpack_from("<I", data, at)
        at += 4
        name = data[at : at + name_length].decode()
        at += name_length
        (kind, length) = struct.unpack_from("<BQ", data, at)
        at += 9
        out.append((name, kind, data[at : at + length]))
        at += length
    return data[8:12], out


def without_wall(name, payload):
    if name == "trainer.wall_seconds":
        return b""
    if name == "trainer.curve":
        values = list(struct.unpack(f"<{len(payload) // 8}d", payload))
        values[1::CURVE_COLUMNS] = [0.0] * len(values[1::CURVE_COLUMNS])
        return struct.pack(f"<{len(values)}d", *values)
    return payload


def main():
    version_a, a = records(sys.argv[1])
    version_b, b = records(sys.argv[2])
    if version_a != version_b:
        sys.exit("FAIL: the checkpoints have different format versions")
    for (name_a, kind_a, payload_a), (name_b, kind_b, payload_b) in zip(a, b):
        if (name_a, kind_a) != (name_b, kind_b):
            print(f"FAIL: record {name_a} against {name_b}")
            return 1
        if without_wall(name_a, payload_a) != without_wall(name_b, payload_b):
            print(f"FAIL: record {name_a} differs")
            return 1
    if len(a) != len(b):
        print(f"FAIL: {len(a)} records against {len(b)}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
