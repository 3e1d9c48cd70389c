// SPDX-License-Identifier: MIT
// tb_harness.h - the shared SystemC sim controller of the block testbenches (rule G4): signals
// and port binding expanded from the block's ports.def, clock and reset, seed, cycle budget,
// FST on request (the cosim FST writer: in/ref/rtl scopes), and the every-cycle comparison of
// every output port against the C reference (the model's object code); optionally resets
// mid-stream and the reference's idle contract (TB_REF_IDLE), and the block's functional
// coverage (rtl/<b>/<b>_cover.def, model/hw/hd_cover.h: every declared bin must be hit, or the
// run fails). A testbench supplies only its stimulus (and any coverage of its own). Define before including: HD_PORTS_DEF, TB_TOP (Verilator
// --sc prefix), TB_IN, TB_OUT, TB_STATE (C reference types), TB_REF_RESET, TB_REF_STEP, TB_BLOCK.
#include <systemc.h>

#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

extern "C" {
#include "cosim_fst.h"
#include "cosim_inst.h"
}

namespace tb {

template <unsigned W>
using sig_t = typename std::conditional<
    W == 1, bool,
    typename std::conditional<W <= 32, uint32_t,
                              typename std::conditional<W <= 64, uint64_t, sc_bv<W>>::type>::type>::type;

template <class T> void put(sc_signal<T> &s, uint64_t v) { s.write(static_cast<T>(v)); }
// HD_PORT_W rows of 64 bits or fewer (a configuration's width of a row wider in another) are
// Verilator's integer signals: sig_t, their words joined and split.
template <unsigned W>
using sig_w_t = typename std::conditional<W <= 64, sig_t<W>, sc_bv<W>>::type;
template <int W, class T, typename std::enable_if<std::is_integral<T>::value, int>::type = 0>
void put_w(sc_signal<T> &s, const uint32_t *v)
{
    uint64_t x = v[0];
    if (W > 32)
        x |= static_cast<uint64_t>(v[1]) << 32;
    s.write(static_cast<T>(x));
}
template <int W, class T, typename std::enable_if<std::is_integral<T>::value, int>::type = 0>
void get_w(const sc_signal<T> &s, uint32_t *v)
{
    const uint64_t x = static_cast<uint64_t>(s.read());
    for (int i = 0; i < (W + 31) / 32; i++)
        v[i] = static_cast<uint32_t>(x >> (32 * i));
}
template <int W> void put_w(sc_signal<sc_bv<W>> &s, const uint32_t *v)
{
    sc_bv<W> b;
    for (int i = 0; i < (W + 31) / 32; i++)
        b.set_word(i, v[i]);
    s.write(b);
}
template <class T> uint64_t get(const sc_signal<T> &s) { return static_cast<uint64_t>(s.read()); }
template <int W> void get_w(const sc_signal<sc_bv<W>> &s, uint32_t *v)
{
    sc_bv<W> b = s.read();
    for (int i = 0; i < (W + 31) / 32; i++)
        v[i] = b.get_word(i);
}

struct Signals {
    sc_signal<bool> clk{"clk"}, rst_n{"rst_n"};
#define HD_BLOCK(n, lat, d)
#define HD_CLOCK(n)
#define HD_RESET(n)
#define HD_PORT(d, n, w, r, dc) sc_signal<sig_t<w>> n{#n};
#define HD_PORT_W(d, n, w, r, dc) sc_signal<sig_w_t<w>> n{#n};
#include HD_PORTS_DEF
#undef HD_PORT
#undef HD_PORT_W
#undef HD_BLOCK
#undef HD_CLOCK
#undef HD_RESET

    void bind(TB_TOP &top)
    {
#define HD_BLOCK(n, lat, d)
#define HD_CLOCK(n) top.n(clk);
#define HD_RESET(n) top.n(rst_n);
#define HD_PORT(d, n, w, r, dc) top.n(n);
#define HD_PORT_W(d, n, w, r, dc) top.n(n);
#include HD_PORTS_DEF
#undef HD_PORT
#undef HD_PORT_W
#undef HD_BLOCK
#undef HD_CLOCK
#undef HD_RESET
    }
    void drive(const TB_IN &in)
    {
#define HD_BLOCK(n, lat, d)
#define HD_CLOCK(n)
#define HD_RESET(n)
#define HD_TBI_IN(n, w) put(n, in.n);
#define HD_TBI_OUT(n, w)
#define HD_TBIW_IN(n, w) put_w<w>(n, in.n);
#define HD_TBIW_OUT(n, w)
#define HD_PORT(d, n, w, r, dc) HD_TBI_##d(n, w)
#define HD_PORT_W(d, n, w, r, dc) HD_TBIW_##d(n, w)
#include HD_PORTS_DEF
#undef HD_PORT
#undef HD_PORT_W
    }
    void sample(TB_OUT &out) const
    {
#define HD_TBO_IN(n, w)
#define HD_TBO_OUT(n, w) out.n = get(n);
#define HD_TBOW_IN(n, w)
#define HD_TBOW_OUT(n, w) get_w<w>(n, out.n);
#define HD_PORT(d, n, w, r, dc) HD_TBO_##d(n, w)
#define HD_PORT_W(d, n, w, r, dc) HD_TBOW_##d(n, w)
#include HD_PORTS_DEF
#undef HD_PORT
#undef HD_PORT_W
#undef HD_BLOCK
#undef HD_CLOCK
#undef HD_RESET
    }
};

struct Rng { // xorshift64*: deterministic from --seed
    uint64_t s;
    uint32_t next()
    {
        s ^= s >> 12;
        s ^= s << 25;
        s ^= s >> 27;
        return static_cast<uint32_t>((s * 2685821657736338717ull) >> 32);
    }
    uint32_t below(uint32_t n) { return n ? next() % n : 0; }
};

struct Options {
    uint64_t seed = 1, cycles = 20000;
    std::string fst, replay;
    bool api = false; // same stimulus through the Verilator C++ API lockstep (run_api)
    // --stop-on-mismatch: end the run at the first mismatching cycle (exit 1 as without it): a
    // mutation run needs only the verdict, and a killed mutant then costs the cycles up to its
    // first mismatch, not the whole stimulus (scripts/mutate.py, docs/verification.md)
    bool stop = false;
};

inline double now_s(void)
{
    using namespace std::chrono;
    return duration<double>(steady_clock::now().time_since_epoch()).count();
}

inline Options parse(int argc, char **argv)
{
    Options o;
    Verilated::commandArgs(argc, argv); // +plusargs: +hd_mut=N (scripts/mutate.py), +verilator+...
    for (int i = 1; i < argc; i++) {
        std::string a = argv[i];
        if (a.size() > 1 && a[0] == '+')
            continue;
        auto val = [&](void) -> std::string {
            if (i + 1 >= argc) {
                std::fprintf(stderr, "%s: %s needs a value\n", argv[0], a.c_str());
                std::exit(2);
            }
            return argv[++i];
        };
        if (a == "--seed") o.seed = std::strtoull(val().c_str(), nullptr, 0);
        else if (a == "--cycles") o.cycles = std::strtoull(val().c_str(), nullptr, 0);
        else if (a == "--fst") o.fst = val();
        else if (a == "--replay") o.replay = val();
        else if (a == "--api") o.api = true;
        else if (a == "--stop-on-mismatch") o.stop = true;
        else {
            std::fprintf(stderr, "usage: %s [--seed N] [--cycles N] [--replay FILE] [--fst FILE] [--api] [--stop-on-mismatch] [+plusarg...]\n", argv[0]);
            std::exit(2);
        }
    }
    if (o.seed == 0)
        o.seed = 1;
    return o;
}

// Runs the stimulus (one TB_IN per cycle) through RTL and reference; returns the exit code.
// resets (ascending stimulus cycles): before driving stimulus cycle c, rst_n is pulsed low over
// one clock edge and the reference is reset (a reset mid-stream: the same as at the start).
template <class Cover>
int run(const char *name, const Options &o, const std::vector<TB_IN> &stim, Cover &cover,
        const std::vector<uint64_t> &resets = std::vector<uint64_t>())
{
    Signals s;
    TB_TOP top("top");
    s.bind(top);
    TB_STATE ref;
    std::memset(&ref, 0xa5, sizeof ref); // the reset must define every field of the state
    TB_REF_RESET(&ref);
    struct hd_cosim_inst fake;
    std::memset(&fake, 0, sizeof fake);
    fake.b = &TB_BLOCK;
    std::snprintf(fake.name, sizeof fake.name, "tb.%s", TB_BLOCK.name);
    struct hd_cosim_fst *f = o.fst.empty() ? nullptr : hd_cosim_fst_open(o.fst.c_str());
    int fi = f ? hd_cosim_fst_add(f, &fake) : -1;
    const struct hd_hw_ref_block *rb = hd_hw_ref_find(TB_BLOCK.name);
    struct hd_cover cov;
    if (!rb || !rb->cover || hd_cover_init(&cov, rb->cover) != 0) {
        std::printf("%s: COVERAGE: block %s declares no bins (rtl/%s/%s_cover.def)\n", name,
                    TB_BLOCK.name, TB_BLOCK.name, TB_BLOCK.name);
        return 1;
    }
    // reset: two edges
    TB_IN idle;
    std::memset(&idle, 0, sizeof idle);
    s.drive(idle);
    s.rst_n.write(false);
    s.clk.write(false);
    sc_start(1, SC_NS);
    for (int i = 0; i < 2; i++) {
        s.clk.write(true);
        sc_start(1, SC_NS);
        s.clk.write(false);
        sc_start(1, SC_NS);
    }
    s.rst_n.write(true);
    sc_start(1, SC_NS);
    uint64_t bad = 0;
    double t0 = now_s();
    size_t next_reset = 0;
    for (uint64_t c = 0; c < stim.size() + TB_BLOCK.latency + 1; c++) {
        const TB_IN &in = c < stim.size() ? stim[c] : idle;
        if (next_reset < resets.size() && resets[next_reset] == c) {
            next_reset++;
            s.drive(idle);
            s.rst_n.write(false);
            sc_start(1, SC_NS);
            s.clk.write(true);
            sc_start(1, SC_NS);
            s.clk.write(false);
            sc_start(1, SC_NS);
            s.rst_n.write(true);
            TB_REF_RESET(&ref);
            hd_cover_reset(&cov);
        }
        s.drive(in);
        sc_start(1, SC_NS); // inputs settle with the clock low
        TB_OUT rtl, expect;
        std::memset(&rtl, 0, sizeof rtl);
        s.sample(rtl);
#ifdef TB_REF_IDLE
        // The reference's idle test (model/hw/hw_inst.h): idle => this step leaves the state
        // (but for its step counter) unchanged and gives all-zero outputs; a reset block with
        // no input is idle. A testbench opts in by defining TB_REF_IDLE (hd_<b>_ref_idle).
        TB_STATE before, rest;
        std::memcpy(&before, &ref, sizeof ref);
        std::memset(&rest, 0xa5, sizeof rest);
        TB_REF_RESET(&rest);
        rest.cycle = ref.cycle;
        TB_IN zin;
        std::memset(&zin, 0, sizeof zin);
        const bool idle = TB_REF_IDLE(&ref, &in);
        const bool at_rest = std::memcmp(&rest, &ref, sizeof ref) == 0 &&
                             std::memcmp(&zin, &in, sizeof in) == 0;
#endif
        TB_REF_STEP(&ref, &in, &expect);
#ifdef TB_REF_IDLE
        {
            TB_OUT zq;
            std::memset(&zq, 0, sizeof zq);
            before.cycle = ref.cycle;
            const bool changed = std::memcmp(&before, &ref, sizeof ref) != 0 ||
                                 std::memcmp(&zq, &expect, sizeof zq) != 0;
            if ((idle && changed) || (at_rest && !idle)) {
                if (bad++ < 10)
                    std::printf("%s: IDLE TEST wrong cycle=%" PRIu64 ": says %s, the step %s\n",
                                name, c, idle ? "idle" : "busy",
                                changed ? "changes state or outputs" : "is at rest");
            }
        }
#endif
        for (unsigned p = 0; p < TB_BLOCK.nports; p++) {
            const struct hd_port_desc *d = &TB_BLOCK.ports[p];
            if (d->dir != HD_DIR_OUT || hd_port_equal(d, &expect, &rtl))
                continue;
            if (bad++ < 10) {
                char a[300], b[300];
                hd_port_format(d, &expect, a, sizeof a);
                hd_port_format(d, &rtl, b, sizeof b);
                std::printf("%s: MISMATCH cycle=%" PRIu64 " port=%s ref=%s rtl=%s\n", name, c, d->name, a, b);
            }
        }
        cover(in, expect);
        hd_cover_sample(&cov, &in, &expect, &ref);
        if (f) {
            struct hd_cosim_tag t;
            std::memset(&t, 0, sizeof t);
            t.now = c;
            hd_cosim_fst_cycle(f, fi, c, &in, &expect, &rtl, &t);
        }
        s.clk.write(true);
        sc_start(1, SC_NS);
        s.clk.write(false);
        if (bad && o.stop) {
            std::printf("%s: stopped at cycle %" PRIu64 " (--stop-on-mismatch)\n", name, c);
            break;
        }
    }
    if (f) {
        std::string g = o.fst + ".gtkw";
        hd_cosim_fst_close(f, g.c_str(), UINT64_MAX);
    }
    top.final();
    double secs = now_s() - t0;
    std::printf("%s: %zu stimulus cycles, seed %" PRIu64 ", %" PRIu64 " mismatching ports\n", name,
                stim.size(), o.seed, bad);
    std::printf("%s: SystemC lockstep %.3f s, %.0f ns per cycle\n", name, secs,
                1e9 * secs / (double)(stim.size() ? stim.size() : 1));
    hd_cover_print(&cov, name, stdout);
    unsigned holes = hd_cover_check(&cov, name, stdout);
    unsigned reach, hit = hd_cover_hit(&cov, &reach);
    std::printf("%s: functional coverage %u of %u bins hit%s\n", name, hit, reach,
                holes ? " (COVERAGE FAILED)" : "");
    hd_cover_free(&cov);
    return bad || holes ? 1 : 0;
}

// The same stimulus through the full-GPU harness's path: hd_cosim_inst with the Verilator C++
// API backend `rtl` (cosim/vl glue) and the C reference, every output compared every cycle.
// For the harness measurement (docs/blocks/regpat.md); returns the exit code.
template <class Cover>
int run_api(const char *name, const Options &o, const std::vector<TB_IN> &stim, Cover &cover,
            const struct hd_cosim_rtl_ops *rtl)
{
    const struct hd_hw_ref_block *ref = hd_hw_ref_find(TB_BLOCK.name); // model/hw/hw_ref.h
    struct hd_cosim_inst x;
    if (!ref || hd_cosim_inst_init(&x, name, ref, rtl, false, 64, nullptr) != 0 ||
        hd_cosim_inst_cover(&x) != 0)
        return 2;
    TB_IN idle;
    std::memset(&idle, 0, sizeof idle);
    struct hd_cosim_tag t;
    std::memset(&t, 0, sizeof t);
    double t0 = now_s();
    bool ok = true;
    for (uint64_t c = 0; c < stim.size() + TB_BLOCK.latency + 1 && ok; c++) {
        const TB_IN &in = c < stim.size() ? stim[c] : idle;
        TB_OUT out;
        ok = hd_cosim_step(&x, &in, &out, c, &t);
        cover(in, out);
    }
    double secs = now_s() - t0;
    if (!ok)
        std::printf("%s: MISMATCH\n%s", name, x.errors ? x.errors : "");
    hd_cover_print(x.cov, name, stdout); // reported only: this path pulses no reset mid-stream
    hd_cosim_inst_free(&x);
    std::printf("%s: %zu stimulus cycles, seed %" PRIu64 ", %s\n", name, stim.size(), o.seed,
                ok ? "0 mismatches" : "MISMATCH");
    std::printf("%s: C++ API lockstep %.3f s, %.0f ns per cycle\n", name, secs,
                1e9 * secs / (double)(stim.size() ? stim.size() : 1));
    return ok ? 0 : 1;
}

} // namespace tb
