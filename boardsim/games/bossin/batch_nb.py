"""Many games in one call, releasing the GIL so the runner can play chunks on several threads.

Game g of root seed R is played from its own seeded streams, so neither the chunk a game falls in
nor the thread that plays it changes its result.
"""
from boardsim._jit import njit

from .play_nb import play_game


@njit(nogil=True)
def play_games(cards, rules, weights, policy, root_seed, first_index, state, log, out):
    """Play games first_index .. first_index + len(out) - 1 into `out` (one outcome row each)."""
    for g in range(out.shape[0]):
        play_game(state[0], cards[0], rules[0], weights, policy, root_seed, first_index + g, log, out[g])
