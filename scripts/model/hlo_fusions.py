#!/usr/bin/env python3
"""Summarise the fusions of an XLA module dumped after optimization.

Usage: hlo_fusions.py DIR/module_*.cpu_after_optimizations.txt

Dump a run's modules with XLA_FLAGS="--xla_dump_to=DIR --xla_dump_hlo_as_text".
Prints one line per kind of fusion in the entry computation: how many there
are, who runs it (ynn: a YNNPACK fusion; kLoop, kInput: XLA's own compiled
loops), its output shape, and the operations inside it (parameters,
constants, broadcasts, bitcasts and reshapes left out). docs/performance.md
reads attention's passes over its scores from this.
"""
import collections
import re
import sys

SKIP = ('parameter', 'bitcast', 'constant', 'broadcast', 'reshape')


def main():
    if len(sys.argv) != 2:
        sys.exit('usage: hlo_fusions.py MODULE.cpu_after_optimizations.txt')
    text = open(sys.argv[1]).read()
    comps, cur, entry = {}, None, None
    for line in text.splitlines():
        if not line.startswith(' '):
            m = re.match(r'^(ENTRY )?%(\S+) ', line)
            if m:
                cur = m.group(2)
                comps[cur] = []
                if m.group(1):
                    entry = cur
                continue
        if cur and line.strip().startswith(('%', 'ROOT')):
            comps[cur].append(line.strip())
    if entry is None:
        sys.exit(f'hlo_fusions.py: no ENTRY computation in {sys.argv[1]}')
    count = collections.Counter()
    for line in comps[entry]:
        m = re.search(r'= (\S+) fusion\(.*kind=(\w+), calls=%([\w.\-]+)', line)
        if not m:
            continue
        shape, kind, callee = m.groups()
        found = (re.search(r'= \S+ ([a-z\-]+)\(', x) for x in comps.get(callee, []))
        ops = sorted({o.group(1) for o in found if o and o.group(1) not in SKIP})
        runner = 'ynn' if '__ynn' in line else kind
        count[(runner, re.sub(r'\{.*', '', shape), ' '.join(ops))] += 1
    for key, n in sorted(count.items(), key=lambda kv: -kv[1]):
        print(n, *key)


if __name__ == '__main__':
    main()
