/* SPDX-License-Identifier: MIT
 * cache_tags.c - set-associative tags with LRU and sector masks (see cache_tags.h).
 */
#include "cache_tags.h"

#include <stdlib.h>
#include <string.h>

static uint32_t log2u(uint32_t v)
{
    uint32_t n = 0;
    while ((1u << n) < v)
        n++;
    return n;
}

int hd_tags_init(struct hd_tags *t, uint32_t sets, uint32_t ways, uint32_t line, bool xor_index)
{
    memset(t, 0, sizeof *t);
    t->sets = sets;
    t->ways = ways;
    t->line = line;
    t->shift = log2u(line);
    t->set_bits = log2u(sets);
    uint32_t sectors = line / 32 > 64 ? 64 : line / 32;
    t->sector_shift = log2u(line / sectors);
    t->xor_index = xor_index;
    size_t n = (size_t)sets * ways;
    t->tag = calloc(n, sizeof *t->tag);
    t->stamp = calloc(n, sizeof *t->stamp);
    t->valid = calloc(n, sizeof *t->valid);
    t->dirty = calloc(n, sizeof *t->dirty);
    if (!t->tag || !t->stamp || !t->valid || !t->dirty) {
        hd_tags_free(t);
        return -1;
    }
    return 0;
}

void hd_tags_free(struct hd_tags *t)
{
    free(t->tag);
    free(t->stamp);
    free(t->valid);
    free(t->dirty);
    memset(t, 0, sizeof *t);
}

uint64_t hd_tags_all(const struct hd_tags *t)
{
    uint32_t n = t->line >> t->sector_shift;
    return n >= 64 ? ~0ull : (1ull << n) - 1;
}

uint64_t hd_tags_sectors(const struct hd_tags *t, uint64_t addr, uint32_t bytes)
{
    uint64_t off = addr & (t->line - 1);
    uint64_t end = off + (bytes ? bytes : 1);
    if (end > t->line)
        end = t->line;
    uint32_t lo = (uint32_t)(off >> t->sector_shift);
    uint32_t hi = (uint32_t)((end - 1) >> t->sector_shift);
    uint64_t m = hi >= 63 ? ~0ull : (1ull << (hi + 1)) - 1;
    return m & ~((1ull << lo) - 1);
}

static uint32_t set_of(const struct hd_tags *t, uint64_t line)
{
    uint64_t s = line;
    if (t->xor_index && t->set_bits)
        s ^= (line >> t->set_bits) ^ (line >> (2 * t->set_bits));
    if (t->sets & (t->sets - 1)) /* not a power of two (Lin T4.1's 24-set L1D): modulo */
        return (uint32_t)(s % t->sets);
    return (uint32_t)(s & (t->sets - 1));
}

uint32_t hd_tags_find(const struct hd_tags *t, uint64_t addr)
{
    const uint64_t line = addr >> t->shift;
    const uint32_t base = set_of(t, line) * t->ways;
    for (uint32_t w = 0; w < t->ways; w++)
        if (t->tag[base + w] == line + 1)
            return base + w;
    return HD_TAGS_NONE;
}

void hd_tags_touch(struct hd_tags *t, uint32_t e)
{
    t->stamp[e] = ++t->clock;
}

uint32_t hd_tags_victim(const struct hd_tags *t, uint64_t addr)
{
    const uint32_t base = set_of(t, addr >> t->shift) * t->ways;
    uint32_t best = base;
    for (uint32_t w = 0; w < t->ways; w++) {
        if (!t->tag[base + w])
            return base + w;
        if (t->stamp[base + w] < t->stamp[best])
            best = base + w;
    }
    return best;
}

uint32_t hd_tags_victim_unreserved(const struct hd_tags *t, uint64_t addr)
{
    const uint32_t base = set_of(t, addr >> t->shift) * t->ways;
    uint32_t best = HD_TAGS_NONE;
    for (uint32_t w = 0; w < t->ways; w++) {
        if (!t->tag[base + w])
            return base + w;
        if (t->valid[base + w] && (best == HD_TAGS_NONE || t->stamp[base + w] < t->stamp[best]))
            best = base + w;
    }
    return best;
}

uint64_t hd_tags_addr(const struct hd_tags *t, uint32_t e)
{
    return (t->tag[e] - 1) << t->shift;
}

void hd_tags_install(struct hd_tags *t, uint32_t e, uint64_t addr)
{
    t->tag[e] = (addr >> t->shift) + 1;
    t->valid[e] = 0;
    t->dirty[e] = 0;
    t->stamp[e] = ++t->clock;
}

void hd_tags_invalidate(struct hd_tags *t, uint32_t e)
{
    t->tag[e] = 0;
    t->valid[e] = 0;
    t->dirty[e] = 0;
}
