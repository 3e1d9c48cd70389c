/* SPDX-License-Identifier: MIT
 * fuzz_ptx.c - libFuzzer target for the PTX front end.
 *
 * Any byte string must either parse, giving a module whose every index points inside its arrays
 * (checked here, so a parser bug that leaves a dangling index is a crash, not a silent later
 * fault), or fail with one located message "fuzz.ptx:LINE:COL: error: ...". Parsed modules are
 * also printed back instruction by instruction and their parameter layout is computed, so the
 * consumers of the IR are exercised too. Built with clang -fsanitize=fuzzer,address,undefined when
 * HD_FUZZ=ON (tests/fuzz.cmake); fuzz_replay.c runs the same function over files without libFuzzer.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx_parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void require(int ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "fuzz_ptx: IR invariant violated: %s\n", what);
        abort();
    }
}

static void check_operand(const struct hd_module *m, const struct hd_func *f,
                          const struct hd_operand *o)
{
    if (o->kind == HD_OPND_REG || (o->kind == HD_OPND_ADDR && o->reg >= 0))
        require(o->reg >= 0 && (uint32_t)o->reg < f->nregs, "register index");
    if (o->kind == HD_OPND_VEC) {
        require(o->vec_n == 2 || o->vec_n == 4, "vector length");
        for (int e = 0; e < o->vec_n; e++)
            require(o->vec[e] >= -1 && o->vec[e] < (int32_t)f->nregs, "vector element");
    }
    if (o->kind == HD_OPND_SYMBOL || (o->kind == HD_OPND_ADDR && o->symbol >= 0)) {
        uint32_t n = o->scope == HD_SCOPE_MODULE ? m->nglobals
                     : o->scope == HD_SCOPE_FUNC_LOCAL ? f->nlocals
                     : o->scope == HD_SCOPE_PARAM ? f->nparams : f->nrets;
        require(o->symbol >= 0 && (uint32_t)o->symbol < n, "symbol index");
    }
    if (o->kind == HD_OPND_LABEL)
        require(o->imm >= 0 && (uint64_t)o->imm < f->ninstrs, "label target");
    if (o->kind == HD_OPND_FUNC)
        require(o->symbol >= 0 && (uint32_t)o->symbol < m->nfuncs, "function index");
    if (o->kind == HD_OPND_SPECIAL)
        require(o->sreg > HD_SREG_NONE && o->sreg < HD_SREG_COUNT && o->dim < 3, "special reg");
}

static void check_module(const struct hd_module *m)
{
    char buf[512];
    for (uint32_t i = 0; i < m->nglobals; i++)
        require(m->globals[i].name && m->globals[i].align > 0, "global variable");
    for (uint32_t i = 0; i < m->nfuncs; i++) {
        const struct hd_func *f = &m->funcs[i];
        require(f->module == m && f->name != NULL, "function");
        require(hd_ptx_find_func(m, f->name) >= 0, "function lookup");
        (void)hd_ptx_param_bytes(f);
        for (uint32_t k = 0; k < f->nparams; k++)
            require(hd_ptx_param_offset(f, k) + f->params[k].size <= hd_ptx_param_bytes(f),
                    "parameter layout");
        for (uint32_t k = 0; k < f->nregs; k++)
            require(f->regs[k].name && f->regs[k].type < HD_T_COUNT, "register");
        for (uint32_t k = 0; k < f->ninstrs; k++) {
            const struct hd_instr *in = &f->instrs[k];
            require(in->op < HD_OP_COUNT && in->nopnds <= HD_MAX_OPERANDS, "instruction");
            require(in->guard >= -1 && in->guard < (int32_t)f->nregs, "guard");
            for (uint32_t o = 0; o < in->nopnds; o++)
                check_operand(m, f, &in->opnd[o]);
            if (in->op == HD_OP_CALL) {
                require(in->opnd[0].imm >= 0 && (uint64_t)in->opnd[0].imm < f->ncalls, "call");
                const struct hd_call_site *cs = &f->calls[in->opnd[0].imm];
                for (uint32_t a = 0; a < cs->nargs; a++)
                    check_operand(m, f, &cs->args[a]);
                for (uint32_t a = 0; a < cs->nrets; a++)
                    check_operand(m, f, &cs->rets[a]);
            }
            hd_ptx_format_instr(f, in, buf, sizeof buf);
            require(strlen(buf) > 0 && buf[strlen(buf) - 1] == ';', "formatted instruction");
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[512];
    struct hd_module *m = hd_ptx_parse((const char *)data, size, "fuzz.ptx", err, sizeof err);
    if (m) {
        check_module(m);
        hd_ptx_module_free(m);
        return 0;
    }
    unsigned line = 0, col = 0;
    int n = 0;
    require(sscanf(err, "fuzz.ptx:%u:%u: error: %n", &line, &col, &n) == 2 && n > 0 &&
                line >= 1 && col >= 1 && err[n] != '\0' && strchr(err, '\n') == NULL,
            "error message is located (fuzz.ptx:LINE:COL: error: ...)");
    return 0;
}
