// SPDX-License-Identifier: MIT
// hd_vl_internal.h - the RTL-internal signals of one co-simulated block instance, for the FST
// (issue 16 item 5: `heddle cosim --fst F --fst-internal BLOCK`).
//
// Design: the block is verilated a second time with --public-flat-rw (prefix V<block>_int,
// cosim/CMakeLists.txt), which makes Verilator publish every variable of every scope in the
// instance's VerilatedContext (VerilatedScope::varsp: name, type, packed and unpacked ranges,
// address). build() lists the variables of the block's own scope and of its named sub-scopes
// (generate blocks), without parameters, without the ports (the FST has them already from the
// port table) and without Verilator's unnamed loop scopes. sample() copies every value into
// 32-bit words (least significant word first) at the moment the glue reads the outputs, i.e.
// before the clock edge: an internal flop and the output it drives show the same cycle.
// Only this variant pays for the public variables and the copies; the plain V<block> model the
// co-simulation uses otherwise is untouched (zero cost when --fst-internal is off).
#ifndef HD_VL_INTERNAL_H
#define HD_VL_INTERNAL_H

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <set>
#include <string>
#include <vector>
#include <verilated.h>
#include <verilated_syms.h>

namespace hd_vl {

class Internals {
    struct Sig {
        std::string name;   // "valid_q", "gen_x.cnt_q", "cstart(3)"
        unsigned width;     // bits
        const void *data;   // in the model
        VerilatedVarType type;
        std::size_t word;   // first word in snap
    };
    std::vector<Sig> sigs_;
    std::vector<uint32_t> snap_;

    static bool unnamed(const std::string &rel)
    {
        return rel.find("unnamedblk") != std::string::npos;
    }

    void add(const std::string &name, const VerilatedVar &v, const void *data, unsigned width)
    {
        sigs_.push_back(Sig{name, width, data, v.vltype(), snap_.size()});
        snap_.resize(snap_.size() + (width + 31) / 32, 0);
    }

  public:
    // Every internal variable of module `block` in the model of context `ctx`.
    void build(VerilatedContext &ctx, const char *block)
    {
        const VerilatedScopeNameMap *scopes = ctx.scopeNameMap();
        if (!scopes)
            return;
        std::set<std::string> ports;
        const VerilatedScope *top = ctx.scopeFind("TOP.TOP");
        if (top && top->varsp())
            for (const auto &kv : *top->varsp())
                ports.insert(kv.first);
        const std::string root = std::string("TOP.") + block;
        for (const auto &sc : *scopes) { // a map by name: the order is deterministic
            const std::string name = sc.first;
            if (name.compare(0, root.size(), root) != 0 ||
                (name.size() > root.size() && name[root.size()] != '.'))
                continue;
            const std::string rel = name.size() > root.size() ? name.substr(root.size() + 1) : "";
            if (unnamed(rel) || !sc.second->varsp())
                continue;
            for (const auto &kv : *sc.second->varsp()) {
                const VerilatedVar &v = kv.second;
                const std::string vn = rel.empty() ? kv.first : rel + "." + kv.first;
                if (v.isParam() || (rel.empty() && ports.count(kv.first)))
                    continue;
                if (v.vltype() < VLVT_UINT8 || v.vltype() > VLVT_WDATA)
                    continue; // strings, pointers: not signals
                const unsigned width = static_cast<unsigned>(v.packed().elements());
                if (v.udims() == 0) {
                    add(vn, v, v.datap(), width);
                    continue;
                }
                // unpacked array: one signal per element, "name(i)(j)", contiguous storage
                std::size_t n = 1;
                for (int d = 1; d <= v.udims(); d++)
                    n *= static_cast<std::size_t>(v.elements(d));
                for (std::size_t e = 0; e < n; e++) {
                    std::string idx;
                    std::size_t rest = e;
                    for (int d = v.udims(); d >= 1; d--) {
                        const std::size_t k = static_cast<std::size_t>(v.elements(d));
                        idx = "(" + std::to_string(v.low(d) + static_cast<int>(rest % k)) + ")" +
                              idx;
                        rest /= k;
                    }
                    add(vn + idx, v, static_cast<const char *>(v.datap()) + e * v.entSize(),
                        width);
                }
            }
        }
    }

    // Copy every value (before the clock edge of the step).
    void sample()
    {
        for (const Sig &s : sigs_) {
            uint32_t *w = &snap_[s.word];
            switch (s.type) {
            case VLVT_UINT8: w[0] = *static_cast<const uint8_t *>(s.data); break;
            case VLVT_UINT16: w[0] = *static_cast<const uint16_t *>(s.data); break;
            case VLVT_UINT32: w[0] = *static_cast<const uint32_t *>(s.data); break;
            case VLVT_UINT64: {
                uint64_t q;
                std::memcpy(&q, s.data, sizeof q);
                w[0] = static_cast<uint32_t>(q);
                if (s.width > 32)
                    w[1] = static_cast<uint32_t>(q >> 32);
                break;
            }
            default: std::memcpy(w, s.data, 4u * ((s.width + 31) / 32)); break; // VlWide words
            }
        }
    }

    unsigned count() const { return static_cast<unsigned>(sigs_.size()); }
    const char *name(unsigned k) const { return sigs_[k].name.c_str(); }
    unsigned width(unsigned k) const { return sigs_[k].width; }
    const uint32_t *value(unsigned k) const { return &snap_[sigs_[k].word]; }
};

} // namespace hd_vl

#endif
