// SPDX-License-Identifier: MIT
/**
 * ccbp_irc - CCBP's issue-rate controller of one SM at the L1D miss queue (Lin thesis §4.5.1,
 * digest §2.16, §3.14). Per application a request counter of the current 200-cycle window
 * (CW bits, saturating), a quota (QW bits, requests per SM per window, 0 = unlimited) and an LS
 * bit. A select names the class whose oldest miss-queue request goes to the NoC: among the
 * classes under quota (the ungated class A always), the LS applications' oldest request, else
 * the oldest request (ties: the lower class).
 *
 * Within an edge: the select reads the counters and quotas before the edge, then the
 * configuration write, then the count of a request sent, then the window tick (apps at quota
 * to atq_o, counters to 0); rd_v_i returns the counters after the edge.
 *
 * Registered outputs: all, one cycle after their request; 0 in a cycle without a result.
 * Bit-exact C reference: tables/ccbp_irc.c; ports: ccbp_irc_ports.def.
 *
 * Parameters (configs/rtl/ccbp_irc.ini):
 *   A  applications (a power of two);  AW  $clog2(A);  SW  $clog2(A + 1);  IW  queue-position bits
 *   QW quota bits;  CW  counter bits
 */
`include "../include/hd_assert.svh"

module ccbp_irc #(
  parameter int unsigned A  = 4,
  parameter int unsigned AW = 2,
  parameter int unsigned SW = 3,
  parameter int unsigned IW = 7,
  parameter int unsigned QW = 8,
  parameter int unsigned CW = 8
) (
  input  logic                clk_i,
  input  logic                rst_ni,
  input  logic                cfg_v_i,
  input  logic [AW-1:0]       cfg_app_i,
  input  logic [QW-1:0]       cfg_quota_i,
  input  logic                cfg_ls_i,
  input  logic                sel_v_i,
  input  logic [A:0]          head_v_i,
  input  logic [(A+1)*IW-1:0] head_idx_i,
  input  logic                iss_v_i,
  input  logic [AW-1:0]       iss_app_i,
  input  logic                tick_i,
  input  logic                rd_v_i,
  output logic                sel_v_o,
  output logic                sel_hit_o,
  output logic [SW-1:0]       sel_app_o,
  output logic [IW-1:0]       sel_idx_o,
  output logic [A-1:0]        atq_o,
  output logic                rd_v_o,
  output logic [A*CW-1:0]     rd_cnt_o
);

  logic [A*CW-1:0] cnt_q, cnt_d;     // field a: application a's counter
  logic [A*QW-1:0] quota_q, quota_d; // field a: its quota
  logic [A-1:0]  ls_q, ls_d;
  logic [A:0]    elig;        // class c has a request and is under quota
  logic          hit, hit_ls;
  logic [SW-1:0] best, best_ls;
  logic [IW-1:0] bi, bli;
  logic [A-1:0]  atq;
  logic [A*CW-1:0] rd_cnt;

  // Eligibility: the ungated class always; application a while its quota is 0 or not reached.
  always_comb begin
    for (int unsigned c = 0; c < A; c++) begin
      elig[c] = head_v_i[c] && (quota_q[c*QW +: QW] == '0 ||
                                 QW'(cnt_q[c*CW +: CW]) < quota_q[c*QW +: QW]);
    end
    elig[A] = head_v_i[A];
  end

  // The oldest eligible request, and the oldest eligible LS application's request: a linear
  // minimum over the A + 1 classes (strictly smaller: the lower class keeps a tie).
  always_comb begin
    hit    = 1'b0;
    hit_ls = 1'b0;
    best   = '0;
    best_ls = '0;
    bi     = '0;
    bli    = '0;
    for (int unsigned c = 0; c <= A; c++) begin
      if (elig[c]) begin
        if (!hit || head_idx_i[c*IW +: IW] < bi) begin
          hit  = 1'b1;
          best = SW'(c);
          bi   = head_idx_i[c*IW +: IW];
        end
        if (c < A && ls_q[c[AW-1:0]] && (!hit_ls || head_idx_i[c*IW +: IW] < bli)) begin
          hit_ls  = 1'b1;
          best_ls = SW'(c);
          bli     = head_idx_i[c*IW +: IW];
        end
      end
    end
  end

  // The edge's updates after the select: write, count, tick.
  always_comb begin
    quota_d = quota_q;
    ls_d    = ls_q;
    cnt_d   = cnt_q;
    atq     = '0;
    if (cfg_v_i) begin
      quota_d[32'(cfg_app_i)*QW +: QW] = cfg_quota_i;
      ls_d[cfg_app_i]    = cfg_ls_i;
    end
    if (iss_v_i && cnt_q[32'(iss_app_i)*CW +: CW] != '1) begin
      cnt_d[32'(iss_app_i)*CW +: CW] = cnt_q[32'(iss_app_i)*CW +: CW] + 1'b1;
    end
    if (tick_i) begin
      for (int unsigned a = 0; a < A; a++) begin
        atq[a] = quota_d[a*QW +: QW] != '0 && QW'(cnt_d[a*CW +: CW]) >= quota_d[a*QW +: QW];
      end
      cnt_d = '0;
    end
    rd_cnt = rd_v_i ? cnt_d : '0;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      cnt_q     <= '0;
      quota_q   <= '0;
      ls_q      <= '0;
      sel_v_o   <= 1'b0;
      sel_hit_o <= 1'b0;
      sel_app_o <= '0;
      sel_idx_o <= '0;
      atq_o     <= '0;
      rd_v_o    <= 1'b0;
      rd_cnt_o  <= '0;
    end else begin
      cnt_q     <= cnt_d;
      quota_q   <= quota_d;
      ls_q      <= ls_d;
      sel_v_o   <= sel_v_i;
      sel_hit_o <= sel_v_i && hit;
      sel_app_o <= !sel_v_i ? '0 : hit_ls ? best_ls : best;
      sel_idx_o <= !sel_v_i ? '0 : hit_ls ? bli : bi;
      atq_o     <= atq;
      rd_v_o    <= rd_v_i;
      rd_cnt_o  <= rd_cnt;
    end
  end

  ////////////////
  // Assertions //
  ////////////////

  `HD_ASSERT_INIT(HdCcbpIrcWidth, A >= 2 && A <= 8 && (1 << AW) == A && (1 << SW) > A &&
                                  (A + 1) * IW <= 64 && QW <= 16 && CW <= QW)
  `HD_ASSERT_KNOWN(HdCcbpIrcSelKnown, sel_v_o, clk_i, rst_ni)
  `HD_ASSERT(HdCcbpIrcHitOnlyWithSel, !sel_hit_o || sel_v_o, clk_i, rst_ni)
  `HD_ASSERT(HdCcbpIrcRdIdleZero, rd_v_o || rd_cnt_o == '0, clk_i, rst_ni)

endmodule
