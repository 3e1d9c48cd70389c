/* SPDX-License-Identifier: MIT
 * test_power.c - the energy model (model/power, docs/power.md) on event counts it is given:
 * the breakdown adds up to the total, energy is monotone in the obvious directions (more DRAM
 * bytes: more DRAM energy and nothing else changes; more cycles: more static energy only), an
 * SM that holds no CTA costs its static power alone (nothing with full gating), the DRAM
 * energies follow the IDD method on the configured timings, and the added blocks are priced
 * only when their mechanism is configured: every row of the block table (every rtl/ block) is
 * then in the energy at a non-zero access energy and leakage, and its access energy scales with
 * its event count. The whole-run checks (GTX480 totals, per-kernel
 * sums, idle SMs of a real run) are tests/power/check_power.py.
 */
#include "testutil.h"

#include "config.h"
#include "power_blocks.h"
#include "power_model.h"
#include "power_events.h"
#include "power_params.h"
#include "timing_stats.h"

#include <math.h>
#include <string.h>

static void params(struct hd_test_state *t, const struct hd_config *cfg, struct hd_power_params *p)
{
    char err[200];
    HD_CHECK(t, hd_power_params_init(p, cfg, err, sizeof err) == 0);
}

/* A plausible interval: every event non-zero. */
static void busy_events(struct hd_power_events *ev)
{
    for (unsigned i = 0; i < HD_PEV_COUNT; i++)
        ev->n[i] = 1000.0 * (i + 1);
    ev->n[HD_PEV_cycles] = 50000;
    ev->n[HD_PEV_sm_active_cycles] = 15 * 40000;
    ev->n[HD_PEV_sm_idle_cycles] = 15 * 10000;
}

static double sum_comps(const struct hd_power_energy *e)
{
    double s = 0;
    for (unsigned c = 0; c < HD_PC_COUNT; c++)
        s += e->comp[c];
    return s;
}

static void test_sum(struct hd_test_state *t, const struct hd_config *cfg)
{
    hd_test_begin(t, "the components add up to the total, dynamic + static = total");
    struct hd_power_params p;
    params(t, cfg, &p);
    struct hd_power_events ev;
    busy_events(&ev);
    struct hd_power_energy e;
    hd_power_energy_compute(&p, &ev, 50000 / p.core_hz, &e);
    HD_CHECK(t, e.total_j > 0);
    HD_CHECK_F64(t, e.total_j, sum_comps(&e), e.total_j * 1e-12);
    HD_CHECK_F64(t, e.total_j, e.dynamic_j + e.static_j, e.total_j * 1e-12);
    for (unsigned c = 0; c < HD_PC_COUNT; c++)
        HD_CHECK(t, e.comp[c] >= e.comp_static[c] && e.comp_static[c] >= 0);
    /* every event of the busy interval is priced somewhere except the blocks' (no mechanism
     * configured): each term's energy is in its component */
    struct hd_power_energy a, b, d;
    hd_power_energy_compute(&p, &ev, 1, &a);
    hd_power_energy_compute(&p, &ev, 1, &b);
    hd_power_energy_add(&a, &b);
    HD_CHECK_F64(t, 2 * e.total_j, a.total_j, e.total_j * 1e-12);
    hd_power_energy_sub(&a, &b, &d);
    HD_CHECK_F64(t, e.total_j, d.total_j, e.total_j * 1e-12);
    HD_CHECK_F64(t, hd_power_watts(&e, HD_PC_COUNT), e.total_j / e.seconds, 1e-9);
}

static void test_monotone(struct hd_test_state *t, const struct hd_config *cfg)
{
    hd_test_begin(t, "more DRAM bytes: more DRAM energy, nothing else changes");
    struct hd_power_params p;
    params(t, cfg, &p);
    struct hd_power_events ev, more;
    busy_events(&ev);
    more = ev;
    more.n[HD_PEV_dram_read_bursts] *= 2;
    more.n[HD_PEV_dram_write_bursts] *= 2;
    more.n[HD_PEV_dram_bits] *= 2;
    struct hd_power_energy a, b;
    hd_power_energy_compute(&p, &ev, 1, &a);
    hd_power_energy_compute(&p, &more, 1, &b);
    HD_CHECK(t, b.comp[HD_PC_dram] > a.comp[HD_PC_dram]);
    HD_CHECK(t, b.comp[HD_PC_dram_io] > a.comp[HD_PC_dram_io]);
    HD_CHECK_F64(t, a.comp[HD_PC_dram_io] * 2, b.comp[HD_PC_dram_io], 1e-15);
    for (unsigned c = 0; c < HD_PC_COUNT; c++)
        if (c != HD_PC_dram && c != HD_PC_dram_io)
            HD_CHECK_F64(t, a.comp[c], b.comp[c], 0.0);

    hd_test_begin(t, "more activates and flits: more DRAM and interconnect energy");
    more = ev;
    more.n[HD_PEV_dram_acts] += 100;
    more.n[HD_PEV_flits] += 100;
    hd_power_energy_compute(&p, &more, 1, &b);
    HD_CHECK(t, b.comp[HD_PC_dram] > a.comp[HD_PC_dram]);
    HD_CHECK(t, b.comp[HD_PC_icnt] > a.comp[HD_PC_icnt]);
    HD_CHECK_F64(t, a.dynamic_j + 100 * (p.dram_act_pre_j / 2 + cfg->power_e_flit_hop_pj * 1e-12),
                 b.dynamic_j, 1e-15);

    hd_test_begin(t, "more cycles: more static energy, the same dynamic energy");
    more = ev;
    more.n[HD_PEV_cycles] *= 2;
    hd_power_energy_compute(&p, &more, 1, &b);
    HD_CHECK(t, b.static_j > a.static_j);
    HD_CHECK_F64(t, a.dynamic_j, b.dynamic_j, 1e-18);
}

static void test_idle_sm(struct hd_test_state *t, struct hd_config cfg)
{
    hd_test_begin(t, "an SM without a CTA costs its static power alone");
    struct hd_power_params p;
    params(t, &cfg, &p);
    struct hd_power_events ev;
    memset(&ev, 0, sizeof ev);
    ev.n[HD_PEV_sm_idle_cycles] = 70000; /* 100 us at 700 MHz */
    struct hd_power_energy e;
    hd_power_energy_compute(&p, &ev, 1e-4, &e);
    HD_CHECK_F64(t, 0.0, e.dynamic_j, 0.0);
    HD_CHECK_F64(t, e.total_j, e.comp[HD_PC_sm_static], 0.0);
    HD_CHECK_F64(t, cfg.power_sm_idle_w * 1e-4, e.total_j, 1e-12);
    HD_CHECK_F64(t, cfg.power_sm_idle_w, hd_power_watts(&e, HD_PC_COUNT), 1e-9);
    /* the same SM holding a CTA pays its pipeline power on top */
    ev.n[HD_PEV_sm_active_cycles] = ev.n[HD_PEV_sm_idle_cycles];
    ev.n[HD_PEV_sm_idle_cycles] = 0;
    struct hd_power_energy busy;
    hd_power_energy_compute(&p, &ev, 1e-4, &busy);
    HD_CHECK_F64(t, (cfg.power_sm_idle_w + cfg.power_sm_active_w) * 1e-4, busy.total_j, 1e-12);

    hd_test_begin(t, "idle_sm_gating = 1: an idle SM costs nothing");
    cfg.power_idle_sm_gating = 1.0;
    params(t, &cfg, &p);
    ev.n[HD_PEV_sm_idle_cycles] = 70000;
    ev.n[HD_PEV_sm_active_cycles] = 0;
    hd_power_energy_compute(&p, &ev, 1e-4, &e);
    HD_CHECK_F64(t, 0.0, e.total_j, 0.0);
}

static void test_dram(struct hd_test_state *t, const struct hd_config *cfg)
{
    hd_test_begin(t, "DRAM energies follow the IDD method on the [dram] timings");
    struct hd_power_params p;
    params(t, cfg, &p);
    const double tck = 1e-6 / cfg->clock_dram_mhz, v = cfg->power_dram_vdd;
    const double chips = cfg->power_dram_chips_per_channel;
    const double pair = (cfg->power_dram_idd0_ma * cfg->dram_trc -
                         (cfg->power_dram_idd3n_ma * cfg->dram_tras +
                          cfg->power_dram_idd2n_ma * cfg->dram_trp)) *
                        1e-3 * tck * v * chips;
    HD_CHECK_F64(t, pair, p.dram_act_pre_j, pair * 1e-12);
    const double burst = (double)cfg->dram_burst_length / cfg->dram_data_rate * tck;
    const double rd =
        (cfg->power_dram_idd4r_ma - cfg->power_dram_idd3n_ma) * 1e-3 * v * burst * chips;
    HD_CHECK_F64(t, rd, p.dram_rd_burst_j, rd * 1e-12);
    /* GTX480 defaults: a 64-byte read burst in the nJ range, an activate-precharge pair of a
     * few nJ (GDDR5 class: docs/power.md) */
    HD_CHECK(t, p.dram_rd_burst_j > 0.1e-9 && p.dram_rd_burst_j < 5e-9);
    HD_CHECK(t, p.dram_act_pre_j > 0.5e-9 && p.dram_act_pre_j < 20e-9);
}

static unsigned block_terms(const struct hd_power_params *p)
{
    unsigned n = 0;
    for (unsigned i = 0; i < p->nterms; i++)
        n += p->term[i].comp == HD_PC_blocks;
    return n;
}

static void test_blocks(struct hd_test_state *t, struct hd_config cfg)
{
    hd_test_begin(t, "the added blocks are priced when their mechanism is configured");
    struct hd_power_params p;
    params(t, &cfg, &p);
    const unsigned base = block_terms(&p); /* ctx_ctl: in every configuration */
    HD_CHECK_U64(t, 2, base);
    cfg.context_save = HD_CTXSAVE_COMPRESSED;
    params(t, &cfg, &p);
    HD_CHECK_U64(t, base + 8, block_terms(&p)); /* compressor, decompressor, packer, unpacker */
    struct hd_power_events ev;
    memset(&ev, 0, sizeof ev);
    ev.n[HD_PEV_ctx_save_vregs] = 1000;
    struct hd_power_energy e;
    hd_power_energy_compute(&p, &ev, 1, &e);
    const double expect =
        1000 * (20248 + 50322) * cfg.power_ge_activity * cfg.power_e_ge_fj * 1e-15;
    HD_CHECK_F64(t, expect, e.comp[HD_PC_blocks], expect * 1e-9);
    cfg.context_preempt_policy = HD_PREEMPTPOL_SHIEH;
    params(t, &cfg, &p);
    HD_CHECK_U64(t, base + 16, block_terms(&p));
    HD_CHECK(t, p.blocks_leak_w > 0 && p.blocks_leak_w < 1.0);
}

static const struct hd_power_block *block_named(const char *name)
{
    unsigned n;
    const struct hd_power_block *tab = hd_power_blocks(&n);
    for (unsigned i = 0; i < n; i++)
        if (strcmp(tab[i].name, name) == 0)
            return &tab[i];
    return NULL;
}

/* Zorua's three mapping tables (session 28): the RMT, SMT and TMT are the zorua_map block in
 * three configurations, each a row of its own on its own event; the SMT's event counts the sets
 * ld/st.shared look up and the entries written, the TMT's the slots taken, given back and
 * swapped; the smaller tables cost less per access. */
static void test_zorua_tables(struct hd_test_state *t, struct hd_config cfg)
{
    hd_test_begin(t, "Zorua's RMT, SMT and TMT are priced on their own events");
    const struct hd_power_block *rmt = block_named("zorua_map");
    const struct hd_power_block *smt = block_named("zorua_map:smt");
    const struct hd_power_block *tmt = block_named("zorua_map:tmt");
    HD_CHECK(t, rmt && smt && tmt);
    if (!rmt || !smt || !tmt)
        return;
    HD_CHECK_U64(t, HD_PEV_zorua_rmt_accesses, rmt->event);
    HD_CHECK_U64(t, HD_PEV_zorua_smt_accesses, smt->event);
    HD_CHECK_U64(t, HD_PEV_zorua_tmt_accesses, tmt->event);
    HD_CHECK(t, rmt->mech == HD_PMECH_ZORUA && smt->mech == HD_PMECH_ZORUA &&
                    tmt->mech == HD_PMECH_ZORUA);
    HD_CHECK(t, rmt->per_sm == 1 && smt->per_sm == 1 && tmt->per_sm == 1);
    const double er = hd_power_block_access_j(rmt, &cfg), es = hd_power_block_access_j(smt, &cfg),
                 et = hd_power_block_access_j(tmt, &cfg);
    HD_CHECK(t, er > es && es > et && et > 0);
    HD_CHECK(t, rmt->sram_pj > smt->sram_pj && smt->sram_pj > tmt->sram_pj && tmt->sram_pj > 0);
    /* with the allocator configured, 100 SMT and 10 TMT accesses cost exactly that */
    cfg.sm_allocator = HD_ALLOC_ZORUA;
    struct hd_power_params p;
    params(t, &cfg, &p);
    struct hd_power_events ev;
    memset(&ev, 0, sizeof ev);
    ev.n[HD_PEV_zorua_smt_accesses] = 100;
    ev.n[HD_PEV_zorua_tmt_accesses] = 10;
    struct hd_power_energy e;
    hd_power_energy_compute(&p, &ev, 1, &e);
    const double dyn = e.comp[HD_PC_blocks] - e.comp_static[HD_PC_blocks];
    HD_CHECK_F64(t, 100 * es + 10 * et, dyn, dyn * 1e-9);

    hd_test_begin(t, "an SM's Zorua counters feed the SMT and TMT events");
    struct hd_sm_stats s;
    memset(&s, 0, sizeof s);
    s.zorua_smem_lookups = 700;
    s.zorua_smt_updates = 48;
    s.zorua_smem_sets = 40; /* (allocations: already in the updates) */
    s.zorua_tmt_updates = 16;
    s.zorua_admitted = 8;   /* (the coordinator's, not the TMT's) */
    struct hd_timing_stats ts;
    memset(&ts, 0, sizeof ts);
    ts.num_sms = 1;
    ts.cycles = 1000;
    ts.sm = &s;
    hd_power_events_sm(&ev, &ts, NULL, 0);
    HD_CHECK_F64(t, 748, ev.n[HD_PEV_zorua_smt_accesses], 0);
    HD_CHECK_F64(t, 16, ev.n[HD_PEV_zorua_tmt_accesses], 0);
    HD_CHECK_F64(t, 8, ev.n[HD_PEV_zorua_coord_events], 0);
}

/* Configure mechanism m on top of cfg's defaults; false when the test does not know it. */
static bool configure(enum hd_power_mech m, struct hd_config *cfg)
{
    switch (m) {
    case HD_PMECH_ALWAYS:
        return true;
    case HD_PMECH_PPOINTS:
        cfg->context_points = HD_PPOINTS_SELECTIVE;
        return true;
    case HD_PMECH_COMPRESSED:
        cfg->context_save = HD_CTXSAVE_COMPRESSED;
        return true;
    case HD_PMECH_COMPRESSED_TB:
        cfg->context_save = HD_CTXSAVE_COMPRESSED_TB;
        return true;
    case HD_PMECH_LIN_TABLES:
        cfg->sm_allocator = HD_ALLOC_LIN_TABLES;
        return true;
    case HD_PMECH_SHIEH:
        cfg->context_preempt_policy = HD_PREEMPTPOL_SHIEH;
        return true;
    case HD_PMECH_SHIEH_STATUS:
        cfg->context_preempt_policy = HD_PREEMPTPOL_CHIMERA;
        return true;
    case HD_PMECH_EXPARS:
    case HD_PMECH_EXPARS_PREF:
        cfg->sm_allocator = HD_ALLOC_EXPARS;
        cfg->expars_prefetch = true;
        return true;
    case HD_PMECH_LTLWS:
        cfg->sm_scheduler = HD_SCHED_LTLWS_GTO;
        return true;
    case HD_PMECH_ZORUA:
        cfg->sm_allocator = HD_ALLOC_ZORUA;
        return true;
    case HD_PMECH_GPUDUET:
        cfg->sm_allocator = HD_ALLOC_GPUDUET_TB;
        return true;
    case HD_PMECH_GPUDUET_MON:
        cfg->sm_allocator = HD_ALLOC_GPUDUET;
        cfg->gpuduet_dynamic = true;
        return true;
    case HD_PMECH_CCBP:
        cfg->ccbp_enable = true;
        return true;
    case HD_PMECH_HAWS:
        cfg->haws_enable = true;
        return true;
    case HD_PMECH_LOC_DIST:
        cfg->timing_cta_dist = HD_CTADIST_LOCALITY;
        return true;
    case HD_PMECH_LOC_SCHED:
        cfg->sm_scheduler = HD_SCHED_LOCALITY;
        return true;
    case HD_PMECH_COUNT:
        break;
    }
    return false;
}

/* Every block of the table (every rtl/ block: tests/power/check_block_table.py) is in the
 * energy when its mechanism is configured, at a non-zero access energy and leakage, out of it
 * when nothing is configured, and its access energy scales with its event count. */
static void test_every_block(struct hd_test_state *t, const struct hd_config *defaults)
{
    unsigned n;
    const struct hd_power_block *tab = hd_power_blocks(&n);
    HD_CHECK(t, n >= 36);
    for (unsigned i = 0; i < n; i++) {
        const struct hd_power_block *b = &tab[i];
        hd_test_begin(t, b->name);
        HD_CHECK(t, b->ge > 0 && (b->per_sm > 0) != (b->per_gpu > 0));
        HD_CHECK(t, b->event < HD_PEV_COUNT && b->event != HD_PEV_cycles);
        HD_CHECK(t, b->mech == HD_PMECH_ALWAYS || !hd_power_block_used(b, defaults));
        struct hd_config cfg = *defaults;
        HD_CHECK(t, configure((enum hd_power_mech)b->mech, &cfg));
        HD_CHECK(t, hd_power_block_used(b, &cfg));
        const double acc = hd_power_block_access_j(b, &cfg), leak = hd_power_block_leak_w(b, &cfg);
        HD_CHECK(t, acc > 0 && leak > 0);
        struct hd_power_params p, off;
        params(t, &cfg, &p);
        /* its dynamic term on its event; its leakage in the blocks' leakage */
        double per_event = 0;
        for (unsigned k = 0; k < p.nterms; k++)
            if (p.term[k].comp == HD_PC_blocks && !p.term[k].is_static &&
                p.term[k].event == b->event)
                per_event += p.term[k].joules;
        HD_CHECK(t, per_event >= acc * (1 - 1e-12));
        HD_CHECK(t, p.blocks_leak_w >= leak * (1 - 1e-12));
        params(t, defaults, &off);
        HD_CHECK(t, b->mech == HD_PMECH_ALWAYS ||
                        p.blocks_leak_w >= off.blocks_leak_w + leak * 0.999);
        /* N and 2N accesses: the blocks' dynamic energy doubles, N x its terms' joules */
        struct hd_power_events ev, ev2;
        memset(&ev, 0, sizeof ev);
        ev.n[b->event] = 1000;
        ev2 = ev;
        ev2.n[b->event] = 2000;
        struct hd_power_energy e1, e2;
        hd_power_energy_compute(&p, &ev, 1, &e1);
        hd_power_energy_compute(&p, &ev2, 1, &e2);
        const double d1 = e1.comp[HD_PC_blocks] - e1.comp_static[HD_PC_blocks];
        const double d2 = e2.comp[HD_PC_blocks] - e2.comp_static[HD_PC_blocks];
        HD_CHECK(t, d1 > 0);
        HD_CHECK_F64(t, 1000 * per_event, d1, d1 * 1e-9);
        HD_CHECK_F64(t, 2 * d1, d2, d1 * 1e-9);
    }
}

int main(void)
{
    struct hd_test_state t = {0};
    struct hd_config cfg;
    hd_config_defaults(&cfg);
    test_sum(&t, &cfg);
    test_monotone(&t, &cfg);
    test_idle_sm(&t, cfg);
    test_dram(&t, &cfg);
    test_blocks(&t, cfg);
    test_every_block(&t, &cfg);
    test_zorua_tables(&t, cfg);
    return hd_test_finish(&t);
}
