/* SPDX-License-Identifier: MIT
 * cli_ptx_info.c - `heddle ptx-info FILE.ptx`: what the front end and the CFG pass see in a PTX
 * module, per kernel (and per device function): parameters with their buffer offsets, PTX
 * registers by type, static shared memory (module-scope .shared variables the function or its
 * callees reference, plus its own), dynamic (extern) shared, local memory, instruction count,
 * CFG blocks and edges, and every branch with its reconvergence PC and source line.
 *
 * A workload's PTX may be named by workload name instead of a path (the embedded copy is used).
 * When the PTX is a workload's, ptxas's recorded resource use is shown beside ours. Registers per
 * thread come from the register allocator the timing model uses (cli_kres.c), and the occupancy
 * of each kernel on the chosen configuration (--config/--set, default fermi-gtx480) for a CTA
 * size (--threads, default .reqntid/.maxntid or 256) follows model/timing/occupancy.h. Each
 * kernel's selective preemption points ([context] pp_k) are listed with their live sets
 * (cli_ppoints.c), and its Zorua phases with their register and scratchpad needs (cli_zphase.c).
 */
#include "config.h"
#include "cfg.h"
#include "cli_cmd.h"
#include "cli_expars.h"
#include "cli_gpu.h"
#include "cli_haws.h"
#include "cli_kres.h"
#include "cli_ppoints.h"
#include "cli_zphase.h"
#include "cli_util.h"
#include "regs_source.h"
#include "ptx_parse.h"
#include "workload.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct info_opts {
    const char *input;
    const char *kernel; /* only this function */
    bool blocks;        /* print every block */
    bool haws;          /* --haws: the HAWS hint pass's hints (cli_haws.c) */
    struct hd_cli_config cfgopt; /* --config / --set: the occupancy's configuration */
    struct hd_config cfg;
    uint32_t threads;   /* --threads: CTA size for the occupancy (0: from the PTX, else 256) */
    uint64_t dyn_smem;  /* --shared: dynamic shared memory per CTA */
};

static void info_help(FILE *out)
{
    fprintf(out,
            "Usage: heddle ptx-info FILE.ptx|WORKLOAD [--kernel NAME] [--blocks] [--haws]\n"
            "                       [--threads N] [--shared BYTES] [--config FILE]\n"
            "                       [--set SECTION.KEY=VALUE]...\n"
            "\n"
            "Parse a PTX file and describe each kernel (.entry) and device function (.func):\n"
            "parameters (name, type, offset, size), PTX registers by type, static and dynamic\n"
            "shared memory, local memory, instruction count, the control-flow graph (blocks and\n"
            "edges), and every branch with its reconvergence point (the immediate\n"
            "post-dominator: where a diverged warp joins again), as PC and PTX line.\n"
            "A workload name (see heddle list) stands for its built-in PTX; then ptxas's\n"
            "recorded register count is shown too (also for a PTX file that sits beside its\n"
            "NAME.ptxas.txt). Registers per thread are our register allocator's (what the\n"
            "timing model uses); each kernel's occupancy on the configuration is shown for\n"
            "both counts: CTAs and warps per SM and the resource that limits them.\n"
            "\n"
            "Options:\n"
            "  --kernel NAME   only this kernel or function\n"
            "  --blocks        also list every basic block: PCs, lines, successors, idom, ipdom\n"
            "  --haws          also list each kernel's HAWS hints: per stall point the PCs that\n"
            "                  run ahead (b branch, r renamed), hint bits ([haws], docs/blocks/haws.md)\n"
            "  --threads N     threads per CTA for the occupancy (default: the kernel's\n"
            "                  .reqntid or .maxntid, else 256)\n"
            "  --shared BYTES  dynamic shared memory per CTA for the occupancy (default 0)\n"
            "  --config FILE   configuration for the occupancy (default: fermi-gtx480)\n"
            "  --set S.K=V     override one configuration parameter (repeatable)\n"
            "\nExample:\n"
            "  heddle ptx-info workloads/bfs/bfs.ptx --blocks\n");
}

/* {==== Shared memory, registers and occupancy (numbers from cli_kres.c) ==== */
static void print_shared(const struct hd_cli_kres *k)
{
    printf("  shared memory: %llu bytes static (%u variable%s)",
           (unsigned long long)k->smem_static, k->smem_vars, k->smem_vars == 1 ? "" : "s");
    if (k->smem_dynamic)
        printf(", plus dynamic (extern .shared %s, sized at launch)", k->smem_dynamic);
    printf("\n  local memory: %llu bytes per thread", (unsigned long long)k->local_bytes);
    if (k->spill_bytes) /* counted in the occupancy; whether its traffic is timed: below */
        printf(" + %llu bytes of register spills (the values above the register budget)",
               (unsigned long long)k->spill_bytes);
    printf("\n");
}

static void print_ra(const struct hd_cli_kres *k)
{
    if (k->regs_ours)
        printf("  registers per thread: %u (register allocator, callees included)\n",
               k->regs_ours);
    else
        printf("  registers per thread: unknown (register allocation failed: %s)\n", k->ra_err);
}

static uint32_t cta_threads(const struct hd_func *f, const struct info_opts *o)
{
    if (o->threads)
        return o->threads;
    const uint32_t *d = f->reqntid[0] ? f->reqntid : f->maxntid[0] ? f->maxntid : NULL;
    if (!d)
        return 256;
    return (d[0] ? d[0] : 1) * (d[1] ? d[1] : 1) * (d[2] ? d[2] : 1);
}

/* (returns the registers per thread the timing model counts, 0 if unknown) */
static uint32_t print_occupancy(const struct hd_func *f, const struct hd_cli_kres *k,
                                const struct info_opts *o)
{
    uint32_t regs = 0;
    uint32_t threads = cta_threads(f, o);
    uint32_t max_warps = o->cfg.sm_max_threads / o->cfg.gpu_warp_size;
    printf("  occupancy on %s, %u threads per CTA, %llu + %llu bytes shared:\n", o->cfg.gpu_name.s,
           threads, (unsigned long long)k->smem_static, (unsigned long long)o->dyn_smem);
    struct hd_occupancy occ;
    char text[320];
    if (k->regs_ours) {
        hd_cli_kres_occupancy(&o->cfg, k, threads, o->dyn_smem, k->regs_ours, &occ);
        hd_cli_occupancy_text(&occ, max_warps, text, sizeof text);
        printf("    ours  (%3u registers): %s\n", k->regs_ours, text);
    }
    if (k->regs_ptxas >= 0) {
        hd_cli_kres_occupancy(&o->cfg, k, threads, o->dyn_smem, (uint32_t)k->regs_ptxas, &occ);
        hd_cli_occupancy_text(&occ, max_warps, text, sizeof text);
        printf("    ptxas (%3d registers): %s\n", k->regs_ptxas, text);
    }
    struct hd_regs_source src;
    struct hd_regs_choice rc;
    const struct hd_regs_known known = {0, k->regs_ptxas > 0 ? (uint32_t)k->regs_ptxas : 0,
                                        k->regs_ours, false};
    char err[256];
    if (hd_regs_source_parse(o->cfg.sm_regs_source.s, o->cfg.sm_max_regs_per_thread, &src, err,
                             sizeof err) == 0) {
        hd_regs_choose(&src, &known, &rc);
        printf("    the timing model counts %u registers per thread (%s; [sm] regs_source = %s)\n",
               rc.regs, rc.source, o->cfg.sm_regs_source.s);
        regs = rc.regs;
        if (k->spill_bytes && hd_regs_spill_timed(rc.source, rc.regs,
                                                  o->cfg.sm_max_regs_per_thread))
            printf("    register spills: timed (a fill before each read and a store after each "
                   "write of a spilled value, through the LD/ST unit and local memory)\n");
        else if (k->spill_bytes)
            printf("    register spills: not timed (warning: %s's %u registers fit the limit of "
                   "%u, so the kernel runs as that compiler allocated it, whose own spills are "
                   "not placed; [sm] regs_source = regalloc times ours)\n",
                   rc.source, rc.regs, o->cfg.sm_max_regs_per_thread);
    }
    return regs;
}
/* }==== */

/* {==== Registers and parameters ==== */
static void print_params(const struct hd_func *f)
{
    printf("  parameters: %u (%llu bytes)\n", f->nparams,
           (unsigned long long)hd_ptx_param_bytes(f));
    for (uint32_t p = 0; p < f->nparams; p++) {
        const struct hd_var *v = &f->params[p];
        unsigned tb = hd_type_bytes((enum hd_type)v->type);
        printf("    %-4u offset %-4llu size %-4llu .%s%s  %s\n", p,
               (unsigned long long)hd_ptx_param_offset(f, p), (unsigned long long)v->size,
               hd_type_name((enum hd_type)v->type),
               (tb && v->size > tb) ? " (array)" : "", v->name);
    }
}

static void print_regs(const struct hd_func *f)
{
    uint32_t count[HD_T_COUNT] = {0};
    for (uint32_t r = 0; r < f->nregs; r++)
        if (f->regs[r].type < HD_T_COUNT)
            count[f->regs[r].type]++;
    printf("  PTX registers: %u", f->nregs);
    const char *sep = " (";
    for (unsigned t = 0; t < HD_T_COUNT; t++)
        if (count[t]) {
            printf("%s.%s %u", sep, hd_type_name((enum hd_type)t), count[t]);
            sep = ", ";
        }
    printf("%s\n", f->nregs ? ")" : "");
}

/* "kernel=K registers=R shared=S local=L" lines of a workload's ptxas summary */
static void print_ptxas(const char *ptxas, size_t len, const char *kernel)
{
    if (!ptxas)
        return;
    char want[256];
    int wl = snprintf(want, sizeof want, "kernel=%s ", kernel);
    for (size_t pos = 0; pos < len;) {
        const char *b = ptxas + pos;
        const char *nl = memchr(b, '\n', len - pos);
        size_t n = nl ? (size_t)(nl - b) : len - pos;
        if (wl > 0 && n > (size_t)wl && strncmp(b, want, (size_t)wl) == 0)
            printf("  ptxas (sm_75): %.*s\n", (int)(n - (size_t)wl), b + wl);
        pos += n + 1;
    }
}
/* }==== */

/* {==== CFG ==== */
static uint32_t line_of(const struct hd_func *f, int32_t pc)
{
    return (pc >= 0 && (uint32_t)pc < f->ninstrs) ? f->instrs[pc].line : 0;
}

static void print_cfg(const struct hd_func *f, const struct hd_cfg *c, bool blocks)
{
    uint32_t edges = 0, exits = 0, branches = 0;
    for (uint32_t b = 0; b < c->nblocks; b++) {
        edges += c->blocks[b].nsucc;
        exits += c->blocks[b].exits;
    }
    printf("  instructions: %u\n", f->ninstrs);
    printf("  CFG: %u blocks, %u edges, %u exit edges, %u divergent branches\n", c->nblocks, edges,
           exits, c->nbranches);
    for (uint32_t pc = 0; pc < f->ninstrs; pc++) {
        const struct hd_instr *in = &f->instrs[pc];
        if (in->op != HD_OP_BRA && in->op != HD_OP_BRX)
            continue;
        if (in->guard < 0 && in->op == HD_OP_BRA)
            continue; /* unconditional: nothing diverges */
        if (branches++ == 0)
            printf("  branches (PC, line: instruction -> reconvergence):\n");
        char text[160];
        hd_ptx_format_instr(f, in, text, sizeof text);
        int32_t r = c->reconv_pc[pc];
        printf("    PC %-5u line %-5u %-40s -> ", pc, in->line, text);
        if (r == HD_PC_EXIT)
            printf("thread exit\n");
        else
            printf("PC %d, line %u%s\n", r, line_of(f, r),
                   (in->flags & HD_F_UNI) ? " (bra.uni: never diverges)" : "");
    }
    if (!blocks)
        return;
    printf("  blocks (id: PCs, lines; successors; idom; ipdom):\n");
    for (uint32_t b = 0; b < c->nblocks; b++) {
        const struct hd_block *blk = &c->blocks[b];
        printf("    B%-4u PC %u-%u, lines %u-%u; succ", b, blk->first, blk->last,
               f->instrs[blk->first].line, f->instrs[blk->last].line);
        for (uint32_t k = 0; k < blk->nsucc; k++)
            printf(" B%u", blk->succ[k]);
        if (blk->exits)
            printf(" EXIT");
        if (!blk->nsucc && !blk->exits)
            printf(" -");
        printf("; idom %s%d; ipdom %s%d\n", blk->idom < 0 ? "" : "B",
               blk->idom, blk->ipdom < 0 ? "EXIT" : "B", blk->ipdom < 0 ? 0 : blk->ipdom);
    }
}
/* }==== */

static int describe(const struct hd_module *m, const struct info_opts *o, const char *ptxas,
                    size_t ptxas_len)
{
    printf("%s: PTX ISA %u.%u, target %s, address size %u, %u functions, %u module variables\n",
           m->filename ? m->filename : o->input, m->version_major, m->version_minor,
           m->target ? m->target : "?", m->address_size, m->nfuncs, m->nglobals);
    for (uint32_t g = 0; g < m->nglobals; g++) {
        const struct hd_var *v = &m->globals[g];
        printf("  .%s %s: %llu bytes, align %u%s (line %u)\n", hd_space_name((enum hd_space)v->space),
               v->name, (unsigned long long)v->size, v->align,
               v->is_extern ? ", extern" : (v->init ? ", initialized" : ""), v->line);
    }
    unsigned shown = 0, nk = 0;
    struct hd_cli_kres *kres =
        hd_cli_kres_collect(m, o->cfg.sm_max_regs_per_thread, ptxas, ptxas_len, &nk);
    if (!kres)
        return hd_cli_fail("ptx-info", "out of memory");
    const struct hd_cli_kres *k = kres;
    for (uint32_t fi = 0; fi < m->nfuncs; fi++) {
        const struct hd_func *f = &m->funcs[fi];
        while (k < kres + nk && k->fi < fi)
            k++;
        if (o->kernel && strcmp(o->kernel, f->name) != 0)
            continue;
        shown++;
        printf("\n%s %s (line %u)%s\n", f->is_entry ? "kernel" : "function", f->name, f->line,
               f->has_body ? "" : ": prototype only");
        if (!f->has_body)
            continue;
        print_params(f);
        print_regs(f);
        print_ra(k);
        print_shared(k);
        if (f->reqntid[0])
            printf("  .reqntid %u, %u, %u\n", f->reqntid[0], f->reqntid[1], f->reqntid[2]);
        if (f->maxntid[0])
            printf("  .maxntid %u, %u, %u\n", f->maxntid[0], f->maxntid[1], f->maxntid[2]);
        if (f->is_entry) {
            print_ptxas(ptxas, ptxas_len, f->name);
            const uint32_t regs = print_occupancy(f, k, o);
            /* the kernel loaded and annotated once for the analyses below */
            struct hd_cli_kernel_view view;
            hd_cli_kernel_view_open(&view, m, f, &o->cfg);
            hd_cli_print_ppoints(&view, &o->cfg); /* Lin's selective preemption points */
            if (o->haws) /* HAWS hints (Gong ch. 5, docs/blocks/haws.md) */
                hd_cli_print_haws(&view, &o->cfg,
                                  k < kres + nk && k->fi == fi ? k->regs_ours : 0);
            hd_cli_print_zphases(&view, &o->cfg); /* Zorua's phases (issue 32) */
            if (o->cfg.sm_allocator == HD_ALLOC_EXPARS) /* EXPARS's plan and bundles */
                hd_cli_print_expars(&view, &o->cfg, regs, cta_threads(f, o),
                                    k->smem_static + o->dyn_smem);
            hd_cli_kernel_view_close(&view);
        }
        struct hd_cfg *c = hd_cfg_build(f);
        if (!c) {
            free(kres);
            return hd_cli_fail("ptx-info", "out of memory building the CFG of %s", f->name);
        }
        print_cfg(f, c, o->blocks);
        hd_cfg_free(c);
    }
    free(kres);
    if (o->kernel && !shown)
        return hd_cli_fail("ptx-info", "%s: no kernel or function named '%s'", o->input,
                           o->kernel);
    return HD_CLI_OK;
}

/* Read a whole file with the front end's cap (256 MiB); NULL (errno set) on failure. */
static char *slurp(const char *path, size_t *len, char *err, size_t errlen)
{
    return hd_ptx_read_file(path, len, err, errlen);
}

/* The workload PTX base name of a path "dir/NAME.ptx" whose contents equal the embedded copy. */
static const char *workload_ptx_name(const char *path, const char *text, size_t len, char *buf,
                                     size_t cap)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t bl = strlen(base);
    if (bl < 5 || bl - 4 >= cap || strcmp(base + bl - 4, ".ptx") != 0)
        return NULL;
    memcpy(buf, base, bl - 4);
    buf[bl - 4] = '\0';
    size_t elen;
    const char *emb = hd_workload_ptx(buf, &elen);
    return (emb && elen == len && memcmp(emb, text, len) == 0) ? buf : NULL;
}

/* Returns HD_CLI_OK to go on, -1 after --help, or an exit code. */
static int parse_args(const char *cmd, int argc, char **argv, struct info_opts *po)
{
    struct info_opts o = *po;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v;
        int r;
        if (hd_cli_is_help(a)) {
            info_help(stdout);
            return -1;
        }
        if ((r = hd_cli_option(cmd, argc, argv, &i, "--kernel", &v)) != 0) {
            if (r < 0)
                return HD_CLI_USAGE;
            o.kernel = v;
        } else if ((r = hd_cli_config_option(cmd, argc, argv, &i, &o.cfgopt)) != 0) {
            if (r < 0)
                return HD_CLI_USAGE;
        } else if ((r = hd_cli_option(cmd, argc, argv, &i, "--threads", &v)) != 0) {
            if (r < 0)
                return HD_CLI_USAGE;
            if (hd_cli_parse_u32(v, &o.threads) != 0 || o.threads == 0)
                return hd_cli_usage(cmd, "--threads wants a positive count, not '%s'", v);
        } else if ((r = hd_cli_option(cmd, argc, argv, &i, "--shared", &v)) != 0) {
            if (r < 0)
                return HD_CLI_USAGE;
            if (hd_config_parse_uint(v, &o.dyn_smem) != 0)
                return hd_cli_usage(cmd, "--shared wants a byte count, not '%s'", v);
        } else if (strcmp(a, "--blocks") == 0) {
            o.blocks = true;
        } else if (strcmp(a, "--haws") == 0) {
            o.haws = true;
        } else if (a[0] == '-' && a[1]) {
            return hd_cli_usage(cmd, "unknown option '%s'", a);
        } else if (o.input) {
            return hd_cli_usage(cmd, "one PTX file at a time");
        } else {
            o.input = a;
        }
    }
    if (!o.input)
        return hd_cli_usage(cmd, "which PTX file?");
    *po = o;
    return HD_CLI_OK;
}

static int info_run(const char *cmd, const struct info_opts *po)
{
    struct info_opts o = *po;
    size_t len = 0;
    char rerr[512];
    char *text = slurp(o.input, &len, rerr, sizeof rerr);
    const char *name = o.input, *wl = NULL;
    char wlbuf[128];
    if (text) {
        wl = workload_ptx_name(o.input, text, len, wlbuf, sizeof wlbuf);
    } else if (errno == ENOENT && !strchr(o.input, '/') && hd_workload_ptx(o.input, &len)) {
        const char *emb = hd_workload_ptx(o.input, &len);
        text = malloc(len + 1);
        if (text)
            memcpy(text, emb, len);
        wl = o.input;
        name = hd_workload_ptx_path(o.input);
    } else {
        return hd_cli_fail(cmd, "%s", rerr);
    }
    if (!text)
        return hd_cli_fail(cmd, "%s: out of memory", o.input);
    char err[512] = "";
    struct hd_module *m = hd_ptx_parse(text, len, name, err, sizeof err);
    free(text);
    if (!m)
        return hd_cli_fail(cmd, "%s", err);
    size_t ptxas_len = 0;
    const char *ptxas = wl ? hd_workload_ptxas(wl, &ptxas_len) : NULL;
    char beside[4096];
    char *own = ptxas ? NULL : hd_cli_ptxas_beside(o.input, &ptxas_len, beside, sizeof beside);
    int rc = describe(m, &o, ptxas ? ptxas : own, ptxas_len);
    free(own);
    hd_ptx_module_free(m);
    return rc;
}

int hd_cli_ptx_info(int argc, char **argv)
{
    const char *cmd = "ptx-info";
    struct info_opts o = {0};
    const char **sets = calloc((size_t)argc + 1, sizeof *sets);
    if (!sets)
        return hd_cli_fail(cmd, "out of memory");
    o.cfgopt.sets = sets;
    int rc = parse_args(cmd, argc, argv, &o);
    if (rc == HD_CLI_OK)
        rc = hd_cli_config_resolve(cmd, &o.cfgopt, &o.cfg);
    if (rc == HD_CLI_OK)
        rc = info_run(cmd, &o);
    free(sets);
    return rc == -1 ? HD_CLI_OK : rc;
}
