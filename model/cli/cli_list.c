/* SPDX-License-Identifier: MIT
 * cli_list.c - `heddle list`: the built-in workloads as a table: class, idempotence, registers
 * per thread (ours and ptxas's), shared memory and threads per CTA, and the occupancy on a
 * configuration (default fermi-gtx480) with the resource that limits it (issue 4's table),
 * counting the registers the configuration's [sm] regs_source picks, as the timing model does
 * (model/config/regs_source.h; ptxas's by default; column REGS USED says which).
 *
 * Design: static facts come from the registry and from each workload's embedded PTX (registers
 * and static shared memory through cli_kres.c, i.e. the register allocator and occupancy rules
 * the timing model uses). Launch shapes (threads per CTA, dynamic shared memory) exist only when
 * a host driver launches, so unless --static is given every workload is run once at small size
 * on the functional model (about a second for all) with a kernel observer recording each
 * launch. A workload row shows the largest register count and shared memory over its kernels,
 * and the CTA size and occupancy of its main kernel (the one that executed the most warp
 * instructions); --kernels prints a row per kernel with both register counts' occupancy. Names
 * given after the options restrict the table (and the runs) to those workloads.
 */
#include "cli_cmd.h"
#include "cli_gpu.h"
#include "cli_mix.h"
#include "cli_kres.h"
#include "cli_util.h"
#include "heddle_mix.h"
#include "ptx_parse.h"
#include "regs_source.h"
#include "workload.h"
#include "zorua_spec.h"

#include <stdlib.h>
#include <string.h>

#define MAX_KERNELS 32

/* {==== Launch shapes, recorded by a kernel observer ==== */
struct shape {
    char kernel[96];
    uint32_t threads;          /* largest CTA seen */
    uint32_t dyn_smem;         /* largest dynamic shared memory seen */
    uint64_t launches, warp_instrs;
};

struct shapes {
    struct shape k[MAX_KERNELS];
    unsigned n;
};

static void observe(void *arg, const struct hd_kernel_record *r)
{
    struct shapes *s = arg;
    unsigned i = 0;
    while (i < s->n && strcmp(s->k[i].kernel, r->kernel) != 0)
        i++;
    if (i == s->n) {
        if (s->n == MAX_KERNELS)
            return;
        memset(&s->k[i], 0, sizeof s->k[i]);
        snprintf(s->k[i].kernel, sizeof s->k[i].kernel, "%s", r->kernel);
        s->n++;
    }
    struct shape *k = &s->k[i];
    uint32_t threads = r->block.x * r->block.y * r->block.z;
    k->threads = threads > k->threads ? threads : k->threads;
    k->dyn_smem = r->dynamic_shared_bytes > k->dyn_smem ? r->dynamic_shared_bytes : k->dyn_smem;
    k->launches++;
    k->warp_instrs += r->warp_instrs;
}

/* Run w at small size on the functional model; 0 when it verified. */
static int record_shapes(const struct hd_workload *w, struct shapes *s, FILE *devnull,
                         volatile sig_atomic_t *interrupt, char *err, size_t errlen)
{
    memset(s, 0, sizeof *s);
    struct hd_gpu *gpu = hd_gpu_create(NULL, err, errlen);
    if (!gpu)
        return -1;
    hd_gpu_set_exec_mode(gpu, HD_EXEC_FUNCTIONAL);
    hd_gpu_set_interrupt(gpu, interrupt);
    hd_gpu_set_kernel_observer(gpu, observe, s);
    struct hd_wl_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.size = HD_WL_SMALL;
    ctx.ptx_text = hd_workload_ptx(w->name, &ctx.ptx_len);
    ctx.ptx_name = hd_workload_ptx_path(w->name);
    ctx.log = devnull;
    int st = w->run(gpu, &ctx);
    if (st != HD_OK)
        snprintf(err, errlen, "%s", ctx.err[0] ? ctx.err : hd_last_error(gpu));
    hd_gpu_destroy(gpu);
    return st == HD_OK ? 0 : -1;
}
/* }==== */

/* {==== One workload's row ==== */
struct row {
    const struct hd_workload *w;
    struct hd_cli_kres *kres;  /* the PTX's functions (NULL: no PTX) */
    unsigned nkres;
    struct shapes shapes;
    bool ran;
    char run_err[160];
};

static const struct hd_cli_kres *kres_of(const struct row *r, const char *kernel)
{
    for (unsigned i = 0; i < r->nkres; i++)
        if (r->kres[i].is_entry && strcmp(r->kres[i].name, kernel) == 0)
            return &r->kres[i];
    return NULL;
}

static void load_static(struct row *r, const struct hd_config *cfg)
{
    size_t len = 0, plen = 0;
    const char *text = hd_workload_ptx(r->w->name, &len);
    if (!text)
        return;
    char err[512];
    struct hd_module *m = hd_ptx_parse(text, len, hd_workload_ptx_path(r->w->name), err,
                                       sizeof err);
    if (!m)
        return;
    const char *ptxas = hd_workload_ptxas(r->w->name, &plen);
    r->kres = hd_cli_kres_collect(m, cfg->sm_max_regs_per_thread, ptxas, plen, &r->nkres);
    /* the names point into the module: keep copies that outlive it */
    for (unsigned i = 0; r->kres && i < r->nkres; i++) {
        r->kres[i].name = strdup(r->kres[i].name);
        r->kres[i].smem_dynamic = r->kres[i].smem_dynamic ? "" : NULL;
    }
    hd_ptx_module_free(m);
}

static void free_row(struct row *r)
{
    for (unsigned i = 0; r->kres && i < r->nkres; i++)
        free((char *)r->kres[i].name);
    free(r->kres);
}

/* "20/40", "20/-", "?/40" */
static void regs_text(uint32_t ours, int32_t ptxas, char *buf, size_t len)
{
    char a[16], b[16];
    snprintf(a, sizeof a, ours ? "%u" : "?", ours);
    snprintf(b, sizeof b, ptxas >= 0 ? "%d" : "-", ptxas);
    snprintf(buf, len, "%s/%s", a, b);
}

/* The main kernel: most warp instructions in the recorded run. */
static const struct shape *main_shape(const struct row *r)
{
    const struct shape *best = NULL;
    for (unsigned i = 0; i < r->shapes.n; i++)
        if (!best || r->shapes.k[i].warp_instrs > best->warp_instrs)
            best = &r->shapes.k[i];
    return best;
}
/* }==== */

/* {==== Printing ==== */
struct list_opts {
    bool names_only, kernels, no_run;
    bool zgrid; /* --zorua: the Zorua grid points too (zorua_spec.h); hidden by default */
    const char **only; /* workload names given on the command line (NULL: every workload) */
    unsigned nonly;
    struct hd_cli_config cfgopt;
    struct hd_config cfg;
    struct hd_regs_source regs_src; /* [sm] regs_source of cfg */
};

/* The registers per thread the timing model counts for kernel k (no count given by hand here). */
static bool regs_used(const struct list_opts *o, const struct hd_cli_kres *k,
                      struct hd_regs_choice *c)
{
    const struct hd_regs_known known = {0, k->regs_ptxas > 0 ? (uint32_t)k->regs_ptxas : 0,
                                        k->regs_ours, false};
    hd_regs_choose(&o->regs_src, &known, c);
    return c->regs > 0; /* 0: our allocator failed and nothing else is known */
}

static void occ_cells(const struct hd_config *cfg, const struct hd_cli_kres *k,
                      const struct shape *s, uint32_t regs, char *ctas, size_t cl, char *warps,
                      size_t wl, char *limit, size_t ll)
{
    struct hd_occupancy o;
    hd_cli_kres_occupancy(cfg, k, s->threads, s->dyn_smem, regs, &o);
    uint32_t max_warps = cfg->sm_max_threads / cfg->gpu_warp_size;
    snprintf(ctas, cl, "%u", o.ctas);
    snprintf(warps, wl, "%u/%u", o.warps, max_warps);
    if (o.limit == HD_OCC_NOFIT)
        snprintf(limit, ll, "does not fit");
    else
        hd_occ_limit_string(&o, limit, ll);
}

static void print_workloads(const struct list_opts *o, struct row *rows, unsigned n)
{
    int wname = 4, wclass = 5;
    for (unsigned i = 0; i < n; i++) {
        int ln = (int)strlen(rows[i].w->name);
        int lc = (int)strlen(rows[i].w->klass ? rows[i].w->klass : "-");
        wname = ln > wname ? ln : wname;
        wclass = lc > wclass ? lc : wclass;
    }
    char limit_head[96];
    snprintf(limit_head, sizeof limit_head, "LIMIT ON %s", o->cfg.gpu_name.s);
    printf("%-*s  %-*s  %-10s  %-15s  %-10s  %-11s  %-11s  %-7s  %-8s  %-25s  %-4s  %s\n", wname,
           "NAME", wclass, "CLASS", "IDEMPOTENT", "REGS ours/ptxas", "SHARED/CTA", "THREADS/CTA",
           "REGS USED", "CTAS/SM", "WARPS/SM", limit_head, "HINT", "DESCRIPTION");
    for (unsigned i = 0; i < n; i++) {
        const struct row *r = &rows[i];
        uint32_t ours = 0;
        int32_t ptxas = -1;
        bool ours_known = r->nkres > 0;
        uint64_t smem = 0;
        for (unsigned k = 0; k < r->nkres; k++) {
            if (!r->kres[k].is_entry)
                continue;
            if (!r->kres[k].regs_ours)
                ours_known = false;
            ours = r->kres[k].regs_ours > ours ? r->kres[k].regs_ours : ours;
            ptxas = r->kres[k].regs_ptxas > ptxas ? r->kres[k].regs_ptxas : ptxas;
            smem = r->kres[k].smem_static > smem ? r->kres[k].smem_static : smem;
        }
        for (unsigned k = 0; k < r->shapes.n; k++) { /* static + dynamic per launch */
            const struct hd_cli_kres *kr = kres_of(r, r->shapes.k[k].kernel);
            uint64_t total = (kr ? kr->smem_static : 0) + r->shapes.k[k].dyn_smem;
            smem = total > smem ? total : smem;
        }
        char regs[32], threads[16] = "-", ctas[16] = "-", warps[24] = "-", limit[96] = "-";
        char used[40] = "-";
        regs_text(ours_known ? ours : 0, ptxas, regs, sizeof regs);
        const struct shape *s = main_shape(r);
        const struct hd_cli_kres *kr = s ? kres_of(r, s->kernel) : NULL;
        struct hd_regs_choice rc;
        if (s && kr && regs_used(o, kr, &rc)) {
            snprintf(threads, sizeof threads, "%u", s->threads);
            snprintf(used, sizeof used, "%u %s", rc.regs, rc.source);
            occ_cells(&o->cfg, kr, s, rc.regs, ctas, sizeof ctas, warps, sizeof warps, limit,
                      sizeof limit);
        } else if (!o->no_run && !r->ran) {
            snprintf(limit, sizeof limit, "(run failed)");
        }
        char hint[12] = "-";
        if (r->w->locality_hint)
            snprintf(hint, sizeof hint, "%u", r->w->locality_hint);
        printf("%-*s  %-*s  %-10s  %-15s  %-10llu  %-11s  %-11s  %-7s  %-8s  %-25s  %-4s  %s\n",
               wname, r->w->name, wclass, r->w->klass ? r->w->klass : "-",
               r->w->idempotent ? "yes" : "no", regs, (unsigned long long)smem, threads, used,
               ctas, warps, limit, hint, r->w->description ? r->w->description : "");
    }
    printf("(%u workloads. REGS: registers per thread, the most over the workload's kernels: ours "
           "from Heddle's register\nallocator; ptxas's recorded for sm_75. SHARED/CTA: static + "
           "dynamic bytes, the most over its launches.\nTHREADS/CTA and occupancy: the kernel that "
           "executes the most warp instructions, as a small run launches\nit, counting REGS USED: "
           "the registers per thread the timing model counts for that kernel and where\nthey come "
           "from ([sm] regs_source = %s: ptxas, regalloc, config, or regalloc-fallback when ptxas\n"
           "recorded none). HINT: the Gong Table 6.1 locality hint of the\nTable 6.2 row it stands "
           "for ([timing] workload_hint, docs/locality.md). heddle list --kernels shows every\n"
           "kernel with both counts.)\n",
           n, o->cfg.sm_regs_source.s);
}

static void print_kernels(const struct list_opts *o, struct row *rows, unsigned n)
{
    printf("%-16s  %-20s  %-8s  %-7s  %-10s  %-10s  %-34s  %-34s  %s\n", "NAME", "KERNEL",
           "LAUNCHES", "THREADS", "SHARED", "REGS", "OURS: CTAS WARPS LIMIT",
           "PTXAS: CTAS WARPS LIMIT", "USED");
    for (unsigned i = 0; i < n; i++) {
        const struct row *r = &rows[i];
        for (unsigned k = 0; k < r->nkres; k++) {
            const struct hd_cli_kres *kr = &r->kres[k];
            if (!kr->is_entry)
                continue;
            const struct shape *s = NULL;
            for (unsigned j = 0; j < r->shapes.n; j++)
                if (strcmp(r->shapes.k[j].kernel, kr->name) == 0)
                    s = &r->shapes.k[j];
            char regs[32], ocell[160] = "-", pcell[160] = "-", threads[16] = "-";
            char launches[24] = "-", shared[32], used[40] = "-";
            struct hd_regs_choice rc;
            if (regs_used(o, kr, &rc))
                snprintf(used, sizeof used, "%u %s", rc.regs, rc.source);
            regs_text(kr->regs_ours, kr->regs_ptxas, regs, sizeof regs);
            snprintf(shared, sizeof shared, "%llu", (unsigned long long)kr->smem_static);
            if (s) {
                char c[16], w[24], l[96];
                snprintf(threads, sizeof threads, "%u", s->threads);
                snprintf(launches, sizeof launches, "%llu", (unsigned long long)s->launches);
                snprintf(shared, sizeof shared, "%llu",
                         (unsigned long long)(kr->smem_static + s->dyn_smem));
                if (kr->regs_ours) {
                    occ_cells(&o->cfg, kr, s, kr->regs_ours, c, sizeof c, w, sizeof w, l,
                              sizeof l);
                    snprintf(ocell, sizeof ocell, "%s %s %s", c, w, l);
                }
                if (kr->regs_ptxas >= 0) {
                    occ_cells(&o->cfg, kr, s, (uint32_t)kr->regs_ptxas, c, sizeof c, w, sizeof w,
                              l, sizeof l);
                    snprintf(pcell, sizeof pcell, "%s %s %s", c, w, l);
                }
            }
            printf("%-16s  %-20s  %-8s  %-7s  %-10s  %-10s  %-34s  %-34s  %s\n", r->w->name,
                   kr->name, launches, threads, shared, regs, ocell, pcell, used);
        }
    }
    printf("(occupancy on %s; a kernel the small run did not launch shows '-'; USED: the registers "
           "per thread the\ntiming model counts, [sm] regs_source = %s)\n", o->cfg.gpu_name.s,
           o->cfg.sm_regs_source.s);
}
/* }==== */

static void list_help(void)
{
    printf("Usage: heddle list [--names | --kernels] [--static] [--config FILE]\n"
           "                   [--set SECTION.KEY=VALUE]... [WORKLOAD]...\n\n"
           "List the built-in workloads: name, class (compute, memory, latency-bound,\n"
           "barrier-heavy, divergent, irregular), whether re-running a CTA from its start gives\n"
           "the same result (idempotent: flush-based preemption needs it), registers per thread\n"
           "(ours from the register allocator / ptxas's), shared memory and threads per CTA,\n"
           "and the occupancy on the configuration (default fermi-gtx480): CTAs and warps per\n"
           "SM and what limits them (registers, shared memory, threads, CTA slots), counting\n"
           "the registers [sm] regs_source picks (default ptxas's; REGS USED says which). Launch\n"
           "shapes come from running every workload once at small size on the functional\n"
           "model (a few seconds for all). WORKLOAD names list (and run) only those, in the\n"
           "order given. Run one with `heddle run NAME`.\n\n"
           "Options:\n"
           "  --names         print only the names, one per line (for scripts)\n"
           "  --kernels       one row per kernel, occupancy with both register counts\n"
           "  --static        do not run the workloads (no launch shapes, no occupancy)\n"
           "  --zorua         also the 283 Zorua grid points (BASE_z_..., hidden by default)\n"
           "  --config FILE   configuration for the occupancy\n"
           "  --set S.K=V     override one configuration parameter (repeatable)\n"
           "  --variants      the resource-specification variants (heddle list --variants --help)\n"
           "  --mixes         the multi-kernel mixes for `heddle run --mix` (heddle list --mixes --help)\n"
           "  --classes       the papers' kernel classes as measured (heddle list --classes --help)\n");
}

static int parse_args(int argc, char **argv, struct list_opts *o)
{
    for (int i = 1; i < argc; i++) {
        int r;
        if (hd_cli_is_help(argv[i])) {
            list_help();
            return -1;
        }
        if ((r = hd_cli_config_option("list", argc, argv, &i, &o->cfgopt)) != 0) {
            if (r < 0)
                return HD_CLI_USAGE;
        } else if (strcmp(argv[i], "--names") == 0) {
            o->names_only = true;
        } else if (strcmp(argv[i], "--kernels") == 0) {
            o->kernels = true;
        } else if (strcmp(argv[i], "--static") == 0) {
            o->no_run = true;
        } else if (strcmp(argv[i], "--zorua") == 0) {
            o->zgrid = true;
        } else if (argv[i][0] != '-' && argv[i][0] != '\0') {
            if (!hd_workload_find(argv[i]))
                return hd_cli_usage("list", "unknown workload '%s' (see heddle list --names)",
                                    argv[i]);
            o->only[o->nonly++] = argv[i];
        } else {
            return hd_cli_usage("list", "unknown argument '%s'", argv[i]);
        }
    }
    if (o->names_only && o->kernels)
        return hd_cli_usage("list", "--names and --kernels do not go together");
    return HD_CLI_OK;
}

/* The next workload to list, NULL past the end: the names given, else every registered workload
 * (the Zorua grid points only with --zorua). */
static const struct hd_workload *nth_listed(const struct list_opts *o, unsigned *cursor)
{
    if (o->nonly)
        return *cursor < o->nonly ? hd_workload_find(o->only[(*cursor)++]) : NULL;
    while (*cursor < hd_workload_registry_count) {
        const struct hd_workload *w = hd_workload_registry[(*cursor)++];
        if (o->zgrid || !hd_wl_is_zgrid(w))
            return w;
    }
    return NULL;
}

static int list_run(struct list_opts *o)
{
    unsigned n = o->nonly ? o->nonly : hd_workload_registry_count, cursor = 0;
    const struct hd_workload *w;
    if (o->names_only) {
        while ((w = nth_listed(o, &cursor)) != NULL)
            printf("%s\n", w->name);
        return HD_CLI_OK;
    }
    struct row *rows = calloc(n + 1, sizeof *rows);
    FILE *devnull = fopen("/dev/null", "w");
    if (!rows || !devnull) {
        free(rows);
        if (devnull)
            fclose(devnull);
        return hd_cli_fail("list", "out of memory");
    }
    volatile sig_atomic_t *interrupt = hd_cli_interrupt_install();
    int rc = HD_CLI_OK;
    unsigned shown = 0;
    while ((w = nth_listed(o, &cursor)) != NULL) {
        unsigned i = shown++;
        rows[i].w = w;
        load_static(&rows[i], &o->cfg);
        if (!o->no_run && !*interrupt) {
            char err[4096] = ""; /* a failed run's message (a watchdog report) */
            rows[i].ran = record_shapes(rows[i].w, &rows[i].shapes, devnull, interrupt, err,
                                        sizeof err) == 0;
            if (!rows[i].ran && !*interrupt)
                fprintf(stderr, "heddle list: %s: the small run failed: %s\n", rows[i].w->name,
                        err);
        }
    }
    if (*interrupt)
        rc = HD_CLI_INTERRUPTED;
    if (o->kernels)
        print_kernels(o, rows, shown);
    else
        print_workloads(o, rows, shown);
    for (unsigned i = 0; i < shown; i++)
        free_row(&rows[i]);
    free(rows);
    fclose(devnull);
    return rc;
}

int hd_cli_list(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) { /* cli_mixes.c, cli_variants.c, cli_classes.c */
        if (strcmp(argv[i], "--classes") == 0)
            return hd_cli_list_classes(argc, argv);
        if (strcmp(argv[i], "--mixes") == 0)
            return hd_cli_list_mixes(argc, argv);
        if (strcmp(argv[i], "--variants") == 0)
            return hd_cli_list_variants(argc, argv);
    }
    struct list_opts o;
    memset(&o, 0, sizeof o);
    const char **sets = calloc((size_t)argc + 1, sizeof *sets);
    if (!sets)
        return hd_cli_fail("list", "out of memory");
    o.cfgopt.sets = sets;
    o.only = calloc((size_t)argc + 1, sizeof *o.only);
    if (!o.only) {
        free(sets);
        return hd_cli_fail("list", "out of memory");
    }
    int rc = parse_args(argc, argv, &o);
    if (rc == HD_CLI_OK)
        rc = hd_cli_config_resolve("list", &o.cfgopt, &o.cfg);
    char err[256];
    if (rc == HD_CLI_OK && hd_regs_source_parse(o.cfg.sm_regs_source.s,
                                                o.cfg.sm_max_regs_per_thread, &o.regs_src, err,
                                                sizeof err) != 0)
        rc = hd_cli_fail("list", "%s", err); /* hd_config_validate checked it already */
    if (rc == HD_CLI_OK)
        rc = list_run(&o);
    free(sets);
    free(o.only);
    return rc == -1 ? HD_CLI_OK : rc;
}
