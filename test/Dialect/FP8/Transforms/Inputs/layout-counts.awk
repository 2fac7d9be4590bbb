# Reads fp8-opt's output with --fp8-print-layouts (the IR after the
# pipeline, and the layout comments of its one function) and checks the
# printed counts against the quantize ops in the IR: the quantizations
# (a cast-transpose computes two, an exact transpose one, a fused
# elementwise quantization two with its transpose), and each "fused:" line.
# Exits 1 naming what differs. Used by print-layouts-fused-counts.mlir.
function tileOf(line,    t, parts) {
  if (!match(line, /tile = \[[^]]*\]/))
    return ""
  t = substr(line, RSTART + 8, RLENGTH - 9)
  return t
}
/= fp8\.quantize / || /= fp8\.quantize_monitored / { plain++ }
/= fp8\.quantize_transpose / {
  split(tileOf($0), parts, ", ")
  if (parts[1] == parts[2]) exact++; else cast++
}
/= fp8\.quantize_elementwise / {
  elementwise++
  if ($0 ~ /[{ ,]transpose[,}]/) elementwiseT++
}
/= fp8\.quantize_delayed / { delayed++ }
/^\/\/ [0-9]+ quantizations/ { printed = $2 }
/^\/\/ fused: [0-9]+ cast-transposes/ { pCast = $3 }
/^\/\/ fused: [0-9]+ exact transposes/ { pExact = $3 }
/^\/\/ fused: [0-9]+ elementwise producers/ { pProducers = $3 }
/^\/\/ fused: [0-9]+ scale re-layouts/ { pLayouts = $3 }
/^\/\/ fused: [0-9]+ delayed amaxes/ { pDelayed = $3 }
END {
  expected = plain + 2 * cast + exact + elementwise + elementwiseT + delayed
  bad = 0
  if (printed + 0 != expected) { print "quantizations: printed " printed ", IR " expected; bad = 1 }
  if (pCast + 0 != cast) { print "cast-transposes: printed " pCast + 0 ", IR " cast + 0; bad = 1 }
  if (pExact + 0 != exact) { print "exact transposes: printed " pExact + 0 ", IR " exact + 0; bad = 1 }
  if (pProducers + pLayouts != elementwise) { print "quantize_elementwise: printed " pProducers + pLayouts ", IR " elementwise + 0; bad = 1 }
  if (pDelayed + 0 != delayed) { print "delayed: printed " pDelayed + 0 ", IR " delayed + 0; bad = 1 }
  exit bad
}
