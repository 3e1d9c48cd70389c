/* SPDX-License-Identifier: MIT
 * module.c - loading a PTX module for execution: module variables in device memory, shared
 * memory layout, and one flattened, pre-decoded image per kernel.
 *
 * Design: see module.h. A kernel image lists the entry and, in depth-first discovery order, every
 * .func it can reach; each gets a PC range, a register range and a local-memory frame. The call
 * graph walk detects recursion (static frames cannot support it) and calls of functions without
 * a body; such a kernel keeps the reason and refuses to launch. CFGs are built per function and
 * only their reconvergence PCs are kept (rebased to kernel PCs).
 */
#include "module.h"

#include "cfg.h"
#include "func_status.h"
#include "ptx_parse.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t align_up(uint64_t v, uint64_t a)
{
    if (a <= 1)
        return v;
    return (v + a - 1) / a * a;
}

static uint64_t var_align(const struct hd_var *v)
{
    if (v->align)
        return v->align;
    unsigned b = hd_type_bytes((enum hd_type)v->type);
    return b ? b : 1;
}

/* Byte offset of body variable `v` of `f` inside its function's shared block (body .shared
 * variables only; others get UINT64_MAX) and the block's size. */
static uint64_t hd_func_layout_shared(const struct hd_func *f, uint64_t base, uint64_t *off)
{
    uint64_t at = base;
    for (uint32_t i = 0; i < f->nlocals; i++) {
        const struct hd_var *v = &f->locals[i];
        off[i] = UINT64_MAX;
        if (v->space != HD_SPACE_SHARED)
            continue;
        if (v->is_extern || v->size == 0) {
            off[i] = HD_FUNC_VAR_DYNAMIC;
            continue;
        }
        at = align_up(at, var_align(v));
        off[i] = at;
        at += v->size;
    }
    return at;
}

/* {==== Module variables ==== */
static int place_globals(struct hd_func_module *m, uint64_t const_capacity, char *err,
                         size_t errlen)
{
    const struct hd_module *ir = m->ir;
    uint64_t shared = 0;
    for (uint32_t i = 0; i < ir->nglobals; i++) {
        const struct hd_var *v = &ir->globals[i];
        const char *file = ir->filename ? ir->filename : "<ptx>";
        switch (v->space) {
        case HD_SPACE_GLOBAL:
        case HD_SPACE_CONST: {
            int is_const = v->space == HD_SPACE_CONST;
            if (v->is_extern && v->size == 0) {
                snprintf(err, errlen, "%s:%u: extern .%s variable '%s' is not defined in this module",
                         file, v->line, is_const ? "const" : "global", v->name);
                return HD_FUNC_ERR_UNSUPPORTED;
            }
            if (is_const) {
                m->const_bytes += align_up(v->size, var_align(v));
                if (m->const_bytes > const_capacity) {
                    snprintf(err, errlen,
                             "%s:%u: .const variables need %" PRIu64
                             " bytes, more than the %" PRIu64 " bytes of constant memory",
                             file, v->line, m->const_bytes, const_capacity);
                    return HD_FUNC_ERR_MEMORY;
                }
            }
            int st = hd_devmem_alloc(m->mem, v->size,
                                     is_const ? HD_DEVMEM_CONST_VAR : HD_DEVMEM_GLOBAL_VAR,
                                     v->name, &m->var_addr[i], err, errlen);
            if (st != HD_FUNC_OK)
                return st;
            if (v->init && v->size)
                st = hd_devmem_write(m->mem, m->var_addr[i], v->init, v->size, err, errlen);
            if (st != HD_FUNC_OK)
                return st;
            break;
        }
        case HD_SPACE_SHARED:
            if (v->is_extern || v->size == 0) {
                m->var_addr[i] = HD_FUNC_VAR_DYNAMIC;
                break;
            }
            shared = align_up(shared, var_align(v));
            m->var_addr[i] = shared;
            shared += v->size;
            break;
        default:
            snprintf(err, errlen, "%s:%u: module-scope .%s variable '%s' is not supported", file,
                     v->line, hd_space_name((enum hd_space)v->space), v->name);
            return HD_FUNC_ERR_UNSUPPORTED;
        }
    }
    /* body .shared variables of .func functions share the module block */
    for (uint32_t f = 0; f < ir->nfuncs; f++) {
        const struct hd_func *fn = &ir->funcs[f];
        if (fn->is_entry || fn->nlocals == 0)
            continue;
        uint64_t *tmp = calloc(fn->nlocals, sizeof *tmp);
        if (!tmp) {
            snprintf(err, errlen, "host out of memory");
            return HD_FUNC_ERR_MEMORY;
        }
        m->func_shared_base[f] = shared;
        shared = hd_func_layout_shared(fn, shared, tmp);
        free(tmp);
    }
    m->module_shared_bytes = shared;
    return HD_FUNC_OK;
}

/* Addresses in initializers (hd_init_reloc): once every variable has its address, write the
 * referenced variable's address plus the addend into the initialized bytes. .global and .const
 * variables live in the global window of the generic map, where a generic address equals the
 * address in the variable's own space, so `generic(v)` and plain `v` store the same value. */
static int apply_relocs(struct hd_func_module *m, char *err, size_t errlen)
{
    const struct hd_module *ir = m->ir;
    const char *file = ir->filename ? ir->filename : "<ptx>";
    for (uint32_t i = 0; i < ir->nglobals; i++) {
        const struct hd_var *v = &ir->globals[i];
        if (v->space != HD_SPACE_GLOBAL && v->space != HD_SPACE_CONST)
            continue;
        for (uint32_t j = 0; j < v->nrelocs; j++) {
            const struct hd_init_reloc *r = &v->relocs[j];
            if (r->symbol < 0 || (uint32_t)r->symbol >= ir->nglobals ||
                (r->size != 4 && r->size != 8) || r->offset + r->size > v->size) {
                snprintf(err, errlen, "%s:%u: bad address relocation in the initializer of '%s'",
                         file, v->line, v->name);
                return HD_FUNC_ERR_INTERNAL;
            }
            const struct hd_var *t = &ir->globals[r->symbol];
            if (t->space != HD_SPACE_GLOBAL && t->space != HD_SPACE_CONST) {
                snprintf(err, errlen,
                         "%s:%u: the initializer of '%s' takes the address of .%s variable '%s', "
                         "which has no address outside a running CTA",
                         file, v->line, v->name, hd_space_name((enum hd_space)t->space), t->name);
                return HD_FUNC_ERR_UNSUPPORTED;
            }
            uint64_t a = m->var_addr[r->symbol] + (uint64_t)r->addend;
            if (r->size == 4 && a > UINT32_MAX) {
                snprintf(err, errlen,
                         "%s:%u: the address of '%s' (0x%" PRIx64 ") does not fit the 32 bits of "
                         "'%s'",
                         file, v->line, t->name, a, v->name);
                return HD_FUNC_ERR_UNSUPPORTED;
            }
            uint8_t bytes[8];
            for (unsigned b = 0; b < r->size; b++)
                bytes[b] = (uint8_t)(a >> (8 * b));
            int st = hd_devmem_write(m->mem, m->var_addr[i] + r->offset, bytes, r->size, err,
                                     errlen);
            if (st != HD_FUNC_OK)
                return st;
        }
    }
    return HD_FUNC_OK;
}
/* }==== */

/* {==== Kernel images ==== */
struct walk {
    const struct hd_module *ir;
    int32_t *kf_of_func; /* module function -> kfunc index or -1 */
    uint8_t *state;      /* 0 new, 1 on the DFS stack, 2 done */
    uint32_t *order;
    uint32_t n;
    char *why;
    size_t whylen;
};

static void walk_calls(struct walk *wk, uint32_t f)
{
    const struct hd_func *fn = &wk->ir->funcs[f];
    const char *file = wk->ir->filename ? wk->ir->filename : "<ptx>";
    wk->state[f] = 1;
    wk->kf_of_func[f] = (int32_t)wk->n;
    wk->order[wk->n++] = f;
    for (uint32_t i = 0; i < fn->ninstrs && !wk->why[0]; i++) {
        const struct hd_instr *in = &fn->instrs[i];
        if (in->op != HD_OP_CALL || in->nopnds == 0 || in->opnd[0].kind != HD_OPND_FUNC)
            continue;
        int32_t g = in->opnd[0].symbol;
        if (g < 0 || (uint32_t)g >= wk->ir->nfuncs)
            continue;
        const struct hd_func *callee = &wk->ir->funcs[g];
        if (wk->state[g] == 1)
            snprintf(wk->why, wk->whylen,
                     "%s:%u: recursive call of %s (reached from kernel %s) is not supported",
                     file, in->line, callee->name, wk->ir->funcs[wk->order[0]].name);
        else if (!callee->has_body)
            snprintf(wk->why, wk->whylen,
                     "%s:%u: call of %s (reached from kernel %s), which has no body in this module",
                     file, in->line, callee->name, wk->ir->funcs[wk->order[0]].name);
        else if (wk->state[g] == 0)
            walk_calls(wk, (uint32_t)g);
    }
    wk->state[f] = 2;
}

/* Lay out one function's local-memory frame: .func params, returns, body .local/.param. The
 * offsets go to kf when it is not NULL (hd_func_local_bytes sizes frames without a kernel). */
static uint64_t layout_frame_of(const struct hd_func *f, struct hd_func_kfunc *kf, uint64_t at)
{
    at = align_up(at, 16);
    if (kf)
        kf->frame_base = at;
    if (!f->is_entry) {
        for (uint32_t i = 0; i < f->nparams; i++) {
            at = align_up(at, var_align(&f->params[i]));
            if (kf)
                kf->param_off[i] = at;
            at += f->params[i].size;
        }
        for (uint32_t i = 0; i < f->nrets; i++) {
            at = align_up(at, var_align(&f->rets[i]));
            if (kf)
                kf->ret_off[i] = at;
            at += f->rets[i].size;
        }
    }
    for (uint32_t i = 0; i < f->nlocals; i++) {
        const struct hd_var *v = &f->locals[i];
        if (v->space != HD_SPACE_LOCAL && v->space != HD_SPACE_PARAM)
            continue;
        at = align_up(at, var_align(v));
        if (kf)
            kf->local_off[i] = at;
        at += v->size;
    }
    return at;
}

static uint64_t layout_frame(struct hd_func_kfunc *kf, uint64_t at)
{
    return layout_frame_of(kf->ir, kf, at);
}

uint64_t hd_func_local_bytes(const struct hd_module *ir, uint32_t entry)
{
    if (entry >= ir->nfuncs)
        return 0;
    char why[256] = "";
    struct walk wk = {ir, calloc(ir->nfuncs, sizeof(int32_t)), calloc(ir->nfuncs, 1),
                      calloc(ir->nfuncs, sizeof(uint32_t)), 0, why, sizeof why};
    uint64_t local = 0;
    if (wk.kf_of_func && wk.state && wk.order) {
        walk_calls(&wk, entry);
        for (uint32_t i = 0; i < wk.n; i++) /* the order build_kernel lays them out in */
            local = layout_frame_of(&ir->funcs[wk.order[i]], NULL, local);
    }
    free(wk.kf_of_func);
    free(wk.state);
    free(wk.order);
    return align_up(local, 16);
}

static int alloc_kfuncs(struct hd_func_kernel *k)
{
    for (uint32_t i = 0; i < k->nfuncs; i++) {
        const struct hd_func *f = k->funcs[i].ir;
        k->funcs[i].param_off = calloc(f->nparams + 1, sizeof(uint64_t));
        k->funcs[i].ret_off = calloc(f->nrets + 1, sizeof(uint64_t));
        k->funcs[i].local_off = calloc(f->nlocals + 1, sizeof(uint64_t));
        if (!k->funcs[i].param_off || !k->funcs[i].ret_off || !k->funcs[i].local_off)
            return HD_FUNC_ERR_MEMORY;
    }
    return HD_FUNC_OK;
}

static int decode_kernel(struct hd_func_module *m, struct hd_func_kernel *k,
                         const int32_t *kf_of_func, char *err, size_t errlen)
{
    uint32_t ncalls = 0;
    for (uint32_t i = 0; i < k->nfuncs; i++)
        for (uint32_t j = 0; j < k->funcs[i].ir->ninstrs; j++)
            ncalls += k->funcs[i].ir->instrs[j].op == HD_OP_CALL;
    k->code = calloc(k->ncode + 1, sizeof *k->code);
    k->calls = calloc(ncalls + 1, sizeof *k->calls);
    if (!k->code || !k->calls) {
        snprintf(err, errlen, "host out of memory decoding %s", k->entry->name);
        return HD_FUNC_ERR_MEMORY;
    }
    for (uint32_t i = 0; i < k->nfuncs; i++) {
        const struct hd_func *f = k->funcs[i].ir;
        struct hd_cfg *cfg = hd_cfg_build(f);
        if (!cfg) {
            snprintf(err, errlen, "host out of memory building the CFG of %s", f->name);
            return HD_FUNC_ERR_MEMORY;
        }
        int st = HD_FUNC_OK;
        for (uint32_t j = 0; j < f->ninstrs && st == HD_FUNC_OK; j++) {
            struct hd_func_call *call = NULL;
            if (f->instrs[j].op == HD_OP_CALL)
                call = &k->calls[k->ncalls++];
            st = hd_func_decode(m, k, i, j, cfg->reconv_pc, kf_of_func, call, err, errlen);
        }
        hd_cfg_free(cfg);
        if (st != HD_FUNC_OK)
            return st;
    }
    return HD_FUNC_OK;
}

static int build_kernel(struct hd_func_module *m, uint32_t entry, struct hd_func_kernel *k,
                        char *err, size_t errlen)
{
    const struct hd_module *ir = m->ir;
    int st = HD_FUNC_ERR_MEMORY;
    struct walk wk = {ir, calloc(ir->nfuncs, sizeof(int32_t)), calloc(ir->nfuncs, 1),
                      calloc(ir->nfuncs, sizeof(uint32_t)), 0, k->unsupported,
                      sizeof k->unsupported};
    k->mod = m;
    k->entry = &ir->funcs[entry];
    k->entry_index = entry;
    if (!wk.kf_of_func || !wk.state || !wk.order)
        goto out;
    for (uint32_t i = 0; i < ir->nfuncs; i++)
        wk.kf_of_func[i] = -1;
    walk_calls(&wk, entry);
    k->nfuncs = wk.n;
    k->funcs = calloc(wk.n, sizeof *k->funcs);
    if (!k->funcs)
        goto out;
    for (uint32_t i = 0; i < wk.n; i++) {
        k->funcs[i].ir = &ir->funcs[wk.order[i]];
        k->funcs[i].index = wk.order[i];
    }
    if (alloc_kfuncs(k) != HD_FUNC_OK)
        goto out;
    uint64_t local = 0;
    for (uint32_t i = 0; i < k->nfuncs; i++) {
        struct hd_func_kfunc *kf = &k->funcs[i];
        kf->pc_base = k->ncode;
        kf->reg_base = k->nregs;
        k->ncode += kf->ir->ninstrs;
        k->nregs += kf->ir->nregs;
        local = layout_frame(kf, local);
        /* shared body variables: the entry's after the module block, a .func's in it */
        uint64_t *sh = calloc(kf->ir->nlocals + 1, sizeof *sh);
        if (!sh)
            goto out;
        if (i == 0)
            k->shared_static_bytes = hd_func_layout_shared(kf->ir, m->module_shared_bytes, sh);
        else
            hd_func_layout_shared(kf->ir, m->func_shared_base[kf->index], sh);
        for (uint32_t v = 0; v < kf->ir->nlocals; v++)
            if (kf->ir->locals[v].space == HD_SPACE_SHARED)
                kf->local_off[v] = sh[v];
        free(sh);
    }
    k->local_bytes = align_up(local, 16);
    if (k->shared_static_bytes < m->module_shared_bytes)
        k->shared_static_bytes = m->module_shared_bytes;
    uint64_t dyn_align = 16;
    for (uint32_t i = 0; i < ir->nglobals; i++)
        if (m->var_addr[i] == HD_FUNC_VAR_DYNAMIC && var_align(&ir->globals[i]) > dyn_align)
            dyn_align = var_align(&ir->globals[i]);
    k->dyn_shared_base = align_up(k->shared_static_bytes, dyn_align);
    k->param_bytes = hd_ptx_param_bytes(k->entry);
    st = k->unsupported[0] ? HD_FUNC_OK : decode_kernel(m, k, wk.kf_of_func, err, errlen);
out:
    if (st == HD_FUNC_ERR_MEMORY && !err[0])
        snprintf(err, errlen, "host out of memory loading kernel %s", k->entry->name);
    free(wk.kf_of_func);
    free(wk.state);
    free(wk.order);
    return st;
}

static void free_kernel(struct hd_func_kernel *k)
{
    for (uint32_t i = 0; k->funcs && i < k->nfuncs; i++) {
        free(k->funcs[i].param_off);
        free(k->funcs[i].ret_off);
        free(k->funcs[i].local_off);
    }
    for (uint32_t i = 0; i < k->ncalls; i++) {
        free(k->calls[i].args);
        free(k->calls[i].rets);
    }
    free(k->calls);
    free(k->funcs);
    free(k->code);
}
/* }==== */

/* {==== Loading ==== */
int hd_func_module_load(struct hd_devmem *mem, const struct hd_module *ir, uint64_t const_capacity,
                        struct hd_func_module **out, char *err, size_t errlen)
{
    *out = NULL;
    if (err && errlen)
        err[0] = 0;
    struct hd_func_module *m = calloc(1, sizeof *m);
    if (!m) {
        snprintf(err, errlen, "host out of memory loading a module");
        return HD_FUNC_ERR_MEMORY;
    }
    m->ir = ir;
    m->mem = mem;
    m->var_addr = calloc(ir->nglobals + 1, sizeof *m->var_addr);
    m->func_shared_base = calloc(ir->nfuncs + 1, sizeof *m->func_shared_base);
    uint32_t nk = 0;
    for (uint32_t i = 0; i < ir->nfuncs; i++)
        nk += ir->funcs[i].is_entry && ir->funcs[i].has_body;
    m->kernels = calloc(nk + 1, sizeof *m->kernels);
    int st = HD_FUNC_ERR_MEMORY;
    if (!m->var_addr || !m->func_shared_base || !m->kernels) {
        snprintf(err, errlen, "host out of memory loading a module");
        goto fail;
    }
    st = place_globals(m, const_capacity, err, errlen);
    if (st == HD_FUNC_OK)
        st = apply_relocs(m, err, errlen);
    for (uint32_t i = 0; i < ir->nfuncs && st == HD_FUNC_OK; i++) {
        if (!ir->funcs[i].is_entry || !ir->funcs[i].has_body)
            continue;
        st = build_kernel(m, i, &m->kernels[m->nkernels++], err, errlen);
    }
    if (st != HD_FUNC_OK)
        goto fail;
    *out = m;
    return HD_FUNC_OK;
fail:
    hd_func_module_unload(m);
    return st;
}

void hd_func_module_unload(struct hd_func_module *m)
{
    if (!m)
        return;
    char err[128];
    for (uint32_t i = 0; m->var_addr && i < m->ir->nglobals; i++) {
        const struct hd_var *v = &m->ir->globals[i];
        if ((v->space == HD_SPACE_GLOBAL || v->space == HD_SPACE_CONST) && m->var_addr[i])
            hd_devmem_free(m->mem, m->var_addr[i],
                           v->space == HD_SPACE_CONST ? HD_DEVMEM_CONST_VAR : HD_DEVMEM_GLOBAL_VAR,
                           err, sizeof err);
    }
    for (uint32_t i = 0; m->kernels && i < m->nkernels; i++)
        free_kernel(&m->kernels[i]);
    free(m->kernels);
    free(m->var_addr);
    free(m->func_shared_base);
    free(m);
}

const struct hd_func_kernel *hd_func_module_kernel(const struct hd_func_module *m, const char *name)
{
    for (uint32_t i = 0; i < m->nkernels; i++)
        if (strcmp(m->kernels[i].entry->name, name) == 0)
            return &m->kernels[i];
    return NULL;
}

int hd_func_module_symbol(const struct hd_func_module *m, const char *name, uint64_t *addr,
                          uint64_t *bytes)
{
    for (uint32_t i = 0; i < m->ir->nglobals; i++) {
        const struct hd_var *v = &m->ir->globals[i];
        if ((v->space == HD_SPACE_GLOBAL || v->space == HD_SPACE_CONST) &&
            strcmp(v->name, name) == 0) {
            *addr = m->var_addr[i];
            *bytes = v->size;
            return HD_FUNC_OK;
        }
    }
    return HD_FUNC_ERR_NOT_FOUND;
}

const struct hd_func_kfunc *hd_func_kernel_func_at(const struct hd_func_kernel *k, uint32_t pc)
{
    for (uint32_t i = k->nfuncs; i-- > 0;)
        if (pc >= k->funcs[i].pc_base)
            return &k->funcs[i];
    return NULL;
}
/* }==== */
