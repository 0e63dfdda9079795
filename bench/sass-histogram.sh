#!/usr/bin/env bash
# Which SASS instructions the tensor-core PTX becomes on a chip: assembles
# each DIR/*.ptx with ptxas, disassembles it with cuobjdump (both from the
# CUDA toolkit; run where cuobjdump is, e.g. the GPU host), and prints per
# kernel the count of each tensor-core and conversion opcode, so that an
# mma.sync the chip emulates (fp8 and int4 on sm_90) shows as the
# instructions it became. Writes DIR/sass-histogram.csv and DIR/*.sass.
set -euo pipefail
dir=${1:-build/gpu/sass}
arch=${ARCH:-sm_90}
cuda=${CUDA_HOME:-/usr/local/cuda}
echo "kernel,opcode,count" > "$dir/sass-histogram.csv"
for ptx in "$dir"/*.ptx; do
  name=$(basename "$ptx" .ptx)
  "$cuda/bin/ptxas" -arch="$arch" "$ptx" -o "$dir/$name.cubin"
  "$cuda/bin/cuobjdump" -sass "$dir/$name.cubin" > "$dir/$name.sass"
  grep -oE '^\s+/\*[0-9a-f]+\*/\s+(@!?U?P[0-9T] )?[A-Z0-9_.]+' "$dir/$name.sass" \
    | awk '{print $NF}' | sed 's/\..*//' | sort | uniq -c \
    | awk -v k="$name" '$2 ~ /^(HMMA|IMMA|HGMMA|F2FP|F2F|I2F|F2I|I2I|PRMT|LDSM|LDGSTS|HADD2|HFMA2|LOP3|IMAD|SHF|BAR)$/ {print k "," $2 "," $1}' \
    >> "$dir/sass-histogram.csv"
  # The exact mma forms (e.g. HMMA.16816.F32 vs IMMA.16832.S8.S8).
  grep -oE '(HMMA|IMMA)\.[A-Z0-9_.]+' "$dir/$name.sass" | sort | uniq -c \
    | awk -v k="$name" '{print k "," $2 "," $1}' >> "$dir/sass-histogram.csv"
done
column -s, -t "$dir/sass-histogram.csv"
