/* SPDX-License-Identifier: MIT
 * mem_params.c - the memory system's parameters from the configuration, with the checks that
 * involve several keys (see mem_params.h).
 */
#include "mem_params.h"

#include "addrmap.h"

#include <stdio.h>
#include <string.h>

static bool pow2(uint32_t v)
{
    return v && !(v & (v - 1));
}

static int fail(char *err, size_t errlen, const char *sec, const char *key, const char *msg,
                uint32_t v)
{
    snprintf(err, errlen, "key '%s' in [%s]: %s (it is %u)", key, sec, msg, v);
    return -1;
}

static int cache_params(struct hd_cache_params *c, const char *sec, uint32_t sets, uint32_t ways,
                        uint32_t line, char *err, size_t errlen)
{
    c->sets = sets;
    c->ways = ways;
    c->line = line;
    /* Any set count (Lin T4.1's L1D: 24 KB, 8-way, 128 B = 24 sets); a count that is not a
     * power of two indexes modulo the set count (cache_tags.c). */
    if (!sets)
        return fail(err, errlen, sec, "sets", "must be at least 1", sets);
    if (!pow2(line) || line % 32)
        return fail(err, errlen, sec, "line", "must be a power of two and a multiple of 32",
                    line);
    return 0;
}

static uint64_t khz(double mhz)
{
    double v = mhz * 1000.0 + 0.5;
    return v < 1.0 ? 1 : (uint64_t)v;
}

static int init_caches(const struct hd_config *c, struct hd_mem_params *p, char *err,
                       size_t errlen)
{
    if (cache_params(&p->l1d.c, "l1d", c->l1d_sets, c->l1d_ways, c->l1d_line, err, errlen) ||
        cache_params(&p->l1c, "l1c", c->l1c_sets, c->l1c_ways, c->l1c_line, err, errlen) ||
        cache_params(&p->l2.c, "l2", c->l2_sets, c->l2_ways, c->l2_line, err, errlen))
        return -1;
    p->l1d.c.latency = c->l1d_latency;
    p->l1d.c.mshr_entries = c->l1d_mshr_entries;
    p->l1d.c.mshr_merge = c->l1d_mshr_merge;
    p->l1d.c.xor_index = c->l1d_set_index == HD_SETHASH_XOR;
    p->l1d.ports = c->l1d_ports;
    p->l1d.port_bytes = c->l1d_data_port_bytes;
    p->l1d.queue = c->l1d_queue;
    p->l1d.miss_queue = c->l1d_miss_queue;
    p->l1d.bypass_global = c->l1d_bypass_global;
    p->l1d.flush_at_launch = c->l1d_flush_at_launch;
    p->l1d.lookup_after_latency = c->l1d_lookup_after_latency;
    p->l1d.miss_writeback = c->l1d_miss_writeback;
    p->l1d.allocate_on_miss = c->l1d_allocate_on_miss;
    snprintf(p->l1d.bypass_kernels, sizeof p->l1d.bypass_kernels, "%s", c->l1d_bypass_kernels.s);
    p->l1c.latency = c->l1c_latency;
    p->l1c.mshr_entries = c->l1c_mshr_entries;
    p->l1c.mshr_merge = c->l1c_mshr_merge;
    p->l1c.xor_index = false;
    p->l2.per_channel = c->l2_slices_per_channel;
    p->l2.nslices = c->l2_slices_per_channel * c->dram_channels;
    p->l2.c.latency = c->l2_latency;
    p->l2.c.mshr_entries = c->l2_mshr_entries;
    p->l2.c.mshr_merge = c->l2_mshr_merge;
    p->l2.c.xor_index = false;
    p->l2.input_queue = c->l2_input_queue;
    p->l2.output_queue = c->l2_output_queue;
    p->l2.dram_queue = c->l2_dram_queue;
    p->l2.port_bytes = c->l2_data_port_bytes;
    p->l2.dram_per_sector = c->l2_dram_per_sector;
    p->l2.sector_replies = c->l2_sector_replies;
    p->l2.fetch_whole_line = c->l2_fetch_whole_line;
    p->l2.write_miss_fetch = c->l2_write_miss_fetch;
    return 0;
}

static int init_icnt(const struct hd_config *c, struct hd_mem_params *p, char *err,
                     size_t errlen)
{
    struct hd_icnt_params *n = &p->icnt;
    n->islip = c->icnt_arbiter == HD_ICNTARB_ISLIP;
    n->iters = c->icnt_islip_iters;
    n->voq = c->icnt_voq;
    n->flit_bytes = c->icnt_flit_bytes;
    if (c->icnt_port_bytes % c->icnt_flit_bytes)
        return fail(err, errlen, "icnt", "port_bytes", "must be a multiple of flit_bytes",
                    c->icnt_port_bytes);
    n->port_flits = c->icnt_port_bytes / c->icnt_flit_bytes;
    n->header_bytes = c->icnt_header_bytes;
    n->latency = c->icnt_latency;
    n->input_flits = c->icnt_input_flits;
    n->eject_packets = c->icnt_eject_packets;
    const uint32_t biggest = (n->header_bytes + p->l2.c.line + n->flit_bytes - 1) / n->flit_bytes;
    if (n->input_flits < biggest)
        return fail(err, errlen, "icnt", "input_flits",
                    "must hold the largest packet (header and one L2 line)", n->input_flits);
    return 0;
}

static int init_dram(const struct hd_config *c, struct hd_mem_params *p, char *err,
                     size_t errlen)
{
    struct hd_dram_params *d = &p->dram;
    d->channels = c->dram_channels;
    d->banks = c->dram_banks;
    d->groups = c->dram_bank_groups;
    if (d->banks % d->groups)
        return fail(err, errlen, "dram", "bank_groups", "must divide banks", d->groups);
    if (c->dram_burst_length % c->dram_data_rate)
        return fail(err, errlen, "dram", "burst_length", "must be a multiple of data_rate",
                    c->dram_burst_length);
    d->burst_bytes = c->dram_bus_bytes * c->dram_burst_length;
    d->burst_cycles = c->dram_burst_length / c->dram_data_rate;
    d->tccd = c->dram_tccd;
    d->tccdl = c->dram_tccdl;
    d->trrd = c->dram_trrd;
    d->trcd = c->dram_trcd;
    d->tras = c->dram_tras;
    d->trp = c->dram_trp;
    d->trc = c->dram_trc;
    d->tcl = c->dram_tcl;
    d->twl = c->dram_twl;
    d->twr = c->dram_twr;
    d->twtr = c->dram_twtr;
    d->trtp = c->dram_trtp;
    d->queue = c->dram_queue;
    d->latency = c->dram_latency;
    d->write_queue = c->dram_write_queue;
    d->write_high = c->dram_write_high;
    d->write_low = c->dram_write_low;
    if (d->write_queue && d->write_high > d->write_queue)
        return fail(err, errlen, "dram", "write_high", "must not exceed write_queue",
                    d->write_high);
    if (d->write_queue && d->write_low >= d->write_high)
        return fail(err, errlen, "dram", "write_low", "must be below write_high", d->write_low);
    d->frfcfs = c->dram_scheduler == HD_DRAMSCHED_FRFCFS;
    d->refresh = c->dram_refresh;
    d->trefi = c->dram_trefi;
    d->trfc = c->dram_trfc;
    if (d->refresh && d->trfc >= d->trefi)
        return fail(err, errlen, "dram", "trfc", "must be smaller than trefi", d->trfc);
    return 0;
}

static int init_map(const struct hd_config *c, struct hd_mem_params *p, char *err,
                    size_t errlen)
{
    struct hd_addrmap_params *m = &p->map;
    m->channels = c->dram_channels;
    m->channel_lsb = c->addrmap_channel_lsb;
    char e[160];
    static const struct {
        const char *key;
        size_t off;
    } lists[] = {{"subpartition_bits", offsetof(struct hd_addrmap_params, sub)},
                 {"bank_bits", offsetof(struct hd_addrmap_params, bank)},
                 {"row_bits", offsetof(struct hd_addrmap_params, row)},
                 {"column_bits", offsetof(struct hd_addrmap_params, col)}};
    const char *text[] = {c->addrmap_subpartition_bits.s, c->addrmap_bank_bits.s,
                          c->addrmap_row_bits.s, c->addrmap_column_bits.s};
    for (unsigned i = 0; i < 4; i++) {
        struct hd_bitlist *b = (struct hd_bitlist *)(void *)((char *)m + lists[i].off);
        if (hd_bitlist_parse(text[i], b, e, sizeof e) != 0) {
            snprintf(err, errlen, "key '%s' in [addrmap]: %s", lists[i].key, e);
            return -1;
        }
    }
    return hd_addrmap_check(m, p->l2.per_channel, p->dram.banks, err, errlen);
}

int hd_mem_params_init(const struct hd_config *c, struct hd_mem_params *p, char *err,
                       size_t errlen)
{
    memset(p, 0, sizeof *p);
    p->num_sms = c->gpu_num_sms;
    p->core_khz = khz(c->clock_core_mhz);
    p->icnt_khz = khz(c->clock_icnt_mhz);
    p->l2_khz = khz(c->clock_l2_mhz);
    p->dram_khz = khz(c->clock_dram_mhz);
    p->dup_window = c->mem_dup_mshr_window;
    p->l2_preload_copies = c->mem_l2_preload_copies;
    p->context_low = c->context_priority == HD_CTXPRIO_LOW;
    if (init_caches(c, p, err, errlen) || init_dram(c, p, err, errlen) ||
        init_icnt(c, p, err, errlen) || init_map(c, p, err, errlen))
        return -1;
    return 0;
}

bool hd_mem_params_kernel_listed(const char *list, const char *name)
{
    const char *p = list;
    const size_t nlen = strlen(name);
    while (*p) {
        while (*p == ' ' || *p == ',' || *p == '\t')
            p++;
        const char *b = p;
        while (*p && *p != ' ' && *p != ',' && *p != '\t')
            p++;
        size_t len = (size_t)(p - b);
        if (!len)
            continue;
        if (b[len - 1] == '*') {
            if (nlen >= len - 1 && strncmp(b, name, len - 1) == 0)
                return true;
        } else if (len == nlen && strncmp(b, name, len) == 0) {
            return true;
        }
    }
    return false;
}
