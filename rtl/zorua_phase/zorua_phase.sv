// SPDX-License-Identifier: MIT
/**
 * zorua_phase - Zorua's phase-specifier decoder, one per SM (digest zorua.md section 2.9; paper
 * L195, L310-L319). Turns the decoded warp instructions that are phase boundaries into the
 * coordinator's events (zorua_coord ev_*): a phase specifier (the next phase's live registers and
 * scratchpad bytes) becomes a phase event in table units, register sets ceil(regs / 4) and
 * scratchpad sets ceil(bytes / 1024), refused (err_o) past the tables; a barrier a barrier event;
 * a fence a phase event with the warp's current phase (a boundary with no change, L314); an exit
 * an exit event. Keeps each warp's current phase (L316), set at the block's arrival (init_*),
 * replaced by each phase specifier, cleared at the exit. Within one edge the arrival, then the
 * instruction. Registered outputs, latency 1, 0 without an event.
 * Warps is 64 on Fermi and 96 on Kepler and Maxwell (session 20; up to 128): a warp index past
 * Warps (WW bits may hold more) is ignored.
 * Bit-exact C reference: tables/zorua_phase.c; ports: zorua_phase_ports.def; parameters:
 * configs/rtl/zorua_phase.ini.
 */
`include "../include/hd_assert.svh"

module zorua_phase #(
  parameter int unsigned Warps    = 64,
  parameter int unsigned WW       = 6,
  parameter int unsigned RegW     = 8,
  parameter int unsigned SmW      = 16,
  parameter int unsigned RegSets  = 16,
  parameter int unsigned RsW      = 5,
  parameter int unsigned SmemSets = 48,
  parameter int unsigned SsW      = 6
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic             v_i,
  input  logic [2:0]       cls_i,
  input  logic [WW-1:0]    warp_i,
  input  logic [RegW-1:0]  regs_i,
  input  logic [SmW-1:0]   smem_i,
  input  logic             init_v_i,
  input  logic [Warps-1:0] init_mask_i,
  input  logic [RsW-1:0]   init_rsets_i,
  input  logic [SsW-1:0]   init_ssets_i,
  output logic             ev_v_o,
  output logic [1:0]       ev_kind_o,
  output logic [WW-1:0]    ev_warp_o,
  output logic [RsW-1:0]   ev_rsets_o,
  output logic [SsW-1:0]   ev_ssets_o,
  output logic             err_o
);

  localparam logic [2:0] ClsPhase = 3'd1;
  localparam logic [2:0] ClsBar   = 3'd2;
  localparam logic [2:0] ClsFence = 3'd3;
  localparam logic [2:0] ClsExit  = 3'd4;

  logic [Warps*RsW-1:0] cur_r_q, cur_r_d;
  logic [Warps*SsW-1:0] cur_s_q, cur_s_d;

  logic [RegW:0]   rsets;   // ceil(regs / 4)
  logic [SmW:0]    ssets;   // ceil(bytes / 1024)
  logic            fits, in_range;
  logic [RsW-1:0]  wr_cur;  // the warp's phase after this cycle's arrival
  logic [SsW-1:0]  ws_cur;
  logic            ev_v_d, err_d;
  logic [1:0]      ev_kind_d;
  logic [RsW-1:0]  ev_rsets_d;
  logic [SsW-1:0]  ev_ssets_d;

  assign rsets    = ({1'b0, regs_i} + (RegW+1)'(3)) >> 2;
  assign ssets    = ({1'b0, smem_i} + (SmW+1)'(1023)) >> 10;
  assign fits     = 32'(rsets) <= RegSets && 32'(ssets) <= SmemSets;
  assign in_range = 32'(warp_i) < Warps;
  assign wr_cur   = (init_v_i && init_mask_i[warp_i]) ? init_rsets_i : cur_r_q[warp_i*RsW +: RsW];
  assign ws_cur   = (init_v_i && init_mask_i[warp_i]) ? init_ssets_i : cur_s_q[warp_i*SsW +: SsW];

  always_comb begin
    ev_v_d     = 1'b0;
    ev_kind_d  = '0;
    ev_rsets_d = '0;
    ev_ssets_d = '0;
    err_d      = 1'b0;
    if (v_i && in_range) begin
      unique case (cls_i)
        ClsPhase: begin
          if (fits) begin
            ev_v_d     = 1'b1;
            ev_rsets_d = RsW'(rsets);
            ev_ssets_d = SsW'(ssets);
          end else begin
            err_d = 1'b1;
          end
        end
        ClsBar: begin
          ev_v_d    = 1'b1;
          ev_kind_d = 2'd1;
        end
        ClsFence: begin
          ev_v_d     = 1'b1;
          ev_rsets_d = wr_cur;
          ev_ssets_d = ws_cur;
        end
        ClsExit: begin
          ev_v_d    = 1'b1;
          ev_kind_d = 2'd2;
        end
        default: ;
      endcase
    end
  end

  always_comb begin
    cur_r_d = cur_r_q;
    cur_s_d = cur_s_q;
    for (int unsigned j = 0; j < Warps; j++) begin
      if (init_v_i && init_mask_i[j]) begin
        cur_r_d[j*RsW +: RsW] = init_rsets_i;
        cur_s_d[j*SsW +: SsW] = init_ssets_i;
      end
      if (v_i && warp_i == WW'(j) && ((cls_i == ClsPhase && fits) || cls_i == ClsExit)) begin
        cur_r_d[j*RsW +: RsW] = cls_i == ClsExit ? '0 : RsW'(rsets);
        cur_s_d[j*SsW +: SsW] = cls_i == ClsExit ? '0 : SsW'(ssets);
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      cur_r_q    <= '0;
      cur_s_q    <= '0;
      ev_v_o     <= 1'b0;
      ev_kind_o  <= '0;
      ev_warp_o  <= '0;
      ev_rsets_o <= '0;
      ev_ssets_o <= '0;
      err_o      <= 1'b0;
    end else begin
      cur_r_q    <= cur_r_d;
      cur_s_q    <= cur_s_d;
      ev_v_o     <= ev_v_d;
      ev_kind_o  <= ev_kind_d;
      ev_warp_o  <= (ev_v_d || err_d) ? warp_i : '0;
      ev_rsets_o <= ev_rsets_d;
      ev_ssets_o <= ev_ssets_d;
      err_o      <= err_d;
    end
  end

  ////////////////
  // Assertions //
  ////////////////

  `HD_ASSERT_INIT(HdZoruaPhaseParams, Warps >= 1 && Warps <= 128 && Warps <= (1 << WW) &&
                                      RegSets < (1 << RsW) && SmemSets < (1 << SsW))
  `HD_ASSERT_KNOWN(HdZoruaPhaseEvKnown, ev_v_o, clk_i, rst_ni)
  `HD_ASSERT(HdZoruaPhaseOneOf, !(ev_v_o && err_o), clk_i, rst_ni)
  `HD_ASSERT(HdZoruaPhaseIdleZero, ev_v_o || err_o || (ev_warp_o == '0 && ev_kind_o == '0 &&
                                   ev_rsets_o == '0 && ev_ssets_o == '0), clk_i, rst_ni)

endmodule
