/* SPDX-License-Identifier: MIT
 * hd_block.c - generic operations on block I/O structs through their port tables (hd_block.h).
 *
 * Design: every read goes through hd_port_word(), so the narrow (uint64_t) and wide (uint32_t
 * words) layouts are handled in one place.
 */
#include "hd_block.h"

#include <string.h>

static uint64_t *narrow(const struct hd_port_desc *p, const void *io)
{
    return (uint64_t *)((uintptr_t)io + p->offset);
}

static uint32_t *wide(const struct hd_port_desc *p, const void *io)
{
    return (uint32_t *)((uintptr_t)io + p->offset);
}

/* {==== Access ==== */
/* 32-bit word `word` of port p in the struct `io` of its direction (0 past the port's width). */
static uint32_t hd_port_word(const struct hd_port_desc *p, const void *io, unsigned word)
{
    if (word >= HD_WORDS(p->width))
        return 0;
    if (p->wide)
        return wide(p, io)[word];
    return (uint32_t)(*narrow(p, io) >> (32u * word));
}

bool hd_port_bit(const struct hd_port_desc *p, const void *io, unsigned bit)
{
    return bit < p->width && (hd_port_word(p, io, bit / 32u) >> (bit % 32u) & 1u);
}

/* Mask of the valid bits of word `word` of a port of `width` bits. */
static uint32_t word_mask(unsigned width, unsigned word)
{
    unsigned lo = 32u * word;
    if (width >= lo + 32u)
        return UINT32_MAX;
    return width > lo ? (uint32_t)((1ull << (width - lo)) - 1u) : 0u;
}
/* }==== */

/* {==== Whole structs ==== */
unsigned hd_block_clamp(const struct hd_block_desc *b, enum hd_port_dir dir, void *io)
{
    unsigned dirty = 0;
    for (unsigned i = 0; i < b->nports; i++) {
        const struct hd_port_desc *p = &b->ports[i];
        if (p->dir != dir)
            continue;
        bool bad = false;
        unsigned nw = p->wide ? HD_WORDS(p->width) : 2u;
        for (unsigned w = 0; w < nw; w++) {
            uint32_t v = p->wide ? wide(p, io)[w] : (uint32_t)(*narrow(p, io) >> (32u * w));
            uint32_t m = word_mask(p->width, w);
            if (v & ~m) {
                bad = true;
                if (p->wide)
                    wide(p, io)[w] = v & m;
                else
                    *narrow(p, io) &= ~((uint64_t)(~m) << (32u * w));
            }
        }
        dirty += bad;
    }
    return dirty;
}

void hd_block_reset_values(const struct hd_block_desc *b, enum hd_port_dir dir, void *io)
{
    for (unsigned i = 0; i < b->nports; i++) {
        const struct hd_port_desc *p = &b->ports[i];
        if (p->dir != dir)
            continue;
        if (p->wide)
            memset(wide(p, io), 0, HD_WORDS(p->width) * sizeof(uint32_t));
        else
            *narrow(p, io) = p->reset;
    }
}

bool hd_port_equal(const struct hd_port_desc *p, const void *a, const void *b)
{
    for (unsigned w = 0; w < HD_WORDS(p->width); w++)
        if (hd_port_word(p, a, w) != hd_port_word(p, b, w))
            return false;
    return true;
}

void hd_port_format(const struct hd_port_desc *p, const void *io, char *buf, size_t len)
{
    static const char hex[] = "0123456789abcdef";
    unsigned digits = (p->width + 3u) / 4u;
    size_t o = 0;
    if (len < 4)
        return;
    buf[o++] = '0';
    buf[o++] = 'x';
    for (unsigned d = digits; d-- > 0 && o + 1 < len;) {
        uint32_t w = hd_port_word(p, io, d / 8u);
        buf[o++] = hex[(w >> (4u * (d % 8u))) & 0xFu];
    }
    buf[o] = '\0';
}

/* }==== */

/* {==== Listings ==== */
void hd_block_print_ports(const struct hd_block_desc *b, FILE *f)
{
    fprintf(f, "%s input 1\n%s input 1\n", b->clock, b->reset);
    for (unsigned i = 0; i < b->nports; i++)
        fprintf(f, "%s %s %u\n", b->ports[i].name, b->ports[i].dir == HD_DIR_IN ? "input" : "output",
                b->ports[i].width);
}

void hd_block_print_ports_md(const struct hd_block_desc *b, FILE *f)
{
    fprintf(f, "| port | dir | width | reset | description |\n|---|---|---|---|---|\n");
    fprintf(f, "| `%s` | in | 1 | - | clock (rising edge) |\n", b->clock);
    fprintf(f, "| `%s` | in | 1 | - | asynchronous reset, active low |\n", b->reset);
    for (unsigned i = 0; i < b->nports; i++) {
        const struct hd_port_desc *p = &b->ports[i];
        fprintf(f, "| `%s` | %s | %u | %llu | %s |\n", p->name, p->dir == HD_DIR_IN ? "in" : "out",
                p->width, (unsigned long long)p->reset, p->doc);
    }
    fprintf(f, "\nLatency: %u cycle%s from an input to its output; every output is registered.\n",
            b->latency, b->latency == 1 ? "" : "s");
}
/* }==== */
