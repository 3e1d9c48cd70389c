// SPDX-License-Identifier: MIT
/**
 * locality_cta_dist - Gong's locality-aware block distributor (thesis ch.6 §6.3.1, Fig 6.8;
 * digest §2.10, §3.7, §8 item 28), linear chunk order, one CTA dispatched per cycle.
 *
 * State: the SM that received the last CTA, how many CTAs of the current chunk it received
 * (CW bits, saturating) and the chunk's launch. A request of hint 0 goes to the first SM with
 * room after the last one (round-robin). A request of hint 1-3 stays on the last SM while the
 * chunk is of its launch, holds fewer than req_chunk_i CTAs and the SM has room; else the first
 * SM with room after it starts a new chunk. The same picks as the policy
 * model/policy/cta_dist_locality.c (cta_dist_order = linear) when one CTA is placed per cycle.
 *
 * Keep mode (req_keep_i, [timing] cta_dist_order = keep; hints 1-3): each SM owns one range of
 * consecutive CTA indices of the launch, SM i [i * C, (i + 1) * C) clipped to req_nctas_i (C =
 * req_chunk_i), held as next/end registers per SM for one launch at a time. The SM is picked
 * round-robin (as hint 0); a fresh CTA (req_fresh_i) is the next of that SM's range, or, when
 * its range is used up, the last unplaced CTA of the first SM after it in ring order that has
 * some (pick_cta_o, pick_new_o = 1). A fresh request of another launch, or of a launch whose
 * CTAs were all placed, first loads the ranges (one constant multiply per SM).
 *
 * Registered outputs: pick_* one cycle after req_v_i, 0 in a cycle without a pick. Within one
 * edge: batch_i's reset, then the request. Bit-exact C reference: tables/locality_cta_dist.c;
 * ports: locality_cta_dist_ports.def.
 *
 * Parameters (configs/rtl/locality_cta_dist.ini):
 *   NSM  SMs;  SW  SM index bits, $clog2(NSM);  CW  chunk bits;  LW  launch id bits;
 *   IW   CTA index bits (keep mode)
 */
`include "../include/hd_assert.svh"

module locality_cta_dist #(
  parameter int unsigned NSM = 14,
  parameter int unsigned SW  = 4,
  parameter int unsigned CW  = 16,
  parameter int unsigned LW  = 8,
  parameter int unsigned IW  = 16
) (
  input  logic           clk_i,
  input  logic           rst_ni,
  input  logic           batch_i,
  input  logic           req_v_i,
  input  logic [LW-1:0]  req_launch_i,
  input  logic [1:0]     req_hint_i,
  input  logic [CW-1:0]  req_chunk_i,
  input  logic [NSM-1:0] ok_i,
  input  logic           req_keep_i,
  input  logic           req_fresh_i,
  input  logic [IW-1:0]  req_nctas_i,
  output logic           pick_v_o,
  output logic [SW-1:0]  pick_sm_o,
  output logic           pick_new_o,
  output logic [IW-1:0]  pick_cta_o
);

  localparam logic [SW-1:0] LastSm = SW'(NSM - 1);
  localparam int unsigned PW = (SW + CW + 1 > IW) ? SW + CW + 1 : IW; // range arithmetic

  // keep mode: each SM's unplaced range [rp, re) of the held launch
  logic [NSM*IW-1:0] rp_q, re_q, rp_d, re_d, bp, be; // SM i: bits [i*IW +: IW]
  logic          kv_q, kv_d, keep_req, kinit, own, vic_found, kfound, lin;
  logic [LW-1:0] kl_q, kl_d;
  logic [IW-1:0] left_q, left_d, kbase_left, kcta;
  logic [SW-1:0] vic;
  logic [PW-1:0] lo, hi, nct;
  logic [SW:0]   vidx;

  logic [SW-1:0] last_d, last_q, base, nxt, pick;
  logic [CW-1:0] cnt_d, cnt_q, base_cnt, chunk;
  logic          chv_d, chv_q, base_chv, chunked, cont, nxt_found, pick_v, same;
  logic [LW-1:0] chl_d, chl_q, base_chl;
  logic [SW:0]   idx;

  always_comb begin
    // the state after a new batch's reset
    base     = batch_i ? LastSm : last_q;
    base_cnt = batch_i ? '0 : cnt_q;
    base_chv = batch_i ? 1'b0 : chv_q;
    base_chl = batch_i ? '0 : chl_q;
    chunked  = req_hint_i != 2'd0;
    lin      = chunked && !req_keep_i; // linear chunks; keep mode picks SMs round-robin
    chunk    = req_chunk_i == '0 ? CW'(1) : req_chunk_i;
    cont     = lin && base_chv && base_chl == req_launch_i && base_cnt < chunk && ok_i[base];
    // the first SM with room after `base`, ring order
    nxt       = '0;
    nxt_found = 1'b0;
    for (int unsigned k = 1; k <= NSM; k++) begin
      idx = {1'b0, base} + (SW+1)'(k);
      if (idx >= (SW+1)'(NSM)) idx = idx - (SW+1)'(NSM);
      if (!nxt_found && ok_i[idx[SW-1:0]]) begin
        nxt       = idx[SW-1:0];
        nxt_found = 1'b1;
      end
    end
    pick_v = req_v_i && (cont || nxt_found);
    pick   = cont ? base : nxt;
    same   = lin && pick == base && base_chv && base_chl == req_launch_i;
    // keep mode: the ranges (loaded for a new launch), the picked SM's own next CTA or a stolen one
    keep_req   = req_v_i && req_keep_i && chunked && req_fresh_i;
    kinit      = keep_req && (!kv_q || kl_q != req_launch_i || left_q == '0);
    nct        = PW'(req_nctas_i);
    kbase_left = kinit ? req_nctas_i : left_q;
    for (int unsigned i = 0; i < NSM; i++) begin
      lo = PW'(i) * PW'(chunk);
      hi = lo + PW'(chunk);
      if (lo > nct) lo = nct;
      if (hi > nct) hi = nct;
      bp[i*IW +: IW] = kinit ? IW'(lo) : rp_q[i*IW +: IW];
      be[i*IW +: IW] = kinit ? IW'(hi) : re_q[i*IW +: IW];
    end
    own       = bp[pick*IW +: IW] < be[pick*IW +: IW];
    vic       = '0;
    vic_found = 1'b0;
    for (int unsigned k = 1; k < NSM; k++) begin
      vidx = {1'b0, pick} + (SW+1)'(k);
      if (vidx >= (SW+1)'(NSM)) vidx = vidx - (SW+1)'(NSM);
      if (!vic_found && bp[vidx[SW-1:0]*IW +: IW] < be[vidx[SW-1:0]*IW +: IW]) begin
        vic       = vidx[SW-1:0];
        vic_found = 1'b1;
      end
    end
    kfound = own || vic_found;
    kcta   = own ? bp[pick*IW +: IW] : vic_found ? be[vic*IW +: IW] - IW'(1) : '0;
    rp_d   = rp_q;
    re_d   = re_q;
    kv_d   = kv_q;
    kl_d   = kl_q;
    left_d = left_q;
    if (pick_v && keep_req) begin
      rp_d = bp;
      re_d = be;
      if (own) rp_d[pick*IW +: IW] = bp[pick*IW +: IW] + IW'(1);
      else if (vic_found) re_d[vic*IW +: IW] = be[vic*IW +: IW] - IW'(1);
      kv_d   = 1'b1;
      kl_d   = req_launch_i;
      left_d = kfound && kbase_left != '0 ? kbase_left - IW'(1) : kbase_left;
    end
    last_d = base;
    cnt_d  = base_cnt;
    chv_d  = base_chv;
    chl_d  = base_chl;
    if (pick_v) begin
      last_d = pick;
      if (same) begin
        cnt_d = base_cnt == '1 ? base_cnt : base_cnt + CW'(1);
      end else begin
        cnt_d = CW'(1);
        chv_d = chunked;
        chl_d = chunked ? req_launch_i : '0;
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      last_q     <= LastSm;
      cnt_q      <= '0;
      chv_q      <= 1'b0;
      chl_q      <= '0;
      pick_v_o   <= 1'b0;
      pick_sm_o  <= '0;
      pick_new_o <= 1'b0;
      pick_cta_o <= '0;
      kv_q       <= 1'b0;
      kl_q       <= '0;
      left_q     <= '0;
    end else begin
      last_q     <= last_d;
      cnt_q      <= cnt_d;
      chv_q      <= chv_d;
      chl_q      <= chl_d;
      pick_v_o   <= pick_v;
      pick_sm_o  <= pick_v ? pick : '0;
      pick_new_o <= pick_v && !same && !(keep_req && own);
      pick_cta_o <= pick_v && keep_req ? kcta : '0;
      kv_q       <= kv_d;
      kl_q       <= kl_d;
      left_q     <= left_d;
    end
  end

  // the range registers (loaded for each launch before they are read, kv_q)
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rp_q <= '0;
      re_q <= '0;
    end else begin
      rp_q <= rp_d;
      re_q <= re_d;
    end
  end

  `HD_ASSERT_INIT(HdLocalityCtaDistParams, NSM >= 1 && NSM <= 64 && NSM <= (1 << SW) && CW >= 2 &&
                 CW <= 32 && LW >= 1 && LW <= 32 && IW >= 2 && IW <= 32)
  // A fresh keep-mode CTA is one of the launch's.
  `HD_ASSERT(HdLocalityCtaDistKeepIn, pick_v && keep_req |-> kfound && kcta < req_nctas_i, clk_i,
             rst_ni)
  // A pick names an SM with room.
  `HD_ASSERT(HdLocalityCtaDistPickOk, pick_v |-> ok_i[pick], clk_i, rst_ni)

endmodule
