// SPDX-License-Identifier: MIT
/**
 * expars_oc_tags - EXPARS's operand-cache tag array, one per SM (Yu et al. TACO 2018 §3.3.4,
 * §3.3.7, Fig. 8; digest ../shared/reference/papers/expars.md §2.6, §3.2 (c)).
 *
 * Per line: valid, dirty and pinned bits, the tag {warp slot, register}, a VW-bit version (the
 * data-carrying stand-in of the model's checker) and an AgW-bit LRU age within its set (0 = most
 * recent; a set's ages are a permutation of 0..Ways-1). The 128 B of data per line are an SRAM
 * beside this block and not in it. Sets = Lines / Ways, set = reg mod sets, bank = reg mod Banks.
 * Victim in the register's set: an invalid line, else the oldest unpinned clean one, else
 * unpinned dirty, else the oldest (lowest line on a tie).
 *
 * One operation per edge (op_i): PEEK, READ (a hit becomes most recent), WRITE (hit: version,
 * dirty, most recent; miss: the victim line gets the register dirty), PUT (the register's own
 * line if present, else the victim line, gets {warp, reg, ver_i, dirty_i}, unpinned, most
 * recent), PIN, UNPIN (every line of the warp), STEAL (pinned lines of other warps in the set),
 * DROP (invalidate every line of the warp). Outputs registered one cycle later, 0 after an edge
 * without an operation. Bit-exact C reference: tables/expars_oc_tags.c; ports:
 * expars_oc_tags_ports.def.
 *
 * Parameters (configs/rtl/expars_oc_tags.ini):
 *   Lines, LW  lines and line-index bits;  Ways, AgW  lines per set and age bits
 *   Banks, BW  banks and bank bits;  WW, RW, VW  warp, register and version bits
 *   NW         bits of a count of lines
 */
`include "../include/hd_assert.svh"

module expars_oc_tags #(
  parameter int unsigned Lines = 16,
  parameter int unsigned LW    = 4,
  parameter int unsigned Ways  = 1,
  parameter int unsigned AgW   = 1,
  parameter int unsigned Banks = 4,
  parameter int unsigned BW    = 2,
  parameter int unsigned WW    = 6,
  parameter int unsigned RW    = 8,
  parameter int unsigned VW    = 32,
  parameter int unsigned NW    = 5
) (
  input  logic          clk_i,
  input  logic          rst_ni,
  input  logic          op_v_i,
  input  logic [2:0]    op_i,
  input  logic [WW-1:0] warp_i,
  input  logic [RW-1:0] reg_i,
  input  logic [VW-1:0] ver_i,
  input  logic          dirty_i,
  output logic          res_v_o,
  output logic          hit_o,
  output logic [LW-1:0] line_o,
  output logic [BW-1:0] bank_o,
  output logic [VW-1:0] ver_o,
  output logic          vic_v_o,
  output logic          vic_dirty_o,
  output logic          vic_pinned_o,
  output logic [WW-1:0] vic_warp_o,
  output logic [RW-1:0] vic_reg_o,
  output logic [VW-1:0] vic_ver_o,
  output logic [NW-1:0] n_o
);

  localparam int unsigned Sets = Lines / Ways;
  localparam logic [2:0] OpPeek = 3'd0, OpRead = 3'd1, OpWrite = 3'd2, OpPut = 3'd3,
                         OpPin = 3'd4, OpUnpin = 3'd5, OpSteal = 3'd6, OpDrop = 3'd7;

  // Line j's fields in bits [j*W +: W] (flat vectors: Yosys 0.23 reads no packed 2-D arrays).
  logic [Lines-1:0]     valid_q, valid_d, dirty_q, dirty_d, pinned_q, pinned_d;
  logic [Lines*WW-1:0]  warp_q, warp_d;
  logic [Lines*RW-1:0]  reg_q, reg_d;
  logic [Lines*VW-1:0]  ver_q, ver_d;
  logic [Lines*AgW-1:0] age_q, age_d;

  // The register's set, the hit and the victim.
  logic [RW-1:0]    set_idx;
  logic [Lines-1:0] in_set, match;
  logic             hit;
  logic [LW-1:0]    hit_line, vic_line, tl;
  logic             vfound;
  logic [1:0]       bad, vbad;
  logic [AgW-1:0]   vage, tage;
  logic             touch, install, inst_dirty;

  always_comb begin
    set_idx  = reg_i % RW'(Sets);
    in_set   = '0;
    match    = '0;
    hit      = 1'b0;
    hit_line = '0;
    vfound   = 1'b0;
    vic_line = '0;
    vbad     = '0;
    vage     = '0;
    bad      = '0;
    for (int j = 0; j < Lines; j++) begin
      in_set[j] = RW'(j / Ways) == set_idx;
      match[j]  = in_set[j] && valid_q[j] && warp_q[j*WW +: WW] == warp_i &&
                  reg_q[j*RW +: RW] == reg_i;
      if (match[j] && !hit) begin
        hit      = 1'b1;
        hit_line = LW'(j);
      end
      bad = !valid_q[j] ? 2'd0 : pinned_q[j] ? 2'd3 : dirty_q[j] ? 2'd2 : 2'd1;
      if (in_set[j] && (!vfound || bad < vbad ||
                        (bad == vbad && age_q[j*AgW +: AgW] > vage))) begin
        vfound   = 1'b1;
        vic_line = LW'(j);
        vbad     = bad;
        vage     = age_q[j*AgW +: AgW];
      end
    end
  end

  // The operation.
  logic          res_hit;
  logic [LW-1:0] res_line;
  logic [VW-1:0] res_ver;
  logic          rv_v, rv_dirty, rv_pinned;
  logic [WW-1:0] rv_warp;
  logic [RW-1:0] rv_reg;
  logic [VW-1:0] rv_ver;
  logic [NW-1:0] cnt;

  always_comb begin
    valid_d    = valid_q;
    dirty_d    = dirty_q;
    pinned_d   = pinned_q;
    warp_d     = warp_q;
    reg_d      = reg_q;
    ver_d      = ver_q;
    age_d      = age_q;
    res_hit    = 1'b0;
    res_line   = '0;
    res_ver    = '0;
    rv_v       = 1'b0;
    rv_dirty   = 1'b0;
    rv_pinned  = 1'b0;
    rv_warp    = '0;
    rv_reg     = '0;
    rv_ver     = '0;
    cnt        = '0;
    touch      = 1'b0;
    install    = 1'b0;
    inst_dirty = 1'b0;
    tl         = hit ? hit_line : vic_line;
    if (op_v_i) begin
      unique case (op_i)
        OpPeek, OpRead: begin
          res_hit  = hit;
          res_line = tl;
          if (hit) begin
            res_ver = ver_q[hit_line*VW +: VW];
            touch   = op_i == OpRead;
          end else begin
            rv_v = valid_q[vic_line];
          end
        end
        OpWrite: begin
          res_hit  = hit;
          res_line = tl;
          touch    = 1'b1;
          if (hit) begin
            ver_d[hit_line*VW +: VW] = ver_i;
            dirty_d[hit_line]        = 1'b1;
          end else begin
            install    = 1'b1;
            inst_dirty = 1'b1;
            rv_v       = valid_q[vic_line];
          end
        end
        OpPut: begin
          res_hit    = hit;
          res_line   = tl;
          touch      = 1'b1;
          install    = 1'b1;
          inst_dirty = dirty_i;
          rv_v       = !hit && valid_q[vic_line];
        end
        OpPin: begin
          res_hit  = hit;
          res_line = hit ? hit_line : '0;
          if (hit) begin
            pinned_d[hit_line] = 1'b1;
          end
        end
        default: begin // UNPIN, STEAL, DROP
          for (int j = 0; j < Lines; j++) begin
            if (op_i == OpSteal) begin
              if (in_set[j] && valid_q[j] && pinned_q[j] && warp_q[j*WW +: WW] != warp_i) begin
                pinned_d[j] = 1'b0;
                cnt         = cnt + 1'b1;
              end
            end else if (valid_q[j] && warp_q[j*WW +: WW] == warp_i) begin
              if (op_i == OpDrop) begin
                valid_d[j] = 1'b0;
                cnt        = cnt + 1'b1;
              end else if (op_i == OpUnpin && pinned_q[j]) begin
                pinned_d[j] = 1'b0;
                cnt         = cnt + 1'b1;
              end
            end
          end
        end
      endcase
    end
    if (rv_v) begin // what leaves (or would leave): the victim line's contents
      rv_dirty  = dirty_q[vic_line];
      rv_pinned = pinned_q[vic_line];
      rv_warp   = warp_q[vic_line*WW +: WW];
      rv_reg    = reg_q[vic_line*RW +: RW];
      rv_ver    = ver_q[vic_line*VW +: VW];
    end
    if (install) begin
      valid_d[tl]            = 1'b1;
      dirty_d[tl]            = inst_dirty;
      pinned_d[tl]           = 1'b0;
      warp_d[tl*WW +: WW]    = warp_i;
      reg_d[tl*RW +: RW]     = reg_i;
      ver_d[tl*VW +: VW]     = ver_i;
    end
    // The touched line becomes the most recent; the more recent lines of its set age by one.
    tage = age_q[tl*AgW +: AgW];
    if (touch) begin
      for (int j = 0; j < Lines; j++) begin
        if (in_set[j] && age_q[j*AgW +: AgW] < tage) begin
          age_d[j*AgW +: AgW] = age_q[j*AgW +: AgW] + 1'b1;
        end
      end
      age_d[tl*AgW +: AgW] = '0;
    end
  end

  // A fresh set's lower lines are older (the reference's reset ages).
  logic [Lines*AgW-1:0] age_rst;
  always_comb begin
    age_rst = '0;
    for (int j = 0; j < Lines; j++) begin
      age_rst[j*AgW +: AgW] = AgW'(Ways - 1 - (j % Ways));
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      valid_q      <= '0;
      dirty_q      <= '0;
      pinned_q     <= '0;
      warp_q       <= '0;
      reg_q        <= '0;
      ver_q        <= '0;
      age_q        <= age_rst;
      res_v_o      <= 1'b0;
      hit_o        <= 1'b0;
      line_o       <= '0;
      bank_o       <= '0;
      ver_o        <= '0;
      vic_v_o      <= 1'b0;
      vic_dirty_o  <= 1'b0;
      vic_pinned_o <= 1'b0;
      vic_warp_o   <= '0;
      vic_reg_o    <= '0;
      vic_ver_o    <= '0;
      n_o          <= '0;
    end else begin
      valid_q      <= valid_d;
      dirty_q      <= dirty_d;
      pinned_q     <= pinned_d;
      warp_q       <= warp_d;
      reg_q        <= reg_d;
      ver_q        <= ver_d;
      age_q        <= age_d;
      res_v_o      <= op_v_i;
      hit_o        <= res_hit;
      line_o       <= res_line;
      bank_o       <= op_v_i ? BW'(reg_i % RW'(Banks)) : '0;
      ver_o        <= res_ver;
      vic_v_o      <= rv_v;
      vic_dirty_o  <= rv_dirty;
      vic_pinned_o <= rv_pinned;
      vic_warp_o   <= rv_warp;
      vic_reg_o    <= rv_reg;
      vic_ver_o    <= rv_ver;
      n_o          <= cnt;
    end
  end

  ////////////////
  // Assertions //
  ////////////////

  `HD_ASSERT_INIT(HdExparsOcTagsParams, Lines >= 1 && Lines <= (1 << LW) && Lines <= 64 &&
                                        Ways >= 1 && Lines % Ways == 0 && Ways <= (1 << AgW) &&
                                        Banks >= 1 && Banks <= (1 << BW) &&
                                        Lines < (1 << NW) && VW <= 32)
  `HD_ASSERT_KNOWN(HdExparsOcTagsResKnown, res_v_o, clk_i, rst_ni)
  `HD_ASSERT_KNOWN(HdExparsOcTagsHitKnown, hit_o, clk_i, rst_ni)
  `HD_ASSERT(HdExparsOcTagsIdleZero,
             res_v_o || (!hit_o && line_o == '0 && !vic_v_o && n_o == '0 && ver_o == '0),
             clk_i, rst_ni)
  // A victim is reported only on a miss (or nothing leaves).
  `HD_ASSERT(HdExparsOcTagsVicMiss, !(vic_v_o && hit_o), clk_i, rst_ni)
  // At most one line of a set holds a register.
  `HD_ASSERT(HdExparsOcTagsUnique, $countones(match) <= 1, clk_i, rst_ni)

endmodule
