// SPDX-License-Identifier: MIT
// tb_expars_oc_tags.cpp - SystemC testbench of expars_oc_tags (Verilator --sc): the digest's
// direct-mapped conflict (§2.6: R8 and R24 of one warp, and R8 of two warps, take one line), a
// bundle's lines pinned, a warp's lines unpinned and dropped, then seeded random operations from
// a few warps on a few sets (lookups, reads, write-allocates, fills with clean and dirty
// evictions, pins, unpins, steals, drops), then a set whose lines are all pinned; every output
// compared with the C reference every cycle; coverage bins reported (all required). Then the
// reference's tag functions at other geometries against the testbench's own model (namespace geo).
extern "C" {
#include "expars_oc_tags.h"
}
#include "Vexpars_oc_tags.h"
#define HD_PORTS_DEF "expars_oc_tags_ports.def"
#define TB_TOP Vexpars_oc_tags
#define TB_IN struct hd_expars_oc_tags_in
#define TB_OUT struct hd_expars_oc_tags_out
#define TB_STATE struct hd_expars_oc_tags_state
#define TB_REF_RESET hd_expars_oc_tags_ref_reset
#define TB_REF_STEP hd_expars_oc_tags_ref_step
#define TB_BLOCK hd_expars_oc_tags_block
#define TB_REF_IDLE hd_expars_oc_tags_ref_idle
#include "tb_harness.h"

static const unsigned kLines = EXPARS_OC_TAGS_Lines, kWays = EXPARS_OC_TAGS_Ways;

// {==== The tag functions at run-time geometries, against this testbench's own model ====
// The reference's tag functions also serve the timing model's operand cache at any [expars]
// oc_lines / oc_banks / oc_ways (expars_oc.c), but the block is built direct-mapped: its victim
// choice between ways, the LRU ages and the geometry clamps never run under the RTL comparison.
// Here they run at several geometries against an independent model (a timestamp per line
// instead of ranks; the rules of expars_oc_tags.h written again), every answer and the whole tag
// state compared after every operation. A difference fails the run, located.
namespace geo {
struct Line {
    bool valid, dirty, pinned;
    unsigned warp, reg;
    uint32_t ver;
    uint64_t stamp; // larger = more recently used
};
struct Model {
    unsigned lines, banks, ways, sets;
    std::vector<Line> l;
    uint64_t clock;
};
struct Res {
    bool hit;
    unsigned line, bank;
    uint32_t ver;
    bool vic;
    Line v;
    unsigned n;
};

static Model make(unsigned lines, unsigned banks, unsigned ways)
{
    Model m;
    m.lines = lines == 0 ? 1 : lines > HD_EXPARS_OC_MAX_LINES ? HD_EXPARS_OC_MAX_LINES : lines;
    m.banks = banks == 0 ? 1 : banks;
    m.ways = ways >= 1 && ways <= m.lines ? ways : 1;
    m.sets = m.lines / m.ways;
    m.lines = m.sets * m.ways;
    m.l.assign(m.lines, Line{});
    for (unsigned i = 0; i < m.lines; i++)
        m.l[i].stamp = i % m.ways; // a fresh set: its first line the oldest
    m.clock = m.ways;
    return m;
}
static int find(const Model &m, unsigned w, unsigned r)
{
    for (unsigned k = 0; k < m.ways; k++) {
        const unsigned i = r % m.sets * m.ways + k;
        if (m.l[i].valid && m.l[i].warp == w && m.l[i].reg == r)
            return (int)i;
    }
    return -1;
}
// cost of evicting a line: empty < clean < dirty < pinned; among equals the oldest
static unsigned cost(const Line &x) { return !x.valid ? 0 : x.pinned ? 3 : x.dirty ? 2 : 1; }
static unsigned victim(const Model &m, unsigned w, unsigned r)
{
    const int f = find(m, w, r);
    if (f >= 0)
        return (unsigned)f;
    unsigned best = r % m.sets * m.ways;
    for (unsigned k = 1; k < m.ways; k++) {
        const unsigned i = r % m.sets * m.ways + k;
        if (cost(m.l[i]) < cost(m.l[best]) ||
            (cost(m.l[i]) == cost(m.l[best]) && m.l[i].stamp < m.l[best].stamp))
            best = i;
    }
    return best;
}
static void install(Model &m, unsigned w, unsigned r, uint32_t ver, bool dirty, Res &o)
{
    const unsigned i = victim(m, w, r);
    Line &x = m.l[i];
    o.line = i;
    o.hit = x.valid && x.warp == w && x.reg == r;
    if (x.valid && !o.hit) {
        o.vic = true;
        o.v = x;
    }
    x = Line{true, dirty, false, w, r, ver, ++m.clock};
}
static Res apply(Model &m, unsigned opc, unsigned w, unsigned r, uint32_t ver, bool dirty)
{
    Res o{};
    o.bank = r % m.banks;
    const int f = find(m, w, r);
    switch (opc) {
    case HD_EXPARS_OC_PEEK:
    case HD_EXPARS_OC_READ:
        o.hit = f >= 0;
        o.line = f >= 0 ? (unsigned)f : victim(m, w, r);
        if (f >= 0) {
            o.ver = m.l[f].ver;
            if (opc == HD_EXPARS_OC_READ)
                m.l[f].stamp = ++m.clock;
        } else if (m.l[o.line].valid) {
            o.vic = true;
            o.v = m.l[o.line];
        }
        break;
    case HD_EXPARS_OC_WRITE:
        if (f < 0) {
            install(m, w, r, ver, true, o);
            break;
        }
        o.hit = true;
        o.line = (unsigned)f;
        m.l[f].ver = ver;
        m.l[f].dirty = true;
        m.l[f].stamp = ++m.clock;
        break;
    case HD_EXPARS_OC_PUT:
        install(m, w, r, ver, dirty, o);
        break;
    case HD_EXPARS_OC_PIN:
        o.hit = f >= 0;
        o.line = f >= 0 ? (unsigned)f : 0;
        if (f >= 0)
            m.l[f].pinned = true;
        break;
    case HD_EXPARS_OC_STEAL:
        for (unsigned k = 0; k < m.ways; k++) {
            Line &x = m.l[r % m.sets * m.ways + k];
            if (x.valid && x.pinned && x.warp != w) {
                x.pinned = false;
                o.n++;
            }
        }
        break;
    case HD_EXPARS_OC_UNPIN:
    case HD_EXPARS_OC_DROP:
        for (Line &x : m.l) {
            if (!x.valid || x.warp != w || (opc == HD_EXPARS_OC_UNPIN && !x.pinned))
                continue;
            if (opc == HD_EXPARS_OC_DROP)
                x.valid = false;
            else
                x.pinned = false;
            o.n++;
        }
        break;
    }
    return o;
}

static const char *const opname[8] = {"PEEK", "READ", "WRITE", "PUT",
                                       "PIN", "UNPIN", "STEAL", "DROP"};

// The geometry's fields and every line against the model; "" when they agree.
static std::string state_diff(const Model &m, const struct hd_expars_oc_tags &t)
{
    char b[200];
    if (t.nlines != m.lines || t.nbanks != m.banks || t.ways != m.ways || t.nsets != m.sets) {
        std::snprintf(b, sizeof b, "geometry %u lines %u banks %u ways %u sets, want %u %u %u %u",
                      t.nlines, t.nbanks, t.ways, t.nsets, m.lines, m.banks, m.ways, m.sets);
        return b;
    }
    for (unsigned i = 0; i < m.lines; i++) {
        const Line &x = m.l[i];
        const struct hd_expars_oc_line &y = t.line[i];
        unsigned rank = 0; // how many lines of its set were used more recently
        for (unsigned k = 0; k < m.ways; k++)
            rank += m.l[i / m.ways * m.ways + k].stamp > x.stamp;
        const bool same = y.valid == x.valid && y.age == rank &&
                          (!x.valid || (y.dirty == x.dirty && y.pinned == x.pinned &&
                                        y.warp == x.warp && y.reg == x.reg && y.ver == x.ver));
        if (!same) {
            std::snprintf(b, sizeof b,
                          "line %u: valid %d dirty %d pinned %d warp %u reg %u ver %u age %u, "
                          "want %d %d %d %u %u %u %u", i, y.valid, y.dirty, y.pinned, y.warp,
                          y.reg, y.ver, y.age, x.valid, x.dirty, x.pinned, x.warp, x.reg, x.ver,
                          rank);
            return b;
        }
    }
    return "";
}
static std::string res_diff(const Res &x, const struct hd_expars_oc_res &y)
{
    char b[240];
    const bool same = y.hit == x.hit && y.line == x.line && y.bank == x.bank && y.ver == x.ver &&
                      y.n == x.n && y.vic.valid == x.vic &&
                      (!x.vic || (y.vic.dirty == x.v.dirty && y.vic.pinned == x.v.pinned &&
                                  y.vic.warp == x.v.warp && y.vic.reg == x.v.reg &&
                                  y.vic.ver == x.v.ver));
    if (same)
        return "";
    std::snprintf(b, sizeof b,
                  "hit %d line %u bank %u ver %u n %u victim %d (dirty %d pinned %d warp %u reg %u "
                  "ver %u), want %d %u %u %u %u %d (%d %d %u %u %u)", y.hit, y.line, y.bank,
                  y.ver, y.n, y.vic.valid, y.vic.dirty, y.vic.pinned, y.vic.warp, y.vic.reg,
                  y.vic.ver, x.hit, x.line, x.bank, x.ver, x.n, x.vic, x.v.dirty, x.v.pinned,
                  x.v.warp, x.v.reg, x.v.ver);
    return b;
}

// Seeded operations at one geometry; returns the number run, or -1 after printing a difference.
static long run(unsigned lines, unsigned banks, unsigned ways, tb::Rng &r, unsigned nops)
{
    struct hd_expars_oc_tags t;
    hd_expars_oc_tags_init(&t, lines, banks, ways);
    Model m = make(lines, banks, ways);
    std::string d = state_diff(m, t);
    if (!d.empty()) {
        std::printf("tb_expars_oc_tags: init(%u lines, %u banks, %u ways): %s\n", lines, banks,
                    ways, d.c_str());
        return -1;
    }
    const unsigned nw = 3, nr = 2 * m.lines + 1;
    uint32_t ver = 1;
    for (unsigned k = 0; k < nops; k++) {
        const unsigned w = r.below(nw), what = r.below(32);
        const unsigned reg = r.below(4) ? r.below(m.sets + 1) : r.below(nr);
        // pins and steals often enough that whole sets fill with pinned lines
        const unsigned opc = what < 4    ? HD_EXPARS_OC_PEEK
                             : what < 9  ? HD_EXPARS_OC_READ
                             : what < 14 ? HD_EXPARS_OC_WRITE
                             : what < 21 ? HD_EXPARS_OC_PUT
                             : what < 27 ? HD_EXPARS_OC_PIN
                             : what < 29 ? HD_EXPARS_OC_UNPIN
                             : what < 31 ? HD_EXPARS_OC_STEAL
                                         : HD_EXPARS_OC_DROP;
        const bool dirty = r.below(2);
        struct hd_expars_oc_res y;
        hd_expars_oc_tags_apply(&t, opc, w, reg, ++ver, dirty, &y);
        const Res x = apply(m, opc, w, reg, ver, dirty);
        d = res_diff(x, y);
        const char *what_s = "answer";
        if (d.empty()) {
            d = state_diff(m, t);
            what_s = "state after";
        }
        if (!d.empty()) {
            std::printf("tb_expars_oc_tags: %u lines, %u banks, %u ways: operation %u (%s warp %u "
                        "register %u version %u dirty %d): %s: %s\n", lines, banks, ways, k,
                        opname[opc], w, reg, ver, dirty, what_s, d.c_str());
            return -1;
        }
    }
    return nops;
}
} // namespace geo

// Every geometry kind: the block's, set-associative, fully associative, one line, and
// arguments the init clamps (no lines, too many, no banks, no ways, more ways than lines, a
// partial set); returns 0 or 1.
static int geometry_check(uint64_t seed)
{
    static const unsigned g[][3] = {{kLines, EXPARS_OC_TAGS_Banks, kWays},
                                    {16, 4, 4}, {16, 4, 2}, {16, 3, 16}, {64, 8, 8},
                                    {8, 2, 1}, {1, 1, 1}, {0, 0, 0}, {100, 4, 4},
                                    {64, 4, 64}, {8, 2, 9}, {12, 4, 0}, {12, 5, 5}};
    tb::Rng r{seed * 7919 + 1};
    long n = 0;
    for (const auto &x : g) {
        const long k = geo::run(x[0], x[1], x[2], r, 1500);
        if (k < 0)
            return 1;
        n += k;
    }
    std::printf("tb_expars_oc_tags: tag functions at %zu geometries: %ld operations, answers and "
                "state as the testbench's model\n", sizeof g / sizeof g[0], n);
    return 0;
}
// }====

static TB_IN op(unsigned o, unsigned warp, unsigned reg, uint32_t ver = 0, bool dirty = false)
{
    TB_IN in;
    std::memset(&in, 0, sizeof in);
    in.op_v_i = 1;
    in.op_i = o;
    in.warp_i = warp;
    in.reg_i = reg;
    in.ver_i = ver;
    in.dirty_i = dirty;
    return in;
}

int sc_main(int argc, char **argv)
{
    tb::Options o = tb::parse(argc, argv);
    tb::Rng r{o.seed};
    std::vector<TB_IN> stim;
    TB_IN rest;
    std::memset(&rest, 0, sizeof rest);
    stim.push_back(rest);
    stim.push_back(rest);
    // §2.6: R8 and R24 (8 + 16) of warp 3, then R24 of warp 5, in one line when direct-mapped.
    stim.push_back(op(HD_EXPARS_OC_WRITE, 3, 8, 7));
    stim.push_back(op(HD_EXPARS_OC_READ, 3, 8));
    stim.push_back(op(HD_EXPARS_OC_PUT, 3, 8 + kLines, 1));
    stim.push_back(op(HD_EXPARS_OC_PUT, 5, 8 + kLines, 2));
    stim.push_back(op(HD_EXPARS_OC_PUT, 5, 8 + kLines, 3, true)); // its own line: nothing leaves
    stim.push_back(op(HD_EXPARS_OC_PIN, 5, 8 + kLines));
    stim.push_back(op(HD_EXPARS_OC_PEEK, 6, 8));
    stim.push_back(op(HD_EXPARS_OC_STEAL, 6, 8));
    stim.push_back(op(HD_EXPARS_OC_PIN, 5, 8 + kLines));
    stim.push_back(op(HD_EXPARS_OC_UNPIN, 5, 0));
    stim.push_back(op(HD_EXPARS_OC_DROP, 5, 0));
    const unsigned nw = 4, nr = 3 * kLines; // a few warps on every set, several registers each
    uint32_t ver = 100;
    while (stim.size() < o.cycles) {
        if (r.below(6) == 0) {
            stim.push_back(rest);
            continue;
        }
        // mostly a small working set (hits, LRU order), sometimes any register (conflicts)
        const unsigned w = r.below(nw), what = r.below(32);
        const unsigned reg = r.below(3) ? r.below(kLines / 2 + 1) : r.below(nr);
        unsigned k;
        if (what < 6)
            k = HD_EXPARS_OC_PEEK;
        else if (what < 12)
            k = HD_EXPARS_OC_READ;
        else if (what < 18)
            k = HD_EXPARS_OC_WRITE;
        else if (what < 24)
            k = HD_EXPARS_OC_PUT;
        else if (what < 28)
            k = HD_EXPARS_OC_PIN;
        else if (what < 30)
            k = HD_EXPARS_OC_UNPIN;
        else if (what < 31)
            k = HD_EXPARS_OC_STEAL;
        else
            k = HD_EXPARS_OC_DROP;
        stim.push_back(op(k, w, reg, ++ver, r.below(3) == 0));
    }
    // Every line of set 0 pinned by warp 0, then warp 1's register of that set looks for a
    // victim: the oldest pinned line (appended: the seeded part above stays as it was).
    const unsigned nsets = kLines / kWays;
    for (unsigned i = 0; i < kWays; i++) {
        stim.push_back(op(HD_EXPARS_OC_PUT, 0, i * nsets, 900 + i));
        stim.push_back(op(HD_EXPARS_OC_PIN, 0, i * nsets));
    }
    stim.push_back(op(HD_EXPARS_OC_PEEK, 1, kWays * nsets));
    stim.push_back(op(HD_EXPARS_OC_PUT, 1, kWays * nsets, 999, true));
    stim.push_back(rest);
    enum { FIG_LINE, NBINS };
    static const char *const names[NBINS] = {"direct-mapped conflict"};
    uint64_t cov[NBINS] = {0};
    uint64_t n = 0, line_r8 = 0;
    auto cover = [&](const TB_IN &, const TB_OUT &out) {
        if (!out.res_v_o)
            return;
        n++;
        if (n == 1)
            line_r8 = out.line_o;
        if (n == 3 && kWays == 1 && out.line_o == line_r8 && out.vic_v_o && out.vic_reg_o == 8 &&
            out.vic_dirty_o && out.vic_ver_o == 7)
            cov[FIG_LINE]++;
        if (n == 3 && kWays > 1 && !out.vic_v_o)
            cov[FIG_LINE]++; // (associative: R24 takes another line of the set)
    };
    int rc = tb::run("tb_expars_oc_tags", o, stim, cover);
    if (geometry_check(o.seed) != 0 && rc == 0)
        rc = 1;
    unsigned hit = 0;
    std::printf("coverage:\n");
    for (unsigned b = 0; b < NBINS; b++) {
        std::printf("  %-24s %8" PRIu64 "\n", names[b], cov[b]);
        hit += cov[b] != 0;
    }
    std::printf("tb_expars_oc_tags: %u of %u bins covered (%u lines, %u ways)\n", hit, NBINS,
                kLines, kWays);
    return rc != 0 ? rc : hit == NBINS ? 0 : 1;
}
