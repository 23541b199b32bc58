#!/usr/bin/python3
"""Print the frequencies (Hz, one per line) from a CalculiX .dat file's
EIGENVALUE OUTPUT table (first step)."""
import sys

out, on = [], False
for line in open(sys.argv[1]):
    if "E I G E N V A L U E   O U T P U T" in line:
        if out:
            break
        on = True
        continue
    if on:
        p = line.split()
        if len(p) == 5 and p[0].isdigit():
            out.append(float(p[3]))
        elif out and not p:
            break
if not out:
    sys.exit(f"{sys.argv[1]}: no eigenvalue table")
print("\n".join(f"{f:.9g}" for f in out))
