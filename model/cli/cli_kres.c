/* SPDX-License-Identifier: MIT
 * cli_kres.c - registers, shared memory and occupancy of a module's kernels for the CLI.
 *
 * Design: see cli_kres.h. The register allocation mirrors model/timing/tkernel.c (defaults of
 * hd_regalloc_params with max_regs capped by the configuration, every function with a body,
 * hd_regalloc_link for calls); a function whose allocation fails keeps regs_ours = 0 and the
 * message, and so do its callers.
 */
#include "cli_kres.h"

#include "cfg.h"
#include "liveness.h"
#include "module.h"
#include "ptx_parse.h"
#include "ptxas_summary.h"
#include "regalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

static bool shared_of(const struct hd_module *m, uint32_t fi, struct hd_cli_kres *k)
{
    const struct hd_func *f = &m->funcs[fi];
    bool *seen_fn = calloc(m->nfuncs + 1, sizeof(bool));
    bool *used = calloc(m->nglobals + 1, sizeof(bool));
    if (!seen_fn || !used) {
        free(seen_fn);
        free(used);
        return false;
    }
    mark_symbols(m, fi, seen_fn, used);
    for (uint32_t g = 0; g < m->nglobals; g++) {
        const struct hd_var *v = &m->globals[g];
        if (!used[g] || v->space != HD_SPACE_SHARED)
            continue;
        if (v->is_extern || v->size == 0)
            k->smem_dynamic = v->name;
        else
            k->smem_static += v->size, k->smem_vars++;
    }
    for (uint32_t l = 0; l < f->nlocals; l++) {
        const struct hd_var *v = &f->locals[l];
        if (v->space == HD_SPACE_SHARED) {
            if (v->is_extern || v->size == 0)
                k->smem_dynamic = v->name;
            else
                k->smem_static += v->size, k->smem_vars++;
        }
    }
    free(seen_fn);
    free(used);
    return true;
}
/* }==== */

/* "registers=R" of kernel `kernel` in a ptxas summary, or -1 (model/compiler/ptxas_summary.h). */
static int32_t hd_cli_ptxas_regs(const char *ptxas, size_t len, const char *kernel)
{
    return hd_ptxas_regs_of(ptxas, len, kernel);
}

char *hd_cli_ptxas_beside(const char *ptx_path, size_t *len, char *path, size_t pathlen)
{
    size_t n = strlen(ptx_path);
    if (n < 4 || strcmp(ptx_path + n - 4, ".ptx") != 0)
        return NULL;
    if ((size_t)snprintf(path, pathlen, "%.*s.ptxas.txt", (int)(n - 4), ptx_path) >= pathlen)
        return NULL;
    char err[512];
    return hd_ptx_read_file(path, len, err, sizeof err);
}

/* {==== Register allocation of the whole module ==== */
static void regalloc_module(const struct hd_module *m, uint32_t max_regs, struct hd_cli_kres *out,
                            const uint32_t *index_of)
{
    struct hd_regalloc *ra = calloc(m->nfuncs + 1, sizeof *ra);
    bool *ok = calloc(m->nfuncs + 1, sizeof *ok);
    if (!ra || !ok) {
        free(ra);
        free(ok);
        return;
    }
    struct hd_regalloc_params rp;
    hd_regalloc_params_default(&rp);
    if (max_regs && max_regs < rp.max_regs)
        rp.max_regs = max_regs;
    bool all_ok = true;
    for (uint32_t fi = 0; fi < m->nfuncs; fi++) {
        const struct hd_func *f = &m->funcs[fi];
        if (!f->has_body)
            continue;
        struct hd_cli_kres *k = &out[index_of[fi]];
        struct hd_cfg *cfg = hd_cfg_build(f);
        struct hd_liveness *lv = cfg ? hd_liveness_build(f, cfg, k->ra_err, sizeof k->ra_err)
                                     : NULL;
        if (!cfg)
            snprintf(k->ra_err, sizeof k->ra_err, "out of memory building the CFG");
        if (lv && hd_regalloc_run(f, cfg, lv, &rp, &ra[fi], k->ra_err, sizeof k->ra_err) == 0)
            ok[fi] = true;
        else
            all_ok = false;
        if (lv)
            hd_liveness_free(lv);
        if (cfg)
            hd_cfg_free(cfg);
    }
    hd_regalloc_link(m, ra);
    for (uint32_t fi = 0; fi < m->nfuncs; fi++) {
        if (!m->funcs[fi].has_body || !ok[fi])
            continue;
        struct hd_cli_kres *k = &out[index_of[fi]];
        k->regs_ours = ra[fi].regs_with_callees;
        k->spill_words = ra[fi].spill_words;
        k->spill_bytes = 4ull * ra[fi].spill_words;
        if (!all_ok) { /* a callee may have failed: count it unknown rather than too low */
            bool *seen = calloc(m->nfuncs + 1, sizeof(bool)), *g = calloc(m->nglobals + 1, 1);
            if (seen && g) {
                mark_symbols(m, fi, seen, g);
                for (uint32_t c = 0; c < m->nfuncs; c++)
                    if (seen[c] && m->funcs[c].has_body && !ok[c]) {
                        k->regs_ours = 0;
                        snprintf(k->ra_err, sizeof k->ra_err, "callee %.60s failed",
                                 m->funcs[c].name);
                        break;
                    }
            }
            free(seen);
            free(g);
        }
        hd_regalloc_free(&ra[fi]);
    }
    free(ra);
    free(ok);
}
/* }==== */

struct hd_cli_kres *hd_cli_kres_collect(const struct hd_module *m, uint32_t max_regs,
                                        const char *ptxas, size_t ptxas_len, unsigned *n)
{
    *n = 0;
    uint32_t *index_of = calloc(m->nfuncs + 1, sizeof *index_of);
    struct hd_cli_kres *out = calloc(m->nfuncs + 1, sizeof *out);
    if (!index_of || !out) {
        free(index_of);
        free(out);
        return NULL;
    }
    unsigned cnt = 0;
    for (uint32_t fi = 0; fi < m->nfuncs; fi++) {
        const struct hd_func *f = &m->funcs[fi];
        if (!f->has_body)
            continue;
        struct hd_cli_kres *k = &out[cnt];
        index_of[fi] = cnt++;
        k->fi = fi;
        k->name = f->name;
        k->is_entry = f->is_entry;
        k->regs_ptxas = f->is_entry ? hd_cli_ptxas_regs(ptxas, ptxas_len, f->name) : -1;
        if (!shared_of(m, fi, k)) {
            free(index_of);
            free(out);
            return NULL;
        }
        k->local_bytes = hd_func_local_bytes(m, fi); /* as the kernel image lays it out */
    }
    regalloc_module(m, max_regs, out, index_of);
    free(index_of);
    *n = cnt;
    return out;
}

int hd_cli_kres_occupancy(const struct hd_config *cfg, const struct hd_cli_kres *k,
                          uint32_t threads, uint64_t dyn_smem, uint32_t regs,
                          struct hd_occupancy *out)
{
    struct hd_occ_params p;
    hd_occ_params_from_config(cfg, &p);
    struct hd_occ_kernel kk = {threads, regs, k->smem_static, dyn_smem};
    /* the CTA scheduler's function and figure: frames + spills (hd_occ_local_per_thread) */
    return hd_occupancy_kernel(&p, &kk, hd_occ_local_per_thread(k->local_bytes, k->spill_words),
                               out);
}

void hd_cli_occupancy_text(const struct hd_occupancy *o, uint32_t max_warps, char *buf,
                           size_t len)
{
    char lim[256];
    hd_occ_limit_string(o, lim, sizeof lim);
    if (o->limit == HD_OCC_NOFIT) {
        snprintf(buf, len, "%s", lim);
        return;
    }
    snprintf(buf, len, "%u CTA%s, %u/%u warps (%.0f%%), limited by %s%s", o->ctas,
             o->ctas == 1 ? "" : "s", o->warps, max_warps, o->occupancy * 100.0, lim,
             o->regs_clamped ? " (registers capped at max_regs_per_thread)" : "");
}
