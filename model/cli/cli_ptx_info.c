/* SPDX-License-Identifier: MIT
 * cli_ptx_info.c - `heddle ptx-info FILE.ptx`: what the front end and the CFG pass see in a PTX
 * module, per kernel (and per device function): parameters with their buffer offsets, PTX
 * registers by type, static shared memory (module-scope .shared variables the function or its
 * callees reference, plus its own), dynamic (extern) shared, local memory, instruction count,
 * CFG blocks and edges, and every branch with its reconvergence PC and source line.
 *
 * A workload's PTX may be named by workload name instead of a path (the embedded copy is used).
 * When the PTX is a workload's, ptxas's recorded resource use is shown beside ours.
 */
#include "cfg.h"
#include "cli_cmd.h"
#include "cli_util.h"
#include "ptx_parse.h"
#include "workload.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct info_opts {
    const char *input;
    const char *kernel; /* only this function */
    bool blocks;        /* print every block */
};

static void info_help(FILE *out)
{
    fprintf(out,
            "Usage: heddle ptx-info FILE.ptx|WORKLOAD [--kernel NAME] [--blocks]\n"
            "\n"
            "Parse a PTX file and describe each kernel (.entry) and device function (.func):\n"
            "parameters (name, type, offset, size), PTX registers by type, static and dynamic\n"
            "shared memory, local memory, instruction count, the control-flow graph (blocks and\n"
            "edges), and every branch with its reconvergence point (the immediate\n"
            "post-dominator: where a diverged warp joins again), as PC and PTX line.\n"
            "A workload name (see heddle list) stands for its built-in PTX; then ptxas's\n"
            "recorded register count is shown too.\n"
            "\n"
            "Options:\n"
            "  --kernel NAME   only this kernel or function\n"
            "  --blocks        also list every basic block: PCs, lines, successors, idom, ipdom\n"
            "\nExample:\n"
            "  heddle ptx-info workloads/bfs/bfs.ptx --blocks\n");
}

/* {==== Shared memory a function reaches ==== */
static void mark_symbols(const struct hd_module *m, uint32_t fi, bool *seen_fn, bool *used_global)
{
    if (seen_fn[fi])
        return;
    seen_fn[fi] = true;
    const struct hd_func *f = &m->funcs[fi];
    for (uint32_t i = 0; i < f->ninstrs; i++) {
        const struct hd_instr *in = &f->instrs[i];
        for (unsigned k = 0; k < in->nopnds && k < HD_MAX_OPERANDS; k++) {
            const struct hd_operand *o = &in->opnd[k];
            if ((o->kind == HD_OPND_SYMBOL || o->kind == HD_OPND_ADDR) && o->symbol >= 0 &&
                o->scope == HD_SCOPE_MODULE && (uint32_t)o->symbol < m->nglobals)
                used_global[o->symbol] = true;
            if (o->kind == HD_OPND_FUNC && o->symbol >= 0 && (uint32_t)o->symbol < m->nfuncs)
                mark_symbols(m, (uint32_t)o->symbol, seen_fn, used_global);
        }
    }
}

static void print_shared(const struct hd_module *m, uint32_t fi)
{
    const struct hd_func *f = &m->funcs[fi];
    bool *seen_fn = calloc(m->nfuncs + 1, sizeof(bool));
    bool *used = calloc(m->nglobals + 1, sizeof(bool));
    uint64_t stat = 0;
    unsigned nvars = 0;
    const char *dyn = NULL;
    if (seen_fn && used)
        mark_symbols(m, fi, seen_fn, used);
    for (uint32_t g = 0; used && g < m->nglobals; g++) {
        const struct hd_var *v = &m->globals[g];
        if (!used[g] || v->space != HD_SPACE_SHARED)
            continue;
        if (v->is_extern || v->size == 0)
            dyn = v->name;
        else
            stat += v->size, nvars++;
    }
    uint64_t local = 0;
    for (uint32_t l = 0; l < f->nlocals; l++) {
        const struct hd_var *v = &f->locals[l];
        if (v->space == HD_SPACE_SHARED) {
            if (v->is_extern || v->size == 0)
                dyn = v->name;
            else
                stat += v->size, nvars++;
        } else if (v->space == HD_SPACE_LOCAL) {
            local += v->size;
        }
    }
    printf("  shared memory: %llu bytes static (%u variable%s)", (unsigned long long)stat, nvars,
           nvars == 1 ? "" : "s");
    if (dyn)
        printf(", plus dynamic (extern .shared %s, sized at launch)", dyn);
    printf("\n  local memory: %llu bytes per thread\n", (unsigned long long)local);
    free(seen_fn);
    free(used);
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
    unsigned shown = 0;
    for (uint32_t fi = 0; fi < m->nfuncs; fi++) {
        const struct hd_func *f = &m->funcs[fi];
        if (o->kernel && strcmp(o->kernel, f->name) != 0)
            continue;
        shown++;
        printf("\n%s %s (line %u)%s\n", f->is_entry ? "kernel" : "function", f->name, f->line,
               f->has_body ? "" : ": prototype only");
        if (!f->has_body)
            continue;
        print_params(f);
        print_regs(f);
        print_shared(m, fi);
        if (f->reqntid[0])
            printf("  .reqntid %u, %u, %u\n", f->reqntid[0], f->reqntid[1], f->reqntid[2]);
        if (f->maxntid[0])
            printf("  .maxntid %u, %u, %u\n", f->maxntid[0], f->maxntid[1], f->maxntid[2]);
        if (f->is_entry)
            print_ptxas(ptxas, ptxas_len, f->name);
        struct hd_cfg *c = hd_cfg_build(f);
        if (!c)
            return hd_cli_fail("ptx-info", "out of memory building the CFG of %s", f->name);
        print_cfg(f, c, o->blocks);
        hd_cfg_free(c);
    }
    if (o->kernel && !shown)
        return hd_cli_fail("ptx-info", "%s: no kernel or function named '%s'", o->input,
                           o->kernel);
    return HD_CLI_OK;
}

/* Read a whole file; NULL (errno set) on failure. */
static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        n += fread(buf + n, 1, cap - n, f);
        if (n < cap)
            break;
        char *nb = realloc(buf, cap * 2);
        if (!nb) {
            free(buf);
            buf = NULL;
            break;
        }
        buf = nb;
        cap *= 2;
    }
    int bad = ferror(f), saved = errno;
    fclose(f);
    if (bad) {
        free(buf);
        errno = saved ? saved : EIO;
        return NULL;
    }
    *len = n;
    return buf;
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

int hd_cli_ptx_info(int argc, char **argv)
{
    const char *cmd = "ptx-info";
    struct info_opts o = {0};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v;
        int r;
        if (hd_cli_is_help(a)) {
            info_help(stdout);
            return HD_CLI_OK;
        }
        if ((r = hd_cli_option(cmd, argc, argv, &i, "--kernel", &v)) != 0) {
            if (r < 0)
                return HD_CLI_USAGE;
            o.kernel = v;
        } else if (strcmp(a, "--blocks") == 0) {
            o.blocks = true;
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

    size_t len = 0;
    char *text = slurp(o.input, &len);
    const char *name = o.input, *wl = NULL;
    char wlbuf[128];
    if (text) {
        wl = workload_ptx_name(o.input, text, len, wlbuf, sizeof wlbuf);
    } else if (!strchr(o.input, '/') && hd_workload_ptx(o.input, &len)) {
        const char *emb = hd_workload_ptx(o.input, &len);
        text = malloc(len + 1);
        if (text)
            memcpy(text, emb, len);
        wl = o.input;
        name = hd_workload_ptx_path(o.input);
    } else {
        return hd_cli_fail(cmd, "%s: cannot read: %s", o.input, strerror(errno));
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
    int rc = describe(m, &o, ptxas, ptxas_len);
    hd_ptx_module_free(m);
    return rc;
}
