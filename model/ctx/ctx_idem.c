/* SPDX-License-Identifier: MIT
 * ctx_idem.c - the flush bit by Shieh §3.3's idempotence (ctx_idem.h): loaded global lines in a
 * per-context Bloom filter, an atomic or a store to a loaded line clears the bit.
 */
#include "ctx_idem.h"

#include "trace.h"

static uint32_t hash1(uint64_t line)
{
    uint64_t x = line * 0x9E3779B97F4A7C15ull;
    return (uint32_t)(x >> 52) % HD_IDEM_BITS;
}

static uint32_t hash2(uint64_t line)
{
    uint64_t x = (line ^ (line >> 17)) * 0xC2B2AE3D27D4EB4Full;
    return (uint32_t)(x >> 40) % HD_IDEM_BITS;
}

static bool lane_global(const struct hd_func_trace *tr, uint32_t l)
{
    return (tr->flags & HD_TR_MIXED_SPACE) ? tr->lane_space[l] == HD_SPACE_GLOBAL
                                           : tr->space == HD_SPACE_GLOBAL;
}

bool hd_idem_step(uint64_t bloom[HD_IDEM_WORDS], const struct hd_func_trace *tr)
{
    if (!(tr->flags & HD_TR_MEM) || !tr->exec)
        return false;
    const bool atomic = tr->flags & HD_TR_ATOMIC, store = tr->flags & HD_TR_STORE,
               load = tr->flags & HD_TR_LOAD;
    bool breaks = false;
    for (uint32_t l = 0; l < 32; l++) {
        if (!(tr->exec >> l & 1u) || !lane_global(tr, l))
            continue;
        if (atomic)
            return true;
        const uint64_t line = tr->addr[l] >> HD_IDEM_LINE_SHIFT;
        const uint32_t a = hash1(line), b = hash2(line);
        if (store && !load && (bloom[a / 64] >> (a % 64) & 1u) && (bloom[b / 64] >> (b % 64) & 1u))
            breaks = true;
        if (load) {
            bloom[a / 64] |= 1ull << (a % 64);
            bloom[b / 64] |= 1ull << (b % 64);
        }
    }
    return breaks;
}
