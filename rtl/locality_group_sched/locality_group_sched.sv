// SPDX-License-Identifier: MIT
/**
 * locality_group_sched - Gong's warp-group scheduler (thesis ch.6 §6.3.2, L1336-1356; digest
 * §2.10, §3.7), one per warp scheduler: the group table and the selection.
 *
 * Per warp slot (NW): resident bit and group id (GW bits; written when the warp becomes
 * resident, from the launch's hint and the warp's CTA coordinates: model/policy/
 * sm_sched_locality.c, hd_locality_group). Each cycle the ready, resident warps are offered
 * (ready_i); the selection takes the active group if one of its warps is ready, else the
 * smallest group id above the active one that has a ready warp, else the smallest id that has
 * (round-robin over groups in id order), and inside the group the first ready warp after the
 * last issued one (round-robin), else the group's lowest ready slot. The granted warp's group
 * becomes the active group. The same order as the C policy's first warp
 * (sm_sched_locality.c) when ids follow its group keys' order.
 *
 * Registered outputs: grant_* and switch_o one cycle after ready_i (0 in a cycle without a
 * selection). Within one edge: the selection (table before the edge), then clear, write, issue.
 * Bit-exact C reference: tables/locality_group_sched.c; ports: locality_group_sched_ports.def.
 *
 * Parameters (configs/rtl/locality_group_sched.ini):
 *   NW  warp slots;  WW  slot index bits, $clog2(NW);  GW  group id bits
 */
`include "../include/hd_assert.svh"

module locality_group_sched #(
  parameter int unsigned NW = 16,
  parameter int unsigned WW = 4,
  parameter int unsigned GW = 6
) (
  input  logic          clk_i,
  input  logic          rst_ni,
  input  logic          wr_v_i,
  input  logic [WW-1:0] wr_warp_i,
  input  logic [GW-1:0] wr_gid_i,
  input  logic          clr_v_i,
  input  logic [WW-1:0] clr_warp_i,
  input  logic [NW-1:0] ready_i,
  input  logic          iss_v_i,
  input  logic [WW-1:0] iss_warp_i,
  output logic          grant_v_o,
  output logic [WW-1:0] grant_warp_o,
  output logic [GW-1:0] grant_gid_o,
  output logic          switch_o
);

  // Slot w's group id in bits [w*GW +: GW] (flat vectors: Yosys 0.23 reads no packed 2-D arrays).
  logic [NW*GW-1:0] gid_d, gid_q;
  logic [NW-1:0]    res_d, res_q;
  logic             act_v_d, act_v_q, last_v_d, last_v_q;
  logic [GW-1:0]    act_d, act_q;
  logic [WW-1:0]    last_d, last_q;

  // {==== selection ====
  logic [NW-1:0] cand, in_act, members;
  logic          any_act, nxt_found, min_found, hi_found, lo_found;
  logic [GW-1:0] nxt, mn, sel_g, g;
  logic [WW-1:0] hi, lo, sel_w;
  always_comb begin
    cand      = ready_i & res_q;
    in_act    = '0;
    nxt_found = 1'b0;
    min_found = 1'b0;
    nxt       = '0;
    mn        = '0;
    for (int unsigned w = 0; w < NW; w++) begin
      g = gid_q[w*GW +: GW];
      in_act[w] = cand[w] && act_v_q && g == act_q;
      if (cand[w] && (!min_found || g < mn)) begin
        mn        = g;
        min_found = 1'b1;
      end
      if (cand[w] && act_v_q && g > act_q && (!nxt_found || g < nxt)) begin
        nxt       = g;
        nxt_found = 1'b1;
      end
    end
    any_act = |in_act;
    sel_g   = any_act ? act_q : (nxt_found ? nxt : mn);
    members = '0;
    hi_found = 1'b0;
    lo_found = 1'b0;
    hi       = '0;
    lo       = '0;
    for (int unsigned w = 0; w < NW; w++)
      members[w] = cand[w] && gid_q[w*GW +: GW] == sel_g;
    for (int unsigned w = 0; w < NW; w++) begin // the first member, the first after the last
      if (members[w] && !lo_found) begin
        lo       = WW'(w);
        lo_found = 1'b1;
      end
      if (members[w] && !hi_found && last_v_q && WW'(w) > last_q) begin
        hi       = WW'(w);
        hi_found = 1'b1;
      end
    end
    sel_w = hi_found ? hi : lo;
  end
  // }====

  // {==== table updates ====
  always_comb begin
    gid_d    = gid_q;
    res_d    = res_q;
    act_v_d  = act_v_q;
    act_d    = act_q;
    last_v_d = last_v_q;
    last_d   = last_q;
    if (lo_found) begin
      act_v_d = 1'b1;
      act_d   = sel_g;
    end
    if (clr_v_i && 32'(clr_warp_i) < NW) begin
      res_d[clr_warp_i] = 1'b0;
      if (last_v_q && last_q == clr_warp_i) last_v_d = 1'b0;
    end
    if (wr_v_i && 32'(wr_warp_i) < NW) begin
      res_d[wr_warp_i]             = 1'b1;
      gid_d[wr_warp_i*GW +: GW]    = wr_gid_i;
    end
    if (iss_v_i && 32'(iss_warp_i) < NW) begin
      last_v_d = 1'b1;
      last_d   = iss_warp_i;
    end
  end
  // }====

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      gid_q        <= '0;
      res_q        <= '0;
      act_v_q      <= 1'b0;
      act_q        <= '0;
      last_v_q     <= 1'b0;
      last_q       <= '0;
      grant_v_o    <= 1'b0;
      grant_warp_o <= '0;
      grant_gid_o  <= '0;
      switch_o     <= 1'b0;
    end else begin
      gid_q        <= gid_d;
      res_q        <= res_d;
      act_v_q      <= act_v_d;
      act_q        <= act_d;
      last_v_q     <= last_v_d;
      last_q       <= last_d;
      grant_v_o    <= lo_found;
      grant_warp_o <= lo_found ? sel_w : '0;
      grant_gid_o  <= lo_found ? sel_g : '0;
      switch_o     <= lo_found && (!act_v_q || sel_g != act_q);
    end
  end

  // A grant names a resident warp of the active group that was ready.
  `HD_ASSERT_INIT(HdLocalityGroupSchedParams, NW >= 1 && NW <= 64 && NW <= (1 << WW) && GW >= 1 &&
                 GW <= 16)
  `HD_ASSERT(HdLocalityGroupSchedGrantReady, lo_found |-> (res_q[sel_w] && ready_i[sel_w]),
             clk_i, rst_ni)
  `HD_ASSERT(HdLocalityGroupSchedGrantGroup, lo_found |-> (gid_q[sel_w*GW +: GW] == sel_g),
             clk_i, rst_ni)

endmodule
