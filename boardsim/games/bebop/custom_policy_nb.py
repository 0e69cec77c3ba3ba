"""Your own compiled policy for Cowboy Bebop: edit `custom_action`, run with `--policy custom`.

This file is the plug-in point for a structurally different action policy. It is compiled into the
same kernel as the built-in policies, so it runs at full speed; editing it changes the kernel
source hash, so the next run recompiles (about a minute) instead of loading stale machine code.
The other decisions (event options, contacts, leads, abilities) stay with the heuristic.

The shipped example is "opportunist": it takes a Session or a Chase whenever one is legal and
otherwise picks uniformly among the legal actions — a baseline between `random` and `heuristic`.
"""
import numpy as np

from boardsim._jit import njit
from boardsim.rng import rand_below

from . import rules_nb as R
from .state_nb import A_CHASE, A_SESSION, MAX_ACTIONS, S_POLICY


@njit
def custom_action(st, cd, w, s, act):
    """Write seat s's next action (kind, a, b, c, d) into `act`; it must be one of R.legal_actions."""
    buf = np.empty((MAX_ACTIONS, 5), np.int16)
    n = R.legal_actions(st, cd, s, buf)
    pick = -1
    for i in range(n):
        if buf[i, 0] == A_SESSION or buf[i, 0] == A_CHASE:
            pick = i
            break
    if pick < 0:
        pick = rand_below(st.rng[S_POLICY], n)
    for k in range(5):
        act[k] = buf[pick, k]
