// SPDX-License-Identifier: MIT
/**
 * haws_shadow_stack - HAWS's shadow SIMT stack of one warp (Gong thesis ch. 5 §5.2.4 and §5.4,
 * L1031 and L1109; digest §3.4; docs/blocks/haws.md "Shadow stack and warp controller blocks").
 *
 * Depth entries of {PC, reconvergence PC, active mask}. When hint mode begins the real stack's
 * top entry is copied as entry 0 (copy_v_i): the hint-mode walk only ever runs on the stall
 * point's entry and what it pushes above it (model/timing/sm_ahead.c parks the chain as soon as
 * the shadow top falls below that entry), so the entries below need no copy. Within one edge:
 * clear_i empties the stack; copy_v_i loads entry 0; then adv_n_i advances of the top, each
 * PC+1 followed by the pops of reconverged (PC == reconvergence PC) or empty-mask top entries
 * (the model's hd_func_warp_normalize); then one branch (br_v_i) exactly as the functional
 * model's bra (model/func/exec_ctrl.c x_bra): all lanes taken -> PC = target; none -> PC+1;
 * divergent -> the top becomes the reconvergence entry (or is dropped when it already
 * reconverges there) and the fall-through and taken paths are pushed (each unless it starts at
 * the reconvergence PC), then the pops. A branch that would need more than Depth entries is not
 * applied and sets ovf_o (the model's push overflow: the chain ends, nothing recorded).
 *
 * The advances are computed in one cycle without a chain of adv_n_i incrementers: the top pops
 * after (rpc - pc) mod 2^PCW advances, so per stage one pop and a subtraction (Depth stages),
 * then one add on the surviving top. There is no port to the real stack: it is never written.
 *
 * Registered outputs: the stack's top and depth after the edge; rd_* one cycle after rd_v_i.
 * Bit-exact C reference: tables/haws_shadow_stack.c; ports: haws_shadow_stack_ports.def.
 *
 * Parameters (configs/rtl/haws_shadow_stack.ini):
 *   Depth  entries;  DW  $clog2(Depth + 1);  PCW  PC bits;  MW  mask bits;  AdvW  advance bits
 */
`include "../include/hd_assert.svh"

module haws_shadow_stack #(
  parameter int unsigned Depth = 8,
  parameter int unsigned DW    = 4,
  parameter int unsigned PCW   = 32,
  parameter int unsigned MW    = 32,
  parameter int unsigned AdvW  = 7
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  input  logic            clear_i,
  input  logic            copy_v_i,
  input  logic [PCW-1:0]  copy_pc_i,
  input  logic [PCW-1:0]  copy_rpc_i,
  input  logic [MW-1:0]   copy_mask_i,
  input  logic [AdvW-1:0] adv_n_i,
  input  logic            br_v_i,
  input  logic [MW-1:0]   br_taken_i,
  input  logic [PCW-1:0]  br_target_i,
  input  logic [PCW-1:0]  br_reconv_i,
  input  logic            rd_v_i,
  input  logic [DW-1:0]   rd_idx_i,
  output logic            top_v_o,
  output logic [PCW-1:0]  top_pc_o,
  output logic [PCW-1:0]  top_rpc_o,
  output logic [MW-1:0]   top_mask_o,
  output logic [DW-1:0]   depth_o,
  output logic            ovf_o,
  output logic            rd_v_o,
  output logic            rd_hit_o,
  output logic [PCW-1:0]  rd_pc_o,
  output logic [PCW-1:0]  rd_rpc_o,
  output logic [MW-1:0]   rd_mask_o
);

  // Entry j's fields in bits [j*W +: W] (flat vectors: Yosys 0.23 reads no packed 2-D arrays).
  logic [Depth*PCW-1:0] pc_q, rpc_q, pc_a, rpc_a, pc_b, pc_c, rpc_c;
  logic [Depth*MW-1:0]  mask_q, mask_a, mask_c;
  logic [DW-1:0]        cnt_q, cnt_a, cnt_b, cnt_c;
  logic                 ovf_q, ovf_a, ovf_c;
  logic [Depth-1:0]     live_a, live_c;

  // Pops while the top is dead keep one more entry than the highest live entry below the
  // count (0 when there is none): the loops marked "norm" below (Yosys 0.23 reads no
  // functions returning a value of a parameterised width).
  logic [DW-1:0] keep_b, keep_s, keep_c;

  // Stage A: clear and copy.
  always_comb begin
    pc_a   = pc_q;
    rpc_a  = rpc_q;
    mask_a = mask_q;
    cnt_a  = cnt_q;
    ovf_a  = ovf_q;
    if (clear_i) begin
      cnt_a = '0;
      ovf_a = 1'b0;
    end
    if (copy_v_i) begin
      pc_a[0 +: PCW]  = copy_pc_i;
      rpc_a[0 +: PCW] = copy_rpc_i;
      mask_a[0 +: MW] = copy_mask_i;
      cnt_a           = DW'(1);
      ovf_a           = 1'b0;
    end
    for (int j = 0; j < Depth; j++) begin
      live_a[j] = mask_a[j*MW +: MW] != '0 && pc_a[j*PCW +: PCW] != rpc_a[j*PCW +: PCW];
    end
  end

  // Stage B: adv_n_i advances with their pops.
  logic [AdvW-1:0] rem;
  logic [PCW-1:0]  gap, tpc, trpc;
  always_comb begin
    rem    = adv_n_i;
    keep_s = '0;
    keep_b = '0;
    for (int j = 0; j < Depth; j++) begin // norm
      if (DW'(j) < cnt_a && live_a[j]) begin
        keep_b = DW'(j + 1);
      end
    end
    cnt_b = keep_b;
    for (int s = 0; s < Depth; s++) begin
      tpc  = '0;
      trpc = '0;
      for (int j = 0; j < Depth; j++) begin
        if (DW'(j + 1) == cnt_b) begin
          tpc  = pc_a[j*PCW +: PCW];
          trpc = rpc_a[j*PCW +: PCW];
        end
      end
      gap = trpc - tpc;
      if (cnt_b != '0 && rem != '0 && gap <= PCW'(rem)) begin
        rem    = rem - AdvW'(gap);
        keep_s = '0;
        for (int j = 0; j < Depth; j++) begin // norm
          if (DW'(j + 1) < cnt_b && live_a[j]) begin
            keep_s = DW'(j + 1);
          end
        end
        cnt_b = keep_s;
      end
    end
    pc_b = pc_a;
    for (int j = 0; j < Depth; j++) begin
      if (DW'(j + 1) == cnt_b) begin
        pc_b[j*PCW +: PCW] = pc_a[j*PCW +: PCW] + PCW'(rem);
      end
    end
  end

  // Stage C: the branch.
  logic [PCW-1:0] bpc, brpc, npc;
  logic [MW-1:0]  bmask, taken, fall;
  logic           p1, p2;
  logic [DW:0]    keep, need;
  always_comb begin
    pc_c   = pc_b;
    rpc_c  = rpc_a;
    mask_c = mask_a;
    cnt_c  = cnt_b;
    ovf_c  = ovf_a;
    bpc    = '0;
    brpc   = '0;
    bmask  = '0;
    for (int j = 0; j < Depth; j++) begin
      if (DW'(j + 1) == cnt_b) begin
        bpc   = pc_b[j*PCW +: PCW];
        brpc  = rpc_a[j*PCW +: PCW];
        bmask = mask_a[j*MW +: MW];
      end
    end
    npc   = bpc + PCW'(1);
    taken = bmask & br_taken_i;
    fall  = bmask & ~br_taken_i;
    p1    = npc != br_reconv_i;
    p2    = br_target_i != br_reconv_i;
    keep  = (brpc == br_reconv_i) ? {1'b0, cnt_b} - 1'b1 : {1'b0, cnt_b};
    need  = keep + (DW+1)'(p1) + (DW+1)'(p2);
    if (br_v_i && cnt_b != '0) begin
      if (fall == '0 || taken == '0) begin
        for (int j = 0; j < Depth; j++) begin
          if (DW'(j + 1) == cnt_b) begin
            pc_c[j*PCW +: PCW] = (fall == '0) ? br_target_i : npc;
          end
        end
      end else if (need > (DW+1)'(Depth)) begin
        ovf_c = 1'b1;
      end else begin
        for (int j = 0; j < Depth; j++) begin
          if (DW'(j + 1) == cnt_b && brpc != br_reconv_i) begin
            pc_c[j*PCW +: PCW] = br_reconv_i;
          end
          if ((DW+1)'(j) == keep && p1) begin
            pc_c[j*PCW +: PCW]  = npc;
            rpc_c[j*PCW +: PCW] = br_reconv_i;
            mask_c[j*MW +: MW]  = fall;
          end
          if ((DW+1)'(j) == keep + (DW+1)'(p1) && p2) begin
            pc_c[j*PCW +: PCW]  = br_target_i;
            rpc_c[j*PCW +: PCW] = br_reconv_i;
            mask_c[j*MW +: MW]  = taken;
          end
        end
        cnt_c = need[DW-1:0];
      end
    end
    for (int j = 0; j < Depth; j++) begin
      live_c[j] = mask_c[j*MW +: MW] != '0 && pc_c[j*PCW +: PCW] != rpc_c[j*PCW +: PCW];
    end
    keep_c = '0;
    for (int j = 0; j < Depth; j++) begin // norm
      if (DW'(j) < cnt_c && live_c[j]) begin
        keep_c = DW'(j + 1);
      end
    end
    cnt_c = keep_c;
  end

  // Output values after the edge.
  logic           top_v_d, rd_hit_d;
  logic [PCW-1:0] top_pc_d, top_rpc_d, rd_pc_d, rd_rpc_d;
  logic [MW-1:0]  top_mask_d, rd_mask_d;
  always_comb begin
    top_v_d    = cnt_c != '0;
    top_pc_d   = '0;
    top_rpc_d  = '0;
    top_mask_d = '0;
    rd_hit_d   = 1'b0;
    rd_pc_d    = '0;
    rd_rpc_d   = '0;
    rd_mask_d  = '0;
    for (int j = 0; j < Depth; j++) begin
      if (DW'(j + 1) == cnt_c) begin
        top_pc_d   = pc_c[j*PCW +: PCW];
        top_rpc_d  = rpc_c[j*PCW +: PCW];
        top_mask_d = mask_c[j*MW +: MW];
      end
      if (rd_v_i && rd_idx_i == DW'(j) && DW'(j) < cnt_c) begin
        rd_hit_d  = 1'b1;
        rd_pc_d   = pc_c[j*PCW +: PCW];
        rd_rpc_d  = rpc_c[j*PCW +: PCW];
        rd_mask_d = mask_c[j*MW +: MW];
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      pc_q       <= '0;
      rpc_q      <= '0;
      mask_q     <= '0;
      cnt_q      <= '0;
      ovf_q      <= 1'b0;
      top_v_o    <= 1'b0;
      top_pc_o   <= '0;
      top_rpc_o  <= '0;
      top_mask_o <= '0;
      depth_o    <= '0;
      ovf_o      <= 1'b0;
      rd_v_o     <= 1'b0;
      rd_hit_o   <= 1'b0;
      rd_pc_o    <= '0;
      rd_rpc_o   <= '0;
      rd_mask_o  <= '0;
    end else begin
      pc_q       <= pc_c;
      rpc_q      <= rpc_c;
      mask_q     <= mask_c;
      cnt_q      <= cnt_c;
      ovf_q      <= ovf_c;
      top_v_o    <= top_v_d;
      top_pc_o   <= top_pc_d;
      top_rpc_o  <= top_rpc_d;
      top_mask_o <= top_mask_d;
      depth_o    <= cnt_c;
      ovf_o      <= ovf_c;
      rd_v_o     <= rd_v_i;
      rd_hit_o   <= rd_hit_d;
      rd_pc_o    <= rd_pc_d;
      rd_rpc_o   <= rd_rpc_d;
      rd_mask_o  <= rd_mask_d;
    end
  end

  ////////////////
  // Assertions //
  ////////////////

  `HD_ASSERT_INIT(HdHawsShadowWidth, Depth >= 2 && Depth < (1 << DW) && PCW >= 8 && PCW <= 64 &&
                                     MW >= 1 && MW <= 64 && AdvW >= 1 && AdvW < PCW)
  `HD_ASSERT_KNOWN(HdHawsShadowTopKnown, top_v_o, clk_i, rst_ni)
  `HD_ASSERT(HdHawsShadowDepth, depth_o <= DW'(Depth) && top_v_o == (depth_o != '0), clk_i,
             rst_ni)
  // The top is live: a reconverged or empty entry never stays on top.
  `HD_ASSERT(HdHawsShadowTopLive, !top_v_o || (top_mask_o != '0 && top_pc_o != top_rpc_o), clk_i,
             rst_ni)
  `HD_ASSERT(HdHawsShadowRdIdleZero, rd_v_o || (!rd_hit_o && rd_pc_o == '0 && rd_mask_o == '0),
             clk_i, rst_ni)

endmodule
