"""Pair label18's rows with the audit's rows (same package/file/rule, start lines within +-1 or
overlapping ranges, one-to-one) for the packages the audit relabeled; print the table and the
unpaired rows. Usage: compare.py LABELS AUDIT [--packages a,b]"""
import csv, sys, collections
def load(p):
    with open(p) as f:
        return [r for r in csv.DictReader(f, delimiter='\t')]
lab, aud = load(sys.argv[1]), load(sys.argv[2])
pk = set(r['package'] for r in aud)
if len(sys.argv) > 4: pk = set(sys.argv[4].split(','))
lab = [r for r in lab if r['package'] in pk]; aud = [r for r in aud if r['package'] in pk]
def near(a, b):
    a1, a2, b1, b2 = int(a['start_line']), int(a['end_line']), int(b['start_line']), int(b['end_line'])
    return abs(a1 - b1) <= 1 or (a1 <= b2 and b1 <= a2)
used = set(); both = collections.Counter(); onlyl = []; pairs_off = []
for l in lab:
    m = next((i for i, a in enumerate(aud) if i not in used and a['package'] == l['package'] and a['file'] == l['file'] and a['rule'] == l['rule'] and near(l, a)), None)
    if m is None: onlyl.append(l)
    else:
        used.add(m); both[l['rule']] += 1
        if l['start_line'] != aud[m]['start_line']: pairs_off.append((l, aud[m]))
onlya = [a for i, a in enumerate(aud) if i not in used]
rules = sorted(set(r['rule'] for r in lab + aud))
print('packages', len(pk), 'label18 rows', len(lab), 'audit rows', len(aud))
print('| rule | both | only label18 | only audit |\n|---|---|---|---|')
for r in rules:
    print(f"| {r} | {both[r]} | {sum(1 for x in onlyl if x['rule']==r)} | {sum(1 for x in onlya if x['rule']==r)} |")
print(f"| all | {sum(both.values())} | {len(onlyl)} | {len(onlya)} |")
for x in onlyl: print('ONLY label18', x['package'], x['file'], x['start_line'], x['rule'], x['note'][:200])
for x in onlya: print('ONLY audit  ', x['package'], x['file'], x['start_line'], x['rule'], x['note'][:120])
for l, a in pairs_off: print('OFF', l['package'], l['file'], l['rule'], l['start_line'], a['start_line'])
