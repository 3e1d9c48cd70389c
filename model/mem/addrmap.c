/* SPDX-License-Identifier: MIT
 * addrmap.c - address decoding by bit fields (see addrmap.h).
 */
#include "addrmap.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int hd_bitlist_parse(const char *text, struct hd_bitlist *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    uint64_t seen = 0;
    const char *p = text;
    for (;;) {
        while (*p == ' ' || *p == ',' || *p == '\t')
            p++;
        if (!*p)
            return 0;
        if (*p < '0' || *p > '9') {
            snprintf(err, errlen, "'%s': expected a bit number at '%s'", text, p);
            return -1;
        }
        char *end;
        unsigned long lo = strtoul(p, &end, 10), hi = lo;
        p = end;
        if (*p == '-') {
            p++;
            if (*p < '0' || *p > '9') {
                snprintf(err, errlen, "'%s': expected the end of a range", text);
                return -1;
            }
            hi = strtoul(p, &end, 10);
            p = end;
        }
        if (*p && *p != ' ' && *p != ',' && *p != '\t') {
            snprintf(err, errlen, "'%s': unexpected '%c'", text, *p);
            return -1;
        }
        if (lo > 63 || hi > 63 || hi < lo) {
            snprintf(err, errlen, "'%s': bits are 0..63, ranges low-high", text);
            return -1;
        }
        for (unsigned long b = lo; b <= hi; b++) {
            if (seen >> b & 1u) {
                snprintf(err, errlen, "'%s': bit %lu listed twice", text, b);
                return -1;
            }
            seen |= 1ull << b;
            out->bit[out->n++] = (uint8_t)b;
        }
    }
}

static uint64_t mask_of(const struct hd_bitlist *b)
{
    uint64_t m = 0;
    for (unsigned i = 0; i < b->n; i++)
        m |= 1ull << b->bit[i];
    return m;
}

static int log2_exact(uint32_t v)
{
    int n = 0;
    while ((1u << n) < v && n < 31)
        n++;
    return (1u << n) == v ? n : -1;
}

int hd_addrmap_check(const struct hd_addrmap_params *m, uint32_t slices_per_channel,
                     uint32_t banks, char *err, size_t errlen)
{
    int sb = log2_exact(slices_per_channel), bb = log2_exact(banks);
    if (sb < 0) {
        snprintf(err, errlen, "key 'slices_per_channel' in [l2]: %u is not a power of two",
                 slices_per_channel);
        return -1;
    }
    if ((unsigned)sb != m->sub.n) {
        snprintf(err, errlen,
                 "key 'subpartition_bits' in [addrmap]: %u bits listed, but [l2] "
                 "slices_per_channel = %u needs %d",
                 m->sub.n, slices_per_channel, sb);
        return -1;
    }
    if (bb < 0) {
        snprintf(err, errlen, "key 'banks' in [dram]: %u is not a power of two", banks);
        return -1;
    }
    if ((unsigned)bb != m->bank.n) {
        snprintf(err, errlen,
                 "key 'bank_bits' in [addrmap]: %u bits listed, but [dram] banks = %u needs %d",
                 m->bank.n, banks, bb);
        return -1;
    }
    if (m->row.n == 0 || m->row.n > 32) {
        snprintf(err, errlen, "key 'row_bits' in [addrmap]: between 1 and 32 bits, not %u",
                 m->row.n);
        return -1;
    }
    if (m->col.n > 32) {
        snprintf(err, errlen, "key 'column_bits' in [addrmap]: at most 32 bits, not %u",
                 m->col.n);
        return -1;
    }
    const uint64_t mb = mask_of(&m->bank), mr = mask_of(&m->row), mc = mask_of(&m->col);
    if (mb & mr || mb & mc || mr & mc) {
        snprintf(err, errlen,
                 "key 'row_bits' in [addrmap]: bank, row and column bits must not overlap");
        return -1;
    }
    return 0;
}

/* The bits of `a` listed in `b`, packed (first listed bit = bit 0). */
static uint64_t hd_bitlist_extract(const struct hd_bitlist *b, uint64_t a)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < b->n; i++)
        v |= (a >> b->bit[i] & 1u) << i;
    return v;
}

/* a with the bits of b removed and the higher bits moved down. */
static uint64_t squeeze(const struct hd_bitlist *b, uint64_t a)
{
    uint64_t m = mask_of(b), out = 0;
    unsigned o = 0;
    for (unsigned i = 0; i < 64; i++)
        if (!(m >> i & 1u))
            out |= (a >> i & 1u) << o++;
    return out;
}

void hd_addrmap_decode(const struct hd_addrmap_params *m, uint32_t slices_per_channel,
                       uint64_t addr, struct hd_addr_loc *out)
{
    const unsigned lsb = m->channel_lsb;
    const uint64_t low = lsb ? addr & ((1ull << lsb) - 1) : 0;
    const uint64_t hi = addr >> lsb;
    out->channel = (uint32_t)(hi % m->channels);
    const uint64_t rest = ((hi / m->channels) << lsb) | low;
    out->sub = (uint32_t)hd_bitlist_extract(&m->sub, rest);
    out->slice = out->channel * slices_per_channel + out->sub;
    out->bank = (uint32_t)hd_bitlist_extract(&m->bank, rest);
    out->row = (uint32_t)hd_bitlist_extract(&m->row, rest);
    out->col = (uint32_t)hd_bitlist_extract(&m->col, rest);
    out->local = m->sub.n ? squeeze(&m->sub, rest) : rest;
}

void hd_addrmap_from_local(const struct hd_addrmap_params *m, uint32_t slices_per_channel,
                           uint32_t slice, uint64_t local, struct hd_addr_loc *out)
{
    uint64_t rest = local;
    if (m->sub.n) {
        const uint32_t sub = slice % slices_per_channel;
        const uint64_t mask = mask_of(&m->sub);
        rest = 0;
        unsigned from = 0;
        for (unsigned i = 0; i < 64; i++) {
            if (mask >> i & 1u) {
                unsigned k = 0;
                while (m->sub.bit[k] != i)
                    k++;
                rest |= (uint64_t)(sub >> k & 1u) << i;
            } else {
                rest |= (local >> from++ & 1u) << i;
            }
        }
    }
    out->channel = slice / slices_per_channel;
    out->sub = slice % slices_per_channel;
    out->slice = slice;
    out->bank = (uint32_t)hd_bitlist_extract(&m->bank, rest);
    out->row = (uint32_t)hd_bitlist_extract(&m->row, rest);
    out->col = (uint32_t)hd_bitlist_extract(&m->col, rest);
    out->local = local;
}
