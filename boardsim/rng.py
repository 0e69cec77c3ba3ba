"""Counter-based seeding plus xoshiro256** streams, all njit.

Each game g of root seed R owns independent streams s = 0, 1, ... seeded by splitmix64 from
(R, g, s). A game's randomness therefore depends only on (R, g), never on chunking, thread count or
executor, and each random process (a deck, the dice, policy noise) has its own stream, so a rule
change that consumes more draws in one process leaves the others' sequences untouched.
"""
import numpy as np

from ._jit import njit

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)


@njit
def splitmix64(x):
    """Return (next_state, output) of splitmix64; all arithmetic stays uint64."""
    x = x + _GOLDEN
    z = x
    z = (z ^ (z >> np.uint64(30))) * _MIX1
    z = (z ^ (z >> np.uint64(27))) * _MIX2
    return x, z ^ (z >> np.uint64(31))


@njit
def seed_stream(out, root_seed, game_index, stream):
    """Fill the 4-word xoshiro state `out` for (root_seed, game_index, stream)."""
    x = np.uint64(root_seed)
    x, a = splitmix64(x)
    x = a ^ np.uint64(game_index)
    x, b = splitmix64(x)
    x = b ^ (np.uint64(stream) * _GOLDEN)
    for i in range(4):
        x, word = splitmix64(x)
        out[i] = word


@njit
def _rotl(x, k):
    return (x << np.uint64(k)) | (x >> np.uint64(64 - k))


@njit
def next_u64(s):
    """xoshiro256**: advance state `s` (uint64[4]) and return the next 64-bit output."""
    result = _rotl(s[1] * np.uint64(5), 7) * np.uint64(9)
    t = s[1] << np.uint64(17)
    s[2] ^= s[0]
    s[3] ^= s[1]
    s[1] ^= s[2]
    s[0] ^= s[3]
    s[2] ^= t
    s[3] = _rotl(s[3], 45)
    return result


@njit
def rand_float(s):
    """Uniform float in [0, 1) from the top 53 bits."""
    return float(next_u64(s) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit
def rand_below(s, n):
    """Uniform integer in [0, n); the bias of the float method is below 2**-50 for game-sized n."""
    return int(rand_float(s) * n)


@njit
def shuffle(s, arr, n):
    """Fisher-Yates shuffle of arr[:n] in place."""
    for i in range(n - 1, 0, -1):
        j = rand_below(s, i + 1)
        tmp = arr[i]
        arr[i] = arr[j]
        arr[j] = tmp
