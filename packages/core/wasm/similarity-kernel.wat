;; The similarity kernel of tool-search-core's semantic search (WebAssembly with 128-bit SIMD).
;;
;; `scan` is the first pass over every tool: the dot products of a query quantized to 8-bit
;; integers with tool vectors quantized to 8-bit integers (exact, in integer arithmetic), each
;; turned into an estimate of the cosine with lower and upper bounds (see vector-matrix.ts).
;; `refine` recomputes the bounds of the few rows that may rank, with the query in 16 bits.
;; `select` and `collect` pick those rows; `exact` re-ranks them: the same double-precision sum,
;; in the same order, as the JavaScript `dot` in exact-dot.ts, so both give the same bits.
;;
;; Codes come in pairs: the even one stored plus 128 (0..255), the odd one as a signed byte. Read
;; as a 16-bit lane, a pair is L = (even + 128) + 256 · odd, and with a query pair (x, y):
;;   L · x + (L >> 8) · (y − 256 · x) = even · x + odd · y + 128 · x
;; two i32x4.dot_i16x8_s per 16 codes and one shift, where widening bytes to 16 bits costs three
;; more instructions; the 128 · Σ x is the same for every row, and the caller subtracts it. It
;; needs |x|, |y| <= 127 (an 8-bit query): `refine` then widens the pairs for a 16-bit query.
;;
;; Build: `pnpm --filter tool-search-core build:wasm` turns this file into the base64 constant in
;; src/embedding/similarity-kernel-wasm.ts; a test checks that the constant matches this source.
(module
  (import "env" "memory" (memory 1))

  ;; For each of `count` rows, with dot = the row's codes times the 8-bit query (pairs as above,
  ;; minus `offset` = 128 · Σ x) and the row's info (f64 scale, error, norm, base):
  ;;   estimate = dot · (step · scale)
  ;;   bound    = queryNorm · error + queryError · norm + slack
  ;;   upper[row] = (estimate + bound) + base,  lower[row] = (estimate − bound) + base
  ;; (base is 0, or −∞ for a row without a vector). The JavaScript kernel computes the same.
  ;; query: per 16 codes, eight i16 x then eight i16 (y − 256 · x); codes: `count` rows of
  ;; `stride` bytes (a multiple of 32, zero-padded); info: 32 bytes a row; upper, lower: f64.
  ;; Sums wrap in i32, but the true dot fits (|codes|, |query| <= 127), so the result is exact.
  (func (export "scan")
    (param $query i32) (param $codes i32) (param $count i32) (param $stride i32) (param $info i32)
    (param $step f64) (param $queryNorm f64) (param $queryError f64) (param $slack f64)
    (param $offset i32) (param $upper i32) (param $lower i32)
    (local $end i32) (local $at i32) (local $lane i32) (local $row v128)
    (local $s0 v128) (local $s1 v128) (local $s2 v128) (local $s3 v128)
    (local $estimate f64) (local $bound f64)
    (local.set $end (i32.add (local.get $codes) (i32.mul (local.get $count) (local.get $stride))))
    (block $done
      (loop $rows
        (br_if $done (i32.ge_u (local.get $codes) (local.get $end)))
        (local.set $s0 (v128.const i32x4 0 0 0 0))
        (local.set $s1 (v128.const i32x4 0 0 0 0))
        (local.set $s2 (v128.const i32x4 0 0 0 0))
        (local.set $s3 (v128.const i32x4 0 0 0 0))
        (local.set $lane (local.get $query))
        (local.set $at (local.get $codes))
        (local.set $codes (i32.add (local.get $codes) (local.get $stride)))
        ;; 32 codes per turn, four independent sums.
        (loop $lanes
          (local.set $row (v128.load (local.get $at)))
          (local.set $s0
            (i32x4.add (local.get $s0)
              (i32x4.dot_i16x8_s (local.get $row) (v128.load (local.get $lane)))))
          (local.set $s1
            (i32x4.add (local.get $s1)
              (i32x4.dot_i16x8_s
                (i16x8.shr_s (local.get $row) (i32.const 8)) (v128.load offset=16 (local.get $lane)))))
          (local.set $row (v128.load offset=16 (local.get $at)))
          (local.set $s2
            (i32x4.add (local.get $s2)
              (i32x4.dot_i16x8_s (local.get $row) (v128.load offset=32 (local.get $lane)))))
          (local.set $s3
            (i32x4.add (local.get $s3)
              (i32x4.dot_i16x8_s
                (i16x8.shr_s (local.get $row) (i32.const 8)) (v128.load offset=48 (local.get $lane)))))
          (local.set $lane (i32.add (local.get $lane) (i32.const 64)))
          (local.set $at (i32.add (local.get $at) (i32.const 32)))
          (br_if $lanes (i32.lt_u (local.get $at) (local.get $codes))))
        ;; The same steps as $bounds, written out: a call per row costs as much as a short row.
        (local.set $s0 (i32x4.add (i32x4.add (local.get $s0) (local.get $s1))
          (i32x4.add (local.get $s2) (local.get $s3))))
        (local.set $estimate
          (f64.mul
            (f64.convert_i32_s
              (i32.sub
                (i32.add
                  (i32.add (i32x4.extract_lane 0 (local.get $s0)) (i32x4.extract_lane 1 (local.get $s0)))
                  (i32.add (i32x4.extract_lane 2 (local.get $s0)) (i32x4.extract_lane 3 (local.get $s0))))
                (local.get $offset)))
            (f64.mul (local.get $step) (f64.load (local.get $info)))))
        (local.set $bound
          (f64.add
            (f64.add
              (f64.mul (local.get $queryNorm) (f64.load offset=8 (local.get $info)))
              (f64.mul (local.get $queryError) (f64.load offset=16 (local.get $info))))
            (local.get $slack)))
        (f64.store (local.get $upper)
          (f64.add (f64.add (local.get $estimate) (local.get $bound)) (f64.load offset=24 (local.get $info))))
        (f64.store (local.get $lower)
          (f64.add (f64.sub (local.get $estimate) (local.get $bound)) (f64.load offset=24 (local.get $info))))
        (local.set $info (i32.add (local.get $info) (i32.const 32)))
        (local.set $upper (i32.add (local.get $upper) (i32.const 8)))
        (local.set $lower (i32.add (local.get $lower) (i32.const 8)))
        (br $rows))))

  ;; For each of the `count` rows listed (i32) at `rows`: the bounds again, from the 16-bit query
  ;; (per 16 codes, eight i16 for the even codes, then eight for the odd ones) and
  ;; `offset` = 128 · Σ even lanes, kept where tighter than the scan's. Sums wrap in i32; the
  ;; caller keeps |query| small enough that the true dot fits, so the result is exact.
  (func (export "refine")
    (param $query i32) (param $codes i32) (param $stride i32) (param $rows i32) (param $count i32)
    (param $info i32) (param $step f64) (param $queryNorm f64) (param $queryError f64)
    (param $slack f64) (param $offset i32) (param $upper i32) (param $lower i32)
    (local $end i32) (local $index i32) (local $at i32) (local $stop i32) (local $lane i32)
    (local $pair v128) (local $s0 v128) (local $s1 v128)
    (local.set $end (i32.add (local.get $rows) (i32.shl (local.get $count) (i32.const 2))))
    (block $done
      (loop $listed
        (br_if $done (i32.ge_u (local.get $rows) (local.get $end)))
        (local.set $index (i32.load (local.get $rows)))
        (local.set $rows (i32.add (local.get $rows) (i32.const 4)))
        (local.set $at (i32.add (local.get $codes) (i32.mul (local.get $index) (local.get $stride))))
        (local.set $stop (i32.add (local.get $at) (local.get $stride)))
        (local.set $lane (local.get $query))
        (local.set $s0 (v128.const i32x4 0 0 0 0))
        (local.set $s1 (v128.const i32x4 0 0 0 0))
        (loop $lanes
          (local.set $pair (v128.load (local.get $at)))
          (local.set $s0
            (i32x4.add (local.get $s0)
              (i32x4.dot_i16x8_s
                (i16x8.shr_u (i16x8.shl (local.get $pair) (i32.const 8)) (i32.const 8))
                (v128.load (local.get $lane)))))
          (local.set $s1
            (i32x4.add (local.get $s1)
              (i32x4.dot_i16x8_s
                (i16x8.shr_s (local.get $pair) (i32.const 8)) (v128.load offset=16 (local.get $lane)))))
          (local.set $lane (i32.add (local.get $lane) (i32.const 32)))
          (local.set $at (i32.add (local.get $at) (i32.const 16)))
          (br_if $lanes (i32.lt_u (local.get $at) (local.get $stop))))
        (call $bounds
          (i32.sub (call $total (i32x4.add (local.get $s0) (local.get $s1))) (local.get $offset))
          (i32.add (local.get $info) (i32.shl (local.get $index) (i32.const 5)))
          (local.get $step) (local.get $queryNorm) (local.get $queryError) (local.get $slack)
          (i32.add (local.get $upper) (i32.shl (local.get $index) (i32.const 3)))
          (i32.add (local.get $lower) (i32.shl (local.get $index) (i32.const 3)))
          (i32.const 1))
        (br $listed))))

  ;; The sum of the four lanes.
  (func $total (param $sums v128) (result i32)
    (i32.add
      (i32.add (i32x4.extract_lane 0 (local.get $sums)) (i32x4.extract_lane 1 (local.get $sums)))
      (i32.add (i32x4.extract_lane 2 (local.get $sums)) (i32x4.extract_lane 3 (local.get $sums)))))

  ;; Writes a row's bounds from its dot product (see `scan`); with `tighten`, keeps the tighter of
  ;; the new and the stored ones.
  (func $bounds
    (param $dot i32) (param $info i32) (param $step f64) (param $queryNorm f64)
    (param $queryError f64) (param $slack f64) (param $upper i32) (param $lower i32)
    (param $tighten i32)
    (local $estimate f64) (local $bound f64) (local $high f64) (local $low f64)
    (local.set $estimate
      (f64.mul (f64.convert_i32_s (local.get $dot))
        (f64.mul (local.get $step) (f64.load (local.get $info)))))
    (local.set $bound
      (f64.add
        (f64.add
          (f64.mul (local.get $queryNorm) (f64.load offset=8 (local.get $info)))
          (f64.mul (local.get $queryError) (f64.load offset=16 (local.get $info))))
        (local.get $slack)))
    (local.set $high
      (f64.add (f64.add (local.get $estimate) (local.get $bound)) (f64.load offset=24 (local.get $info))))
    (local.set $low
      (f64.add (f64.sub (local.get $estimate) (local.get $bound)) (f64.load offset=24 (local.get $info))))
    (if (local.get $tighten)
      (then
        (local.set $high (f64.min (local.get $high) (f64.load (local.get $upper))))
        (local.set $low (f64.max (local.get $low) (f64.load (local.get $lower))))))
    (f64.store (local.get $upper) (local.get $high))
    (f64.store (local.get $lower) (local.get $low)))

  ;; The `wanted`-th largest of `count` f64 values (1 <= wanted <= count), with a min-heap of the
  ;; `wanted` largest seen at `heap` (wanted f64).
  (func (export "select")
    (param $values i32) (param $count i32) (param $wanted i32) (param $heap i32) (result f64)
    (local $end i32) (local $size i32) (local $value f64) (local $at i32) (local $next i32)
    (local $other f64)
    (local.set $end (i32.add (local.get $values) (i32.shl (local.get $count) (i32.const 3))))
    (block $done
      (loop $values
        (br_if $done (i32.ge_u (local.get $values) (local.get $end)))
        (local.set $value (f64.load (local.get $values)))
        (local.set $values (i32.add (local.get $values) (i32.const 8)))
        (if (i32.lt_u (local.get $size) (local.get $wanted))
          (then
            ;; Sift up from the new last place.
            (local.set $at (local.get $size))
            (local.set $size (i32.add (local.get $size) (i32.const 1)))
            (block $placed
              (loop $up
                (br_if $placed (i32.eqz (local.get $at)))
                (local.set $next (i32.shr_u (i32.sub (local.get $at) (i32.const 1)) (i32.const 1)))
                (local.set $other
                  (f64.load (i32.add (local.get $heap) (i32.shl (local.get $next) (i32.const 3)))))
                (br_if $placed (f64.le (local.get $other) (local.get $value)))
                (f64.store (i32.add (local.get $heap) (i32.shl (local.get $at) (i32.const 3)))
                  (local.get $other))
                (local.set $at (local.get $next))
                (br $up)))
            (f64.store (i32.add (local.get $heap) (i32.shl (local.get $at) (i32.const 3)))
              (local.get $value)))
          (else
            (if (f64.gt (local.get $value) (f64.load (local.get $heap)))
              (then
                ;; Replace the smallest and sift down.
                (local.set $at (i32.const 0))
                (block $placed
                  (loop $down
                    (local.set $next (i32.add (i32.shl (local.get $at) (i32.const 1)) (i32.const 1)))
                    (br_if $placed (i32.ge_u (local.get $next) (local.get $size)))
                    (local.set $other
                      (f64.load (i32.add (local.get $heap) (i32.shl (local.get $next) (i32.const 3)))))
                    (if (i32.lt_u (i32.add (local.get $next) (i32.const 1)) (local.get $size))
                      (then
                        (if (f64.lt
                              (f64.load offset=8
                                (i32.add (local.get $heap) (i32.shl (local.get $next) (i32.const 3))))
                              (local.get $other))
                          (then
                            (local.set $next (i32.add (local.get $next) (i32.const 1)))
                            (local.set $other
                              (f64.load
                                (i32.add (local.get $heap) (i32.shl (local.get $next) (i32.const 3)))))))))
                    (br_if $placed (f64.ge (local.get $other) (local.get $value)))
                    (f64.store (i32.add (local.get $heap) (i32.shl (local.get $at) (i32.const 3)))
                      (local.get $other))
                    (local.set $at (local.get $next))
                    (br $down)))
                (f64.store (i32.add (local.get $heap) (i32.shl (local.get $at) (i32.const 3)))
                  (local.get $value))))))
        (br $values)))
    (f64.load (local.get $heap)))

  ;; Writes to `out` (i32) the indexes of the `count` f64 values that are >= minimum, < ceiling
  ;; and not −∞; returns how many.
  (func (export "collect")
    (param $values i32) (param $count i32) (param $minimum f64) (param $ceiling f64) (param $out i32)
    (result i32)
    (local $index i32) (local $found i32) (local $value f64)
    (block $done
      (loop $values
        (br_if $done (i32.ge_u (local.get $index) (local.get $count)))
        (local.set $value
          (f64.load (i32.add (local.get $values) (i32.shl (local.get $index) (i32.const 3)))))
        (if (i32.and
              (i32.and (f64.ge (local.get $value) (local.get $minimum))
                (f64.lt (local.get $value) (local.get $ceiling)))
              (f64.ne (local.get $value) (f64.const -inf)))
          (then
            (i32.store (i32.add (local.get $out) (i32.shl (local.get $found) (i32.const 2)))
              (local.get $index))
            (local.set $found (i32.add (local.get $found) (i32.const 1)))))
        (local.set $index (i32.add (local.get $index) (i32.const 1)))
        (br $values)))
    (local.get $found))

  ;; For each of the `count` rows listed (i32) at `rows`: out (f64) = Σ query[i] · row[i], the
  ;; query as `dimension` f64 (its f32 values, widened once per query), the row as `dimension` f32
  ;; at floats + row · dimension · 4, summed in f64 like the JavaScript `dot`: eight running sums
  ;; s0..s7 take the products of lanes 0..7 of each group of eight; the last `dimension % 8`
  ;; products go to s0, in order; then ((s0 + s1) + (s2 + s3)) + ((s4 + s5) + (s6 + s7)). A
  ;; product of two f32 is exact in f64, and WebAssembly never fuses a multiply and an add, so
  ;; every rounding matches. Eight sums rather than one keep four additions in flight.
  (func (export "exact")
    (param $query i32) (param $floats i32) (param $dimension i32) (param $rows i32)
    (param $count i32) (param $out i32)
    (local $end i32) (local $row i32) (local $i i32) (local $groups i32) (local $rowBytes i32)
    (local $q i32) (local $r i32) (local $low v128) (local $high v128)
    (local $s01 v128) (local $s23 v128) (local $s45 v128) (local $s67 v128) (local $s0 f64)
    (local.set $groups (i32.and (local.get $dimension) (i32.const -8)))
    (local.set $rowBytes (i32.shl (local.get $dimension) (i32.const 2)))
    (local.set $end (i32.add (local.get $rows) (i32.shl (local.get $count) (i32.const 2))))
    (block $done
      (loop $rowsLoop
        (br_if $done (i32.ge_u (local.get $rows) (local.get $end)))
        (local.set $row
          (i32.add (local.get $floats) (i32.mul (i32.load (local.get $rows)) (local.get $rowBytes))))
        (local.set $rows (i32.add (local.get $rows) (i32.const 4)))
        (local.set $s01 (v128.const f64x2 0 0))
        (local.set $s23 (v128.const f64x2 0 0))
        (local.set $s45 (v128.const f64x2 0 0))
        (local.set $s67 (v128.const f64x2 0 0))
        (local.set $i (i32.const 0))
        (block $groupsDone
          (loop $groupsLoop
            (br_if $groupsDone (i32.ge_u (local.get $i) (local.get $groups)))
            (local.set $q (i32.add (local.get $query) (i32.shl (local.get $i) (i32.const 3))))
            (local.set $r (i32.add (local.get $row) (i32.shl (local.get $i) (i32.const 2))))
            (local.set $low (v128.load (local.get $r)))
            (local.set $high (v128.load offset=16 (local.get $r)))
            (local.set $s01
              (f64x2.add (local.get $s01)
                (f64x2.mul (v128.load (local.get $q)) (f64x2.promote_low_f32x4 (local.get $low)))))
            (local.set $s23
              (f64x2.add (local.get $s23)
                (f64x2.mul (v128.load offset=16 (local.get $q))
                  (f64x2.promote_low_f32x4
                    (i8x16.shuffle 8 9 10 11 12 13 14 15 8 9 10 11 12 13 14 15
                      (local.get $low) (local.get $low))))))
            (local.set $s45
              (f64x2.add (local.get $s45)
                (f64x2.mul (v128.load offset=32 (local.get $q)) (f64x2.promote_low_f32x4 (local.get $high)))))
            (local.set $s67
              (f64x2.add (local.get $s67)
                (f64x2.mul (v128.load offset=48 (local.get $q))
                  (f64x2.promote_low_f32x4
                    (i8x16.shuffle 8 9 10 11 12 13 14 15 8 9 10 11 12 13 14 15
                      (local.get $high) (local.get $high))))))
            (local.set $i (i32.add (local.get $i) (i32.const 8)))
            (br $groupsLoop)))
        (local.set $s0 (f64x2.extract_lane 0 (local.get $s01)))
        (block $tailDone
          (loop $tailLoop
            (br_if $tailDone (i32.ge_u (local.get $i) (local.get $dimension)))
            (local.set $s0
              (f64.add (local.get $s0)
                (f64.mul
                  (f64.load (i32.add (local.get $query) (i32.shl (local.get $i) (i32.const 3))))
                  (f64.promote_f32
                    (f32.load (i32.add (local.get $row) (i32.shl (local.get $i) (i32.const 2))))))))
            (local.set $i (i32.add (local.get $i) (i32.const 1)))
            (br $tailLoop)))
        (f64.store (local.get $out)
          (f64.add
            (f64.add
              (f64.add (local.get $s0) (f64x2.extract_lane 1 (local.get $s01)))
              (f64.add (f64x2.extract_lane 0 (local.get $s23)) (f64x2.extract_lane 1 (local.get $s23))))
            (f64.add
              (f64.add (f64x2.extract_lane 0 (local.get $s45)) (f64x2.extract_lane 1 (local.get $s45)))
              (f64.add (f64x2.extract_lane 0 (local.get $s67)) (f64x2.extract_lane 1 (local.get $s67))))))
        (local.set $out (i32.add (local.get $out) (i32.const 8)))
        (br $rowsLoop))))
)
