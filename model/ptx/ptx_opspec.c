/* SPDX-License-Identifier: MIT
 * ptx_opspec.c - what each PTX opcode accepts as modifiers (and what they mean for that opcode),
 * how many types it takes and of which kind, and which modifiers it requires.
 *
 * A modifier word may mean different things for different opcodes (`.and` is a boolean
 * combination for setp, an atomic operation for atom, a reduction for bar.red), so the word table
 * lists every meaning as a (category, value) pair and each opcode names the categories it takes;
 * the first meaning whose category the opcode takes wins. Operands are checked in ptx_operands.c.
 */
#include <stdio.h>
#include <string.h>

#include "ptx_parser.h"

/* {==== Modifier words ==== */
enum mod_cat {
    MC_TYPE, MC_SPACE, MC_CMP, MC_BOOL, MC_RND, MC_RNDI, MC_FTZ, MC_SAT, MC_APPROX, MC_FULL,
    MC_MULMODE, MC_CC, MC_ATOM, MC_VEC, MC_CACHE, MC_ORDER, MC_SCOPE, MC_UNI, MC_VOLATILE,
    MC_SYNC, MC_ALIGNED, MC_SHFL, MC_VOTE, MC_MATCH, MC_PRMT, MC_SHFDIR, MC_SHFCLAMP, MC_BAR,
    MC_BARRED, MC_WARP, MC_TO, MC_SHIFTAMT, MC_NOFTZ, MC_LEVEL, MC_TESTP, MC_NC,
    MC_COUNT
};
#define M(c) (1ull << MC_##c)

struct mod_word {
    const char *word; /* without the dot */
    uint8_t len;
    uint8_t cat;
    uint8_t val;
};
#define W(w, c, v) {w, sizeof(w) - 1, c, v}

static const struct mod_word mod_words[] = {
    W("eq", MC_CMP, HD_CMP_EQ), W("ne", MC_CMP, HD_CMP_NE), W("lt", MC_CMP, HD_CMP_LT),
    W("le", MC_CMP, HD_CMP_LE), W("gt", MC_CMP, HD_CMP_GT), W("ge", MC_CMP, HD_CMP_GE),
    W("lo", MC_CMP, HD_CMP_LO), W("ls", MC_CMP, HD_CMP_LS), W("hi", MC_CMP, HD_CMP_HI),
    W("hs", MC_CMP, HD_CMP_HS), W("equ", MC_CMP, HD_CMP_EQU), W("neu", MC_CMP, HD_CMP_NEU),
    W("ltu", MC_CMP, HD_CMP_LTU), W("leu", MC_CMP, HD_CMP_LEU), W("gtu", MC_CMP, HD_CMP_GTU),
    W("geu", MC_CMP, HD_CMP_GEU), W("num", MC_CMP, HD_CMP_NUM), W("nan", MC_CMP, HD_CMP_NAN),
    W("and", MC_BOOL, HD_BOOL_AND), W("or", MC_BOOL, HD_BOOL_OR), W("xor", MC_BOOL, HD_BOOL_XOR),
    W("add", MC_ATOM, HD_ATOM_ADD), W("min", MC_ATOM, HD_ATOM_MIN), W("max", MC_ATOM, HD_ATOM_MAX),
    W("inc", MC_ATOM, HD_ATOM_INC), W("dec", MC_ATOM, HD_ATOM_DEC), W("cas", MC_ATOM, HD_ATOM_CAS),
    W("exch", MC_ATOM, HD_ATOM_EXCH), W("and", MC_ATOM, HD_ATOM_AND), W("or", MC_ATOM, HD_ATOM_OR),
    W("xor", MC_ATOM, HD_ATOM_XOR),
    W("rn", MC_RND, HD_RND_RN), W("rz", MC_RND, HD_RND_RZ), W("rm", MC_RND, HD_RND_RM),
    W("rp", MC_RND, HD_RND_RP), W("rni", MC_RNDI, HD_RND_RNI), W("rzi", MC_RNDI, HD_RND_RZI),
    W("rmi", MC_RNDI, HD_RND_RMI), W("rpi", MC_RNDI, HD_RND_RPI),
    W("ftz", MC_FTZ, 0), W("sat", MC_SAT, 0), W("approx", MC_APPROX, 0), W("full", MC_FULL, 0),
    W("lo", MC_MULMODE, HD_MODE_LO), W("hi", MC_MULMODE, HD_MODE_HI),
    W("wide", MC_MULMODE, HD_MODE_WIDE), W("cc", MC_CC, 0),
    W("v2", MC_VEC, 2), W("v4", MC_VEC, 4),
    W("ca", MC_CACHE, HD_CACHE_CA), W("cg", MC_CACHE, HD_CACHE_CG), W("cs", MC_CACHE, HD_CACHE_CS),
    W("lu", MC_CACHE, HD_CACHE_LU), W("cv", MC_CACHE, HD_CACHE_CV), W("wb", MC_CACHE, HD_CACHE_WB),
    W("wt", MC_CACHE, HD_CACHE_WT), W("nc", MC_NC, 0),
    W("relaxed", MC_ORDER, 1), W("acquire", MC_ORDER, 1), W("release", MC_ORDER, 1),
    W("acq_rel", MC_ORDER, 1), W("sc", MC_ORDER, 1), W("weak", MC_ORDER, 0),
    W("mmio", MC_ORDER, 1),
    W("cta", MC_SCOPE, HD_MODE_SCOPE_CTA), W("gpu", MC_SCOPE, HD_MODE_SCOPE_GPU),
    W("sys", MC_SCOPE, HD_MODE_SCOPE_SYS), W("gl", MC_SCOPE, HD_MODE_SCOPE_GPU),
    W("cluster", MC_SCOPE, HD_MODE_SCOPE_GPU),
    W("uni", MC_UNI, 0), W("volatile", MC_VOLATILE, 0), W("sync", MC_SYNC, 0),
    W("aligned", MC_ALIGNED, 0),
    W("up", MC_SHFL, HD_MODE_SHFL_UP), W("down", MC_SHFL, HD_MODE_SHFL_DOWN),
    W("bfly", MC_SHFL, HD_MODE_SHFL_BFLY), W("idx", MC_SHFL, HD_MODE_SHFL_IDX),
    W("all", MC_VOTE, HD_MODE_VOTE_ALL), W("any", MC_VOTE, HD_MODE_VOTE_ANY),
    W("uni", MC_VOTE, HD_MODE_VOTE_UNI), W("ballot", MC_VOTE, HD_MODE_VOTE_BALLOT),
    W("any", MC_MATCH, HD_MODE_MATCH_ANY), W("all", MC_MATCH, HD_MODE_MATCH_ALL),
    W("f4e", MC_PRMT, HD_MODE_PRMT_F4E), W("b4e", MC_PRMT, HD_MODE_PRMT_B4E),
    W("rc8", MC_PRMT, HD_MODE_PRMT_RC8), W("ecl", MC_PRMT, HD_MODE_PRMT_ECL),
    W("ecr", MC_PRMT, HD_MODE_PRMT_ECR), W("rc16", MC_PRMT, HD_MODE_PRMT_RC16),
    W("l", MC_SHFDIR, HD_MODE_SHF_L), W("r", MC_SHFDIR, HD_MODE_SHF_R),
    W("clamp", MC_SHFCLAMP, 1), W("wrap", MC_SHFCLAMP, 0),
    W("sync", MC_BAR, HD_MODE_BAR_SYNC), W("arrive", MC_BAR, HD_MODE_BAR_ARRIVE),
    W("red", MC_BAR, HD_MODE_BAR_RED_POPC),
    W("popc", MC_BARRED, HD_MODE_BAR_RED_POPC), W("and", MC_BARRED, HD_MODE_BAR_RED_AND),
    W("or", MC_BARRED, HD_MODE_BAR_RED_OR),
    W("warp", MC_WARP, HD_MODE_BAR_WARP_SYNC), W("to", MC_TO, HD_MODE_TO),
    W("shiftamt", MC_SHIFTAMT, 0), W("noftz", MC_NOFTZ, 0),
    W("L1", MC_LEVEL, 1), W("L2", MC_LEVEL, 2),
    W("finite", MC_TESTP, HD_MODE_TESTP_FINITE), W("infinite", MC_TESTP, HD_MODE_TESTP_INFINITE),
    W("number", MC_TESTP, HD_MODE_TESTP_NUMBER),
    W("notanumber", MC_TESTP, HD_MODE_TESTP_NOTANUMBER),
    W("normal", MC_TESTP, HD_MODE_TESTP_NORMAL), W("subnormal", MC_TESTP, HD_MODE_TESTP_SUBNORMAL),
};
/* }==== */

/* {==== Per-opcode modifier categories and type counts ==== */
#define ARITH (M(TYPE) | M(RND) | M(FTZ) | M(SAT))
#define MEMQ (M(CACHE) | M(ORDER) | M(SCOPE) | M(VOLATILE))

struct op_rule {
    uint64_t mods;       /* categories the opcode takes */
    uint8_t min_types, max_types;
};

static const struct op_rule op_rules[HD_OP_COUNT] = {
    [HD_OP_ABS] = {M(TYPE) | M(FTZ), 1, 1},
    [HD_OP_ADD] = {ARITH | M(CC), 1, 1},
    [HD_OP_ADDC] = {M(TYPE) | M(CC), 1, 1},
    [HD_OP_SUB] = {ARITH | M(CC), 1, 1},
    [HD_OP_SUBC] = {M(TYPE) | M(CC), 1, 1},
    [HD_OP_MUL] = {ARITH | M(MULMODE), 1, 1},
    [HD_OP_MUL24] = {M(TYPE) | M(MULMODE), 1, 1},
    [HD_OP_MAD] = {ARITH | M(MULMODE) | M(CC), 1, 1},
    [HD_OP_MAD24] = {M(TYPE) | M(MULMODE) | M(SAT), 1, 1},
    [HD_OP_MADC] = {M(TYPE) | M(MULMODE) | M(CC), 1, 1},
    [HD_OP_SAD] = {M(TYPE), 1, 1},
    [HD_OP_DIV] = {ARITH | M(APPROX) | M(FULL), 1, 1},
    [HD_OP_REM] = {M(TYPE), 1, 1},
    [HD_OP_NEG] = {M(TYPE) | M(FTZ), 1, 1},
    [HD_OP_MIN] = {M(TYPE) | M(FTZ), 1, 1},
    [HD_OP_MAX] = {M(TYPE) | M(FTZ), 1, 1},
    [HD_OP_POPC] = {M(TYPE), 1, 1},
    [HD_OP_CLZ] = {M(TYPE), 1, 1},
    [HD_OP_BFIND] = {M(TYPE) | M(SHIFTAMT), 1, 1},
    [HD_OP_BREV] = {M(TYPE), 1, 1},
    [HD_OP_BFE] = {M(TYPE), 1, 1},
    [HD_OP_BFI] = {M(TYPE), 1, 1},
    [HD_OP_DP4A] = {M(TYPE), 2, 2},
    [HD_OP_DP2A] = {M(TYPE) | M(MULMODE), 2, 2},
    [HD_OP_AND] = {M(TYPE), 1, 1},
    [HD_OP_OR] = {M(TYPE), 1, 1},
    [HD_OP_XOR] = {M(TYPE), 1, 1},
    [HD_OP_NOT] = {M(TYPE), 1, 1},
    [HD_OP_CNOT] = {M(TYPE), 1, 1},
    [HD_OP_LOP3] = {M(TYPE), 1, 1},
    [HD_OP_SHL] = {M(TYPE), 1, 1},
    [HD_OP_SHR] = {M(TYPE), 1, 1},
    [HD_OP_SHF] = {M(TYPE) | M(SHFDIR) | M(SHFCLAMP), 1, 1},
    [HD_OP_PRMT] = {M(TYPE) | M(PRMT), 1, 1},
    [HD_OP_FMA] = {ARITH, 1, 1},
    [HD_OP_COPYSIGN] = {M(TYPE), 1, 1},
    [HD_OP_TESTP] = {M(TYPE) | M(TESTP), 1, 1},
    [HD_OP_RCP] = {ARITH | M(APPROX), 1, 1},
    [HD_OP_SQRT] = {ARITH | M(APPROX), 1, 1},
    [HD_OP_RSQRT] = {M(TYPE) | M(APPROX) | M(FTZ), 1, 1},
    [HD_OP_SIN] = {M(TYPE) | M(APPROX) | M(FTZ), 1, 1},
    [HD_OP_COS] = {M(TYPE) | M(APPROX) | M(FTZ), 1, 1},
    [HD_OP_LG2] = {M(TYPE) | M(APPROX) | M(FTZ), 1, 1},
    [HD_OP_EX2] = {M(TYPE) | M(APPROX) | M(FTZ), 1, 1},
    [HD_OP_TANH] = {M(TYPE) | M(APPROX), 1, 1},
    [HD_OP_SET] = {M(TYPE) | M(CMP) | M(BOOL) | M(FTZ), 2, 2},
    [HD_OP_SETP] = {M(TYPE) | M(CMP) | M(BOOL) | M(FTZ), 1, 1},
    [HD_OP_SELP] = {M(TYPE), 1, 1},
    [HD_OP_SLCT] = {M(TYPE) | M(FTZ), 2, 2},
    [HD_OP_MOV] = {M(TYPE), 1, 1},
    [HD_OP_CVT] = {M(TYPE) | M(RND) | M(RNDI) | M(FTZ) | M(SAT), 2, 2},
    [HD_OP_CVTA] = {M(TYPE) | M(SPACE) | M(TO), 1, 1},
    [HD_OP_ISSPACEP] = {M(SPACE), 0, 0},
    [HD_OP_LD] = {M(TYPE) | M(SPACE) | M(VEC) | MEMQ | M(NC), 1, 1},
    [HD_OP_LDU] = {M(TYPE) | M(SPACE) | M(VEC), 1, 1},
    [HD_OP_ST] = {M(TYPE) | M(SPACE) | M(VEC) | MEMQ, 1, 1},
    [HD_OP_ATOM] = {M(TYPE) | M(SPACE) | M(ATOM) | M(ORDER) | M(SCOPE) | M(NOFTZ), 1, 1},
    [HD_OP_RED] = {M(TYPE) | M(SPACE) | M(ATOM) | M(ORDER) | M(SCOPE) | M(NOFTZ), 1, 1},
    [HD_OP_PREFETCH] = {M(SPACE) | M(LEVEL), 0, 0},
    [HD_OP_BAR] = {M(TYPE) | M(BAR) | M(BARRED) | M(WARP) | M(ALIGNED), 0, 1},
    [HD_OP_BARRIER] = {M(TYPE) | M(BAR) | M(BARRED) | M(ALIGNED), 0, 1},
    [HD_OP_MEMBAR] = {M(SCOPE), 0, 0},
    [HD_OP_FENCE] = {M(ORDER) | M(SCOPE), 0, 0},
    [HD_OP_BRA] = {M(UNI), 0, 0},
    [HD_OP_BRX] = {0, 0, 0},
    [HD_OP_CALL] = {M(UNI), 0, 0},
    [HD_OP_RET] = {M(UNI), 0, 0},
    [HD_OP_EXIT] = {0, 0, 0},
    [HD_OP_TRAP] = {0, 0, 0},
    [HD_OP_BRKPT] = {0, 0, 0},
    [HD_OP_NANOSLEEP] = {M(TYPE), 1, 1},
    [HD_OP_SHFL] = {M(TYPE) | M(SYNC) | M(SHFL), 1, 1},
    [HD_OP_VOTE] = {M(TYPE) | M(SYNC) | M(VOTE), 1, 1},
    [HD_OP_MATCH] = {M(TYPE) | M(SYNC) | M(MATCH), 1, 1},
    [HD_OP_ACTIVEMASK] = {M(TYPE), 1, 1},
    [HD_OP_REDUX] = {M(TYPE) | M(SYNC) | M(ATOM), 1, 1},
    [HD_OP_PMEVENT] = {0, 0, 0},
    [HD_OP_FNS] = {M(TYPE), 1, 1},
    /* vabsdiff2/4.dtype.atype.btype{.sat | .add}: the third type must equal the second */
    [HD_OP_VABSDIFF2] = {M(TYPE) | M(SAT) | M(ATOM), 3, 3},
    [HD_OP_VABSDIFF4] = {M(TYPE) | M(SAT) | M(ATOM), 3, 3},
};
/* }==== */

/* {==== Applying modifiers ==== */
static bool is_cache_hint(const struct hd_ptx_token *t)
{
    /* .L1::evict_last, .L2::128B, .L2::cache_hint ... (eviction priorities, prefetch sizes) */
    return t->len > 5 && (memcmp(t->text, ".L1::", 5) == 0 || memcmp(t->text, ".L2::", 5) == 0);
}

static void set_mode(struct hd_ptx_parser *p, struct hd_instr *in, const struct hd_ptx_token *t,
                     unsigned mode)
{
    char b[64];
    if (in->mode != HD_MODE_NONE && in->mode != mode)
        hd_ptx_fail_tok(p, t, "conflicting modifier '%s'", hd_ptx_tok_show(t, b, sizeof b));
    in->mode = (uint8_t)mode;
}

static void apply(struct hd_ptx_parser *p, struct hd_instr *in, const struct hd_ptx_token *t,
                  unsigned cat, unsigned val)
{
    switch (cat) {
    case MC_CMP: in->cmp = (uint8_t)val; break;
    case MC_BOOL: in->boolop = (uint8_t)val; break;
    case MC_ATOM: in->atom = (uint8_t)val; break;
    case MC_RND: case MC_RNDI: in->rnd = (uint8_t)val; break;
    case MC_FTZ: in->flags |= HD_F_FTZ; break;
    case MC_SAT: in->flags |= HD_F_SAT; break;
    case MC_APPROX: in->flags |= HD_F_APPROX; break;
    case MC_FULL: in->flags |= HD_F_FULL; break;
    case MC_CC: in->flags |= HD_F_CC; break;
    case MC_VEC: in->vec = (uint8_t)val; break;
    case MC_ORDER: if (val) in->flags |= HD_F_RELAXED; break;
    case MC_UNI: in->flags |= HD_F_UNI; break;
    case MC_VOLATILE: in->flags |= HD_F_VOLATILE; break;
    case MC_SYNC: in->flags |= HD_F_SYNC; break;
    case MC_ALIGNED: in->flags |= HD_F_ALIGNED; break;
    case MC_SHFCLAMP: if (val) in->flags |= HD_F_CLAMP; break;
    case MC_SHIFTAMT: in->flags |= HD_F_SHIFTAMT; break;
    case MC_NOFTZ: in->flags |= HD_F_NOFTZ; break;
    case MC_BAR:
        /* bar.warp.sync keeps its warp mode; .red is refined by .popc/.and/.or */
        if (!(in->mode == HD_MODE_BAR_WARP_SYNC && val == HD_MODE_BAR_SYNC))
            set_mode(p, in, t, val);
        break;
    case MC_BARRED:
        if (in->mode != HD_MODE_BAR_RED_POPC)
            hd_ptx_fail_tok(p, t, "'.%.*s' needs .red before it", (int)t->len - 1, t->text + 1);
        in->mode = (uint8_t)val;
        break;
    case MC_MULMODE: case MC_SHFL: case MC_VOTE: case MC_MATCH: case MC_PRMT: case MC_SHFDIR:
    case MC_WARP: case MC_TO: case MC_TESTP:
        set_mode(p, in, t, val);
        break;
    case MC_CACHE:
        in->cache = (uint8_t)val;
        break;
    case MC_NC:
        in->flags |= HD_F_NC;
        break;
    case MC_SCOPE: /* kept for membar/fence only; ld/st/atom scopes do not change results */
        if (in->op == HD_OP_MEMBAR || in->op == HD_OP_FENCE)
            in->mode = (uint8_t)val;
        break;
    default: /* MC_LEVEL: accepted, no effect on the IR */
        break;
    }
}

void hd_ptx_apply_modifier(struct hd_ptx_parser *p, struct hd_instr *in, uint32_t *ntypes,
                           uint64_t *seen, const struct hd_ptx_token *t)
{
    char b[64];
    const char *opname = hd_op_name((enum hd_op)in->op);
    const struct op_rule *r = &op_rules[in->op];
    enum hd_type ty = hd_ptx_type_from_dir(t);
    if (ty != HD_T_NONE) {
        if (!(r->mods & M(TYPE)) || *ntypes >= r->max_types)
            hd_ptx_fail_tok(p, t, "'%s' takes %s type%s here (extra '%s')", opname,
                            r->max_types == 0   ? "no"
                            : r->max_types == 1 ? "one"
                            : r->max_types == 2 ? "two"
                                                : "three",
                            r->max_types >= 2 ? "s" : "", hd_ptx_tok_show(t, b, sizeof b));
        if (*ntypes == 2 && ty != in->type2) /* a video op's .btype: kept only as .atype */
            hd_ptx_fail_tok(p, t, "'%s' with different .atype and .btype is not supported",
                            opname);
        if (*ntypes == 0)
            in->type = (uint8_t)ty;
        else
            in->type2 = (uint8_t)ty;
        (*ntypes)++;
        return;
    }
    enum hd_space sp = hd_ptx_space_from_dir(t);
    if (sp != HD_SPACE_NONE && (r->mods & M(SPACE))) {
        if (*seen & M(SPACE))
            hd_ptx_fail_tok(p, t, "more than one state space");
        *seen |= M(SPACE);
        in->space = (uint8_t)sp;
        return;
    }
    if (is_cache_hint(t) && (r->mods & M(CACHE)))
        return;
    bool known = sp != HD_SPACE_NONE || is_cache_hint(t);
    for (size_t k = 0; k < sizeof mod_words / sizeof mod_words[0]; k++) {
        const struct mod_word *w = &mod_words[k];
        if (t->len != (uint32_t)w->len + 1 || w->word[0] != t->text[1] ||
            memcmp(t->text + 1, w->word, w->len) != 0)
            continue;
        known = true;
        if (!(r->mods & (1ull << w->cat)))
            continue;
        uint64_t bit = 1ull << w->cat;
        if (w->cat == MC_RND || w->cat == MC_RNDI)
            bit = M(RND) | M(RNDI);
        if (*seen & bit)
            hd_ptx_fail_tok(p, t, "repeated or conflicting modifier '%s'",
                            hd_ptx_tok_show(t, b, sizeof b));
        *seen |= bit;
        apply(p, in, t, w->cat, w->val);
        return;
    }
    if (known)
        hd_ptx_fail_tok(p, t, "modifier '%s' is not valid for '%s'",
                        hd_ptx_tok_show(t, b, sizeof b), opname);
    hd_ptx_fail_tok(p, t, "unknown modifier '%s'", hd_ptx_tok_show(t, b, sizeof b));
}
/* }==== */

/* {==== Type classes and required modifiers ==== */
enum { TC_INT = 1, TC_BIT = 2, TC_FLT = 4, TC_HALF = 8, TC_PRED = 16 };
#define TC_NUM (TC_INT | TC_FLT | TC_HALF)
#define TC_ANY (TC_INT | TC_BIT | TC_FLT | TC_HALF)

static const uint8_t op_tclass[HD_OP_COUNT] = {
    [HD_OP_ABS] = TC_NUM, [HD_OP_ADD] = TC_NUM, [HD_OP_ADDC] = TC_INT, [HD_OP_SUB] = TC_NUM,
    [HD_OP_SUBC] = TC_INT, [HD_OP_MUL] = TC_NUM, [HD_OP_MUL24] = TC_INT, [HD_OP_MAD] = TC_NUM,
    [HD_OP_MAD24] = TC_INT, [HD_OP_MADC] = TC_INT, [HD_OP_SAD] = TC_INT,
    [HD_OP_DIV] = TC_INT | TC_FLT, [HD_OP_REM] = TC_INT, [HD_OP_NEG] = TC_NUM,
    [HD_OP_MIN] = TC_NUM, [HD_OP_MAX] = TC_NUM, [HD_OP_POPC] = TC_BIT, [HD_OP_CLZ] = TC_BIT,
    [HD_OP_BFIND] = TC_INT, [HD_OP_BREV] = TC_BIT, [HD_OP_BFE] = TC_INT, [HD_OP_BFI] = TC_BIT,
    [HD_OP_DP4A] = TC_INT, [HD_OP_DP2A] = TC_INT, [HD_OP_AND] = TC_BIT | TC_PRED,
    [HD_OP_OR] = TC_BIT | TC_PRED, [HD_OP_XOR] = TC_BIT | TC_PRED,
    [HD_OP_NOT] = TC_BIT | TC_PRED, [HD_OP_CNOT] = TC_BIT, [HD_OP_LOP3] = TC_BIT,
    [HD_OP_SHL] = TC_BIT, [HD_OP_SHR] = TC_BIT | TC_INT, [HD_OP_SHF] = TC_BIT,
    [HD_OP_PRMT] = TC_BIT, [HD_OP_FMA] = TC_FLT | TC_HALF, [HD_OP_COPYSIGN] = TC_FLT,
    [HD_OP_TESTP] = TC_FLT, [HD_OP_RCP] = TC_FLT, [HD_OP_SQRT] = TC_FLT,
    [HD_OP_RSQRT] = TC_FLT, [HD_OP_SIN] = TC_FLT, [HD_OP_COS] = TC_FLT,
    [HD_OP_LG2] = TC_FLT, [HD_OP_EX2] = TC_FLT | TC_HALF, [HD_OP_TANH] = TC_FLT | TC_HALF,
    [HD_OP_SET] = TC_ANY, [HD_OP_SETP] = TC_ANY, [HD_OP_SELP] = TC_ANY,
    [HD_OP_SLCT] = TC_ANY, [HD_OP_MOV] = TC_ANY | TC_PRED, [HD_OP_CVT] = TC_ANY,
    [HD_OP_CVTA] = TC_INT, [HD_OP_LD] = TC_ANY, [HD_OP_LDU] = TC_ANY, [HD_OP_ST] = TC_ANY,
    [HD_OP_ATOM] = TC_ANY, [HD_OP_RED] = TC_ANY, [HD_OP_BAR] = TC_INT | TC_PRED,
    [HD_OP_BARRIER] = TC_INT | TC_PRED, [HD_OP_NANOSLEEP] = TC_INT, [HD_OP_SHFL] = TC_BIT,
    [HD_OP_VOTE] = TC_BIT | TC_PRED, [HD_OP_MATCH] = TC_BIT, [HD_OP_ACTIVEMASK] = TC_BIT,
    [HD_OP_REDUX] = TC_INT | TC_BIT, [HD_OP_FNS] = TC_BIT, [HD_OP_VABSDIFF2] = TC_INT,
    [HD_OP_VABSDIFF4] = TC_INT,
};

static unsigned type_class(enum hd_type t)
{
    switch (t) {
    case HD_T_B8: case HD_T_B16: case HD_T_B32: case HD_T_B64: case HD_T_B128: return TC_BIT;
    case HD_T_F32: case HD_T_F64: return TC_FLT;
    case HD_T_F16: case HD_T_F16X2: case HD_T_BF16: case HD_T_BF16X2: return TC_HALF;
    case HD_T_PRED: return TC_PRED;
    case HD_T_NONE: case HD_T_COUNT: return 0;
    default: return TC_INT;
    }
}

static void need(struct hd_ptx_parser *p, const struct hd_instr *in, bool ok, const char *what)
{
    if (!ok)
        hd_ptx_fail_at(p, in->line, in->col, "'%s' %s", hd_op_name((enum hd_op)in->op), what);
}

void hd_ptx_check_modifiers(struct hd_ptx_parser *p, struct hd_instr *in, uint32_t ntypes,
                            uint64_t seen)
{
    const struct op_rule *r = &op_rules[in->op];
    enum hd_op op = (enum hd_op)in->op;
    need(p, in, op != HD_OP_BRX, "(indirect branch) is not supported");
    need(p, in, ntypes >= r->min_types,
         r->min_types == 3   ? "needs three types (.dtype.atype.btype)"
         : r->min_types == 2 ? "needs two types"
                             : "needs a type");
    if (ntypes > 0) {
        unsigned tc = type_class((enum hd_type)in->type);
        if (op == HD_OP_AND || op == HD_OP_OR || op == HD_OP_XOR || op == HD_OP_NOT ||
            op == HD_OP_POPC || op == HD_OP_CLZ || op == HD_OP_BREV || op == HD_OP_BFI)
            tc = tc == TC_INT ? TC_BIT : tc; /* these take .b types; accept .u/.s too */
        need(p, in, (op_tclass[op] & tc) != 0, "does not take this type");
    }
    if (in->rnd != HD_RND_NONE && op != HD_OP_CVT)
        need(p, in, hd_type_is_float((enum hd_type)in->type), "takes a rounding mode only "
             "with a floating-point type");
    if ((in->flags & (HD_F_APPROX | HD_F_FULL)) && op == HD_OP_DIV)
        need(p, in, in->type == HD_T_F32, "takes .approx/.full only with .f32");
    switch (op) {
    case HD_OP_SET: case HD_OP_SETP:
        need(p, in, in->cmp != HD_CMP_NONE, "needs a comparison (.eq, .lt, ...)");
        break;
    case HD_OP_ATOM: case HD_OP_RED: case HD_OP_REDUX:
        need(p, in, in->atom != HD_ATOM_NONE, "needs an operation (.add, .cas, ...)");
        need(p, in, op == HD_OP_ATOM || in->atom != HD_ATOM_CAS, "cannot do .cas");
        break;
    case HD_OP_SHFL: case HD_OP_VOTE: case HD_OP_MATCH: case HD_OP_TESTP: case HD_OP_SHF:
        need(p, in, in->mode != HD_MODE_NONE, "needs its mode modifier");
        break;
    case HD_OP_MUL: case HD_OP_MAD:
        if (!hd_type_is_float((enum hd_type)in->type))
            need(p, in, in->mode != HD_MODE_NONE, "on integers needs .lo, .hi or .wide");
        else
            need(p, in, in->mode == HD_MODE_NONE, "on floating point takes no .lo/.hi/.wide");
        break;
    case HD_OP_MUL24: case HD_OP_MAD24:
        need(p, in, in->mode == HD_MODE_LO || in->mode == HD_MODE_HI, "needs .lo or .hi");
        break;
    case HD_OP_CVTA:
        need(p, in, in->space != HD_SPACE_NONE && in->space != HD_SPACE_REG,
             "needs a state space");
        need(p, in, in->type == HD_T_U32 || in->type == HD_T_U64, "needs .u32 or .u64");
        break;
    case HD_OP_ISSPACEP:
        need(p, in, in->space != HD_SPACE_NONE, "needs a state space");
        break;
    case HD_OP_FNS:
        need(p, in, in->type == HD_T_B32, "needs .b32");
        break;
    case HD_OP_VABSDIFF2: case HD_OP_VABSDIFF4:
        need(p, in, (in->type == HD_T_U32 || in->type == HD_T_S32) &&
                        (in->type2 == HD_T_U32 || in->type2 == HD_T_S32),
             "takes .u32 or .s32 types");
        need(p, in, in->atom == HD_ATOM_NONE || in->atom == HD_ATOM_ADD,
             "takes .add as its only secondary operation");
        need(p, in, !(in->atom == HD_ATOM_ADD && (in->flags & HD_F_SAT)),
             "cannot saturate (.sat) with .add");
        break;
    case HD_OP_MEMBAR:
        need(p, in, (seen & M(SCOPE)) != 0, "needs a level (.cta, .gl or .sys)");
        break;
    case HD_OP_BAR: case HD_OP_BARRIER:
        need(p, in, in->mode != HD_MODE_NONE, "needs .sync, .arrive or .red");
        if (in->mode >= HD_MODE_BAR_RED_POPC && in->mode <= HD_MODE_BAR_RED_OR) {
            need(p, in, (seen & M(BARRED)) != 0, ".red needs .popc, .and or .or");
            need(p, in, in->type == (in->mode == HD_MODE_BAR_RED_POPC ? HD_T_U32 : HD_T_PRED),
                 ".red needs .u32 (popc) or .pred (and, or)");
        } else {
            need(p, in, ntypes == 0, "takes no type here");
        }
        if (op == HD_OP_BAR && in->mode != HD_MODE_BAR_WARP_SYNC)
            in->flags |= HD_F_ALIGNED; /* bar.* is barrier.*.aligned */
        break;
    default:
        break;
    }
}
/* }==== */
