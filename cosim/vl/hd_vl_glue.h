// SPDX-License-Identifier: MIT
// hd_vl_glue.h - Verilator C++-API glue of one block, expanded from its ports.def (rule G1): the
// copy-in of IN rows, the copy-out of OUT rows (a 32-bit word loop for HD_PORT_W rows), a
// compile-time check that each port landed in the Verilator type its width implies (CData 1-8,
// SData 9-16, IData 17-32, QData 33-64, VlWide above), and the hd_cosim_rtl_ops of the block.
// Include it in a one-block .cpp after defining:
//   HD_PORTS_DEF   "regpat_comp_ports.def"     HD_VL_TOP   Vregpat_comp (the --prefix)
//   HD_VL_IN/OUT   the C reference's structs   HD_VL_OPS   hd_cosim_rtl_regpat_comp
//   HD_VL_NAME     "regpat_comp"
// One cycle (step): inputs applied with the clock low, outputs read (they are registered: the
// values of this cycle), then the rising edge; the same order as the C reference's step. An
// assertion that fails in a step is reported by failure() (hd_vl_context.h), never ignored.
// With HD_VL_INTERNAL (the --public-flat-rw variant, hd_cosim_rtl_find_internal) the block's
// internal signals are listed at create and sampled when the outputs are read
// (hd_vl_internal.h, issue 16 item 5); without it the ops' signal entries are null.
#include "hd_vl_context.h"
#ifdef HD_VL_INTERNAL
#include "hd_vl_internal.h"
#endif

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>
#include <verilated.h>

namespace {

constexpr std::size_t vl_bytes(unsigned w)
{
    return w <= 8 ? 1 : w <= 16 ? 2 : w <= 32 ? 4 : w <= 64 ? 8 : ((w + 31) / 32) * 4;
}

// A HD_PORT_W row's words from/to the Verilator value (VlWide, or an integer up to 64 bits).
template <class T> void vl_words_in(T &v, const uint32_t *w, unsigned width)
{
    if constexpr (std::is_integral<T>::value) {
        uint64_t x = w[0];
        if (width > 32)
            x |= static_cast<uint64_t>(w[1]) << 32;
        v = static_cast<T>(x);
    } else {
        for (unsigned i = 0; i < (width + 31) / 32; i++)
            v[i] = w[i];
    }
}
template <class T> void vl_words_out(const T &v, uint32_t *w, unsigned width)
{
    if constexpr (std::is_integral<T>::value) {
        const uint64_t x = static_cast<uint64_t>(v);
        for (unsigned i = 0; i < (width + 31) / 32; i++)
            w[i] = static_cast<uint32_t>(x >> (32 * i));
    } else {
        for (unsigned i = 0; i < (width + 31) / 32; i++)
            w[i] = v[i];
    }
}

struct Handle {
    hd_vl::Context ctx;
    HD_VL_TOP *top;
#ifdef HD_VL_INTERNAL
    hd_vl::Internals internals;
#endif
};

void copy_in(HD_VL_TOP *t, const HD_VL_IN *in)
{
#define HD_BLOCK(n, lat, doc)
#define HD_CLOCK(n)
#define HD_RESET(n)
#define HD_VLI_IN(n, w)                                                                            \
    static_assert(sizeof(t->n) == vl_bytes(w), #n ": Verilator type does not match the width");   \
    t->n = static_cast<std::remove_reference<decltype(t->n)>::type>(in->n);
#define HD_VLI_OUT(n, w)
#define HD_VLIW_IN(n, w)                                                                           \
    static_assert(sizeof(t->n) == vl_bytes(w), #n ": Verilator type does not match the width");   \
    vl_words_in(t->n, in->n, (w));
#define HD_VLIW_OUT(n, w)
#define HD_PORT(d, n, w, r, doc) HD_VLI_##d(n, w)
#define HD_PORT_W(d, n, w, r, doc) HD_VLIW_##d(n, w)
#include HD_PORTS_DEF
#undef HD_PORT
#undef HD_PORT_W
}

void copy_out(const HD_VL_TOP *t, HD_VL_OUT *out)
{
#define HD_VLO_IN(n, w)
#define HD_VLO_OUT(n, w)                                                                           \
    static_assert(sizeof(t->n) == vl_bytes(w), #n ": Verilator type does not match the width");   \
    out->n = t->n;
#define HD_VLOW_IN(n, w)
#define HD_VLOW_OUT(n, w)                                                                          \
    static_assert(sizeof(t->n) == vl_bytes(w), #n ": Verilator type does not match the width");   \
    vl_words_out(t->n, out->n, (w));
#define HD_PORT(d, n, w, r, doc) HD_VLO_##d(n, w)
#define HD_PORT_W(d, n, w, r, doc) HD_VLOW_##d(n, w)
#include HD_PORTS_DEF
#undef HD_PORT
#undef HD_PORT_W
#undef HD_BLOCK
#undef HD_CLOCK
#undef HD_RESET
}

void *create(const char *plusargs)
{
    Handle *h = new Handle;
    h->ctx.fatalOnError(false); // a failing assertion is recorded (vl_stop) and reported by failure()
    if (plusargs && plusargs[0]) {
        std::vector<std::string> words;
        std::string cur;
        for (const char *c = plusargs;; c++) {
            if (*c == ' ' || *c == '\0') {
                if (!cur.empty())
                    words.push_back(cur);
                cur.clear();
                if (!*c)
                    break;
            } else {
                cur += *c;
            }
        }
        std::vector<const char *> argv;
        for (const std::string &w : words)
            argv.push_back(w.c_str());
        h->ctx.commandArgsAdd(static_cast<int>(argv.size()), argv.data());
    }
    h->top = new HD_VL_TOP{&h->ctx};
#ifdef HD_VL_INTERNAL
    h->internals.build(h->ctx, HD_VL_NAME);
#endif
    return h;
}

const char *failure(void *hv)
{
    Handle *h = static_cast<Handle *>(hv);
    if (h->ctx.file.empty())
        return nullptr;
    h->ctx.message = hd_vl::assertion_name(h->ctx.file, h->ctx.line);
    h->ctx.clear();
    return h->ctx.message.c_str();
}

void reset(void *hv)
{
    Handle *h = static_cast<Handle *>(hv);
    Verilated::threadContextp(&h->ctx); // where vl_stop() records a failing assertion
    h->top->clk_i = 0;
    h->top->rst_ni = 0;
    h->top->eval();
    for (int i = 0; i < 2; i++) {
        h->top->clk_i = 1;
        h->top->eval();
        h->top->clk_i = 0;
        h->top->eval();
    }
    h->top->rst_ni = 1;
    h->top->eval();
}

void step(void *hv, const void *in, void *out)
{
    Handle *h = static_cast<Handle *>(hv);
    Verilated::threadContextp(&h->ctx); // where vl_stop() records a failing assertion
    // The clock's falling edge joins the next step's inputs: every block is clocked on the
    // rising edge only (rtl/: always_ff @(posedge clk_i), reset on negedge rst_ni), so an eval
    // of the falling edge alone changes no state; two evals per step instead of three (each
    // runs the input-driven combinational logic again).
    h->top->clk_i = 0;
    copy_in(h->top, static_cast<const HD_VL_IN *>(in));
    h->top->eval();
    copy_out(h->top, static_cast<HD_VL_OUT *>(out));
#ifdef HD_VL_INTERNAL
    h->internals.sample();
#endif
    h->top->clk_i = 1;
    h->top->eval();
}

void destroy(void *hv)
{
    Handle *h = static_cast<Handle *>(hv);
    Verilated::threadContextp(&h->ctx); // the model's scopes unregister from its own context
    h->top->final();
    delete h->top;
    delete h;
    Verilated::threadContextp(nullptr); // never left pointing at a deleted context
}

#ifdef HD_VL_INTERNAL
unsigned nsignals(void *hv)
{
    return static_cast<Handle *>(hv)->internals.count();
}

const char *signal(void *hv, unsigned k, unsigned *width)
{
    const hd_vl::Internals &in = static_cast<Handle *>(hv)->internals;
    *width = in.width(k);
    return in.name(k);
}

const uint32_t *value(void *hv, unsigned k)
{
    return static_cast<Handle *>(hv)->internals.value(k);
}
#else
constexpr unsigned (*nsignals)(void *) = nullptr;
constexpr const char *(*signal)(void *, unsigned, unsigned *) = nullptr;
constexpr const uint32_t *(*value)(void *, unsigned) = nullptr;
#endif

} // namespace

extern "C" const struct hd_cosim_rtl_ops HD_VL_OPS = {HD_VL_NAME, create, reset,    step,
                                                      failure,    destroy, nsignals, signal,
                                                      value};
