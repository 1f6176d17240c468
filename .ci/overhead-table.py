"""Reduce .ci/bench-overhead's mcpbench reports to the issue-20 table:
median of per-pair ratios (ours / same-bytes floor) for each figure."""
import json
import statistics
import sys

out, pairs, cases = sys.argv[1], int(sys.argv[2]), sys.argv[3:]


def load(case, side, transport, rep):
    try:
        return json.load(open(f"{out}/{case}.{side}.{transport}.{rep}.json"))
    except (OSError, ValueError):
        return None


def fig(r, path):
    for k in path:
        if r is None:
            return None
        r = r.get(k) if isinstance(r, dict) else None
    return r


FIGS = [  # (column, transport, path, goal, lower is better)
    ("CPU µs/call stdio seq", "stdio", ("call_sequential", "server_cpu_us_per_call"), 1.3, True),
    ("CPU µs/call stdio C=8", "stdio", ("call_concurrent", "server_cpu_us_per_call"), 1.3, True),
    ("CPU µs/call HTTP C=16", "http", ("call_concurrent", "server_cpu_us_per_call"), 1.3, True),
    ("HTTP C=16 calls/s", "http", ("call_concurrent", "throughput_per_s"), 0.8, False),
    ("cold start ms", "stdio", ("cold_start", "median_us"), 1.5, True),
    ("idle RSS MiB", "stdio", ("cold_start", "idle_vmhwm_kb"), None, True),
]

print("| tool | figure | ours (median) | floor (median) | median of per-pair ratios | pairs | goal | met |")
print("|---|---|---|---|---|---|---|---|")
for c in cases:
    tool = fig(load(c, "ours", "stdio", 1), ("settings", "tool")) or c
    for name, tr, path, goal, lower in FIGS:
        ours, floor, ratios = [], [], []
        for rep in range(1, pairs + 1):
            o, f = fig(load(c, "ours", tr, rep), path), fig(load(c, "floor", tr, rep), path)
            if o and f:
                ours.append(o)
                floor.append(f)
                ratios.append(o / f)
        if not ratios:
            print(f"| {c} {tool} | {name} | – | – | – | 0 | | no data |")
            continue
        scale = 1 / 1000 if "ms" in name and "cold" in name else 1 / 1024 if "MiB" in name else 1
        r = statistics.median(ratios)
        met = "" if goal is None else ("yes" if (r <= goal if lower else r >= goal) else "no")
        g = "" if goal is None else (f"≤ {goal}×" if lower else f"≥ {goal}×")
        if "RSS" in name:
            g, met = "≤ 25 MiB", "yes" if statistics.median(ours) * scale <= 25 else "no"
        print(f"| {c} {tool} | {name} | {statistics.median(ours) * scale:,.1f} | {statistics.median(floor) * scale:,.1f} | "
              f"{r:.2f}× (range {min(ratios):.2f}–{max(ratios):.2f}) | {len(ratios)} | {g} | {met} |")
