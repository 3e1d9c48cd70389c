// SPDX-License-Identifier: MIT
/**
 * expars_arb - EXPARS's bank arbitrator, one per SM (Yu et al. TACO 2018 §3.3.5, Fig. 9; digest
 * ../shared/reference/papers/expars.md §2.7, §8 item 4).
 *
 * Routing (SRC, DST): a register word judged in the scratchpad by the RAT (spm_i) goes to its
 * operand-cache bank, reg mod Banks, instead of its RF bank. A source that misses in the operand
 * cache is filled through a scratchpad pass landing lat_i cycles later (+1 behind a dirty
 * victim's write-back); a destination that misses over a dirty line takes a scratchpad pass.
 * Scratchpad banks (PASS, SHARED), shared between register passes and ld/st.shared: next_q is
 * the banks' first free cycle (modulo 2^NW; live_q = a booking since reset). A register pass at
 * now_i is granted iff next_q <= now_i and takes the cycle (next_q = now_i + 1); an ld/st.shared
 * of degree_i passes starts at max(now_i, next_q) and holds the banks degree_i cycles; its answer
 * is the wait. Cycles compare as the signed NW-bit difference next_q - now_i.
 * One request per edge; the answer is registered (latency 1), all zeros after an edge without
 * a request. Bit-exact C reference: tables/expars_arb.c; ports: expars_arb_ports.def.
 *
 * Parameters (configs/rtl/expars_arb.ini):
 *   Banks, BW  operand-cache banks (a power of two) and bank bits;  RW  register bits
 *   LW  fill-latency bits;  NW  cycle-stamp bits;  GW  ld/st.shared degree bits
 */
`include "../include/hd_assert.svh"

module expars_arb #(
  parameter int unsigned Banks = 4,
  parameter int unsigned BW    = 2,
  parameter int unsigned RW    = 8,
  parameter int unsigned LW    = 4,
  parameter int unsigned NW    = 32,
  parameter int unsigned GW    = 8
) (
  input  logic          clk_i,
  input  logic          rst_ni,
  input  logic          op_v_i,
  input  logic [1:0]    op_i,
  input  logic [RW-1:0] reg_i,
  input  logic          spm_i,
  input  logic          hit_i,
  input  logic          vic_dirty_i,
  input  logic [LW-1:0] lat_i,
  input  logic [NW-1:0] now_i,
  input  logic [GW-1:0] degree_i,
  output logic          res_v_o,
  output logic          oc_o,
  output logic [BW-1:0] bank_o,
  output logic          spad_o,
  output logic [LW:0]   lat_o,
  output logic          grant_o,
  output logic [NW-1:0] wait_o
);
  `HD_ASSERT_INIT(HdExparsArbBanks, Banks >= 1 && (Banks & (Banks - 1)) == 0 && Banks <= (1 << BW))
  `HD_ASSERT_INIT(HdExparsArbWidths, NW >= 8 && NW <= 32 && GW <= 8 && LW <= 8 && RW <= 16)

  localparam logic [1:0] OpSrc = 2'd0, OpDst = 2'd1, OpPass = 2'd2, OpShared = 2'd3;

  // the banks' state
  logic          live_q, live_d;
  logic [NW-1:0] next_q, next_d;
  // the registered answer
  logic          res_v_q, oc_q, spad_q, grant_q;
  logic [BW-1:0] bank_q;
  logic [LW:0]   lat_q;
  logic [NW-1:0] wait_q;
  logic          oc_d, spad_d, grant_d;
  logic [BW-1:0] bank_d;
  logic [LW:0]   lat_d;
  logic [NW-1:0] wait_d;

  // busy at now_i: a booking whose first free cycle is after now_i (signed difference > 0)
  logic [NW-1:0] diff;
  logic          busy;
  assign diff = next_q - now_i;
  assign busy = live_q && (diff != '0) && !diff[NW-1];

  logic          miss;
  logic [NW-1:0] start;
  assign miss  = spm_i && !hit_i;
  assign start = busy ? next_q : now_i;

  always_comb begin
    live_d  = live_q;
    next_d  = next_q;
    oc_d    = 1'b0;
    bank_d  = '0;
    spad_d  = 1'b0;
    lat_d   = '0;
    grant_d = 1'b0;
    wait_d  = '0;
    if (op_v_i) begin
      unique case (op_i)
        OpSrc, OpDst: begin
          oc_d = spm_i;
          if (spm_i) bank_d = BW'(reg_i % RW'(Banks));
          if (op_i == OpSrc) begin
            spad_d = miss;
            if (miss) lat_d = {1'b0, lat_i} + {{LW{1'b0}}, vic_dirty_i};
          end else begin
            spad_d = miss && vic_dirty_i;
          end
        end
        OpPass: begin
          grant_d = !busy;
          if (!busy) begin
            next_d = now_i + NW'(1);
            live_d = 1'b1;
          end
        end
        OpShared: begin
          wait_d = start - now_i;
          next_d = start + NW'(degree_i);
          live_d = 1'b1;
        end
      endcase
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      live_q  <= 1'b0;
      next_q  <= '0;
      res_v_q <= 1'b0;
      oc_q    <= 1'b0;
      bank_q  <= '0;
      spad_q  <= 1'b0;
      lat_q   <= '0;
      grant_q <= 1'b0;
      wait_q  <= '0;
    end else begin
      live_q  <= live_d;
      next_q  <= next_d;
      res_v_q <= op_v_i;
      oc_q    <= oc_d;
      bank_q  <= bank_d;
      spad_q  <= spad_d;
      lat_q   <= lat_d;
      grant_q <= grant_d;
      wait_q  <= wait_d;
    end
  end

  assign res_v_o = res_v_q;
  assign oc_o    = oc_q;
  assign bank_o  = bank_q;
  assign spad_o  = spad_q;
  assign lat_o   = lat_q;
  assign grant_o = grant_q;
  assign wait_o  = wait_q;

  // an answer only after a request; a refused pass changes no booking
  `HD_ASSERT(HdExparsArbIdle, !res_v_q |-> !(oc_q || spad_q || grant_q || wait_q != '0),
             clk_i, rst_ni)
  `HD_ASSERT(HdExparsArbRefused, (op_v_i && op_i == OpPass && busy) |=> (next_q == $past(next_q)),
             clk_i, rst_ni)
  `HD_ASSERT_KNOWN(HdExparsArbKnown, {res_v_o, oc_o, bank_o, spad_o, lat_o, grant_o, wait_o},
                   clk_i, rst_ni)
endmodule
