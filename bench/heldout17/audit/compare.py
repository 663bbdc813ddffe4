"""Compare label17's rows with the audit's rows for the audited servers.
A row matches when package, file and rule agree and the start lines are within +-1 (greedy, one-to-one)."""
import csv, sys, collections
def load(p):
    with open(p) as f:
        return [r for r in csv.DictReader(f, delimiter='\t')]
a = load('audit/labels-audit.tsv'); l = load(sys.argv[1] if len(sys.argv) > 1 else 'labels.tsv')
pk = {r['package'] for r in a}
l = [r for r in l if r['package'] in pk]
used = set(); both = []; only_a = []
for r in a:
    hit = None
    for i, s in enumerate(l):
        if i in used: continue
        if (s['package'], s['file'], s['rule']) == (r['package'], r['file'], r['rule']) and (
            abs(int(s['start_line']) - int(r['start_line'])) <= 1 or int(s['start_line']) <= int(r['start_line']) <= int(s['end_line'])
            or int(r['start_line']) <= int(s['start_line']) <= int(r['end_line'])):
            hit = i; break
    if hit is None: only_a.append(r)
    else: used.add(hit); both.append(r)
only_l = [s for i, s in enumerate(l) if i not in used]
t = collections.defaultdict(lambda: [0, 0, 0])
for r in both: t[r['rule']][0] += 1
for r in only_l: t[r['rule']][1] += 1
for r in only_a: t[r['rule']][2] += 1
print('rule\tboth\tonly_label17\tonly_audit')
for k in sorted(t): print(k, *t[k], sep='\t')
print('total', *[sum(v[i] for v in t.values()) for i in range(3)], sep='\t')
if '-v' in sys.argv:
    for s in only_l: print('ONLY-L17', s['package'], s['file'], s['start_line'], s['rule'], s['indirect'], s['note'][:150], sep=' | ')
    for s in only_a: print('ONLY-AUD', s['package'], s['file'], s['start_line'], s['rule'], s['indirect'], s['note'][:150], sep=' | ')
