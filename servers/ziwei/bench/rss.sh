#!/bin/sh
# Peak RSS of the ziwei server over stdio for a scripted session of N
# initialize_chart calls (default 2000, distinct births), measured with
# /usr/bin/time -v. stdin stays open until every answer has arrived.
# Usage (from servers/ziwei): bench/rss.sh [N]
set -eu
N=${1:-2000}
DIR=$(mktemp -d)
go build -o "$DIR/ziwei" .
python3 - "$N" "$DIR" <<'PY'
import json, subprocess, sys, datetime, re
n, d = int(sys.argv[1]), sys.argv[2]
p = subprocess.Popen(["/usr/bin/time", "-v", d + "/ziwei", "--transport", "stdio", "--rules-file", d + "/rules.json", "--log-level", "error"],
                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
def send(m):
    p.stdin.write(json.dumps(m, ensure_ascii=False) + "\n"); p.stdin.flush()
send({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "rss", "version": "1"}}})
p.stdout.readline()
send({"jsonrpc": "2.0", "method": "notifications/initialized"})
d0 = datetime.date(1900, 1, 1)
ok = errors = 0
for i in range(n):
    day = d0 + datetime.timedelta(days=(i * 3659) % 73413)
    send({"jsonrpc": "2.0", "id": i + 1, "method": "tools/call", "params": {"name": "initialize_chart",
          "arguments": {"birthDate": day.isoformat(), "birthTimeIndex": i % 13, "gender": "男女"[i % 2]}}})
    r = json.loads(p.stdout.readline())
    if r.get("result", {}).get("isError") or "error" in r: errors += 1
    else: ok += 1
p.stdin.close()
err = p.stderr.read(); p.wait()
rss = re.search(r"Maximum resident set size \(kbytes\): (\d+)", err).group(1)
wall = re.search(r"Elapsed \(wall clock\) time.*: (\S+)", err).group(1)
print(f"{n} initialize_chart calls: {ok} ok, {errors} errors; peak RSS {int(rss)/1024:.1f} MiB; wall {wall}")
PY
