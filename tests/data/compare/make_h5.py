#!/usr/bin/python3
"""Writes the frequency-only result files of maulik_table1.txt (run here):
full.h5 (/modal/frequencies_hz, the full model), free.h5 and fixed.h5
(/cms/frequencies_hz, the free- and fixed-interface CMS), in the layout
`dynred compare` reads (no mode shapes: the k-th mode against the k-th)."""
import h5py
import numpy as np

t = np.loadtxt("maulik_table1.txt")
for name, group, col in (("full", "/modal", 1), ("free", "/cms", 2), ("fixed", "/cms", 3)):
    with h5py.File(name + ".h5", "w", track_order=True) as f:
        d = f.create_dataset(group + "/frequencies_hz", data=t[:, col])
        d.attrs["units"] = "Hz"
        f[group].attrs["source"] = "Maulik, Riordan, Walsh, Dynamic Reduction-based Virtual Models for Digital Twins, Table 1, column %d" % col
