/* SPDX-License-Identifier: MIT
 * oloc_stress.c - the operand-location stress policy (oloc_stress.h; docs/oloc.md): random,
 * seeded register places that move at random cycles, so that the hook of sm_oloc.h is
 * exercised by every workload.
 */
#include "oloc_stress.h"

#include "addr_map.h"

#include <stdlib.h>

#define ENTRIES 4096u

enum { AT_BANK, AT_SPAD, AT_SPAD_UNCACHED, AT_SWAPPED, AT_OPCACHE };
enum { PORT_SPAD, PORT_OPC, PORT_SWAP, NPORTS };

struct stress {
    struct hd_oloc_stress_params p;
    uint32_t sm, banks;
    uint64_t point;       /* move points passed */
    uint64_t next;        /* cycle of the next one */
    uint32_t epoch[ENTRIES]; /* point at which the entry was last placed by a fill or write + 1 */
    uint8_t at[ENTRIES];     /* ... and that place */
};

static const uint8_t port_reads[NPORTS] = {1, 2, 1};
static const uint8_t port_writes[NPORTS] = {1, 2, 1};

static uint64_t mix(uint64_t x)
{
    x ^= x >> 30;
    x *= 0xBF58476D1CE4E5B9ull;
    x ^= x >> 27;
    x *= 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

static uint64_t draw(const struct stress *s, uint64_t point, uint64_t what)
{
    return mix(mix(s->p.seed ^ mix(s->sm + 1)) ^ mix(point * 0x9E3779B97F4A7C15ull + what));
}

/* Move points up to cycle now. */
static void advance(struct stress *s, uint64_t now)
{
    while (now >= s->next) {
        s->point++;
        const uint64_t half = s->p.period / 2 ? s->p.period / 2 : 1;
        s->next += half + draw(s, s->point, ENTRIES) % (2 * half);
    }
}

static uint32_t entry(const struct hd_oloc_query *q)
{
    return (q->warp * 263u + q->reg) % ENTRIES;
}

/* Where entry e is now. */
static uint8_t place(const struct stress *s, uint32_t e)
{
    if (s->epoch[e] == s->point + 1)
        return s->at[e];
    const uint64_t r = draw(s, s->point, e);
    if ((double)(r >> 11) * 0x1.0p-53 >= s->p.rate)
        return AT_BANK;
    return (uint8_t)(AT_SPAD + (r & 0x3FF) % 3);
}

static void set_place(struct stress *s, uint32_t e, uint8_t at)
{
    s->epoch[e] = (uint32_t)(s->point + 1);
    s->at[e] = at;
}

static void locate(void *impl, const struct hd_oloc_query *q, struct hd_oloc *out)
{
    struct stress *s = impl;
    advance(s, q->now);
    const uint32_t e = entry(q);
    switch (place(s, e)) {
    case AT_SPAD:
        out->kind = HD_OLOC_SCRATCHPAD;
        out->port = (uint16_t)(s->banks + PORT_SPAD);
        break;
    case AT_OPCACHE:
        out->kind = HD_OLOC_OPCACHE;
        out->port = (uint16_t)(s->banks + PORT_OPC);
        break;
    case AT_SPAD_UNCACHED:
        out->kind = HD_OLOC_SCRATCHPAD;
        out->miss = HD_OLOC_FILL_PORT;
        out->fill_port = (uint16_t)(s->banks + PORT_SPAD);
        out->fill_latency = 2;
        break;
    case AT_SWAPPED:
        out->kind = HD_OLOC_SWAPPED;
        out->miss = HD_OLOC_FILL_MEM;
        out->fill_bytes = 128;
        out->fill_addr = HD_WIN_SWAP_BASE + (uint64_t)s->sm * HD_WIN_SWAP_STRIDE +
                         (uint64_t)e * 128;
        break;
    default:
        break;
    }
}

static void locate_dst(void *impl, const struct hd_oloc_query *q, struct hd_oloc *out)
{
    struct stress *s = impl;
    advance(s, q->now);
    const uint32_t e = entry(q);
    const uint8_t at = place(s, e);
    if (at == AT_BANK)
        return;
    if (at == AT_SPAD) {
        out->kind = HD_OLOC_SCRATCHPAD;
        out->port = (uint16_t)(s->banks + PORT_SPAD);
        return;
    }
    set_place(s, e, AT_OPCACHE); /* write-allocate in the operand cache */
    out->kind = HD_OLOC_OPCACHE;
    out->port = (uint16_t)(s->banks + PORT_OPC);
}

static void filled(void *impl, const struct hd_oloc_query *q)
{
    struct stress *s = impl;
    advance(s, q->now);
    set_place(s, entry(q), AT_OPCACHE);
}

static void destroy(void *impl)
{
    free(impl);
}

static const struct hd_oloc_ops ops_shared = {
    .name = "oloc_stress", .nports = NPORTS, .port_reads = port_reads, .locate = locate,
    .destroy = destroy, .port_writes = port_writes, .spad_ports = 1u << PORT_SPAD,
    .locate_dst = locate_dst, .filled = filled};
static const struct hd_oloc_ops ops_separate = {
    .name = "oloc_stress", .nports = NPORTS, .port_reads = port_reads, .locate = locate,
    .destroy = destroy, .port_writes = port_writes, .spad_ports = 0,
    .locate_dst = locate_dst, .filled = filled};

int hd_oloc_stress_create(const struct hd_oloc_stress_params *p, uint32_t sm_id,
                          uint32_t reg_banks, const struct hd_oloc_ops **ops, void **impl)
{
    struct stress *s = calloc(1, sizeof *s);
    if (!s)
        return -1;
    s->p = *p;
    s->sm = sm_id;
    s->banks = reg_banks;
    s->next = 0;
    advance(s, 0); /* point 1 starts at cycle 0 */
    *ops = p->spad_shared ? &ops_shared : &ops_separate;
    *impl = s;
    return 0;
}
