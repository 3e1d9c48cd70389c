/* SPDX-License-Identifier: MIT
 * hd_bitmap.c - the allocation bitmap helper of the table references (hd_bitmap.h).
 */
#include "hd_bitmap.h"

#include <string.h>

void hd_bitmap_clear_all(struct hd_bitmap *m)
{
    memset(m->w, 0, HD_BITMAP_WORDS(m->n) * sizeof m->w[0]);
}

bool hd_bitmap_test(const struct hd_bitmap *m, uint32_t i)
{
    return i < m->n && ((m->w[i / 64u] >> (i % 64u)) & 1u);
}

static void put_range(struct hd_bitmap *m, uint32_t first, uint32_t count, bool v)
{
    for (uint32_t i = first; i < first + count && i < m->n; i++) {
        uint64_t bit = (uint64_t)1 << (i % 64u);
        if (v)
            m->w[i / 64u] |= bit;
        else
            m->w[i / 64u] &= ~bit;
    }
}

void hd_bitmap_set_range(struct hd_bitmap *m, uint32_t first, uint32_t count)
{
    put_range(m, first, count, true);
}

void hd_bitmap_clear_range(struct hd_bitmap *m, uint32_t first, uint32_t count)
{
    put_range(m, first, count, false);
}

uint32_t hd_bitmap_count(const struct hd_bitmap *m)
{
    uint32_t c = 0;
    for (uint32_t k = 0; k < HD_BITMAP_WORDS(m->n); k++)
        c += (uint32_t)__builtin_popcountll(m->w[k]);
    return c;
}

uint32_t hd_bitmap_find_clear_run(const struct hd_bitmap *m, uint32_t count, uint32_t align)
{
    if (count == 0 || count > m->n)
        return count == 0 ? 0 : UINT32_MAX;
    if (align == 0)
        align = 1;
    for (uint32_t first = 0; first + count <= m->n; first += align) {
        uint32_t i = first;
        while (i < first + count && !hd_bitmap_test(m, i))
            i++;
        if (i == first + count)
            return first;
    }
    return UINT32_MAX;
}
