// SPDX-License-Identifier: MIT
/**
 * expars_rat - EXPARS's Register Allocation Table with the bank arbitrator's RF-or-scratchpad
 * judgement and eq. 13's address generator, one per SM (Yu et al. TACO 2018 §3.3.3, §3.3.5,
 * Fig. 7, eq. 11-13; digest ../shared/reference/papers/expars.md §2.4, §2.7, §3.2 (a)).
 *
 * State: the scalars Start_CTA, Start_Reg, Max_Reg and an on bit (the plan has mix CTAs; the
 * paper's Warps_Per_CTA only feeds eq. 12's divider, which the warp LUT replaces), the SBR table (one scratchpad byte address per mix CTA k = slot - Start_CTA), per
 * CTA slot its used and mix bits, per warp slot its CTA slot and its index in the CTA (the LUT
 * that replaces eq. 12's divider, digest §2.4 [CHOICE]).
 * Within one edge: the configuration write (cfg_v_i; clears the SBR table), the SBR write, the
 * CTA-slot write, the warp-slot write, then the lookup (q_v_i), which sees them all: register
 * (warp, reg) is in the scratchpad iff on, its CTA slot is used and mix, and reg >= Start_Reg
 * (the corrected rule, digest §8 item 4); its thread-0 byte address is
 *   SBR[k] + (Max_Reg - Start_Reg + 1) x local warp x 128 + (reg - Start_Reg) x 128
 * in AW-bit arithmetic (0 when not in the scratchpad). Outputs registered one cycle later, 0
 * after an edge without a lookup. Bit-exact C reference: tables/expars_rat.c; ports:
 * expars_rat_ports.def.
 *
 * Parameters (configs/rtl/expars_rat.ini):
 *   Slots, SW  CTA slots and slot bits;  Warps, WW  warp slots and warp bits
 *   RW         register bits;  AW  scratchpad byte-address bits
 */
`include "../include/hd_assert.svh"

module expars_rat #(
  parameter int unsigned Slots = 32,
  parameter int unsigned SW    = 5,
  parameter int unsigned Warps = 64,
  parameter int unsigned WW    = 6,
  parameter int unsigned RW    = 8,
  parameter int unsigned AW    = 17
) (
  input  logic          clk_i,
  input  logic          rst_ni,
  input  logic          cfg_v_i,
  input  logic          cfg_on_i,
  input  logic [SW-1:0] cfg_start_cta_i,
  input  logic [RW-1:0] cfg_start_reg_i,
  input  logic [RW-1:0] cfg_max_reg_i,
  input  logic          sbr_v_i,
  input  logic [SW-1:0] sbr_idx_i,
  input  logic [AW-1:0] sbr_i,
  input  logic          cta_v_i,
  input  logic [SW-1:0] cta_slot_i,
  input  logic          cta_used_i,
  input  logic          cta_mix_i,
  input  logic          wrp_v_i,
  input  logic [WW-1:0] wrp_warp_i,
  input  logic [SW-1:0] wrp_cta_i,
  input  logic [WW-1:0] wrp_local_i,
  input  logic          q_v_i,
  input  logic [WW-1:0] q_warp_i,
  input  logic [RW-1:0] q_reg_i,
  output logic          q_v_o,
  output logic          q_spm_o,
  output logic [AW-1:0] q_addr_o,
  output logic [SW-1:0] q_cta_o
);

  logic          on_q, on_d;
  logic [SW-1:0] start_cta_q, start_cta_d;
  logic [RW-1:0] start_reg_q, start_reg_d, max_reg_q, max_reg_d;
  // Entry j in bits [j*W +: W] (flat vectors: Yosys 0.23 reads no packed 2-D arrays).
  logic [Slots*AW-1:0] sbr_q, sbr_d;
  logic [Slots-1:0]    used_q, used_d, mix_q, mix_d;
  logic [Warps*SW-1:0] wcta_q, wcta_d;
  logic [Warps*WW-1:0] wlocal_q, wlocal_d;

  // The writes of this edge.
  always_comb begin
    on_d        = on_q;
    start_cta_d = start_cta_q;
    start_reg_d = start_reg_q;
    max_reg_d   = max_reg_q;
    sbr_d       = sbr_q;
    used_d      = used_q;
    mix_d       = mix_q;
    wcta_d      = wcta_q;
    wlocal_d    = wlocal_q;
    if (cfg_v_i) begin
      on_d        = cfg_on_i;
      start_cta_d = cfg_start_cta_i;
      start_reg_d = cfg_start_reg_i;
      max_reg_d   = cfg_max_reg_i;
      sbr_d       = '0;
    end
    for (int j = 0; j < Slots; j++) begin
      if (sbr_v_i && sbr_idx_i == SW'(j)) begin
        sbr_d[j*AW +: AW] = sbr_i;
      end
      if (cta_v_i && cta_slot_i == SW'(j)) begin
        used_d[j] = cta_used_i;
        mix_d[j]  = cta_mix_i;
      end
    end
    for (int w = 0; w < Warps; w++) begin
      if (wrp_v_i && wrp_warp_i == WW'(w)) begin
        wcta_d[w*SW +: SW]   = wrp_cta_i;
        wlocal_d[w*WW +: WW] = wrp_local_i;
      end
    end
  end

  // The lookup, on the state after the writes.
  logic          q_spm_d;
  logic [AW-1:0] q_addr_d;
  logic [SW-1:0] q_cta_d, k;
  logic [WW-1:0] lw;
  logic          win, cused, cmix;
  logic [AW-1:0] sbr_k, n, off;

  always_comb begin
    q_cta_d = '0;
    lw      = '0;
    win     = 1'b0;
    for (int w = 0; w < Warps; w++) begin
      if (q_warp_i == WW'(w)) begin
        win     = 1'b1;
        q_cta_d = wcta_d[w*SW +: SW];
        lw      = wlocal_d[w*WW +: WW];
      end
    end
    cused = 1'b0;
    cmix  = 1'b0;
    for (int j = 0; j < Slots; j++) begin
      if (q_cta_d == SW'(j)) begin
        cused = used_d[j];
        cmix  = mix_d[j];
      end
    end
    k     = q_cta_d - start_cta_d;
    sbr_k = '0;
    for (int j = 0; j < Slots; j++) begin
      if (k == SW'(j)) begin
        sbr_k = sbr_d[j*AW +: AW];
      end
    end
    q_spm_d = win && on_d && cused && cmix && q_reg_i >= start_reg_d;
    n       = AW'(max_reg_d) - AW'(start_reg_d) + AW'(1);
    off     = AW'(q_reg_i) - AW'(start_reg_d);
    q_addr_d = q_spm_d ? sbr_k + ((n * AW'(lw)) << 7) + (off << 7) : '0;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      on_q        <= 1'b0;
      start_cta_q <= '0;
      start_reg_q <= '0;
      max_reg_q   <= '0;
      sbr_q       <= '0;
      used_q      <= '0;
      mix_q       <= '0;
      wcta_q      <= '0;
      wlocal_q    <= '0;
      q_v_o       <= 1'b0;
      q_spm_o     <= 1'b0;
      q_addr_o    <= '0;
      q_cta_o     <= '0;
    end else begin
      on_q        <= on_d;
      start_cta_q <= start_cta_d;
      start_reg_q <= start_reg_d;
      max_reg_q   <= max_reg_d;
      sbr_q       <= sbr_d;
      used_q      <= used_d;
      mix_q       <= mix_d;
      wcta_q      <= wcta_d;
      wlocal_q    <= wlocal_d;
      q_v_o       <= q_v_i;
      q_spm_o     <= q_v_i && q_spm_d;
      q_addr_o    <= q_v_i ? q_addr_d : '0;
      q_cta_o     <= q_v_i ? q_cta_d : '0;
    end
  end

  ////////////////
  // Assertions //
  ////////////////

  `HD_ASSERT_INIT(HdExparsRatParams, Slots >= 1 && Slots <= (1 << SW) && Slots <= 32 &&
                                     Warps >= 1 && Warps <= (1 << WW) && Warps <= 64 &&
                                     RW <= 16 && AW <= 32 && AW > 7)
  `HD_ASSERT_KNOWN(HdExparsRatQKnown, q_v_o, clk_i, rst_ni)
  `HD_ASSERT_KNOWN(HdExparsRatSpmKnown, q_spm_o, clk_i, rst_ni)
  `HD_ASSERT(HdExparsRatIdleZero, q_v_o || (!q_spm_o && q_addr_o == '0 && q_cta_o == '0),
             clk_i, rst_ni)
  `HD_ASSERT(HdExparsRatAddrSpm, q_spm_o || q_addr_o == '0, clk_i, rst_ni)

endmodule
