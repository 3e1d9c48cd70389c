/* SPDX-License-Identifier: MIT
 * alloc_table.c - Lin's allocation table's C reference (alloc_table.h).
 *
 * Design: alloc and spill share one window search, as the RTL does: candidate starts c_0 = 0
 * and c_{1+e} = end of entry e, each checked against every entry (overlap, allowed, counted);
 * alloc is the search with no entry allowed (so only free windows qualify, and the lowest start
 * wins: first fit).
 */
#include "alloc_table.h"

#include <string.h>

#define HD_PORTS_DEF "alloc_table_ports.def"
#define HD_PORTS_IN_T struct hd_alloc_table_in
#define HD_PORTS_OUT_T struct hd_alloc_table_out
#define HD_PORTS_BLOCK_VAR hd_alloc_table_block
#include "hd_ports_table.h"

#define NE HD_ALLOC_TABLE_ENTRIES

/* Is entry e in use and not dropped, with a non-empty block overlapping [c, c + size)? */
static bool overlaps(const struct hd_alloc_table_entry *x, uint32_t c, uint32_t size)
{
    return x->valid && x->size && size && x->start < c + size && c < (uint32_t)x->start + x->size;
}

/* The window search: best start (ok) and the entries it overlaps. `allowed`: entries that may
 * be overlapped; `drop`: entries counted as free. */
static bool search(const struct hd_alloc_table_state *s, uint32_t size, uint32_t cap,
                   uint32_t allowed, uint32_t drop, uint32_t *start, uint32_t *victims,
                   unsigned *nvict)
{
    bool found = false;
    unsigned best_n = 0;
    uint32_t best_c = 0, best_m = 0;
    for (unsigned k = 0; k <= NE; k++) {
        uint32_t c = 0;
        if (k > 0) {
            const struct hd_alloc_table_entry *x = &s->e[k - 1];
            if (!x->valid || (drop >> (k - 1) & 1u))
                continue;
            c = (uint32_t)x->start + x->size;
        }
        if (c + size > cap)
            continue;
        uint32_t m = 0;
        unsigned n = 0;
        bool ok = true;
        for (unsigned e = 0; e < NE; e++) {
            if ((drop >> e & 1u) || !overlaps(&s->e[e], c, size))
                continue;
            if (!(allowed >> e & 1u))
                ok = false;
            m |= 1u << e;
            n++;
        }
        if (!ok)
            continue;
        if (!found || n < best_n || (n == best_n && c < best_c)) {
            found = true;
            best_n = n;
            best_c = c;
            best_m = m;
        }
    }
    *start = found ? best_c : 0;
    *victims = found ? best_m : 0;
    *nvict = found ? best_n : 0;
    return found;
}

static unsigned used_after(const struct hd_alloc_table_state *s, int taken, int freed)
{
    unsigned n = 0;
    for (int e = 0; e < NE; e++)
        n += (s->e[e].valid || e == taken) && e != freed;
    return n;
}

void hd_alloc_table_eval(const struct hd_alloc_table_state *s, const struct hd_alloc_table_in *in,
                         struct hd_alloc_table_out *out)
{
    memset(out, 0, sizeof *out);
    unsigned op = (unsigned)(in->op_i & 3u);
    if (op == HD_ATAB_NONE)
        return;
    out->valid_o = 1;
    out->op_o = op;
    const uint32_t size = (uint32_t)(in->size_i & 0xfffu), cap = (uint32_t)(in->cap_i & 0xfffu);
    int taken = -1, freed = -1;
    if (op == HD_ATAB_ALLOC) {
        int e = 0;
        while (e < NE && s->e[e].valid)
            e++;
        uint32_t start, m;
        unsigned n;
        if (e < NE && search(s, size, cap, 0, 0, &start, &m, &n)) {
            out->ok_o = 1;
            out->entry_o = (uint64_t)e;
            out->start_o = start;
            taken = e;
        }
    } else if (op == HD_ATAB_FREE) {
        unsigned e = (unsigned)(in->entry_i & 0xfu);
        out->ok_o = s->e[e].valid;
        freed = (int)e;
    } else {
        uint32_t start, m;
        unsigned n;
        if (search(s, size, cap, (uint32_t)(in->cand_i & 0xffffu), (uint32_t)(in->drop_i & 0xffffu),
                   &start, &m, &n)) {
            out->ok_o = 1;
            out->start_o = start;
            out->victims_o = m;
            out->nvict_o = n;
        }
    }
    out->used_o = used_after(s, taken, freed);
}

void hd_alloc_table_write(struct hd_alloc_table_state *s, const struct hd_alloc_table_in *in,
                          const struct hd_alloc_table_out *out)
{
    unsigned op = (unsigned)(in->op_i & 3u);
    if (op == HD_ATAB_ALLOC && (out->ok_o & 1u))
        s->e[out->entry_o & 0xfu] = (struct hd_alloc_table_entry){
            true, (uint16_t)(out->start_o & 0xfffu), (uint16_t)(in->size_i & 0xfffu)};
    else if (op == HD_ATAB_FREE)
        s->e[in->entry_i & 0xfu] = (struct hd_alloc_table_entry){false, 0, 0};
}

void hd_alloc_table_exec(struct hd_alloc_table_state *s, const struct hd_alloc_table_in *in,
                         struct hd_alloc_table_out *out)
{
    hd_alloc_table_eval(s, in, out);
    hd_alloc_table_write(s, in, out);
}

void hd_alloc_table_ref_reset(struct hd_alloc_table_state *s)
{
    memset(s, 0, sizeof *s);
    hd_block_reset_values(&hd_alloc_table_block, HD_DIR_OUT, &s->q);
}

void hd_alloc_table_ref_step(struct hd_alloc_table_state *s, const struct hd_alloc_table_in *in,
                             struct hd_alloc_table_out *out)
{
    *out = s->q;
    struct hd_alloc_table_in c = *in;
    hd_block_clamp(&hd_alloc_table_block, HD_DIR_IN, &c);
    hd_alloc_table_exec(s, &c, &s->q);
    s->cycle++;
}

bool hd_alloc_table_ref_idle(const struct hd_alloc_table_state *s,
                             const struct hd_alloc_table_in *in)
{
    return (in->op_i & 3u) == HD_ATAB_NONE && !(s->q.valid_o & 1u);
}
