"""NumPy's default generator, ``numpy.random.default_rng(seed)`` for an integer seed, in plain
Python: the readable specification of the draws that ``_draws.pyx`` makes without NumPy.

Three published algorithms, composed as NumPy composes them:

* ``SeedSequence`` (NumPy's entropy pool, after O'Neill's ``seed_seq_fe``) turns the seed into
  four 64-bit words: its 32-bit words go through a multiply-xorshift hash into a pool of four,
  every pool word is mixed into every other, and the output words hash the pool again;
* PCG64 (O'Neill's 128-bit LCG with the XSL-RR output) is seeded with state = words 0-1 and
  stream = words 2-3 (high word first), as ``pcg_setseq_128_srandom_r`` does;
* a bounded integer in [0, n) for n < 2**32 is Lemire's multiply-and-reject on 32-bit words,
  where each 64-bit output serves two 32-bit words (low half first), as NumPy's
  ``Generator.integers`` (and so ``choice(n, replace=True)``) draws it.

tests/test_plain_bootstrap.py checks every piece against NumPy itself.
"""

from __future__ import annotations

from turbobleu._typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import List, Tuple

MASK32 = 0xFFFFFFFF
MASK64 = 0xFFFFFFFFFFFFFFFF
MASK128 = (1 << 128) - 1

# SeedSequence's constants (pool of 4 words of 32 bits).
POOL_SIZE = 4
INIT_A = 0x43B0D7E5
MULT_A = 0x931E8875
INIT_B = 0x8B51F9DD
MULT_B = 0x58F38DED
MIX_MULT_L = 0xCA01F9DD
MIX_MULT_R = 0x4973F715
XSHIFT = 16

# PCG64's 128-bit LCG multiplier.
PCG_MULTIPLIER = 0x2360ED051FC65DA44385DF649FCCF645


def seed_words(seed: int) -> List[int]:
    """A non-negative int as SeedSequence reads it: 32-bit words, least significant first."""
    if seed < 0:
        raise ValueError(f"seed must be non-negative, got {seed}")
    words = []
    while True:
        words.append(seed & MASK32)
        seed >>= 32
        if not seed:
            return words


class _Hash:
    """SeedSequence's running multiply-xorshift hash (its constant changes with every use)."""

    def __init__(self, init: int, mult: int) -> None:
        self.const = init
        self.mult = mult

    def __call__(self, value: int) -> int:
        value = (value ^ self.const) & MASK32
        self.const = (self.const * self.mult) & MASK32
        value = (value * self.const) & MASK32
        return value ^ (value >> XSHIFT)


def _mix(x: int, y: int) -> int:
    result = (MIX_MULT_L * x - MIX_MULT_R * y) & MASK32
    return result ^ (result >> XSHIFT)


def seed_sequence_state(seed: int, n_words64: int = 4) -> List[int]:
    """``SeedSequence(seed).generate_state(n_words64, np.uint64)`` as Python ints."""
    entropy = seed_words(seed)
    hash_a = _Hash(INIT_A, MULT_A)
    pool = [hash_a(entropy[i] if i < len(entropy) else 0) for i in range(POOL_SIZE)]
    for src in range(POOL_SIZE):
        for dst in range(POOL_SIZE):
            if src != dst:
                pool[dst] = _mix(pool[dst], hash_a(pool[src]))
    for src in range(POOL_SIZE, len(entropy)):
        for dst in range(POOL_SIZE):
            pool[dst] = _mix(pool[dst], hash_a(entropy[src]))
    hash_b = _Hash(INIT_B, MULT_B)
    words32 = [hash_b(pool[i % POOL_SIZE]) for i in range(2 * n_words64)]
    return [words32[2 * i] | (words32[2 * i + 1] << 32) for i in range(n_words64)]


def seeded_pcg64(seed: int) -> Tuple[int, int]:
    """(state, increment), 128-bit ints, of ``PCG64(seed)`` before its first draw."""
    w = seed_sequence_state(seed)
    initstate = (w[0] << 64) | w[1]
    increment = (((w[2] << 64) | w[3]) << 1 | 1) & MASK128
    state = increment  # srandom: state 0, one step, add the seed, one more step
    state = (state + initstate) & MASK128
    state = (state * PCG_MULTIPLIER + increment) & MASK128
    return state, increment


class PCG64:
    """The generator's 64-bit and 32-bit outputs (NumPy's ``next_uint64`` / ``next_uint32``)."""

    def __init__(self, state: int, increment: int) -> None:
        self.state, self.increment = state, increment
        self.spare32: int = -1  # the high half of the last 64-bit output, while unused

    @classmethod
    def seeded(cls, seed: int) -> PCG64:
        """``default_rng(seed).bit_generator`` before its first draw."""
        return cls(*seeded_pcg64(seed))

    def next64(self) -> int:
        self.state = (self.state * PCG_MULTIPLIER + self.increment) & MASK128
        high, low = self.state >> 64, self.state & MASK64
        rotation = self.state >> 122
        x = high ^ low
        return ((x >> rotation) | (x << (64 - rotation))) & MASK64

    def next32(self) -> int:
        if self.spare32 >= 0:
            value, self.spare32 = self.spare32, -1
            return value
        x = self.next64()
        self.spare32 = x >> 32
        return x & MASK32

    def below(self, n: int) -> int:
        """An integer in [0, n), 1 <= n < 2**32, as ``integers(0, n)`` draws it (n == 1 draws
        nothing)."""
        if n == 1:
            return 0
        m = self.next32() * n
        if m & MASK32 < n:
            threshold = (MASK32 + 1 - n) % n
            while m & MASK32 < threshold:  # rejection keeps the draw unbiased
                m = self.next32() * n
        return m >> 32
