/* SPDX-License-Identifier: MIT
 * cli_ppoints.c - `heddle ptx-info`'s list of a kernel's selective preemption points
 * (cli_ppoints.h): per point its PC and PTX line, kind (pp + dummy, or bar.pp), why it was
 * chosen, the live words at it (plain and divergence-aware), the registers of its 54-bit
 * vectors and the 64-bit words the pp_decode block decodes.
 */
#include "cli_ppoints.h"

#include "pp_decode.h"
#include "ppoints.h"

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
        printf("    PC %u (line %u): %s, %s", p->pc, hd_cli_kernel_line(k, p->pc),
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

int hd_cli_print_ppoints(const struct hd_cli_kernel_view *v, const struct hd_config *cfg)
{
    if (!hd_cli_kernel_view_ready(v, "preemption points", true))
        return -1;
    char err[512] = "";
    struct hd_ppoints *pp = NULL;
    if (hd_ppoints_build(v->a, cfg->context_pp_k, &pp, err, sizeof err) != 0) {
        printf("  preemption points: (%s)\n", err);
        return -1;
    }
    print_points(v->k, v->a, pp);
    hd_ppoints_free(pp);
    return 0;
}
