# The partition table's records (part.pxi); declared first because the position (Ctx) points
# at its table.

from libc.stdint cimport uint64_t, uint32_t, uint16_t, int16_t, uint8_t

ctypedef struct PartEntry:  # 40 bytes
    uint64_t summary        # per suit, seat and value class: how many cards (exact, packed)
    uint64_t key_a          # the canonical planes of the position stored (search.pxi) ...
    uint64_t key_b          # ... of which only the top ``cuts`` cards of each suit must match
    uint32_t key_c          # leader, suit lengths, objective (the canonical key's third word)
    uint16_t cuts           # 4 bits a suit: how many of its top cards the bounds depend on
    int16_t lo
    int16_t hi
    uint16_t epoch          # valid in the table's current epoch (as the exact table's, tt.pxi)
    uint8_t move            # best card, by its place among the cards in play
    uint8_t depth           # tricks left; 0 = empty
    uint8_t gen
    uint8_t shared

ctypedef struct PartTT:
    PartEntry* entries
    uint64_t nbuckets       # any count (st_scale; 0: no partition table)
    uint16_t epoch          # bumped with the exact table's (tables_clear, tables_next_layout)
    uint16_t shared_from
    uint64_t probes
    uint64_t hits
    uint64_t stores
