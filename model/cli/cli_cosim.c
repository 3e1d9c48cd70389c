/* SPDX-License-Identifier: MIT
 * cli_cosim.c - `heddle cosim --blocks regpat WORKLOAD` (full-GPU co-simulation of the register
 * pattern blocks against their RTL, cosim/cosim_regpat.h) and `heddle regpat-stats WORKLOAD|all`
 * (the same sampling with the C references only: Lin's Fig 2.6/2.8/2.9 table).
 *
 * Both run the workload's host driver on a GPU from the configuration (timing model by default,
 * or the functional executor with --set timing.mode=functional) with the session's observer
 * installed (heddle_observe.h). Exit 0 only when the output verified and no mismatch occurred;
 * a mismatch prints every record (cycle, SM, block instance, port, expected, actual) and the
 * FST window written. `--bench` runs the workload once without co-simulation first and reports
 * the wall-time ratio.
 */
#include "cli_attr.h"
#include "cli_cmd.h"
#include "cli_gpu.h"
#include "cli_mix.h"
#include "cli_out.h"
#include "cli_util.h"
#include "config.h"
#include "cosim_family.h"
#include "cosim_fst.h"
#include "cosim_hw.h"
#include "cosim_inst.h"
#include "cosim_regpat.h"
#include "heddle_observe.h"
#include "workload.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HD_COSIM_MAX_FAMILIES 32
#define HD_COSIM_MAX_FAMSETS 16
#define HD_COSIM_FAMSET_LEN 128

struct cosim_opts {
    const char *workload;
    struct hd_cli_config cfg;
    enum hd_wl_size size;
    const char *size_name;   /* --size as given (paper and waves run the driver's own input) */
    struct hd_cosim_opts o;
    bool report, bench;
    bool in_loop;            /* blocks in the timing loop (cosim_hw.h) instead of the observer */
    const struct hd_cosim_family *fam[HD_COSIM_MAX_FAMILIES]; /* --blocks FAMILY given, in order */
    unsigned nfam;
    char famset[HD_COSIM_MAX_FAMSETS][HD_COSIM_FAMSET_LEN]; /* their settings added to --set */
    unsigned nfamset;
    const char *mix;         /* --mix NAME instead of a workload */
    const char *arrive[8];   /* its --arrive options */
    unsigned narrive;
    char stress_set[64];     /* "context.stress_period=N" from --stress */
    bool window;             /* --window given */
};

static const char cosim_help[] =
    "usage: heddle cosim --blocks FAMILY WORKLOAD [options]\n"
    "Run WORKLOAD on the model; every N cycles (a context sample) the live registers of every\n"
    "resident warp go through each SM's register pattern compressor and decompressor (the\n"
    "decompressed values are written back), and at every barrier point through the TB-level\n"
    "classifier: the C reference and the Verilated RTL in lockstep, every output compared every\n"
    "cycle. A mismatch stops the run with cycle, SM, block, port, expected and actual values and\n"
    "an FST window (+ GTKWave .gtkw) around it.\n"
    "  --blocks FAMILY        the blocks to co-simulate (repeatable; the families are listed\n"
    "                         at the end): regpat (comp, decomp, tbcls) also runs at context\n"
    "                         samples, the others with --in-loop only, each adding the settings\n"
    "                         it needs (pp: context.points=selective, every fetched preemption\n"
    "                         point decoded; alloc_table: sm.allocator=lin_tables; shieh:\n"
    "                         context.preempt_policy=shieh unless a --set names another)\n"
    "  --mix NAME             with --in-loop: run a mix (heddle list --mixes) instead of a\n"
    "                         workload; --arrive WORKLOAD@CYCLE[:PRIORITY] as for heddle run\n"
    "  --size S               small (default), medium, large, paper, waves or waves3\n"
    "                         (as for heddle run)\n"
    "  --every N              context-sample period in model cycles (default 1000)\n"
    "  --sms LIST|all         SMs whose blocks run the RTL (default all; the rest: C only)\n"
    "  --drive ref|rtl        whose outputs the model uses (default ref)\n"
    "  --fst FILE --window A:B  dump every block cycle of model time A..B to FILE (+ .gtkw)\n"
    "  --fst-internal B[,B]|all  with --fst: also the RTL-internal signals (registers, FSM\n"
    "                         state, ...) of blocks B, in each instance's scope beside its\n"
    "                         ports (.int) and in a .gtkw group per instance\n"
    "  --fail-fst FILE        FST written on a mismatch (default cosim-mismatch.fst)\n"
    "  --history N            block cycles kept before a mismatch (default 64)\n"
    "  --no-tb                no TB-level samples at barriers\n"
    "  --record FILE          write the compressor's input vectors (testbench replay)\n"
    "  --record-max N         at most N vectors (default 4096; 0: no limit)\n"
    "  --rtl-plusarg +ARG     a plusarg every RTL instance sees ($test$plusargs; test builds)\n"
    "  --report               print the Fig 2.6/2.8 statistics row\n"
    "  --coverage             print every block's functional coverage bins (rtl/<b>/<b>_cover.def)\n"
    "                         summed over its instances; bins not hit are listed, not an error\n"
    "  --in-loop              the blocks stepped inside the timing loop (each SM's context codec,\n"
    "                         fed by the save/restore engine; sets context.save=compressed)\n"
    "                         instead of at context samples\n"
    "  --stress N             with --in-loop: evict resident CTAs every N cycles\n"
    "                         (context.stress_period), so every saved register streams through\n"
    "  --bench                also run without co-simulation and report the wall-time ratio\n"
    "  --config FILE, --set SEC.KEY=V   the GPU configuration\n";

static const char stats_help[] =
    "usage: heddle regpat-stats WORKLOAD|all [--size S] [--every N] [--config F] [--set ...]\n"
    "Lin's Fig 2.6/2.8/2.9 for each workload: the share of live registers that are uniform,\n"
    "strided and random (warp level, PAG groups; 'random @32' analyses 32 lanes wide), the\n"
    "register context after liveness and after warp-level compression relative to the full\n"
    "context, and the TB-level classes at barrier points with their size relative to warp level.\n"
    "C references only (the same object code the co-simulation compares against the RTL).\n";

/* The family table (configs/rtl/<b>.ini [block], cosim_family.h), for --help. */
static void print_families(FILE *out)
{
    fputs("families (from configs/rtl/<block>.ini [block]):\n", out);
    for (unsigned i = 0; i < hd_cosim_nfamilies; i++) {
        const struct hd_cosim_family *f = &hd_cosim_families[i];
        fprintf(out, "  %-22s %s (%s)%s%s%s%s%s\n", f->name, f->blocks, f->owner,
                f->loop_only ? "; --in-loop only" : "", *f->requires ? "; sets " : "",
                f->requires, *f->defaults ? "; by default " : "", f->defaults);
    }
}

static int parse_sms(struct hd_cosim_opts *o, const char *v)
{
    if (strcmp(v, "all") == 0) {
        o->sm_all = true;
        return 0;
    }
    o->sm_all = false;
    memset(o->sms, 0, sizeof o->sms);
    const char *p = v;
    while (*p) {
        char *end;
        unsigned long n = strtoul(p, &end, 10);
        if (end == p || n >= HD_COSIM_MAX_SMS)
            return -1;
        o->sms[n] = true;
        p = *end == ',' ? end + 1 : end;
        if (*end && *end != ',')
            return -1;
    }
    return 0;
}

/* The value of the last --set naming PREFIX ("context.save="), or NULL: the user's choice, which
 * the co-simulation's own settings must not silently replace. */
static const char *named_set(const struct cosim_opts *c, const char *prefix)
{
    const char *v = NULL;
    const size_t n = strlen(prefix);
    for (unsigned k = 0; k < c->cfg.nsets; k++)
        if (strncmp(c->cfg.sets[k], prefix, n) == 0)
            v = c->cfg.sets[k] + n;
    return v;
}

/* What the chosen families need (cosim_family.h): --in-loop, and their settings added to the
 * --set list (room: hd_cli_cosim allocates family_sets_room() entries beyond argc), a required
 * value the user set otherwise being a usage error. Returns 0 or an exit code. */
static int apply_families(const char *cmd, struct cosim_opts *c)
{
    for (unsigned k = 0; k < c->nfam; k++) {
        const struct hd_cosim_family *f = c->fam[k];
        if (f->loop_only && !c->in_loop)
            return hd_cli_usage(cmd, "--blocks %s needs --in-loop (its blocks, %s, are stepped "
                                     "inside the timing loop)", f->name, f->blocks);
        for (int pass = 0; pass < 2; pass++) {
            const char *list = pass == 0 ? f->requires : f->defaults;
            for (unsigned n = 0; n < hd_cosim_family_nsettings(list); n++) {
                size_t klen = 0;
                char one[HD_COSIM_FAMSET_LEN], prefix[HD_COSIM_FAMSET_LEN];
                if (!hd_cosim_family_setting(list, n, one, sizeof one, &klen))
                    return hd_cli_fail(cmd, "--blocks %s: setting %u of '%s' unreadable "
                                            "(configs/rtl/*.ini)", f->name, n, list);
                memcpy(prefix, one, klen + 1); /* "sec.key=" */
                prefix[klen + 1] = '\0';
                const char *user = named_set(c, prefix);
                if (pass == 0 && user && strcmp(user, one + klen + 1) != 0)
                    return hd_cli_usage(cmd, "--blocks %s needs %s: --set %s%s leaves its blocks "
                                             "nothing to co-simulate", f->name, one, prefix, user);
                if (user)
                    continue;
                if (c->nfamset == HD_COSIM_MAX_FAMSETS)
                    return hd_cli_fail(cmd, "--blocks: more than %d family settings",
                                       HD_COSIM_MAX_FAMSETS);
                memcpy(c->famset[c->nfamset], one, sizeof one); /* lives as long as c */
                c->cfg.sets[c->cfg.nsets++] = c->famset[c->nfamset++];
            }
        }
    }
    return 0;
}

/* Settings the families may add beyond the command line's (for the --set list's room). */
static unsigned family_sets_room(void)
{
    unsigned n = 0;
    for (unsigned i = 0; i < hd_cosim_nfamilies; i++)
        n += hd_cosim_family_nsettings(hd_cosim_families[i].requires) +
             hd_cosim_family_nsettings(hd_cosim_families[i].defaults);
    return n;
}

/* Parse the command line into *c; `sets` has room for argc + family_sets_room() entries
 * (cli_gpu.h) and stays owned by the caller. Returns 0, -1 after --help, or an exit code after a
 * usage message. */
static int parse(const char *cmd, int argc, char **argv, struct cosim_opts *c, bool stats,
                 const char **sets)
{
    memset(c, 0, sizeof *c);
    c->cfg.sets = sets;
    c->o.every = 1000;
    c->o.tb_level = true;
    c->o.rtl = !stats;
    c->o.sm_all = true;
    c->o.window = 64;
    c->o.record_max = 4096;
    c->o.win_b = UINT64_MAX;
    bool blocks = stats;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v;
        int r;
        if (hd_cli_is_help(a)) {
            fputs(stats ? stats_help : cosim_help, stdout);
            if (!stats)
                print_families(stdout);
            return -1;
        }
        if ((r = hd_cli_config_option(cmd, argc, argv, &i, &c->cfg)) != 0) {
            if (r < 0)
                return HD_CLI_USAGE;
        } else if ((r = hd_cli_option(cmd, argc, argv, &i, "--size", &v)) != 0) {
            if (r < 0)
                return HD_CLI_USAGE;
            if (hd_wl_size_parse(v, &c->size) != 0)
                return hd_cli_usage(cmd, "--size must be small, medium or large (or paper, "
                                         "waves, waves3), not '%s'", v);
            c->size_name = v;
        } else if ((r = hd_cli_option(cmd, argc, argv, &i, "--every", &v)) != 0) {
            if (r < 0 || hd_config_parse_uint(v, &c->o.every) != 0 || c->o.every == 0)
                return hd_cli_usage(cmd, "--every needs a cycle count of at least 1 (0 would "
                                         "sample nothing)");
        } else if (stats && a[0] == '-') {
            return hd_cli_usage(cmd, "unknown option '%s'", a);
        } else if ((r = hd_cli_option(cmd, argc, argv, &i, "--blocks", &v)) != 0) {
            if (r < 0)
                return HD_CLI_USAGE;
            const struct hd_cosim_family *f = hd_cosim_family_find(v);
            if (!f || (stats && f->loop_only)) {
                char known[256];
                return hd_cli_usage(cmd, "--blocks: unknown block family '%s' (known: %s)", v,
                                    hd_cosim_family_names(known, sizeof known, stats));
            }
            bool seen = false;
            for (unsigned k = 0; k < c->nfam; k++)
                seen |= c->fam[k] == f;
            if (!seen && c->nfam < HD_COSIM_MAX_FAMILIES)
                c->fam[c->nfam++] = f;
            blocks = true;
        } else if ((r = hd_cli_option(cmd, argc, argv, &i, "--sms", &v)) != 0) {
            if (r < 0 || parse_sms(&c->o, v) != 0)
                return hd_cli_usage(cmd, "--sms needs 'all' or a list like 0,3,7 (below %u)",
                                    HD_COSIM_MAX_SMS);
        } else if ((r = hd_cli_option(cmd, argc, argv, &i, "--drive", &v)) != 0) {
            if (r < 0 || (strcmp(v, "ref") != 0 && strcmp(v, "rtl") != 0))
                return hd_cli_usage(cmd, "--drive needs ref or rtl");
            c->o.drive_rtl = strcmp(v, "rtl") == 0;
        } else if ((r = hd_cli_option(cmd, argc, argv, &i, "--fst", &v)) != 0) {
            if (r < 0)
                return HD_CLI_USAGE;
            c->o.fst_path = v;
        } else if ((r = hd_cli_option(cmd, argc, argv, &i, "--fst-internal", &v)) != 0) {
            char why[1024];
            if (r < 0)
                return HD_CLI_USAGE;
            if (hd_cosim_fst_internal_check(v, why, sizeof why) != 0)
                return hd_cli_usage(cmd, "%s", why);
            c->o.fst_internal = v;
        } else if ((r = hd_cli_option(cmd, argc, argv, &i, "--window", &v)) != 0) {
            if (r < 0)
                return HD_CLI_USAGE;
            const char *colon = strchr(v, ':');
            char a_text[32];
            const size_t na = colon ? (size_t)(colon - v) : 0;
            if (!colon || na >= sizeof a_text)
                return hd_cli_usage(cmd, "--window needs A:B (model cycles), not '%s'", v);
            memcpy(a_text, v, na);
            a_text[na] = '\0';
            if (hd_cli_parse_uint(a_text, 0, HD_CLI_CYCLE_MAX, &c->o.win_a) != 0 ||
                hd_cli_parse_uint(colon + 1, 0, HD_CLI_CYCLE_MAX, &c->o.win_b) != 0 ||
                c->o.win_b < c->o.win_a)
                return hd_cli_usage(cmd, "--window '%s': needs A:B with 0 <= A <= B <= %llu "
                                    "(model cycles)", v, HD_CLI_CYCLE_MAX);
            c->window = true;
        } else if ((r = hd_cli_option(cmd, argc, argv, &i, "--fail-fst", &v)) != 0) {
            if (r < 0)
                return HD_CLI_USAGE;
            c->o.fail_fst = v;
        } else if ((r = hd_cli_option(cmd, argc, argv, &i, "--history", &v)) != 0) {
            uint32_t n;
            if (r < 0 || hd_cli_parse_u32(v, &n) != 0 || n == 0 || n > 100000)
                return hd_cli_usage(cmd, "--history needs 1..100000 cycles");
            c->o.window = n;
        } else if ((r = hd_cli_option(cmd, argc, argv, &i, "--record", &v)) != 0) {
            if (r < 0)
                return HD_CLI_USAGE;
            c->o.record = v;
        } else if ((r = hd_cli_option(cmd, argc, argv, &i, "--rtl-plusarg", &v)) != 0) {
            if (r < 0 || v[0] != '+')
                return hd_cli_usage(cmd, "--rtl-plusarg needs +NAME");
            c->o.plusargs = v;
        } else if ((r = hd_cli_option(cmd, argc, argv, &i, "--record-max", &v)) != 0) {
            if (r < 0 || hd_config_parse_uint(v, &c->o.record_max) != 0)
                return hd_cli_usage(cmd, "--record-max needs a count");
        } else if ((r = hd_cli_option(cmd, argc, argv, &i, "--stress", &v)) != 0) {
            uint64_t n;
            if (r < 0 || hd_config_parse_uint(v, &n) != 0 || n == 0)
                return hd_cli_usage(cmd, "--stress needs a period in cycles");
            snprintf(c->stress_set, sizeof c->stress_set, "context.stress_period=%" PRIu64, n);
            c->cfg.sets[c->cfg.nsets++] = c->stress_set;
        } else if (!stats && (r = hd_cli_option(cmd, argc, argv, &i, "--mix", &v)) != 0) {
            if (r < 0)
                return HD_CLI_USAGE;
            if (c->mix)
                return hd_cli_usage(cmd, "one mix at a time ('%s' and '%s')", c->mix, v);
            c->mix = v;
        } else if (!stats && (r = hd_cli_option(cmd, argc, argv, &i, "--arrive", &v)) != 0) {
            if (r < 0)
                return HD_CLI_USAGE;
            if (c->narrive == sizeof c->arrive / sizeof c->arrive[0])
                return hd_cli_usage(cmd, "at most %zu --arrive options",
                                    sizeof c->arrive / sizeof c->arrive[0]);
            c->arrive[c->narrive++] = v;
        } else if (strcmp(a, "--in-loop") == 0) {
            c->in_loop = true;
        } else if (strcmp(a, "--no-tb") == 0) {
            c->o.tb_level = false;
        } else if (strcmp(a, "--coverage") == 0) {
            c->o.coverage = true;
        } else if (strcmp(a, "--report") == 0) {
            c->report = true;
        } else if (strcmp(a, "--bench") == 0) {
            c->bench = true;
        } else if (a[0] == '-') {
            return hd_cli_usage(cmd, "unknown option '%s'", a);
        } else if (c->workload) {
            return hd_cli_usage(cmd, "one workload at a time ('%s' and '%s')", c->workload, a);
        } else {
            c->workload = a;
        }
    }
    if (c->mix && c->workload)
        return hd_cli_usage(cmd, "a workload or --mix, not both ('%s' and '%s')", c->workload,
                            c->mix);
    if (c->mix && !c->in_loop)
        return hd_cli_usage(cmd, "--mix needs --in-loop (the blocks in the timing loop)");
    if (c->narrive && !c->mix)
        return hd_cli_usage(cmd, "--arrive needs --mix");
    if (!c->workload && !c->mix)
        return hd_cli_usage(cmd, "which workload? (see heddle list)");
    if (!blocks)
        return hd_cli_usage(cmd, "which blocks? (--blocks regpat)");
    int frc = apply_families(cmd, c);
    if (frc != 0)
        return frc;
    if (c->o.fst_path && !c->window)
        return hd_cli_usage(cmd, "--fst needs --window A:B");
    if (c->o.fst_internal && !c->o.fst_path)
        return hd_cli_usage(cmd, "--fst-internal needs --fst FILE --window A:B (the waveform "
                                 "the internal signals go in)");
    if (c->stress_set[0] && !c->in_loop)
        return hd_cli_usage(cmd, "--stress needs --in-loop");
    /* Every saved register streams through the codec: compressed (warp level) unless the
     * user chose compressed_tb (TB level at barrier points, the rest warp level); a save mode
     * that bypasses the codec would leave its blocks nothing to compare. */
    const char *save = named_set(c, "context.save=");
    bool codec = false;
    for (unsigned k = 0; k < c->nfam; k++)
        codec |= c->fam[k]->codec;
    if (c->in_loop && codec) {
        if (save && strcmp(save, "compressed") != 0 && strcmp(save, "compressed_tb") != 0)
            return hd_cli_usage(cmd, "--in-loop streams saved registers through the context "
                                     "codec: --set context.save=%s bypasses it (use compressed "
                                     "or compressed_tb)", save);
        if (!save) /* (room: argc sets) */
            c->cfg.sets[c->cfg.nsets++] = "context.save=compressed";
    }
    struct hd_cli_path paths[4]; /* no output may overwrite the configuration or another */
    unsigned np = 0;
    if (c->cfg.path)
        paths[np++] = (struct hd_cli_path){"--config", c->cfg.path, false};
    if (c->o.record)
        paths[np++] = (struct hd_cli_path){"--record", c->o.record, true};
    if (c->o.fst_path)
        paths[np++] = (struct hd_cli_path){"--fst", c->o.fst_path, true};
    if (c->o.fail_fst)
        paths[np++] = (struct hd_cli_path){"--fail-fst", c->o.fail_fst, true};
    hd_cli_config_outputs(&c->cfg, paths, np);
    return hd_cli_paths_check(cmd, paths, np);
}

/* Run workload w once; with session s or block factory hw (NULL: model only). Returns the
 * driver's status; *cycles = the timing model's cycles. */
static int run_once(const char *cmd, const struct cosim_opts *c, const struct hd_workload *w,
                    const struct hd_config *cfg, struct hd_cosim_regpat *s,
                    const struct hd_hw_factory *hw, double *secs, uint64_t *cycles, char *err,
                    size_t errlen)
{
    struct hd_wl_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.size = c->size;
    ctx.paper = c->size_name && strcmp(c->size_name, "paper") == 0;
    ctx.waves3 = c->size_name && strcmp(c->size_name, "waves3") == 0;
    ctx.waves = ctx.waves3 || (c->size_name && strcmp(c->size_name, "waves") == 0);
    ctx.ptx_text = hd_workload_ptx(w->name, &ctx.ptx_len);
    ctx.ptx_name = hd_workload_ptx_path(w->name);
    FILE *devnull = fopen("/dev/null", "w");
    ctx.log = devnull ? devnull : stderr;
    struct hd_gpu *gpu = hd_cli_gpu_create(cmd, &c->cfg, cfg);
    if (!gpu) {
        if (devnull)
            fclose(devnull);
        snprintf(err, errlen, "cannot create the GPU");
        return HD_ERR_CONFIG;
    }
    hd_gpu_set_interrupt(gpu, hd_cli_interrupt_install());
    if (s)
        hd_gpu_set_func_observer(gpu, hd_cosim_regpat_observer(s));
    if (hw)
        hd_gpu_set_hw_factory(gpu, hw);
    if (cfg->timing_workload_hint && w->locality_hint) { /* as heddle run (docs/locality.md) */
        const struct hd_launch_attr attr = {0, 0, 0, w->locality_hint};
        hd_set_launch_attr(gpu, &attr);
    }
    double t0 = hd_cli_now();
    int st = w->run(gpu, &ctx);
    *secs = hd_cli_now() - t0;
    struct hd_timing_totals tt;
    hd_gpu_timing_totals(gpu, &tt);
    *cycles = tt.cycles;
    if (st != HD_OK && st != HD_WL_MISMATCH && !ctx.err[0])
        snprintf(ctx.err, sizeof ctx.err, "%s", hd_last_error(gpu));
    snprintf(err, errlen, "%s", ctx.err);
    hd_gpu_destroy(gpu);
    if (devnull)
        fclose(devnull);
    return st;
}

/* One workload through a session. Returns an exit code; fills *st. */
static int session(const char *cmd, const struct cosim_opts *c, const struct hd_workload *w,
                   struct hd_regpat_stats *st, bool quiet)
{
    struct hd_config cfg;
    int rc = hd_cli_config_resolve(cmd, &c->cfg, &cfg);
    if (rc != HD_CLI_OK)
        return rc;
    for (unsigned k = cfg.gpu_num_sms; !c->o.sm_all && k < HD_COSIM_MAX_SMS; k++)
        if (c->o.sms[k]) /* an SM the GPU does not have would check nothing */
            return hd_cli_usage(cmd, "--sms: SM %u is outside the GPU (%u SMs: 0..%u)", k,
                                cfg.gpu_num_sms, cfg.gpu_num_sms - 1);
    char err[1024];
    double model_secs = 0.0, secs = 0.0;
    if (c->bench) {
        uint64_t cyc;
        int bst = run_once(cmd, c, w, &cfg, NULL, NULL, &model_secs, &cyc, err, sizeof err);
        if (bst != HD_OK)
            return hd_cli_fail(cmd, "%s (model-only run): %s", w->name, err);
    }
    struct hd_cosim_regpat *s = hd_cosim_regpat_create(&c->o, cfg.gpu_num_sms, err, sizeof err);
    if (!s)
        return hd_cli_fail(cmd, "%s", err);
    uint64_t cycles;
    int wst = run_once(cmd, c, w, &cfg, s, NULL, &secs, &cycles, err, sizeof err);
    char ferr[256] = "";
    int frc = hd_cosim_regpat_finish(s, ferr, sizeof ferr);
    *st = *hd_cosim_regpat_stats(s);
    bool failed = hd_cosim_regpat_failed(s);
    if (failed) {
        fprintf(stderr, "heddle %s: %s: MISMATCH between the C reference and the RTL (or a "
                        "failed RTL assertion)\n", cmd, w->name);
        hd_cosim_regpat_print_errors(s, stderr);
    }
    if (!quiet) {
        printf("%s: %s (%s), %" PRIu64 " context samples (%" PRIu64 " warps), %" PRIu64
               " barrier points, %" PRIu64 " block cycles (%" PRIu64 " against RTL on %u "
               "instances, %s), %s, %.3f s\n",
               w->name,
               wst == HD_OK ? "verified" : wst == HD_ERR_INTERRUPTED ? "INTERRUPTED" : "FAILED",
               c->size_name ? c->size_name : hd_wl_size_name(c->size), st->samples,
               st->warp_samples, st->tb_points,
               st->block_cycles, st->rtl_cycles,
               hd_cosim_regpat_rtl_instances(s), hd_cosim_rtl_kind(),
               failed ? "MISMATCH" : "0 mismatches", secs);
        if (c->bench && model_secs > 0)
            printf("%s: benchmark: model only %.3f s, with co-simulation %.3f s, ratio %.2f\n",
                   w->name, model_secs, secs, secs / model_secs);
        if (st->roundtrip_errors)
            printf("%s: %" PRIu64 " lanes did not survive compress/decompress\n", w->name,
                   st->roundtrip_errors);
        if (c->o.coverage) {
            printf("%s: %" PRIu64 " dead registers driven (live_i = 0), %" PRIu64
                   " registers dead in a whole TB\n", w->name, st->dead_regs, st->tb_dead);
            hd_cosim_regpat_print_coverage(s, w->name, stdout);
        }
    }
    hd_cosim_regpat_destroy(s);
    if (frc != 0)
        return hd_cli_fail(cmd, "%s", ferr);
    if (failed)
        return HD_CLI_FAIL;
    if (wst != HD_OK)
        return wst == HD_ERR_INTERRUPTED ? HD_CLI_INTERRUPTED
                                         : hd_cli_fail(cmd, "%s: %s", w->name, err);
    if (st->roundtrip_errors)
        return hd_cli_fail(cmd, "%s: the round trip through the blocks changed registers", w->name);
    if (c->o.rtl && st->rtl_cycles == 0) /* no vacuous pass */
        return hd_cli_fail(cmd, "%s: compared nothing: 0 block cycles against the RTL (fewer "
                                "cycles than --every %" PRIu64 ", or --sms names no busy SM)",
                           w->name, c->o.every);
    if (!c->o.rtl && st->samples == 0 && st->tb_points == 0)
        return hd_cli_fail(cmd, "%s: measured nothing: no context sample and no barrier point "
                                "(the run is shorter than --every %" PRIu64 ")",
                           w->name, c->o.every);
    return HD_CLI_OK;
}

/* Run the mix of c (its summary printed) with factory hw (NULL: model only); returns the
 * driver's status as run_once does (HD_OK: every workload verified), or HD_CLI_USAGE's negative
 * after a usage message (unknown mix, an --arrive naming no workload of it). */
#define MIX_USAGE (-1000)
static int run_mix_once(const struct cosim_opts *c, const struct hd_hw_factory *hw,
                        double *secs, uint64_t *cycles, char *err, size_t errlen)
{
    unsigned long long cyc = 0;
    int rc = hd_cli_mix_run_hw(c->mix, c->arrive, c->narrive, &c->cfg,
                               c->size_name ? c->size_name : "small", hw, &cyc,
                               secs);
    *cycles = cyc;
    if (rc == HD_CLI_USAGE)
        return MIX_USAGE;
    snprintf(err, errlen, "mix %s: %s", c->mix,
             rc == HD_CLI_OK ? "verified" : "not every workload verified (see above)");
    return rc == HD_CLI_OK ? HD_OK : rc == HD_CLI_INTERRUPTED ? HD_ERR_INTERRUPTED : HD_WL_MISMATCH;
}

/* One workload or mix with the blocks in the timing loop (cosim_hw.h). Returns an exit code. */
static int session_in_loop(const char *cmd, const struct cosim_opts *c,
                           const struct hd_workload *w)
{
    struct hd_config cfg;
    int rc = hd_cli_config_resolve(cmd, &c->cfg, &cfg);
    if (rc != HD_CLI_OK)
        return rc;
    char err[4096];
    double model_secs = 0.0, secs = 0.0;
    uint64_t model_cycles = 0, cycles = 0;
    const char *name = w ? w->name : c->mix;
    if (c->bench) {
        int bst = w ? run_once(cmd, c, w, &cfg, NULL, NULL, &model_secs, &model_cycles, err,
                               sizeof err)
                    : run_mix_once(c, NULL, &model_secs, &model_cycles, err, sizeof err);
        if (bst == MIX_USAGE)
            return HD_CLI_USAGE;
        if (bst != HD_OK)
            return hd_cli_fail(cmd, "%s (model-only run): %s", name, err);
    }
    struct hd_cosim_hw_opts ho;
    memset(&ho, 0, sizeof ho);
    ho.rtl = c->o.rtl;
    ho.drive_rtl = c->o.drive_rtl;
    ho.sm_all = c->o.sm_all;
    for (unsigned i = 0; i < HD_COSIM_HW_MAX_SMS && i < HD_COSIM_MAX_SMS; i++)
        ho.sms[i] = c->o.sms[i];
    ho.plusargs = c->o.plusargs;
    ho.fail_fst = c->o.fail_fst;
    ho.window = c->o.window;
    ho.fst_path = c->o.fst_path;
    ho.win_a = c->o.win_a;
    ho.win_b = c->o.win_b;
    ho.fst_internal = c->o.fst_internal;
    ho.coverage = c->o.coverage;
    struct hd_cosim_hw *h = hd_cosim_hw_create(&ho, err, sizeof err);
    if (!h)
        return hd_cli_fail(cmd, "%s", err);
    int wst = w ? run_once(cmd, c, w, &cfg, NULL, hd_cosim_hw_factory(h), &secs, &cycles, err,
                           sizeof err)
                : run_mix_once(c, hd_cosim_hw_factory(h), &secs, &cycles, err, sizeof err);
    if (wst == MIX_USAGE) { /* (the message is printed) */
        hd_cosim_hw_destroy(h);
        return HD_CLI_USAGE;
    }
    char ferr[256] = "";
    int frc = hd_cosim_hw_finish(h, ferr, sizeof ferr);
    struct hd_cosim_hw_stats st = *hd_cosim_hw_stats(h);
    bool failed = st.failures != 0;
    if (failed)
        fprintf(stderr, "heddle %s: %s: MISMATCH between the C reference and the RTL (or a "
                        "failed RTL assertion)\n", cmd, name);
    printf("%s: %s (%s), %" PRIu64 " cycles, blocks in the timing loop: %u instances (%u against "
           "RTL, %s), %" PRIu64 " block steps (%" PRIu64 " against RTL), %s, %.3f s\n",
           name, wst == HD_OK ? "verified" : "FAILED",
           c->size_name ? c->size_name : hd_wl_size_name(c->size), cycles,
           st.instances, st.rtl_instances, hd_cosim_rtl_kind(), st.steps, st.rtl_steps,
           failed ? "MISMATCH" : "0 mismatches", secs);
    if (c->bench && model_secs > 0)
        printf("%s: benchmark: model only %.3f s (%" PRIu64 " cycles), with co-simulation %.3f s, "
               "ratio %.2f\n", name, model_secs, model_cycles, secs, secs / model_secs);
    if (hd_cosim_hw_coverage(h))
        hd_cover_sum_print(hd_cosim_hw_coverage(h), name, stdout);
    hd_cosim_hw_destroy(h);
    if (frc != 0)
        return hd_cli_fail(cmd, "%s", ferr);
    if (wst != HD_OK)
        return wst == HD_ERR_INTERRUPTED ? HD_CLI_INTERRUPTED
                                         : hd_cli_fail(cmd, "%s: %s", name, err);
    bool must_step = false;
    for (unsigned k = 0; k < c->nfam; k++)
        must_step |= c->fam[k]->must_step;
    if (must_step && c->o.rtl && st.rtl_steps == 0) /* no vacuous pass */
        return hd_cli_fail(cmd, "%s: compared nothing: no block step against the RTL", name);
    return failed ? HD_CLI_FAIL : HD_CLI_OK;
}

static int cosim_main(int argc, char **argv, const char **sets)
{
    struct cosim_opts c;
    int rc = parse("cosim", argc, argv, &c, false, sets);
    if (rc != 0)
        return rc < 0 ? HD_CLI_OK : rc;
    if (c.mix)
        return session_in_loop("cosim", &c, NULL);
    const struct hd_workload *w = hd_workload_find(c.workload);
    if (!w)
        return hd_cli_usage("cosim", "unknown workload '%s' (see heddle list)", c.workload);
    if (c.in_loop)
        return session_in_loop("cosim", &c, w);
    struct hd_regpat_stats st;
    rc = session("cosim", &c, w, &st, false);
    if (c.report && rc == HD_CLI_OK) {
        hd_regpat_stats_header(stdout);
        hd_regpat_stats_row(stdout, w->name, &st);
    }
    return rc;
}

int hd_cli_cosim(int argc, char **argv)
{
    const char **sets = calloc((size_t)argc + 1 + family_sets_room(), sizeof *sets);
    if (!sets)
        return hd_cli_fail("cosim", "out of memory");
    int rc = cosim_main(argc, argv, sets);
    free(sets);
    return rc;
}

static int stats_main(int argc, char **argv, const char **sets)
{
    struct cosim_opts c;
    int rc = parse("regpat-stats", argc, argv, &c, true, sets);
    if (rc != 0)
        return rc < 0 ? HD_CLI_OK : rc;
    bool all = strcmp(c.workload, "all") == 0;
    if (!all && !hd_workload_find(c.workload))
        return hd_cli_usage("regpat-stats", "unknown workload '%s' (see heddle list)", c.workload);
    hd_regpat_stats_header(stdout);
    int worst = HD_CLI_OK;
    for (unsigned i = 0; i < hd_workload_registry_count; i++) {
        const struct hd_workload *w = hd_workload_registry[i];
        if (!all && strcmp(w->name, c.workload) != 0)
            continue;
        struct hd_regpat_stats st;
        rc = session("regpat-stats", &c, w, &st, true);
        if (rc == HD_CLI_OK)
            hd_regpat_stats_row(stdout, w->name, &st);
        else
            printf("| %s | (failed) |\n", w->name);
        fflush(stdout);
        if (rc == HD_CLI_INTERRUPTED)
            return rc;
        if (rc != HD_CLI_OK)
            worst = HD_CLI_FAIL;
    }
    return worst;
}

int hd_cli_regpat_stats(int argc, char **argv)
{
    const char **sets = calloc((size_t)argc + 1 + family_sets_room(), sizeof *sets);
    if (!sets)
        return hd_cli_fail("regpat-stats", "out of memory");
    int rc = stats_main(argc, argv, sets);
    free(sets);
    return rc;
}
