/* SPDX-License-Identifier: MIT
 * cli_ppoints.c - `heddle ptx-info`'s list of a kernel's selective preemption points
 * (cli_ppoints.h): per point its PC and PTX line, kind (pp + dummy, or bar.pp), why it was
 * chosen, the live words at it (plain and divergence-aware), the registers of its 54-bit
 * vectors and the 64-bit words the pp_decode block decodes.
 */
#include "cli_ppoints.h"

#include "devmem.h"
#include "module.h"
#include "pp_decode.h"
#include "ppoints.h"
#include "tkernel.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

/* "R0 R1 R5 R53+" of a vector. */
static void vec_regs(uint64_t v, char *buf, size_t len)
{
    size_t at = 0;
    buf[0] = '\0';
    for (unsigned i = 0; i < HD_PP_VEC_BITS && at < len; i++) {
        if (!(v >> i & 1u))
            continue;
        int n = snprintf(buf + at, len - at, "%sR%u%s", at ? " " : "", i,
                         i == HD_PP_VEC_HIGH ? "+" : "");
        if (n < 0)
            break;
        at += (size_t)n;
    }
    if (!at)
        snprintf(buf, len, "none");
}

static uint32_t line_at(const struct hd_func_kernel *k, uint32_t pc)
{
    return pc < k->ncode && k->code[pc].ir ? k->code[pc].ir->line : 0;
}

static void print_points(const struct hd_func_kernel *k, const struct hd_annot *a,
                         const struct hd_ppoints *pp)
{
    printf("  preemption points (Lin §2.5, K = %u): %u (%u innermost loop%s), %u instruction%s "
           "added (pp + dummy)%s\n",
           pp->k, pp->n, pp->loops, pp->loops == 1 ? "" : "s", pp->extra,
           pp->extra == 1 ? "" : "s",
           pp->n ? "" : ": none, a preempted warp runs to its end (SM-draining)");
    if (!a->ra_ok)
        printf("    (no register allocation: every vector says 'save all', bit 53)\n");
    char regs[512];
    for (uint32_t i = 0; i < pp->n; i++) {
        const struct hd_ppoint *p = &pp->pt[i];
        printf("    PC %u (line %u): %s, %s", p->pc, line_at(k, p->pc),
               p->kind == HD_PP_PP ? "pp + dummy" : "bar.pp", hd_ppoints_why_name(p->why));
        if (p->loop_head != UINT32_MAX)
            printf(" (loop at PC %u)", p->loop_head);
        printf("; live %u words, %u divergence-aware\n", p->live_words, p->div_words);
        vec_regs(p->vec, regs, sizeof regs);
        const unsigned op = p->kind == HD_PP_PP ? HD_PPDEC_OP_PP : HD_PPDEC_OP_BARPP;
        printf("      %-6s 0x%016" PRIx64 "  live {%s} (%u registers)\n",
               p->kind == HD_PP_PP ? "pp" : "bar.pp", hd_pp_encode(op, p->vec), regs,
               hd_ppoints_vec_regs(p->vec));
        if (p->kind == HD_PP_PP) {
            vec_regs(p->vec_div, regs, sizeof regs);
            printf("      %-6s 0x%016" PRIx64 "  live {%s} (%u registers)\n", "dummy",
                   hd_pp_encode(HD_PPDEC_OP_DUMMY, p->vec_div), regs,
                   hd_ppoints_vec_regs(p->vec_div));
        }
    }
}

int hd_cli_print_ppoints(const struct hd_module *m, const struct hd_func *f,
                         const struct hd_config *cfg)
{
    char err[512] = "";
    struct hd_devmem mem;
    if (hd_devmem_init(&mem, 1ull << 30) != 0) {
        printf("  preemption points: (host out of memory)\n");
        return -1;
    }
    struct hd_func_module *fm = NULL;
    int rc = -1;
    if (hd_func_module_load(&mem, m, cfg->gpu_const_mem_bytes, &fm, err, sizeof err) != 0) {
        printf("  preemption points: (the module does not load: %s)\n", err);
        goto out;
    }
    const struct hd_func_kernel *k = hd_func_module_kernel(fm, f->name);
    if (!k || k->unsupported[0]) {
        printf("  preemption points: (the kernel cannot run: %s)\n",
               k ? k->unsupported : "no image");
        goto out;
    }
    struct hd_annot *a = hd_tkernel_annot_build(k, cfg->sm_max_regs_per_thread, err, sizeof err);
    struct hd_ppoints *pp = NULL;
    if (!a || hd_ppoints_build(a, cfg->context_pp_k, &pp, err, sizeof err) != 0) {
        printf("  preemption points: (%s)\n", err);
        hd_annot_free(a);
        goto out;
    }
    print_points(k, a, pp);
    hd_ppoints_free(pp);
    hd_annot_free(a);
    rc = 0;
out:
    if (fm)
        hd_func_module_unload(fm);
    hd_devmem_destroy(&mem);
    return rc;
}
