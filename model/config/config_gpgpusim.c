/* SPDX-License-Identifier: MIT
 * config_gpgpusim.c - reading a GPGPU-Sim `gpgpusim.config` option file into a Heddle
 * configuration: the options that correspond to ours set them, the others are listed (the caller
 * prints them as one warning).
 *
 * Design: one table (maps[]) names every GPGPU-Sim option we understand and how it maps; the
 * Markdown section of docs/config.md is generated from the same table, so the two cannot drift.
 * Most options map one-to-one onto a key and are parsed by that key's own parser (range checks
 * and messages included); a few are composite (clock domains, threads:warp, cache geometry,
 * scheduler strings, the five-column latency lists, clusters x cores). The file is read on top of
 * whatever *cfg holds (hd_config_load_ex starts from the defaults, the GTX480 values), so an
 * option the file omits keeps Heddle's default, not GPGPU-Sim's built-in one. As in GPGPU-Sim a
 * repeated option takes its last value. A file is recognised by its first non-comment line
 * starting with '-' (an INI file cannot start so). Syntax: '#' starts a comment; each option is
 * "-name value" on one line, except that a double-quoted value may continue over several lines.
 * Errors name the file, line and option: "file:line: option '-X': message". The memory
 * system's options (caches, queues, DRAM geometry and timing, flits, GPGPU-Sim 4's L1 latency
 * queue, sectored L2 and copy preload) map onto [l1d], [l1c], [icnt], [l2], [dram] and [mem];
 * configs/imports/import-gpgpusim-4.2.sh makes the GPGPU-Sim 4.2 parity configuration with it
 * (docs/fidelity.md).
 */
#include "config.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* {==== The option table ==== */
enum gs_kind {
    GS_KEY,       /* value parsed by the key's own parser */
    GS_KEY_NZ,    /* the same, but 0 (GPGPU-Sim's "none") keeps the current value */
    GS_CLUSTERS,  /* -gpgpu_n_clusters: num_sms = clusters x cores per cluster */
    GS_CORES,     /* -gpgpu_n_cores_per_cluster */
    GS_CLOCKS,    /* core:icnt:l2:dram */
    GS_THREADS,   /* threads:warp */
    GS_SCHED,     /* lrr | gto | two_level_active:N:inner:outer */
    GS_LAT,       /* ADD,MAX,MUL,MAD,DIV latencies of class `key` (int, fp, dp) */
    GS_II,        /* the same for initiation intervals */
    GS_WIDTHS,    /* pipeline widths: the EX_WB field */
    GS_IL1,       /* [N:|S:]sets:line:ways,... */
    GS_DCACHE,    /* a data cache string: geometry, MSHRs, miss queue, data port (key: "l1d", "l2",
                     "l1c") */
    GS_PARTQ,     /* icnt_L2:L2_dram:dram_L2:L2_icnt queue sizes */
    GS_DRAMLAT,   /* core cycles -> DRAM cycles (at the end: needs the clocks) */
    GS_DRAMBUS,   /* -gpgpu_dram_buswidth / -gpgpu_n_mem_per_ctrlr: bus_bytes = their product */
    GS_DRAMTIME,  /* "nbk=16:CCD=2:..." */
    GS_DRAMSCHED, /* 0 fifo, 1 frfcfs */
    GS_FLIT,      /* flit size: flit_bytes and port_bytes */
    GS_L1LAT      /* -gpgpu_l1_latency: latency, and lookups after it */
};

struct gs_map {
    const char *option;
    enum gs_kind kind;
    const char *key; /* "section.key" (GS_KEY*), or the latency class */
    const char *doc;
};

static const struct gs_map maps[] = {
    {"-gpgpu_n_clusters", GS_CLUSTERS, "gpu.num_sms",
     "num_sms = n_clusters x n_cores_per_cluster (a missing one: GPGPU-Sim's default, 10 or 3)"},
    {"-gpgpu_n_cores_per_cluster", GS_CORES, "gpu.num_sms", "see -gpgpu_n_clusters"},
    {"-gpgpu_clock_domains", GS_CLOCKS, "clock.*",
     "core:icnt:l2:dram MHz -> core_mhz, icnt_mhz, l2_mhz, dram_mhz"},
    {"-gpgpu_shader_core_pipeline", GS_THREADS, "sm.max_threads",
     "threads:warp; the warp size must be 32"},
    {"-gpgpu_shader_registers", GS_KEY, "sm.registers", ""},
    {"-gpgpu_shader_cta", GS_KEY, "sm.max_ctas", ""},
    {"-gpgpu_shmem_size", GS_KEY, "sm.shared_mem_bytes", ""},
    {"-gpgpu_num_sched_per_core", GS_KEY, "sm.num_schedulers", ""},
    {"-gpgpu_scheduler", GS_SCHED, "sm.scheduler",
     "lrr, gto; two_level_active:N:... -> two_level with sched_active_warps = N"},
    {"-gpgpu_num_reg_banks", GS_KEY, "sm.reg_banks", ""},
    {"-gpgpu_reg_bank_use_warp_id", GS_KEY, "pipeline.reg_bank_warp_offset", ""},
    {"-gpgpu_reg_file_port_throughput", GS_KEY, "pipeline.reg_bank_reads", ""},
    {"-gpgpu_shmem_num_banks", GS_KEY, "sm.shared_banks", ""},
    {"-gpgpu_concurrent_kernel_sm", GS_KEY, "sm.concurrent_kernels", ""},
    {"-gpgpu_max_concurrent_kernel", GS_KEY, "timing.max_concurrent_kernels", ""},
    {"-gpgpu_max_insn_issue_per_warp", GS_KEY, "pipeline.issue_width", ""},
    {"-gpgpu_num_sp_units", GS_KEY, "pipeline.sp_units", ""},
    {"-gpgpu_num_sfu_units", GS_KEY, "pipeline.sfu_units", ""},
    {"-gpgpu_num_dp_units", GS_KEY, "pipeline.dp_units",
     "0: DP runs on the SP pipelines at ii_dp (GPGPU-Sim runs it on the SFU)"},
    {"-gpgpu_operand_collector_num_units_sp", GS_KEY, "pipeline.cu_sp", ""},
    {"-gpgpu_operand_collector_num_units_sfu", GS_KEY, "pipeline.cu_sfu", ""},
    {"-gpgpu_operand_collector_num_units_dp", GS_KEY_NZ, "pipeline.cu_dp",
     "0 keeps the current value"},
    {"-gpgpu_operand_collector_num_units_mem", GS_KEY, "pipeline.cu_mem", ""},
    {"-gpgpu_pipeline_widths", GS_WIDTHS, "pipeline.wb_ports",
     "the EX_WB field (7th of 7, 9th of 9, or 11th of 11 or 13 fields)"},
    {"-gpgpu_cache:il1", GS_IL1, "pipeline.icache_*",
     "[N:]sets:line:ways,... -> icache_sets, icache_line, icache_ways"},
    {"-ptx_opcode_latency_int", GS_LAT, "int",
     "ADD,MAX,MUL,MAD,DIV[,SHFL] -> lat_int_alu, lat_int_max, lat_int_mul, lat_int_mad, "
     "lat_int_div[, lat_shfl]"},
    {"-ptx_opcode_initiation_int", GS_II, "int", "the same columns -> ii_int_*, ii_shfl"},
    {"-ptx_opcode_latency_fp", GS_LAT, "fp",
     "ADD,MAX,MUL,MAD,DIV -> lat_fp, lat_fp_max, lat_fp_mul, lat_fp_mad, lat_fp_div"},
    {"-ptx_opcode_initiation_fp", GS_II, "fp", "the same columns -> ii_fp*"},
    {"-ptx_opcode_latency_dp", GS_LAT, "dp",
     "ADD -> lat_dp (one FP64 class: MAX, MUL and MAD are not separate); DIV -> lat_dp_div"},
    {"-ptx_opcode_initiation_dp", GS_II, "dp", "the same columns -> ii_dp, ii_dp_div"},
    {"-ptx_opcode_latency_sfu", GS_KEY, "pipeline.lat_sfu", ""},
    {"-ptx_opcode_initiation_sfu", GS_KEY, "pipeline.ii_sfu", ""},
    {"-gpgpu_smem_latency", GS_KEY, "pipeline.shared_latency", ""},
    {"-gpgpu_l1_latency", GS_L1LAT, "l1d.latency",
     "-> latency, and lookup_after_latency = true (GPGPU-Sim 4's L1 latency queue sits before "
     "the tag lookup)"},
    {"-gpgpu_cache:dl1", GS_DCACHE, "l1d",
     "N:sets:line:ways,rep:wr:alloc:...,A:mshrs:merge,miss_queue -> sets, line, ways, "
     "allocate_on_miss (alloc m), mshr_entries, mshr_merge, miss_queue (a sectored L1, S:, is "
     "refused)"},
    {"-gpgpu_cache:dl2", GS_DCACHE, "l2",
     "N: or S:sets:line:ways,policy,A:mshrs:merge,...,port -> sets, line, ways, mshr_entries, "
     "mshr_merge, data_port_bytes; S: (sectored) -> dram_per_sector = true, sector_replies = "
     "true, else fetch_whole_line = true; write-allocate W -> write_miss_fetch = true"},
    {"-gpgpu_const_cache:l1", GS_DCACHE, "l1c",
     "N:sets:line:ways,policy,A:mshrs:merge,... -> sets, line, ways, mshr_entries, mshr_merge"},
    {"-gpgpu_gmem_skip_L1D", GS_KEY, "l1d.bypass_global", ""},
    {"-gpgpu_flush_l1_cache", GS_KEY, "l1d.flush_at_launch", ""},
    {"-gpgpu_perf_sim_memcpy", GS_KEY, "mem.l2_preload_copies", ""},
    {"-gpgpu_n_cluster_ejection_buffer_size", GS_KEY, "icnt.eject_packets", ""},
    {"-icnt_flit_size", GS_FLIT, "icnt.flit_bytes", "-> flit_bytes and port_bytes (one flit per "
     "port and cycle)"},
    {"-gpgpu_n_mem", GS_KEY, "dram.channels", ""},
    {"-gpgpu_n_sub_partition_per_mchannel", GS_KEY, "l2.slices_per_channel", ""},
    {"-rop_latency", GS_KEY, "l2.latency", "GPGPU-Sim 3.x name"},
    {"-gpgpu_l2_rop_latency", GS_KEY, "l2.latency", "GPGPU-Sim 4.x name"},
    {"-gpgpu_dram_partition_queues", GS_PARTQ, "l2.*_queue",
     "icnt_L2:L2_dram:dram_L2:L2_icnt -> input_queue (first), dram_queue (second), "
     "output_queue (last)"},
    {"-dram_latency", GS_DRAMLAT, "dram.latency",
     "core cycles -> DRAM cycles at dram_mhz / core_mhz (rounded)"},
    {"-gpgpu_dram_scheduler", GS_DRAMSCHED, "dram.scheduler", "0 -> fcfs, 1 -> frfcfs"},
    {"-gpgpu_frfcfs_dram_sched_queue_size", GS_KEY_NZ, "dram.queue",
     "0 (unlimited) keeps the current value"},
    {"-gpgpu_n_mem_per_ctrlr", GS_DRAMBUS, "dram.bus_bytes", "bus_bytes = chips x buswidth"},
    {"-gpgpu_dram_buswidth", GS_DRAMBUS, "dram.bus_bytes", "see -gpgpu_n_mem_per_ctrlr"},
    {"-gpgpu_dram_burst_length", GS_KEY, "dram.burst_length", ""},
    {"-dram_data_command_freq_ratio", GS_KEY, "dram.data_rate", ""},
    {"-gpgpu_dram_timing_opt", GS_DRAMTIME, "dram.t*",
     "nbk -> banks, nbkgrp -> bank_groups, CCD, CCDL, RRD, RCD, RAS, RP, RC, CL, WL, WR -> "
     "tccd ... twr, CDLR -> twtr, RTPL -> trtp"},
};
#define NMAPS (sizeof maps / sizeof maps[0])

static const struct gs_map *find_map(const char *option)
{
    for (size_t i = 0; i < NMAPS; i++)
        if (strcmp(maps[i].option, option) == 0)
            return &maps[i];
    return NULL;
}
/* }==== */

/* {==== Reader state and errors ==== */
struct gs_state {
    struct hd_config *cfg;
    const char *name;
    char *err;
    size_t errlen;
    uint32_t line;           /* line of the option being applied */
    const char *option;
    /* -gpgpu_n_clusters x -gpgpu_n_cores_per_cluster */
    uint64_t clusters, cores;
    bool have_clusters, have_cores;
    uint32_t sms_line;
    /* -dram_latency (applied at the end, with the final clocks) and the DRAM bus width */
    uint64_t dram_latency, bus_chips, bus_width;
    bool have_dram_latency, have_bus;
    uint32_t dram_latency_line, bus_line;
    /* ignored options: " -a -b " (for the duplicate check), and how many */
    char *ign;
    size_t ign_len, ign_cap;
    unsigned nign;
};

static int gs_fail(struct gs_state *st, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static int gs_fail(struct gs_state *st, const char *fmt, ...)
{
    if (!st->err || !st->errlen)
        return -1;
    int n = st->option ? snprintf(st->err, st->errlen, "%s:%u: option '%s': ", st->name, st->line,
                                  st->option)
                       : snprintf(st->err, st->errlen, "%s:%u: ", st->name, st->line);
    if (n >= 0 && (size_t)n < st->errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(st->err + n, st->errlen - (size_t)n, fmt, ap);
        va_end(ap);
    }
    return -1;
}

/* Set "section.key" from text through the key's own parser. */
static int gs_set(struct gs_state *st, const char *section_key, const char *value)
{
    char msg[384];
    if (hd_config_set(st->cfg, section_key, value, msg, sizeof msg) != 0)
        return gs_fail(st, "%s -> %s", value, msg);
    return 0;
}

static int gs_set_u64(struct gs_state *st, const char *section_key, uint64_t v)
{
    char buf[32];
    snprintf(buf, sizeof buf, "%llu", (unsigned long long)v);
    return gs_set(st, section_key, buf);
}

static int note_ignored(struct gs_state *st, const char *option)
{
    size_t ol = strlen(option);
    if (st->ign) {
        char pat[256];
        snprintf(pat, sizeof pat, " %s ", option);
        if (strstr(st->ign, pat))
            return 0;
    }
    if (st->ign_len + ol + 3 > st->ign_cap) {
        size_t cap = st->ign_cap ? st->ign_cap * 2 : 1024;
        while (cap < st->ign_len + ol + 3)
            cap *= 2;
        char *nb = realloc(st->ign, cap);
        if (!nb)
            return gs_fail(st, "out of memory");
        if (!st->ign)
            nb[0] = '\0';
        st->ign = nb;
        st->ign_cap = cap;
    }
    if (st->ign_len == 0)
        st->ign[st->ign_len++] = ' ';
    memcpy(st->ign + st->ign_len, option, ol);
    st->ign_len += ol;
    st->ign[st->ign_len++] = ' ';
    st->ign[st->ign_len] = '\0';
    st->nign++;
    return 0;
}
/* }==== */

/* {==== Value parsers for the composite options ==== */
/* Split `value` at `sep` into at most max fields of unsigned integers (or decimals if dbl). */
static int split_numbers(const char *value, char sep, double *out, unsigned max, unsigned *n)
{
    *n = 0;
    const char *p = value;
    for (;;) {
        if (*n == max)
            return -1;
        char *end;
        while (*p == ' ' || *p == '\t')
            p++;
        double d = strtod(p, &end);
        if (end == p || !(d >= 0 && d < 18446744073709551616.0)) /* NaN, inf, < 0, >= 2^64: */
            return -1; /* the callers convert to uint64_t (found by fuzz_gpgpusim: UB on 1e85) */
        out[(*n)++] = d;
        p = end;
        while (*p == ' ' || *p == '\t')
            p++;
        if (*p == '\0')
            return 0;
        if (*p != sep)
            return -1;
        p++;
    }
}

static int set_clocks(struct gs_state *st, const char *value)
{
    static const char *const keys[4] = {"clock.core_mhz", "clock.icnt_mhz", "clock.l2_mhz",
                                        "clock.dram_mhz"};
    double v[4];
    unsigned n;
    if (split_numbers(value, ':', v, 4, &n) != 0 || n != 4)
        return gs_fail(st, "'%s' is not core:icnt:l2:dram (four MHz values)", value);
    for (unsigned i = 0; i < 4; i++) {
        char buf[64];
        snprintf(buf, sizeof buf, "%.17g", v[i]);
        if (gs_set(st, keys[i], buf) != 0)
            return -1;
    }
    return 0;
}

static int set_threads(struct gs_state *st, const char *value)
{
    double v[2];
    unsigned n;
    if (split_numbers(value, ':', v, 2, &n) != 0 || n != 2 || v[0] != (double)(uint64_t)v[0] ||
        v[1] != (double)(uint64_t)v[1])
        return gs_fail(st, "'%s' is not threads:warp_size", value);
    if (v[1] != 32.0)
        return gs_fail(st, "warp size %.0f: Heddle runs PTX with 32-thread warps", v[1]);
    return gs_set_u64(st, "sm.max_threads", (uint64_t)v[0]);
}

static int set_sched(struct gs_state *st, const char *value)
{
    if (strcmp(value, "lrr") == 0)
        return gs_set(st, "sm.scheduler", "lrr");
    if (strcmp(value, "gto") == 0)
        return gs_set(st, "sm.scheduler", "gto");
    static const char two[] = "two_level_active";
    size_t tl = sizeof two - 1;
    if (strncmp(value, two, tl) == 0 && (value[tl] == '\0' || value[tl] == ':')) {
        if (gs_set(st, "sm.scheduler", "two_level") != 0)
            return -1;
        if (value[tl] == '\0')
            return 0;
        char *end;
        unsigned long active = strtoul(value + tl + 1, &end, 10);
        if (end == value + tl + 1 || (*end != '\0' && *end != ':'))
            return gs_fail(st, "'%s': expected two_level_active:<active warps>:...", value);
        return gs_set_u64(st, "sm.sched_active_warps", active);
    }
    return gs_fail(st, "scheduler '%s' has no Heddle equivalent (lrr, gto or two_level_active)",
                   value);
}

/* ADD,MAX,MUL,MAD,DIV, and SHFL for the integer class (GPGPU-Sim 4) */
static int set_lat(struct gs_state *st, const char *cls, const char *value, bool ii)
{
    double v[6];
    unsigned n;
    const bool is_int = strcmp(cls, "int") == 0;
    if (split_numbers(value, ',', v, 6, &n) != 0 || n < 5 || (n == 6 && !is_int))
        return gs_fail(st, "'%s' is not five comma-separated values (ADD,MAX,MUL,MAD,DIV)%s",
                       value, is_int ? ", or six with SHFL" : "");
    for (unsigned i = 0; i < n; i++)
        if (v[i] != (double)(uint64_t)v[i])
            return gs_fail(st, "'%s': cycles must be whole numbers", value);
    const char *pre = ii ? "pipeline.ii_" : "pipeline.lat_";
    static const char *const int_keys[6] = {"int_alu", "int_max", "int_mul", "int_mad", "int_div",
                                            "shfl"};
    static const char *const fp_keys[5] = {"fp", "fp_max", "fp_mul", "fp_mad", "fp_div"};
    static const char *const dp_keys[5] = {"dp", NULL, NULL, NULL, "dp_div"};
    const char *const *keys = is_int ? int_keys : strcmp(cls, "fp") == 0 ? fp_keys : dp_keys;
    char key[64];
    for (unsigned i = 0; i < n; i++) {
        if (!keys[i])
            continue;
        snprintf(key, sizeof key, "%s%s", pre, keys[i]);
        if (gs_set_u64(st, key, (uint64_t)v[i]) != 0)
            return -1;
    }
    return 0;
}

static int set_widths(struct gs_state *st, const char *value)
{
    double v[16];
    unsigned n;
    if (split_numbers(value, ',', v, 16, &n) != 0 || (n != 7 && n != 9 && n != 11 && n != 13))
        return gs_fail(st, "'%s' is not a list of 7, 9, 11 or 13 pipeline widths", value);
    double wb = n == 7 ? v[6] : n == 9 ? v[8] : v[10]; /* 11, 13: ..._INT fields, then tensor */
    return gs_set_u64(st, "pipeline.wb_ports", (uint64_t)wb);
}

static int set_il1(struct gs_state *st, const char *value)
{
    const char *p = value;
    if ((p[0] == 'N' || p[0] == 'S') && p[1] == ':')
        p += 2;
    char geom[64];
    size_t gl = strcspn(p, ",");
    if (gl >= sizeof geom)
        return gs_fail(st, "'%s' is not [N:]sets:line:ways,...", value);
    memcpy(geom, p, gl);
    geom[gl] = '\0';
    double v[3];
    unsigned n;
    if (split_numbers(geom, ':', v, 3, &n) != 0 || n != 3)
        return gs_fail(st, "'%s' is not [N:]sets:line:ways,...", value);
    if (gs_set_u64(st, "pipeline.icache_sets", (uint64_t)v[0]) != 0 ||
        gs_set_u64(st, "pipeline.icache_line", (uint64_t)v[1]) != 0 ||
        gs_set_u64(st, "pipeline.icache_ways", (uint64_t)v[2]) != 0)
        return -1;
    return 0;
}

/* A data cache: "[N:|S:]sets:line:ways,rep:wr:alloc:wralloc:index,{A|S|F}:mshrs:merge,missq[...]
 * [,port]" (GPGPU-Sim's cache_config). `which` is l1d, l2 or l1c. */
static int set_dcache(struct gs_state *st, const char *which, const char *value)
{
    char buf[256];
    const size_t len = strlen(value);
    if (len >= sizeof buf)
        return gs_fail(st, "'%s' is too long for a cache configuration", value);
    memcpy(buf, value, len + 1); /* (snprintf here warns at -O1: -Wformat-truncation) */
    char *field[8];
    unsigned nf = 0;
    for (char *p = buf, *save = NULL, *f; nf < 8 && (f = strtok_r(p, ",", &save)); p = NULL)
        field[nf++] = f;
    const char *geom = nf ? field[0] : "";
    bool sectored = false;
    if ((geom[0] == 'N' || geom[0] == 'S') && geom[1] == ':') {
        sectored = geom[0] == 'S';
        geom += 2;
    }
    double g[3], m[3];
    unsigned n, nm = 0;
    if (nf < 3 || split_numbers(geom, ':', g, 3, &n) != 0 || n != 3)
        return gs_fail(st, "'%s' is not [N:|S:]sets:line:ways,policy,mshr:entries:merge,...",
                       value);
    const char *mshr = field[2];
    if (!((mshr[0] == 'A' || mshr[0] == 'S' || mshr[0] == 'F') && mshr[1] == ':') ||
        split_numbers(mshr + 2, ':', m, 3, &nm) != 0 || nm < 2)
        return gs_fail(st, "'%s': the MSHR field '%s' is not {A|S|F}:entries:merge", value, mshr);
    if (sectored && strcmp(which, "l2") != 0)
        return gs_fail(st, "'%s': a sectored (S:) %s is not modelled", value, which);
    char key[64];
    static const char *const gkeys[3] = {"sets", "line", "ways"};
    for (unsigned i = 0; i < 3; i++) {
        snprintf(key, sizeof key, "%s.%s", which, gkeys[i]);
        if (gs_set_u64(st, key, (uint64_t)g[i]) != 0)
            return -1;
    }
    snprintf(key, sizeof key, "%s.mshr_entries", which);
    if (gs_set_u64(st, key, (uint64_t)m[0]) != 0)
        return -1;
    snprintf(key, sizeof key, "%s.mshr_merge", which);
    if (gs_set_u64(st, key, (uint64_t)m[1]) != 0)
        return -1;
    if (strcmp(which, "l1d") == 0) { /* rep:write:alloc:... -> the allocation policy */
        const char *pol = field[1];
        if (strlen(pol) < 5 || pol[1] != ':' || pol[3] != ':' || (pol[4] != 'm' && pol[4] != 'f'))
            return gs_fail(st, "'%s': the policy field '%s' is not rep:write:{m|f}:...", value,
                           pol);
        if (gs_set(st, "l1d.allocate_on_miss", pol[4] == 'm' ? "true" : "false") != 0)
            return -1;
    }
    if (strcmp(which, "l1d") == 0 && nf > 3) { /* miss queue[:...] */
        double q[4];
        unsigned nq;
        if (split_numbers(field[3], ':', q, 4, &nq) != 0)
            return gs_fail(st, "'%s': the miss-queue field '%s' is not a number", value, field[3]);
        if (gs_set_u64(st, "l1d.miss_queue", (uint64_t)q[0]) != 0)
            return -1;
    }
    if (strcmp(which, "l2") == 0) {
        if (nf > 4) { /* data port width */
            double w[1];
            unsigned nw;
            if (split_numbers(field[4], ':', w, 1, &nw) != 0)
                return gs_fail(st, "'%s': the data port field '%s' is not a number", value,
                               field[4]);
            if (gs_set_u64(st, "l2.data_port_bytes", (uint64_t)w[0]) != 0)
                return -1;
        }
        /* rep:write:alloc:write_alloc: W = write-allocate with a fetch (3.x wr_miss_wa,
         * 4.x wr_miss_wa_naive); L (lazy fetch-on-read), N and F keep the sector allocation */
        const char *pol = field[1];
        const bool wfetch = strlen(pol) >= 7 && pol[5] == ':' && pol[6] == 'W';
        if (gs_set(st, "l2.write_miss_fetch", wfetch ? "true" : "false") != 0 ||
            gs_set(st, "l2.fetch_whole_line", sectored ? "false" : "true") != 0)
            return -1;
        if (gs_set(st, "l2.sector_replies", sectored ? "true" : "false") != 0)
            return -1;
        return gs_set(st, "l2.dram_per_sector", sectored ? "true" : "false");
    }
    return 0;
}

static int set_partq(struct gs_state *st, const char *value)
{
    double v[4];
    unsigned n;
    if (split_numbers(value, ':', v, 4, &n) != 0 || n != 4)
        return gs_fail(st, "'%s' is not icnt_L2:L2_dram:dram_L2:L2_icnt (four sizes)", value);
    if (v[0] && gs_set_u64(st, "l2.input_queue", (uint64_t)v[0]) != 0)
        return -1;
    if (v[1] && gs_set_u64(st, "l2.dram_queue", (uint64_t)v[1]) != 0)
        return -1;
    if (v[3] && gs_set_u64(st, "l2.output_queue", (uint64_t)v[3]) != 0)
        return -1;
    return 0;
}

static int set_dramtime(struct gs_state *st, const char *value)
{
    static const struct {
        const char *name, *key;
    } t[] = {{"nbk", "dram.banks"},    {"nbkgrp", "dram.bank_groups"}, {"CCD", "dram.tccd"},
             {"CCDL", "dram.tccdl"},   {"RRD", "dram.trrd"},          {"RCD", "dram.trcd"},
             {"RAS", "dram.tras"},     {"RP", "dram.trp"},            {"RC", "dram.trc"},
             {"CL", "dram.tcl"},       {"WL", "dram.twl"},            {"CDLR", "dram.twtr"},
             {"WR", "dram.twr"},       {"RTPL", "dram.trtp"}};
    const char *p = value;
    while (*p) {
        while (*p == ' ' || *p == ':')
            p++;
        if (!*p)
            break;
        size_t nl = strcspn(p, "=: ");
        if (p[nl] != '=')
            return gs_fail(st, "'%s': expected NAME=cycles at '%.*s'", value, (int)nl, p);
        const char *num = p + nl + 1;
        size_t vl = strcspn(num, ": ");
        char v[32];
        if (vl == 0 || vl >= sizeof v)
            return gs_fail(st, "'%s': no value for '%.*s'", value, (int)nl, p);
        memcpy(v, num, vl);
        v[vl] = '\0';
        size_t k = 0;
        while (k < sizeof t / sizeof t[0] && !(strlen(t[k].name) == nl &&
                                              strncmp(t[k].name, p, nl) == 0))
            k++;
        if (k == sizeof t / sizeof t[0])
            return gs_fail(st, "'%s': timing '%.*s' has no Heddle key", value, (int)nl, p);
        if (gs_set(st, t[k].key, v) != 0)
            return -1;
        p = num + vl;
    }
    return 0;
}

static int set_flit(struct gs_state *st, const char *value)
{
    /* port_bytes must stay a multiple of flit_bytes: set the larger order first */
    if (gs_set(st, "icnt.port_bytes", value) != 0 || gs_set(st, "icnt.flit_bytes", value) != 0)
        return -1;
    return 0;
}

static int set_count(struct gs_state *st, const char *value, uint64_t *out)
{
    char *end;
    unsigned long long v = strtoull(value, &end, 10);
    if (end == value || *end != '\0' || value[0] == '-')
        return gs_fail(st, "'%s' is not an unsigned integer", value);
    *out = v;
    return 0;
}
/* }==== */

/* {==== Applying one option ==== */
static int apply(struct gs_state *st, const char *option, const char *value)
{
    const struct gs_map *m = find_map(option);
    if (!m)
        return note_ignored(st, option);
    if (value[0] == '\0')
        return gs_fail(st, "missing value");
    switch (m->kind) {
    case GS_KEY:
        return gs_set(st, m->key, value);
    case GS_KEY_NZ:
        return strcmp(value, "0") == 0 ? 0 : gs_set(st, m->key, value);
    case GS_CLUSTERS:
        st->have_clusters = true;
        st->sms_line = st->line;
        return set_count(st, value, &st->clusters);
    case GS_CORES:
        st->have_cores = true;
        st->sms_line = st->line;
        return set_count(st, value, &st->cores);
    case GS_CLOCKS:
        return set_clocks(st, value);
    case GS_THREADS:
        return set_threads(st, value);
    case GS_SCHED:
        return set_sched(st, value);
    case GS_LAT:
    case GS_II:
        return set_lat(st, m->key, value, m->kind == GS_II);
    case GS_WIDTHS:
        return set_widths(st, value);
    case GS_IL1:
        return set_il1(st, value);
    case GS_DCACHE:
        return set_dcache(st, m->key, value);
    case GS_PARTQ:
        return set_partq(st, value);
    case GS_DRAMLAT:
        st->have_dram_latency = true;
        st->dram_latency_line = st->line;
        return set_count(st, value, &st->dram_latency);
    case GS_DRAMBUS:
        st->have_bus = true;
        st->bus_line = st->line;
        if (!st->bus_chips)
            st->bus_chips = 2, st->bus_width = 4; /* GPGPU-Sim's defaults */
        return set_count(st, value, strcmp(option, "-gpgpu_n_mem_per_ctrlr") == 0
                                        ? &st->bus_chips : &st->bus_width);
    case GS_DRAMTIME:
        return set_dramtime(st, value);
    case GS_DRAMSCHED:
        if (strcmp(value, "0") == 0)
            return gs_set(st, "dram.scheduler", "fcfs");
        if (strcmp(value, "1") == 0)
            return gs_set(st, "dram.scheduler", "frfcfs");
        return gs_fail(st, "'%s': 0 (FIFO) or 1 (FR-FCFS)", value);
    case GS_FLIT:
        return set_flit(st, value);
    case GS_L1LAT:
        if (gs_set(st, "l1d.latency", value) != 0)
            return -1;
        return gs_set(st, "l1d.lookup_after_latency", "true");
    }
    return gs_fail(st, "internal: bad mapping");
}

static int finish(struct gs_state *st)
{
    if (st->have_bus) {
        st->line = st->bus_line;
        st->option = "-gpgpu_dram_buswidth";
        if (gs_set_u64(st, "dram.bus_bytes", st->bus_chips * st->bus_width) != 0)
            return -1;
    }
    if (st->have_dram_latency) { /* core cycles at the final clocks */
        st->line = st->dram_latency_line;
        st->option = "-dram_latency";
        const double c = st->cfg->clock_core_mhz, d = st->cfg->clock_dram_mhz;
        const double cycles = (double)st->dram_latency * d / c + 0.5;
        if (!(cycles < 18446744073709551616.0)) /* (2^64: beyond it the conversion is undefined) */
            return gs_fail(st, "%llu DRAM cycles at %g MHz are more core cycles at %g MHz than "
                           "a 64-bit count holds", (unsigned long long)st->dram_latency, d, c);
        if (gs_set_u64(st, "dram.latency", (uint64_t)cycles) != 0)
            return -1;
    }
    if (!st->have_clusters && !st->have_cores)
        return 0;
    uint64_t clusters = st->have_clusters ? st->clusters : 10, cores = st->have_cores ? st->cores : 3;
    st->line = st->sms_line;
    st->option = st->have_cores ? "-gpgpu_n_cores_per_cluster" : "-gpgpu_n_clusters";
    if (clusters == 0 || cores == 0 || clusters > UINT32_MAX || cores > UINT32_MAX)
        return gs_fail(st, "%llu clusters x %llu cores per cluster is not a GPU",
                       (unsigned long long)clusters, (unsigned long long)cores);
    return gs_set_u64(st, "gpu.num_sms", clusters * cores);
}
/* }==== */

/* {==== The reader ==== */
static bool is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

bool hd_config_is_gpgpusim(const char *text, size_t len)
{
    size_t i = 0;
    while (i < len) {
        while (i < len && (is_blank(text[i]) || text[i] == '\n'))
            i++;
        if (i < len && text[i] == '#') {
            while (i < len && text[i] != '\n')
                i++;
            continue;
        }
        return i + 1 < len && text[i] == '-' &&
               ((text[i + 1] >= 'a' && text[i + 1] <= 'z') ||
                (text[i + 1] >= 'A' && text[i + 1] <= 'Z'));
    }
    return false;
}

/* gpu.name from the path: "DIR/gpgpusim" for DIR/gpgpusim.config, else the base name without
 * its extension. */
static void set_name(struct hd_config *cfg, const char *path)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    char name[HD_CFG_STR_MAX];
    if (strcmp(base, "gpgpusim.config") == 0 && base != path) {
        const char *dend = base - 1, *dir = dend;
        while (dir > path && dir[-1] != '/')
            dir--;
        snprintf(name, sizeof name, "%.*s/gpgpusim", (int)(dend - dir), dir);
    } else {
        const char *dot = strrchr(base, '.');
        size_t n = dot && dot != base ? (size_t)(dot - base) : strlen(base);
        snprintf(name, sizeof name, "%.*s", (int)n, base);
    }
    for (char *p = name; *p; p++)
        if ((unsigned char)*p < 0x20 || *p == '"' || (unsigned char)*p >= 0x7f)
            *p = '_';
    memcpy(cfg->gpu_name.s, name, sizeof name);
}

/* Read one option starting at text[*pos] (the '-'): name into `name`, value (quotes removed, a
 * quoted value may span lines, which are joined by a space) into `value`. Advances *pos and
 * *line past it. */
static int read_option(struct gs_state *st, const char *text, size_t len, size_t *pos,
                       uint32_t *line, char *name, size_t namecap, char *value, size_t valcap)
{
    size_t i = *pos, n = 0;
    while (i < len && !is_blank(text[i]) && text[i] != '\n' && text[i] != '#') {
        if (n + 1 >= namecap)
            return gs_fail(st, "option name longer than %zu characters", namecap - 1);
        name[n++] = text[i++];
    }
    name[n] = '\0';
    st->option = name;
    size_t v = 0;
    bool quoted = false;
    while (i < len) {
        char c = text[i];
        if (c == '\n') {
            if (!quoted)
                break;
            (*line)++;
            c = ' ';
        } else if (c == '"') {
            quoted = !quoted;
            i++;
            continue;
        } else if (c == '#' && !quoted) {
            while (i < len && text[i] != '\n')
                i++;
            break;
        } else if (c == '\0') {
            return gs_fail(st, "NUL byte in a text file");
        }
        if (v + 1 >= valcap)
            return gs_fail(st, "value longer than %zu characters", valcap - 1);
        value[v++] = is_blank(c) ? ' ' : c;
        i++;
    }
    if (quoted)
        return gs_fail(st, "unterminated \" (the value runs to the end of the file)");
    while (v > 0 && value[v - 1] == ' ')
        v--;
    value[v] = '\0';
    size_t lead = 0;
    while (value[lead] == ' ')
        lead++;
    memmove(value, value + lead, v - lead + 1);
    /* collapse runs of blanks (a value continued over lines) */
    char *w = value;
    for (const char *r = value; *r; r++)
        if (!(*r == ' ' && w > value && w[-1] == ' '))
            *w++ = *r;
    *w = '\0';
    *pos = i;
    return 0;
}

static void format_ignored(const struct gs_state *st, char *out, size_t cap)
{
    if (!out || !cap)
        return;
    out[0] = '\0';
    if (!st->ign)
        return;
    size_t used = 0;
    unsigned listed = 0;
    const char *p = st->ign;
    while (*p) {
        while (*p == ' ')
            p++;
        if (!*p)
            break;
        size_t l = strcspn(p, " ");
        const char *sep = listed ? ", " : "";
        /* room for this name, its separator and a possible ", ..." */
        if (used + strlen(sep) + l + 6 >= cap) {
            snprintf(out + used, cap - used, "%s...", listed ? ", " : "");
            return;
        }
        used += (size_t)snprintf(out + used, cap - used, "%s%.*s", sep, (int)l, p);
        listed++;
        p += l;
    }
}

int hd_config_parse_gpgpusim(struct hd_config *cfg, const char *text, size_t len,
                             const char *name, char *ignored, size_t ignlen, unsigned *nignored,
                             char *err, size_t errlen)
{
    struct gs_state st = {.cfg = cfg, .name = name ? name : "<gpgpusim.config>", .err = err,
                          .errlen = errlen};
    char opt[128], value[4096];
    uint32_t line = 1;
    size_t i = 0;
    int rc = 0;
    if (ignored && ignlen)
        ignored[0] = '\0';
    while (i < len && rc == 0) {
        char c = text[i];
        if (c == '\n') {
            line++;
            i++;
        } else if (is_blank(c)) {
            i++;
        } else if (c == '#') {
            while (i < len && text[i] != '\n')
                i++;
        } else if (c == '-') {
            st.line = line;
            rc = read_option(&st, text, len, &i, &line, opt, sizeof opt, value, sizeof value);
            if (rc == 0)
                rc = apply(&st, opt, value);
            st.option = NULL;
        } else {
            st.line = line;
            st.option = NULL;
            rc = gs_fail(&st, "expected an option (-name value) or a '#' comment");
        }
    }
    if (rc == 0)
        rc = finish(&st);
    if (rc == 0)
        set_name(cfg, st.name);
    if (rc == 0)
        format_ignored(&st, ignored, ignlen);
    if (nignored)
        *nignored = rc == 0 ? st.nign : 0;
    free(st.ign);
    return rc;
}
/* }==== */

/* {==== Documentation ==== */
void hd_config_gpgpusim_doc(FILE *out)
{
    fputs("\n## Importing a GPGPU-Sim configuration\n\n"
          "`--config` also accepts a GPGPU-Sim `gpgpusim.config` (recognised by its first option\n"
          "line starting with `-`). The options below set the Heddle keys they correspond to;\n"
          "every other option is ignored and all of them are named in one warning. An option the\n"
          "file does not set keeps Heddle's default (the GTX480 values above), not GPGPU-Sim's\n"
          "built-in default. A repeated option takes its last value, as in GPGPU-Sim; a bad value\n"
          "of a mapped option is an error `file:line: option '-X': message`.\n\n"
          "| GPGPU-Sim option | Heddle key | notes |\n|---|---|---|\n",
          out);
    for (size_t i = 0; i < NMAPS; i++) {
        const struct gs_map *m = &maps[i];
        const char *key = m->key;
        if (m->kind == GS_LAT || m->kind == GS_II)
            fprintf(out, "| `%s` | `pipeline.%s_%s*` | %s |\n", m->option,
                    m->kind == GS_LAT ? "lat" : "ii", key, m->doc);
        else
            fprintf(out, "| `%s` | `%s` | %s |\n", m->option, key, m->doc);
    }
}
/* }==== */
